"""``HashEmbedder``: the suite's deterministic embedder, in a module of its own.

conftest.py re-exports it (``from conftest import HashEmbedder``). It lives apart so a
child process that needs only the embedder (tests/test_ann_snapshot.py's second writer)
imports numpy and engram's embedder base, not conftest with FastAPI, MCP and UMAP, which
tripled the child's start-up time.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from engram.embed.base import BaseEmbedder, Vectors, normalize_rows


class HashEmbedder(BaseEmbedder):
    """Bag-of-words hashed into a small space: similar wording gives similar vectors.

    Fast and deterministic, so ranking tests do not depend on the real model; the real
    model has its own tests (test_embed_minilm.py) and end-to-end tests.
    """

    name = "test-hash"

    def __init__(self, dimension: int = 64) -> None:
        self.dimension = dimension
        self.calls = 0

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        self.calls += 1
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
                out[row, int.from_bytes(digest, "little") % self.dimension] += 1.0
            if not out[row].any():
                out[row, 0] = 1.0
        return normalize_rows(out)


class PlannedEmbedder(BaseEmbedder):
    """Vectors laid out by hand: ``query`` on the first axis, each text of ``cosines``
    at its cosine to the query on an axis of its own (the second, third, ... in the
    mapping's order), anything else off the query's axis on an axis from ``free_from``
    picked by its hash. For ranking tests that need exact cosines (fusion's arithmetic)."""

    def __init__(
        self,
        query: str,
        cosines: dict[str, float],
        name: str = "planned",
        dimension: int = 48,
        free_from: int = 16,
    ) -> None:
        if len(cosines) >= free_from or free_from >= dimension:
            raise ValueError("each planned text needs an axis of its own below free_from")
        self.query, self.cosines, self.free_from = query, cosines, free_from
        self.axes = {text: 1 + n for n, text in enumerate(cosines)}
        self.name, self.dimension = name, dimension

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            if text == self.query:
                out[row, 0] = 1.0
                continue
            axis, cosine = self.axes.get(text), self.cosines.get(text, 0.0)
            if axis is None:
                digest = hashlib.blake2b(text.encode(), digest_size=4).digest()
                spare = self.dimension - self.free_from
                axis = self.free_from + int.from_bytes(digest, "little") % spare
            out[row, 0] = cosine
            out[row, axis] = np.sqrt(1.0 - cosine * cosine)
        return normalize_rows(out)
