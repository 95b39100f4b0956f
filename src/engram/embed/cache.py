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
        key = (embedder.name, int(embedder.dimension), text)
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return found
            self.misses += 1
        vector: Vectors = np.asarray(embedder.embed_batch([text])[0], dtype=np.float32)
        vector.setflags(write=False)  # shared between recalls: nobody may change it
        if self.size <= 0:
            return vector
        with self._lock:
            self._entries[key] = vector
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return vector
