"""Embedders: the protocol, the default local MiniLM, Ollama and OpenAI-compatible
servers, and a registry by name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engram.config import EmbedderConfig
from engram.embed.base import BaseEmbedder, Embedder, normalize_rows
from engram.errors import registered


def _minilm(cfg: EmbedderConfig, home: Path) -> Embedder:
    from engram.embed.minilm import MiniLMEmbedder

    return MiniLMEmbedder(
        cfg.model_dir,
        home,
        max_seq_length=cfg.max_seq_length,
        batch_size=cfg.batch_size,
        threads=cfg.threads,
        hub=cfg.hub_download,
        hub_revision=cfg.hub_revision,
        precision=cfg.precision,
    )


def _ollama(cfg: EmbedderConfig, home: Path) -> Embedder:
    from engram.embed.ollama import OllamaEmbedder

    return OllamaEmbedder.from_config(cfg)


def _openai(cfg: EmbedderConfig, home: Path) -> Embedder:
    from engram.embed.openai_compat import OpenAICompatEmbedder

    return OpenAICompatEmbedder.from_config(cfg)


#: Embedders by config name. ``none`` means keyword-only recall.
REGISTRY: dict[str, Callable[[EmbedderConfig, Path], Embedder]] = {
    "minilm": _minilm,
    "ollama": _ollama,
    "openai": _openai,
}


def create_embedder(cfg: EmbedderConfig, home: Path) -> Embedder | None:
    """Build the embedder ``cfg`` names, or None for ``none``."""
    if cfg.name == "none":
        return None
    return registered(REGISTRY, cfg.name, "embedder")(cfg, home)


__all__ = ["REGISTRY", "BaseEmbedder", "Embedder", "create_embedder", "normalize_rows"]
