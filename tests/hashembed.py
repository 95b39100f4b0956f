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
