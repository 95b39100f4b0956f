"""The embedder contract: one typed batch method, everything else derived from it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors.

    ``name`` is recorded with every vector row so a store knows which model made it;
    ``dimension`` is locked per store.
    """

    name: str
    dimension: int

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """Return an ``(len(texts), dimension)`` float32 array of unit vectors."""
        ...


class BaseEmbedder:
    """Mixin that gives ``embed`` and ``embed_many`` to any class with ``embed_batch``."""

    name: str
    dimension: int
    batch_size: int = 32

    def embed_batch(self, texts: Sequence[str]) -> Vectors:  # pragma: no cover - abstract
        raise NotImplementedError

    def embed(self, text: str) -> Vectors:
        """Embed one text; returns a 1-D vector."""
        row: Vectors = self.embed_batch([text])[0]
        return row

    def embed_many(self, texts: Sequence[str]) -> Vectors:
        """Embed any number of texts in batches of ``batch_size``."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        parts = [
            self.embed_batch(texts[i : i + self.batch_size])
            for i in range(0, len(texts), self.batch_size)
        ]
        stacked: Vectors = np.vstack(parts).astype(np.float32, copy=False)
        return stacked


def runs_beside(embedder: object) -> bool:
    """Whether ``embed_batch`` may run on a worker thread while the caller's thread goes
    on (other calls included): an embedder says so with a true ``concurrent`` attribute.
    ``add_many`` then embeds a group of memories on a worker thread while it writes
    that group; any other embedder (a caller's own) is called from the caller's thread
    only, as before."""
    return getattr(embedder, "concurrent", False) is True


def normalize_rows(matrix: npt.NDArray[np.floating]) -> Vectors:
    """L2-normalise each row; zero rows stay zero."""
    m = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Vectors = (m / norms).astype(np.float32, copy=False)
    return out
