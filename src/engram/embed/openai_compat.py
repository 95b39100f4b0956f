"""Embeddings from an OpenAI-compatible server: ``POST {base}/embeddings``.

OpenAI, OpenRouter, vLLM, llama.cpp's ``llama-server --embeddings``, LM Studio and
Ollama's ``/v1`` all speak it.
"""

from __future__ import annotations

from typing import Any

from engram.config import EmbedderConfig
from engram.embed.remote import RemoteEmbedder
from engram.errors import EmbeddingError
from engram.llm.http import bearer, excerpt, join, reachable

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
    default_model = DEFAULT_MODEL
    default_base_url = DEFAULT_BASE_URL

    def __init__(self, *, api_key_env: str = "OPENAI_API_KEY", **options: Any) -> None:
        """``options`` are ``RemoteEmbedder``'s (model, base_url, dimension, batch_size,
        timeout)."""
        super().__init__(**options)
        self.api_key_env = api_key_env

    @classmethod
    def _own_options(cls, cfg: EmbedderConfig) -> dict[str, Any]:
        return {"api_key_env": cfg.api_key_env}

    def _fetch(self, texts: list[str]) -> list[Any]:
        url = join(self.base_url, "/embeddings")
        payload = {"model": self.model, "input": texts}
        reply = self._post(url, payload, headers=bearer(self.api_key_env))
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
