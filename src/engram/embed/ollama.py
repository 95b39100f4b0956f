"""Embeddings from an Ollama server: ``POST /api/embed`` with a batch of texts.

Servers older than Ollama 0.3 lack ``/api/embed`` (404) and have ``/api/embeddings``,
which takes one text (``prompt``) per call; the embedder falls back to it and stays
there.
"""

from __future__ import annotations

from typing import Any

from engram.embed.remote import RemoteEmbedder
from engram.llm.http import join, reachable

#: seed 004's Ollama default URL (the same server as the LLM provider).
DEFAULT_BASE_URL = "http://localhost:11434"
#: Used when ``embedder.model`` is empty: Ollama's most pulled embedding model.
DEFAULT_MODEL = "nomic-embed-text"


class OllamaEmbedder(RemoteEmbedder):
    """Embeds with a model served by Ollama."""

    provider = "ollama"
    default_model = DEFAULT_MODEL
    default_base_url = DEFAULT_BASE_URL
    #: True once the server has shown it lacks ``/api/embed``.
    legacy = False

    def _fetch(self, texts: list[str]) -> list[Any]:
        if not self.legacy:
            url = join(self.base_url, "/api/embed")
            reply = self._post(url, {"model": self.model, "input": texts})
            # A 404 naming the model means it is not pulled; any other 404 means an old
            # server without /api/embed.
            if reply.status != 404 or "model" in reply.text.lower():
                return self._listed(reply, url, "embeddings")
            self.legacy = True
        return [self._one(text) for text in texts]

    def _one(self, text: str) -> Any:
        url = join(self.base_url, "/api/embeddings")
        return self._listed(
            self._post(url, {"model": self.model, "prompt": text}), url, "embedding"
        )

    def available(self) -> bool:
        """seed 004's health check: ``GET /api/tags`` answers within 3 s."""
        return reachable(join(self.base_url, "/api/tags"))
