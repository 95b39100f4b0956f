"""An LRU cache of query vectors.

A query's vector is a pure function of its text and the model that embeds it, so a
cached vector never goes stale and needs no invalidation: the key is (model name,
dimension, text), so a different model (or a reconfigured one) never sees another's
vectors. Agents repeat queries (the same question each turn, the same ``get_context``
prompt), and embedding is most of recall's time on two cores (docs/benchmarks.md,
"Scale"), so a repeated query skips the model.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from engram.embed.base import Embedder, Vectors

#: Query vectors kept (384 float32 each: 1,024 of them are 1.5 MB).
DEFAULT_SIZE = 1024


class QueryVectorCache:
    """Least-recently-used query vectors, shared by the threads of one process."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[tuple[str, int, str], Vectors] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def embed(self, embedder: Embedder, text: str) -> Vectors:
        """``embedder``'s vector of ``text``, from the cache when it has it."""
        return self.embed_many(embedder, [text])[0]

    def embed_many(self, embedder: Embedder, texts: Sequence[str]) -> list[Vectors]:
        """``embedder``'s vectors of ``texts``: the cached ones from the cache, the rest
        in one model call (a query and its second text cost one call, not two)."""
        keys = [(embedder.name, int(embedder.dimension), text) for text in texts]
        out: list[Vectors | None] = []
        with self._lock:
            for key in keys:
                found = self._entries.get(key)
                if found is not None:
                    self._entries.move_to_end(key)
                out.append(found)
            self.hits += sum(v is not None for v in out)
            self.misses += sum(v is None for v in out)
        missing = [i for i, v in enumerate(out) if v is None]
        if missing:
            made = embedder.embed_batch([texts[i] for i in missing])
            for i, row in zip(missing, made, strict=True):
                vector: Vectors = np.asarray(row, dtype=np.float32)
                vector.setflags(write=False)  # shared between recalls: nobody may change it
                out[i] = vector
            if self.size > 0:
                with self._lock:
                    for i in missing:
                        self._entries[keys[i]] = out[i]  # type: ignore[assignment]
                        self._entries.move_to_end(keys[i])
                    while len(self._entries) > self.size:
                        self._entries.popitem(last=False)
        return [v for v in out if v is not None]
