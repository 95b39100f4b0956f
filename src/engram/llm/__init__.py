"""LLM providers: the protocol, Ollama, OpenAI-compatible servers, a CLI command, and the
answer cleaning every caller shares (seed 004's provider abstraction, FEATURES P7).

``create_provider(config.llm)`` builds the configured provider, or returns None when
``[llm] provider = "none"`` (the offline default: the pipeline then uses its rule-based
parts). See docs/llm.md.
"""

from __future__ import annotations

from collections.abc import Callable

from engram.errors import LlmError, registered
from engram.llm.base import JsonSchema, LlmProvider
from engram.llm.clean import clean_response, parse_json, strip_fences, strip_think
from engram.llm.cli import CliProvider
from engram.llm.ollama import OllamaProvider
from engram.llm.openai_compat import OpenAICompatProvider
from engram.settings import LlmConfig


def _ollama(cfg: LlmConfig) -> LlmProvider:
    return OllamaProvider(
        model=cfg.model,
        base_url=cfg.base_url,
        timeout=cfg.timeout_s,
        structured_output=cfg.structured_output,
    )


def _openai(cfg: LlmConfig) -> LlmProvider:
    return OpenAICompatProvider(
        model=cfg.model,
        base_url=cfg.base_url,
        api_key_env=cfg.api_key_env,
        timeout=cfg.timeout_s,
        structured_output=cfg.structured_output,
    )


def _cli(cfg: LlmConfig) -> LlmProvider:
    return CliProvider(command=cfg.command, model=cfg.model, timeout=cfg.timeout_s)


#: Providers by ``[llm] provider`` name. ``none`` means no LLM (offline).
REGISTRY: dict[str, Callable[[LlmConfig], LlmProvider]] = {
    "ollama": _ollama,
    "openai": _openai,
    "cli": _cli,
}


def create_provider(cfg: LlmConfig) -> LlmProvider | None:
    """Build the provider ``cfg`` names, or None for ``none``. Contacts nothing: call
    ``available()`` to check the server or command."""
    if cfg.provider == "none":
        return None
    return registered(REGISTRY, cfg.provider, "LLM provider")(cfg)


__all__ = [
    "REGISTRY",
    "CliProvider",
    "JsonSchema",
    "LlmError",
    "LlmProvider",
    "OllamaProvider",
    "OpenAICompatProvider",
    "clean_response",
    "create_provider",
    "parse_json",
    "strip_fences",
    "strip_think",
]
