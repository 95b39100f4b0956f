"""The query against its whole namespace (issue 24, round 2 of "no false silence").

Recall's abstain decision reads only its best candidates. This module measures, for
the benchmark, what the whole namespace says about a query (``abstain.Space``): the
mean and spread of the query's cosines to every memory, its cosine to the namespace's
normalised centroid, and the memories' mean cosine to each other. It reads each
namespace's vectors once and keeps them, so it is exact but costs a full pass per
query: an experiment (docs/benchmarks.md, "Round 2"), not something recall does.
"""

from __future__ import annotations

import numpy as np

from engram.memory import Memory


class Spaces:
    """Each namespace's vectors, read once, to measure what the whole namespace says
    about a query (an experiment of issue 24: exact, a full pass per query)."""

    def __init__(self, mem: Memory) -> None:
        self.mem = mem
        self.cache: dict[str, tuple[np.ndarray, np.ndarray, float]] = {}

    def measure(self, namespace: str, text: str) -> list[float] | None:
        """``abstain.Space`` of ``text`` against ``namespace``, as a list."""
        index, embedder = self.mem.index, self.mem.embedder
        if index is None or embedder is None:
            return None
        if namespace not in self.cache:
            matrix = np.asarray(self.mem.store.vectors.load(namespace, index.model).matrix)
            if len(matrix) < 2:
                return None
            centre = matrix.mean(axis=0)
            pairs = matrix @ matrix.T
            within = (pairs.sum() - np.trace(pairs)) / (len(matrix) * (len(matrix) - 1))
            self.cache[namespace] = (matrix, centre / np.linalg.norm(centre), float(within))
        matrix, centre, within = self.cache[namespace]
        query = np.asarray(embedder.embed_batch([text]), dtype=np.float32).reshape(-1)
        cosines = matrix @ query
        return [
            round(float(cosines.mean()), 5),
            round(float(cosines.std()), 5),
            round(float(centre @ query), 5),
            round(within, 5),
        ]
