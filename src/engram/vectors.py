"""The derived vector index: exact cosine top-k over in-memory float32 matrices.

The store is the source of truth (architecture principle 1). This index holds one matrix
per namespace, built lazily from the store's vector rows, updated in place when this
process writes, and dropped whenever the store's vector epoch moves in a way this
process did not cause (another process wrote, or a write raced). Keeping namespaces in
separate matrices makes isolation structural: a search can only see one namespace.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from engram.store.base import Store

Matrix = npt.NDArray[np.float32]


@dataclass
class _Block:
    """One namespace's vectors with spare capacity, so appends are amortised O(1)."""

    dim: int
    ids: list[str] = field(default_factory=list)
    rows: dict[str, int] = field(default_factory=dict)
    data: Matrix = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    alive: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, bool))
    dead: int = 0

    @classmethod
    def from_matrix(cls, ids: list[str], matrix: Matrix, dim: int) -> _Block:
        block = cls(dim=dim)
        block.ids = list(ids)
        block.rows = {memory_id: i for i, memory_id in enumerate(ids)}
        block.data = np.ascontiguousarray(matrix, dtype=np.float32).reshape(-1, dim)
        block.alive = np.ones(len(ids), dtype=bool)
        return block

    @property
    def size(self) -> int:
        return len(self.ids)

    def upsert(self, memory_id: str, vector: Matrix) -> None:
        row = self.rows.get(memory_id)
        if row is not None:
            self.data[row] = vector
            if not self.alive[row]:
                self.alive[row] = True
                self.dead -= 1
            return
        if self.size >= self.data.shape[0]:
            capacity = max(64, self.data.shape[0] * 2)
            grown = np.zeros((capacity, self.dim), dtype=np.float32)
            grown[: self.size] = self.data[: self.size]
            alive = np.zeros(capacity, dtype=bool)
            alive[: self.size] = self.alive[: self.size]
            self.data, self.alive = grown, alive
        self.rows[memory_id] = self.size
        self.data[self.size] = vector
        self.alive[self.size] = True
        self.ids.append(memory_id)

    def remove(self, memory_id: str) -> None:
        row = self.rows.get(memory_id)
        if row is not None and self.alive[row]:
            self.alive[row] = False
            self.dead += 1

    def scores(self, query: Matrix) -> npt.NDArray[np.float32]:
        sims = self.data[: self.size] @ query
        sims[~self.alive[: self.size]] = -np.inf
        return sims


class VectorIndex:
    """Exact cosine search over one model's vectors, namespace by namespace."""

    def __init__(self, store: Store, model: str, dimension: int) -> None:
        self._store = store
        self.model = model
        self.dimension = dimension
        self._blocks: dict[str, _Block] = {}
        self._epoch: int | None = None
        self._lock = threading.RLock()
        self.rebuilds = 0

    # -- consistency ----------------------------------------------------------------
    def _sync(self) -> None:
        current = self._store.vector_epoch()
        if current != self._epoch:
            self._blocks.clear()
            self._epoch = current

    def _block(self, namespace: str) -> _Block:
        block = self._blocks.get(namespace)
        if block is None:
            loaded = self._store.load_vectors(namespace, self.model)
            matrix = loaded.matrix
            if matrix.size and matrix.shape[1] != self.dimension:
                matrix = np.zeros((0, self.dimension), np.float32)
                loaded_ids: list[str] = []
            else:
                loaded_ids = loaded.ids
            block = _Block.from_matrix(loaded_ids, matrix, self.dimension)
            self._blocks[namespace] = block
            self.rebuilds += 1
            if loaded.epoch != self._epoch:
                # A write landed between our epoch check and the load: the block is
                # current as of loaded.epoch, anything else cached may not be.
                self._blocks = {namespace: block}
                self._epoch = loaded.epoch
        return block

    def invalidate(self, namespace: str | None = None) -> None:
        """Forget cached vectors (of one namespace, or all); they reload on next use."""
        with self._lock:
            if namespace is None:
                self._blocks.clear()
                self._epoch = None
            else:
                self._blocks.pop(namespace, None)

    # -- writes ---------------------------------------------------------------------
    def added(
        self, namespace: str, ids: Sequence[str], vectors: Matrix, epoch_after: int
    ) -> None:
        """Apply vectors this process just stored; ``epoch_after`` is what the store returned.

        If the epoch moved by exactly one per row, nobody else wrote in between and the
        cached block is updated in place; otherwise everything reloads lazily.
        """
        with self._lock:
            if self._epoch is None or epoch_after != self._epoch + len(ids):
                self._blocks.clear()
                self._epoch = None
                return
            self._epoch = epoch_after
            block = self._blocks.get(namespace)
            if block is None:
                return  # not loaded yet: it will load with these rows included
            for memory_id, vector in zip(ids, vectors, strict=True):
                block.upsert(memory_id, vector)

    def removed(self, namespace: str, memory_id: str) -> None:
        """Drop a tombstoned memory; a one-step epoch move is ours, anything else reloads."""
        with self._lock:
            current = self._store.vector_epoch()
            if self._epoch is not None and current == self._epoch + 1:
                self._epoch = current
                block = self._blocks.get(namespace)
                if block is not None:
                    block.remove(memory_id)
            else:
                self._blocks.clear()
                self._epoch = None

    # -- reads ----------------------------------------------------------------------
    def search(self, namespace: str, query: Matrix, k: int) -> list[tuple[str, float]]:
        """The ``k`` nearest live memories of ``namespace`` by cosine similarity."""
        with self._lock:
            self._sync()
            block = self._block(namespace)
            if block.size == 0 or k <= 0:
                return []
            sims = block.scores(np.asarray(query, dtype=np.float32))
            live = block.size - block.dead
            k = min(k, live)
            if k <= 0:
                return []
            top = np.argpartition(-sims, k - 1)[:k] if k < len(sims) else np.arange(len(sims))
            top = top[np.argsort(-sims[top], kind="stable")]
            return [(block.ids[i], float(sims[i])) for i in top if np.isfinite(sims[i])]

    def scores(self, namespace: str, query: Matrix, ids: Sequence[str]) -> dict[str, float]:
        """Cosine similarity of specific memories; ids without a vector are absent."""
        with self._lock:
            self._sync()
            block = self._block(namespace)
            found = [(i, block.rows[i]) for i in ids if i in block.rows]
            found = [(i, row) for i, row in found if block.alive[row]]
            if not found:
                return {}
            rows = np.fromiter((row for _, row in found), dtype=np.int64, count=len(found))
            sims = block.data[rows] @ np.asarray(query, dtype=np.float32)
            return {memory_id: float(s) for (memory_id, _), s in zip(found, sims, strict=True)}

    def state(self) -> dict[str, object]:
        """What ``doctor`` shows about the index."""
        with self._lock:
            return {
                "model": self.model,
                "dimension": self.dimension,
                "epoch": self._epoch,
                "loaded_namespaces": {
                    ns: block.size - block.dead for ns, block in self._blocks.items()
                },
                "builds": self.rebuilds,
            }
