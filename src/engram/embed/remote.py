"""What the embedders served over HTTP (Ollama, OpenAI-compatible) share: batching,
checking the answer, L2 normalisation, and learning the vector size from the server.

A subclass writes ``_fetch`` (one batch of texts -> one list of floats per text) and
``available``; errors read like the LLM providers' (``engram.llm.http``): the status
code and the first 200 characters of the body, or ``timed out after N s``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Self

import numpy as np

from engram.config import EmbedderConfig
from engram.embed.base import BaseEmbedder, Vectors, normalize_rows
from engram.errors import EmbeddingError
from engram.llm.http import Reply, excerpt, send

#: What the embedder embeds to learn the vector size when the config does not give it.
PROBE_TEXT = "dimension probe"


class RemoteEmbedder(BaseEmbedder):
    """Base of the HTTP embedders. ``name`` is ``<provider>:<model>``, recorded with
    every vector row, so vectors from another model or server kind are never mixed."""

    provider = "remote"
    #: What an empty ``model`` or ``base_url`` stands for with this provider.
    default_model = ""
    default_base_url = ""

    def __init__(
        self,
        *,
        model: str = "",
        base_url: str = "",
        dimension: int | None = None,
        batch_size: int = 32,
        timeout: float = 30.0,
    ) -> None:
        self.model = model or self.default_model
        self.base_url = (base_url or self.default_base_url).rstrip("/")
        self.name = f"{self.provider}:{self.model}"
        self.batch_size = batch_size
        self.timeout = timeout
        self._configured = dimension
        self._dimension = dimension
        self._lock = threading.Lock()

    @classmethod
    def from_config(cls, cfg: EmbedderConfig) -> Self:
        """The embedder ``[embedder]`` describes."""
        common: dict[str, Any] = {"model": cfg.model, "base_url": cfg.base_url}
        common |= {"dimension": cfg.dimension, "batch_size": cfg.batch_size}
        return cls(timeout=cfg.timeout_s, **common, **cls._own_options(cfg))

    @classmethod
    def _own_options(cls, cfg: EmbedderConfig) -> dict[str, Any]:
        """The settings of ``cfg`` only this provider's constructor takes."""
        return {}

    @property
    def who(self) -> str:
        """How errors name this embedder."""
        return f"{self.provider} embedder {self.model!r}"

    @property
    def dimension(self) -> int:
        """The vector size: configured, or learnt from the first answer (embedding a
        probe text if nothing has been embedded yet)."""
        if self._dimension is None:
            self.embed_batch([PROBE_TEXT])
        assert self._dimension is not None  # embed_batch sets it or raises
        return self._dimension

    @dimension.setter
    def dimension(self, value: int) -> None:
        self._dimension = value

    def _post(self, url: str, payload: Any, headers: dict[str, str] | None = None) -> Reply:
        """``POST`` the JSON ``payload`` to ``url``; errors name this embedder."""
        return send(
            "POST",
            url,
            who=self.who,
            error=EmbeddingError,
            timeout=self.timeout,
            payload=payload,
            headers=headers,
        )

    def _listed(self, reply: Reply, url: str, field: str) -> list[Any]:
        """The list under ``field`` of the JSON answer ``url`` gave; an ``EmbeddingError``
        quoting the answer when it has none."""
        data = reply.json(self.who, EmbeddingError)
        found = data.get(field) if isinstance(data, dict) else None
        if not isinstance(found, list):
            raise EmbeddingError(
                f"{self.who}: {url} answered without '{field}': {excerpt(reply.text)}"
            )
        return found

    def _fetch(self, texts: list[str]) -> list[Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def available(self) -> bool:  # pragma: no cover - abstract
        """A cheap health check of the server; never raises."""
        raise NotImplementedError

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors for ``texts``, asked of the server ``batch_size`` at a time."""
        if not texts:
            return np.zeros((0, self._dimension or 0), dtype=np.float32)
        blocks = []
        for start in range(0, len(texts), self.batch_size):
            chunk = list(texts[start : start + self.batch_size])
            blocks.append(self._matrix(self._fetch(chunk), len(chunk)))
        return normalize_rows(np.vstack(blocks))

    def _matrix(self, rows: list[Any], expected: int) -> Vectors:
        """``rows`` as a float32 matrix, checked: one vector per text, all of one size,
        finite, and the size the store expects."""
        if len(rows) != expected:
            raise EmbeddingError(
                f"{self.who}: the server returned {len(rows)} vectors for {expected} texts"
            )
        try:
            matrix = np.asarray(rows, dtype=np.float32)
        except (TypeError, ValueError):
            raise EmbeddingError(
                f"{self.who}: the server returned vectors that are not lists of numbers "
                "of one length"
            ) from None
        if matrix.ndim != 2 or matrix.shape[1] == 0 or not np.isfinite(matrix).all():
            raise EmbeddingError(f"{self.who}: the server returned empty or non-finite vectors")
        size = int(matrix.shape[1])
        with self._lock:
            if self._dimension is None:
                self._dimension = size
        if size != self._dimension:
            source = "embedder.dimension is" if self._configured else "earlier answers were"
            raise EmbeddingError(
                f"{self.who}: the server returned {size}-dimension vectors but "
                f"{source} {self._dimension}"
            )
        return matrix

    def info(self) -> dict[str, Any]:
        """What ``doctor`` shows about this embedder (contacts nothing)."""
        return {
            "name": self.name,
            "runtime": self.provider,
            "base_url": self.base_url,
            "model": self.model,
            "dimension": self._dimension,
            "batch_size": self.batch_size,
        }
