"""The SQLite backend's derived vector index: cosine top-k over in-memory matrices.

The store is the source of truth (architecture principle 1). This index holds one
``vector_block.Block`` per namespace, loaded lazily, updated in place when this process
writes, and dropped whenever the store's vector epoch moves in a way this process did
not cause (another process wrote, or a write raced). Keeping namespaces in separate
matrices makes isolation structural: a search can only see one namespace. Search is
exact, with a PCA pre-filter from ``PREFILTER_MIN`` vectors, and by an HNSW graph
(``ann``) from ``AnnSettings.min_vectors``.

A namespace with a graph is persisted beside a file store once the graph is built
(``snapshot``); the next load memory-maps it and asks the store only what changed
since. A namespace searched exactly is persisted too, without a graph, once it holds
``EXACT_SNAPSHOT_MIN`` vectors: after a load from the store (or a catch-up that read
many rows), on a worker thread. Loads run outside the index's lock and on a
connection of their own, so a namespace loading cold never makes searches of other
namespaces, or the store's main connection, wait.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from engram.store.protocols.vector_centres import Centre, Centred, direction
from engram.store.protocols.vectors import AnnSettings, Gathered
from engram.store.sqlite import ann
from engram.store.sqlite.snapshot import Saved, SnapshotError, Snapshots
from engram.store.sqlite.vector_block import Block

if TYPE_CHECKING:
    from engram.store.sqlite.vectors import SQLiteVectors

Matrix = npt.NDArray[np.float32]

#: A namespace searched exactly is saved beside the store from this many live vectors:
#: reading 10k rows from SQLite took 1.45 s of a cold first recall on a loaded machine,
#: loading their snapshot 66-115 ms (docs/benchmarks.md, "Cold start everywhere");
#: below this a load costs little and files would only multiply with the namespaces.
EXACT_SNAPSHOT_MIN = 2_000
#: A snapshot brought up to date with at least ``max(EXACT_SNAPSHOT_MIN, rows //
#: RESAVE_SHARE)`` changed rows is saved again, so later opens do not read them again
#: (a graph's snapshot is saved again when its graph is rebuilt instead).
RESAVE_SHARE = 20


class VectorIndex:
    """Cosine search over one model's vectors, namespace by namespace: exact, or HNSW
    candidates re-scored exactly for namespaces of ``ann_settings.min_vectors`` or more."""

    def __init__(
        self,
        vectors: SQLiteVectors,
        model: str,
        dimension: int,
        ann_settings: AnnSettings | None = None,
    ) -> None:
        self._vectors = vectors
        self.model = model
        self.dimension = dimension
        # Above ``ann_settings.min_vectors`` live vectors a namespace is searched by
        # HNSW (usearch); None, or no usearch, keeps exact search.
        self.ann_settings = ann_settings
        self.ann_failures: list[str] = []
        directory = vectors.snapshot_directory
        self._snapshots = None if directory is None else Snapshots(directory, model, dimension)
        self._blocks: dict[str, Block] = {}
        self._gates: dict[str, threading.Lock] = {}
        self._epoch: int | None = None
        self._lock = threading.RLock()
        self.rebuilds = 0
        self.persisted = {"loaded": 0, "saved": 0, "caught_up": 0}
        self._saving: set[str] = set()
        """Namespaces whose exact snapshot is being written (``_save_exact``)."""
        self.loads: dict[str, dict[str, object]] = {}
        """Per namespace, how its block last loaded: from a snapshot or the store, in ms."""
        if ann_settings is not None:
            # Importing usearch takes ~0.2 s (it pulls in tqdm): at open, not in the first
            # recall. In this thread: imported on a worker thread while the main thread
            # loaded the ONNX model, it crashed the process (a segfault in libstdc++).
            ann.available()

    # -- consistency ----------------------------------------------------------------
    def _sync(self) -> None:
        current = self._vectors.epoch()
        if current != self._epoch:
            self._drop_all()
            self._epoch = current

    def _drop_all(self) -> None:
        for block in self._blocks.values():
            block.building = None  # a build in flight lands nowhere
        self._blocks.clear()

    def _failed(self, why: str) -> None:
        if why not in self.ann_failures:
            self.ann_failures.append(why)  # exact search keeps answering

    def _maybe_graph(self, namespace: str, block: Block) -> None:
        settings = self.ann_settings
        if settings is None or block.size - block.dead < settings.min_vectors:
            return
        if block.building is not None:
            if block.building.error is not None:
                self._failed(block.building.error)
            return
        if not block.stale_graph(settings) or not ann.available():
            return

        def built(graph: ann.HnswGraph, ids: npt.NDArray[np.bytes_], vectors: Matrix) -> None:
            self._persist(namespace, block, graph, ids, vectors)

        block.start_graph(settings, self._lock, built if self._snapshots else None)
        if block.building is not None and block.building.error is not None:
            self._failed(block.building.error)  # a build in the caller

    def _block(self, namespace: str) -> Block:
        """The namespace's block, loaded outside the index lock when it is not cached
        (one loader per namespace; other namespaces keep searching meanwhile)."""
        with self._lock:
            self._sync()
            block = self._blocks.get(namespace)
            if block is not None:
                return block
            gate = self._gates.setdefault(namespace, threading.Lock())
        with gate:
            with self._lock:
                block = self._blocks.get(namespace)
                if block is not None:
                    return block
            started = time.perf_counter()
            block, epoch, saved, read = self._load(namespace)
            took = round((time.perf_counter() - started) * 1000, 1)
            with self._lock:
                self._install(namespace, block, epoch)
                self.loads[namespace] = {"from": "snapshot" if saved else "store", "ms": took}
                save = self._wants_exact_save(namespace, block, read)
        if saved is not None:
            threading.Thread(
                target=self._verify, args=(namespace, block, saved), daemon=True
            ).start()
        if save:
            threading.Thread(target=self._save_exact, args=(namespace, block), daemon=True).start()
        return block

    def _graph_settings(self) -> AnnSettings | None:
        """The HNSW settings when graphs can be used here (usearch imports), else None."""
        return self.ann_settings if self.ann_settings is not None and ann.available() else None

    def _load(self, namespace: str) -> tuple[Block, int, Saved | None, int]:
        """A block of the store's current rows: from its snapshot brought up to date,
        or read whole from the store; with the number of rows read from the store."""
        if self._snapshots is not None:
            try:
                saved = self._snapshots.load(namespace, self._graph_settings())
            except SnapshotError as exc:
                if str(exc) != "no snapshot":
                    self._failed(f"snapshot of {namespace!r} dropped: {exc}")
                    self._snapshots.drop(namespace)
            else:
                block, epoch, read = self._catch_up(namespace, saved)
                return block, epoch, saved, read
        loaded = self._vectors.load(namespace, self.model)
        matrix = loaded.matrix
        ids = loaded.ids
        if matrix.size and matrix.shape[1] != self.dimension:
            matrix, ids = np.zeros((0, self.dimension), np.float32), []
        return Block.from_matrix(ids, matrix, self.dimension), loaded.epoch, None, len(ids)

    def _catch_up(self, namespace: str, saved: Saved) -> tuple[Block, int, int]:
        """The snapshot's block with what changed since it was saved: rows deleted or
        changed are masked dead, rows added or changed are read and become the delta;
        with the number of rows read and masked."""
        block = Block.from_matrix(saved.keys(), saved.matrix, self.dimension)
        block.graph = saved.graph
        self.persisted["loaded"] += 1
        epoch = self._vectors.epoch()
        if saved.complete and epoch == saved.epoch:
            return block, epoch, 0
        changes = self._vectors.changes(namespace, self.model, saved.id_list(), saved.hashes())
        for memory_id in changes.gone:
            block.remove(memory_id)
        if changes.ids:
            block.upsert_many(changes.ids, changes.matrix)
        if block.graph is not None:
            block.graph.dead_at_build = 0
        self.persisted["caught_up"] += 1
        return block, changes.epoch, len(changes.ids) + len(changes.gone)

    def _wants_exact_save(self, namespace: str, block: Block, read: int) -> bool:
        """Whether a block just installed should be saved without a graph: it is large
        enough, no graph will be built (and saved) for it, and it was read from the
        store, or caught up with many rows. Called under the index lock."""
        live = block.size - block.dead
        settings = self._graph_settings()
        if self._snapshots is None or namespace in self._saving or live < EXACT_SNAPSHOT_MIN:
            return False
        if block.graph is not None or (settings is not None and live >= settings.min_vectors):
            return False
        if read < max(EXACT_SNAPSHOT_MIN, block.size // RESAVE_SHARE):
            return False
        self._saving.add(namespace)
        return True

    def _save_exact(self, namespace: str, block: Block) -> None:
        """Save ``block``'s live rows without a graph, if nothing was written since the
        hashes were read (else the next load tries again)."""
        try:
            if self._snapshots is None:
                return
            live, epoch = self._vectors.live_hashes(namespace, self.model)
            with self._lock:
                if self._blocks.get(namespace) is not block or self._epoch != epoch:
                    return
                rows = np.flatnonzero(block.alive[: block.size])
                ids = block.ids.array()[rows]
                matrix = block.data[rows]  # a copy: writes after this cannot race the save
            hashes = [live.get(i.decode(), "") for i in ids.tolist()]
            self._snapshots.save(namespace, ids, hashes, matrix, None, epoch)
            self.persisted["saved"] += 1
        except Exception as exc:  # a snapshot is an optimisation: never fail a search
            self._failed(f"saving the snapshot of {namespace!r} failed: {exc}")
        finally:
            with self._lock:
                self._saving.discard(namespace)

    def _install(self, namespace: str, block: Block, epoch: int) -> None:
        self._blocks[namespace] = block
        self.rebuilds += 1
        if epoch != self._epoch:
            # A write landed between our epoch check and the load: the block is
            # current as of its own epoch, anything else cached may not be.
            for other in self._blocks.values():
                if other is not block:
                    other.building = None
            self._blocks = {namespace: block}
            self._epoch = epoch

    def _verify(self, namespace: str, block: Block, saved: Saved) -> None:
        """Check the loaded matrix's checksum off the query path; a mismatch drops the
        block (it reloads from the store) and the snapshot (rebuilt once needed)."""
        if saved.matrix_intact() or self._snapshots is None:
            return
        self._snapshots.drop(namespace)  # first, so the reload reads the store
        with self._lock:
            if self._blocks.get(namespace) is block:
                del self._blocks[namespace]
            self._failed(f"snapshot of {namespace!r} failed its checksum; reloaded")

    def _persist(
        self,
        namespace: str,
        block: Block,
        graph: ann.HnswGraph,
        ids: npt.NDArray[np.bytes_],
        vectors: Matrix,
    ) -> None:
        """Save a freshly built graph with the rows it was built from. Each row gets
        the content hash the store holds now, or "" (read again on load) when this
        process rewrote or deleted it during the build; if anyone else wrote since the
        build started, nothing is saved (the next build will be)."""
        if self._snapshots is None:
            return
        try:
            live, epoch = self._vectors.live_hashes(namespace, self.model)
            with self._lock:
                if self._blocks.get(namespace) is not block or self._epoch != epoch:
                    return
                rewritten = {block.ids[r] for r in block.delta}
            decoded = (i.decode() for i in ids.tolist())
            hashes = ["" if i in rewritten else live.get(i, "") for i in decoded]
            self._snapshots.save(namespace, ids, hashes, vectors, graph, epoch)
            self.persisted["saved"] += 1
        except Exception as exc:  # a snapshot is an optimisation: never fail a search
            self._failed(f"saving the snapshot of {namespace!r} failed: {exc}")

    def invalidate(self, namespace: str | None = None) -> None:
        """Forget cached vectors (of one namespace, or all); they reload on next use."""
        with self._lock:
            if namespace is None:
                self._drop_all()
                self._epoch = None
            else:
                dropped = self._blocks.pop(namespace, None)
                if dropped is not None:
                    dropped.building = None

    # -- writes ---------------------------------------------------------------------
    def added(self, namespace: str, ids: Sequence[str], vectors: Matrix, epoch_after: int) -> None:
        # If the epoch moved by exactly one per row, nobody else wrote in between and the
        # cached block is updated in place; otherwise everything reloads lazily.
        with self._lock:
            if self._epoch is None or epoch_after != self._epoch + len(ids):
                self._drop_all()
                self._epoch = None
                return
            self._epoch = epoch_after
            block = self._blocks.get(namespace)
            if block is None:
                return  # not loaded yet: it will load with these rows included
            block.upsert_many(ids, np.asarray(vectors, dtype=np.float32))

    def removed(self, namespace: str, memory_id: str) -> None:
        """Drop a tombstoned memory; a one-step epoch move is ours, anything else reloads."""
        with self._lock:
            current = self._vectors.epoch()
            if self._epoch is not None and current == self._epoch + 1:
                self._epoch = current
                block = self._blocks.get(namespace)
                if block is not None:
                    block.remove(memory_id)
            else:
                self._drop_all()
                self._epoch = None

    # -- reads ----------------------------------------------------------------------
    def search(self, namespace: str, query: Matrix, k: int) -> list[tuple[str, float]]:
        block = self._block(namespace)
        with self._lock:
            if block.size == 0 or k <= 0:
                return []
            self._maybe_graph(namespace, block)
            found = block.top(np.asarray(query, dtype=np.float32), k)
            ids = block.ids.take([row for row, _ in found])
            return list(zip(ids, [sim for _, sim in found], strict=True))

    def scores(self, namespace: str, query: Matrix, ids: Sequence[str]) -> dict[str, float]:
        block = self._block(namespace)
        with self._lock:
            found, rows = block.ids.live(ids, block.alive)
            if not found:
                return {}
            sims = block.data[rows] @ np.asarray(query, dtype=np.float32)
            return dict(zip(found, sims.tolist(), strict=True))

    # -- the namespace's mean (``VectorCentres``, recall's centred cosines) -----------
    def centre(self, namespaces: Sequence[str]) -> Centre | None:
        """The running sum and count of the namespaces' blocks: exact as of this
        process's last write (another process's write reloads the block, and the sum)."""
        found: Centre | None = None
        for namespace in namespaces:
            block = self._block(namespace)
            with self._lock:
                total, count = block.centre()
                part = Centre(total.copy(), count)
            found = part if found is None else found + part
        return found

    def centred(
        self, namespace: str, on: Sequence[str], query: Matrix, ids: Sequence[str]
    ) -> Centred | None:
        """One gather of the ``ids``' rows and one product with the query and the
        mean's direction together. A namespace's block already loaded is taken as it
        is: recall's dense leg checked the store's epoch for it moments before (a
        write between the two is the same race the leg's own ranking has), and each
        check is a statement that hands the GIL to recall's other threads."""
        with self._lock:
            blocks = {ns: self._blocks.get(ns) for ns in dict.fromkeys([namespace, *on])}
        for ns, loaded in blocks.items():
            if loaded is None:
                blocks[ns] = self._block(ns)
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        with self._lock:
            parts = [Centre(*block.centre()) for ns in on if (block := blocks[ns]) is not None]
            centre = sum(parts[1:], parts[0]) if parts else None
            found = direction(centre)
            if centre is None or found is None or found[0].shape != q.shape:
                return None
            unit, r = found
            block = blocks[namespace]
            if block is None:
                return None
            held, rows = block.ids.live(ids, block.alive)
            sims = block.data[rows] @ np.stack([q, unit], axis=1)
        wide: npt.NDArray[np.float64] = sims.astype(np.float64)
        return Centred(held, wide[:, 0], wide[:, 1], float(q @ unit), r, centre.count)

    def gather(self, namespace: str, ids: Sequence[str]) -> Gathered:
        """The live vectors of ``ids`` copied out (``VectorsAhead``), and whether they
        are still the index's: its epoch and the namespace's block unchanged since."""
        block = self._block(namespace)
        with self._lock:
            found, rows = block.ids.live(ids, block.alive)
            epoch = self._epoch
            matrix = block.data[rows]  # a copy: later writes to the block leave it

        def current() -> bool:
            return self._epoch == epoch and self._blocks.get(namespace) is block

        return Gathered(frozenset(ids), found, matrix, current)

    def state(self) -> dict[str, object]:
        with self._lock:
            return {
                "model": self.model,
                "dimension": self.dimension,
                "epoch": self._epoch,
                "loaded_namespaces": {
                    ns: block.size - block.dead for ns, block in self._blocks.items()
                },
                "builds": self.rebuilds,
                "loads": dict(self.loads),
                "saving": sorted(self._saving),
                "ann": self._ann_state(),
            }

    def _ann_state(self) -> dict[str, object]:
        settings = self.ann_settings
        if settings is None:
            return {"enabled": False}
        blocks = self._blocks.items()
        state: dict[str, object] = {
            "enabled": True,
            "min_vectors": settings.min_vectors,
            "ef_search": settings.ef_search,
            "library": "usearch",
            "available": ann.available(),
            "graphs": {ns: b.graph.nodes for ns, b in blocks if b.graph},
            "breadth": {ns: b.graph.ef_search for ns, b in blocks if b.graph},
            "second_searches": {
                ns: f"{b.graph.retries} of {b.graph.searches}" for ns, b in blocks if b.graph
            },
            "delta": {ns: len(b.delta) for ns, b in blocks if b.graph and b.delta},
            "building": sorted(ns for ns, b in blocks if b.building and b.building.error is None),
            "saving": sorted({ns for ns, b in blocks if b.saving} | self._saving),
            "snapshots": None
            if self._snapshots is None
            else {"directory": str(self._snapshots.directory), **self.persisted},
        }
        if not ann.available():
            state["note"] = (
                "usearch cannot be imported on this platform, so large namespaces use "
                "exact search (pip install usearch)"
            )
        if self.ann_failures:
            state["failures"] = self.ann_failures[-3:]
        return state
