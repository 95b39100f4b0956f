"""Embeddings from an OpenAI-compatible server: ``POST {base}/embeddings``.

OpenAI, OpenRouter, vLLM, llama.cpp's ``llama-server --embeddings``, LM Studio and
Ollama's ``/v1`` all speak it.
"""

from __future__ import annotations

from typing import Any

from engram.config import EmbedderConfig
from engram.embed.remote import RemoteEmbedder
from engram.errors import EmbeddingError
from engram.llm.http import bearer, excerpt, join, reachable, send

DEFAULT_BASE_URL = "https://api.openai.com/v1"
#: seed 003: "defaults to openai/text-embedding-3-small (1536-dim)".
DEFAULT_MODEL = "text-embedding-3-small"


def _index(item: dict[str, Any], fallback: int) -> int:
    index = item.get("index")
    return index if isinstance(index, int) else fallback


class OpenAICompatEmbedder(RemoteEmbedder):
    """Embeds with a model behind an OpenAI-compatible ``/embeddings`` endpoint; the key
    comes from the environment variable ``api_key_env`` names."""

    provider = "openai"

    def __init__(
        self,
        *,
        model: str = "",
        base_url: str = "",
        api_key_env: str = "OPENAI_API_KEY",
        dimension: int | None = None,
        batch_size: int = 32,
        timeout: float = 30.0,
    ) -> None:
        super().__init__(
            model=model or DEFAULT_MODEL,
            base_url=base_url or DEFAULT_BASE_URL,
            dimension=dimension,
            batch_size=batch_size,
            timeout=timeout,
        )
        self.api_key_env = api_key_env

    @classmethod
    def from_config(cls, cfg: EmbedderConfig) -> OpenAICompatEmbedder:
        """The embedder ``[embedder]`` describes."""
        return cls(
            model=cfg.model,
            base_url=cfg.base_url,
            api_key_env=cfg.api_key_env,
            dimension=cfg.dimension,
            batch_size=cfg.batch_size,
            timeout=cfg.timeout_s,
        )

    def _fetch(self, texts: list[str]) -> list[Any]:
        url = join(self.base_url, "/embeddings")
        reply = send(
            "POST",
            url,
            who=self.who,
            error=EmbeddingError,
            timeout=self.timeout,
            payload={"model": self.model, "input": texts},
            headers=bearer(self.api_key_env),
        )
        data = reply.json(self.who, EmbeddingError)
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list) or not all(
            isinstance(item, dict) and "embedding" in item for item in items
        ):
            raise EmbeddingError(
                f"{self.who}: {url} answered without 'data' embeddings: {excerpt(reply.text)}"
            )
        # The protocol gives each vector its input's index; order by it, not by arrival.
        ordered = sorted(items, key=lambda item: _index(item, len(items)))
        return [item["embedding"] for item in ordered]

    def available(self) -> bool:
        """``GET {base}/models`` answers 2xx within 3 s."""
        return reachable(join(self.base_url, "/models"), headers=bearer(self.api_key_env))
