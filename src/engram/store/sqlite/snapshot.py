"""A large namespace's vector block persisted beside the SQLite store file (issue 29).

Reopening a 100k store used to read every vector row and build the HNSW graph again
(seconds before the first fast recall; 46 s at 1M). Now the block's ids, its float32
matrix and its graph are saved in ``<store>.vindex/`` once a graph is built, and the
next open memory-maps them instead. A namespace searched exactly (below
``ann_min_vectors``, from ``vector_index.EXACT_SNAPSHOT_MIN`` vectors) is saved the
same way without a graph: reading 10k vectors from SQLite took 1.45 s of a cold first
recall on a loaded machine.

The files are derived data, never the truth:

- The manifest (``<stem>.json``) is written last, by an atomic rename; it names one
  generation of data files with their sizes and CRC-32s, and the store's vector epoch
  they reflect. A crash mid-write leaves files of a generation no manifest names
  (removed on the next save) or a manifest whose files fail their size or checksum (the
  snapshot is dropped and rebuilt): never a half-written index in use.
- Each row carries the content hash its vector was made from; "" marks a row written
  while the graph was being built, which must be read again. An open whose epoch
  differs from the manifest's asks the store what changed (``SQLiteVectors.changes``):
  rows deleted or changed since are masked dead before the first search, so a delete
  never comes back from a stale snapshot, and rows added since are searched exactly.
- The graph and the small files are checked before use (a damaged graph could make
  the library read out of bounds); the matrix, the largest file, is checked on a worker
  thread after the open, and a mismatch drops the block so it reloads from the store.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import uuid
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.store.protocols.vectors import AnnSettings
from engram.store.sqlite.ann import GRAPH_DTYPE, HnswGraph, build_key
from engram.store.sqlite.vector_ids import KeyRows, id_array

Matrix = npt.NDArray[np.float32]

#: 2: ids saved as UTF-8 bytes (32 bytes a row instead of 128) with their sort order
#: (``order``), so a load needs neither a dict nor a sort (``vector_ids``). Format 1
#: files are still read (str ids, the order made on first lookup); older code drops a
#: format 2 snapshot and rebuilds it.
FORMAT = 2
READABLE = frozenset({1, FORMAT})
SUFFIX = ".vindex"
_PARTS = ("ids", "hashes", "matrix")
"""Every snapshot's files; a namespace searched by HNSW has a ``graph`` file too, and
one of format 2 an ``order``."""
_CHUNK = 1 << 22


class SnapshotError(Exception):
    """A snapshot that cannot be used: missing, for another model, or damaged."""


def directory_for(location: str) -> Path | None:
    """Where a store's snapshots live; None for an in-memory store."""
    if location == ":memory:" or location.startswith("file:"):
        return None
    return Path(location + SUFFIX)


def crc32(path: Path) -> int:
    crc = 0
    with path.open("rb") as f:
        while chunk := f.read(_CHUNK):
            crc = zlib.crc32(chunk, crc)
    return crc


@dataclass
class Saved:
    """One loaded snapshot: ids, memory-mapped matrix and graph, as of ``epoch``."""

    ids: npt.NDArray[Any]
    """Memory ids, UTF-8 bytes (str in a format 1 snapshot), memory-mapped."""
    order: npt.NDArray[Any] | None
    """The ids' stable sort order (None in a format 1 snapshot), memory-mapped."""
    matrix: Matrix
    """Memory-mapped copy-on-write: writes stay in this process."""
    graph: HnswGraph | None
    """None for a namespace saved without a graph (searched exactly)."""
    epoch: int
    complete: bool
    """False when some rows must be read again (hash "")."""
    _hashes: Path
    _matrix_file: Path
    _matrix_crc: int

    def keys(self) -> KeyRows[str]:
        """The ids as a block keeps them (``vector_ids.KeyRows``)."""
        keys = KeyRows.of_ids(self.ids)
        if self.order is not None:
            keys.set_order(self.order)
        return keys

    def id_list(self) -> list[str]:
        return [i.decode() for i in id_array(self.ids).tolist()]

    def hashes(self) -> list[str]:
        return [h.decode() for h in np.load(self._hashes).tolist()]

    def matrix_intact(self) -> bool:
        return crc32(self._matrix_file) == self._matrix_crc


def write_generation(
    directory: Path,
    stem: str,
    arrays: dict[str, npt.NDArray[Any]],
    writers: dict[str, Callable[[Path], None]],
    meta: dict[str, object],
) -> None:
    """Write ``arrays`` (as .npy) and the files ``writers`` make as a new generation of
    ``stem``, then point ``<stem>.json`` at it (``meta`` plus each file's size and
    CRC-32) by an atomic rename, then drop the other generations."""
    directory.mkdir(parents=True, exist_ok=True)
    generation = uuid.uuid4().hex[:12]
    parts = [*arrays, *writers]
    paths = {part: directory / f"{stem}.{generation}.{part}" for part in parts}
    try:
        for part, array in arrays.items():
            _write_npy(paths[part], array)
        for part, write in writers.items():
            write(paths[part])
            _fsync(paths[part])
        files = {
            part: {"name": p.name, "bytes": p.stat().st_size, "crc32": crc32(p)}
            for part, p in paths.items()
        }
        staging = directory / f"{stem}.{generation}.json.tmp"
        staging.write_text(json.dumps(meta | {"files": files}), encoding="utf-8")
        _fsync(staging)
        os.replace(staging, directory / f"{stem}.json")
    except BaseException:
        for p in paths.values():
            p.unlink(missing_ok=True)
        raise
    _remove_generations(directory, stem, keep=generation)


def read_generation(
    directory: Path,
    stem: str,
    want: dict[str, object],
    parts: Sequence[str],
    verify: Sequence[str],
    optional: Sequence[str] = (),
) -> tuple[dict[str, Any], dict[str, Path]]:
    """The manifest of ``stem`` and its files' paths, once the manifest matches ``want``,
    every part (and each ``optional`` part it names) has its recorded size and the
    ``verify`` parts it has their CRC-32; ``SnapshotError`` otherwise ("no snapshot"
    when there is none). A ``frozenset`` in ``want`` lists the values accepted."""
    try:
        manifest = json.loads((directory / f"{stem}.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SnapshotError("no snapshot") from None
    except (OSError, ValueError) as exc:
        raise SnapshotError(f"unreadable manifest: {exc}") from exc
    if not isinstance(manifest, dict) or any(
        manifest.get(k) not in v if isinstance(v, frozenset) else manifest.get(k) != v
        for k, v in want.items()
    ):
        raise SnapshotError("the snapshot is of another format, model or namespace")
    try:
        named = [*parts, *(part for part in optional if part in manifest["files"])]
        files = {part: manifest["files"][part] for part in named}
        paths = {part: directory / files[part]["name"] for part in named}
        for part, p in paths.items():
            if p.stat().st_size != files[part]["bytes"]:
                raise SnapshotError(f"{p.name} is not the size its manifest says")
        for part in (part for part in verify if part in paths):
            if crc32(paths[part]) != files[part]["crc32"]:
                raise SnapshotError(f"{paths[part].name} fails its checksum")
    except (OSError, KeyError, TypeError) as exc:
        raise SnapshotError(f"damaged snapshot: {type(exc).__name__}: {exc}") from exc
    return manifest, paths


def drop_generations(directory: Path, stem: str) -> None:
    """Remove ``stem``'s manifest and files (rebuilt from the store when needed)."""
    with contextlib.suppress(OSError):
        (directory / f"{stem}.json").unlink(missing_ok=True)
    _remove_generations(directory, stem, keep=None)


def _remove_generations(directory: Path, stem: str, keep: str | None) -> None:
    for p in directory.glob(f"{stem}.*.*"):
        if keep is None or p.name.split(".")[1] != keep:
            with contextlib.suppress(OSError):  # mapped by a reader (Windows)
                p.unlink()


class Snapshots:
    """The vector snapshots of one embedding model's namespaces in one directory."""

    def __init__(self, directory: Path, model: str, dimension: int) -> None:
        self.directory = directory
        self.model = model
        self.dimension = dimension

    def _stem(self, namespace: str) -> str:
        # Namespaces are free text: the file name is a digest, the manifest keeps the name.
        return hashlib.sha1(f"{self.model}\0{namespace}".encode()).hexdigest()[:20]

    def _want(self, namespace: str) -> dict[str, object]:
        return {
            "format": FORMAT,
            "model": self.model,
            "dimension": self.dimension,
            "namespace": namespace,
            "graph_dtype": GRAPH_DTYPE,
        }

    def save(
        self,
        namespace: str,
        ids: npt.NDArray[Any] | Sequence[str],
        hashes: list[str],
        matrix: Matrix,
        graph: HnswGraph | None,
        epoch: int,
    ) -> None:
        """Write a new generation, then point the manifest at it, then drop the old
        (``graph`` None: a namespace searched exactly)."""
        keys = id_array(ids) if isinstance(ids, np.ndarray) else KeyRows.of_ids(ids).array()
        arrays = {
            "ids": keys,
            "order": np.argsort(keys, kind="stable").astype(np.int32),
            "hashes": np.array([h.encode() for h in hashes], dtype="S"),
            "matrix": np.ascontiguousarray(matrix, dtype=np.float32),
        }
        meta = self._want(namespace) | {
            "epoch": epoch,
            "count": len(ids),
            "complete": all(hashes),
        }
        if graph is not None:
            meta["graph_build"] = graph.build_info
        writers: dict[str, Callable[[Path], None]] = {} if graph is None else {"graph": graph.save}
        write_generation(self.directory, self._stem(namespace), arrays, writers, meta)

    def load(self, namespace: str, settings: AnnSettings | None) -> Saved:
        """The namespace's snapshot, its ids and graph verified; ``SnapshotError`` if it
        has none or cannot be used (``drop`` it then). Its graph is None when it was
        saved without one, by another build (``ann.build_key``: built again), or ``settings``
        is None (HNSW off: the rows alone serve)."""
        manifest, paths = read_generation(
            self.directory,
            self._stem(namespace),
            self._want(namespace) | {"format": READABLE},
            _PARTS,
            ("ids", "order", "graph") if settings is not None else ("ids", "order"),
            optional=("order", "graph") if settings is not None else ("order",),
        )
        try:
            # Read-only maps: a lookup touches log2(n) pages of each, a result its own.
            ids = load_array(paths["ids"], mapped=True)
            order = load_array(paths["order"], mapped=True) if "order" in paths else None
            if order is not None and order.shape != ids.shape:
                raise SnapshotError("the snapshot's ids and their order disagree")
            matrix: Matrix = np.load(paths["matrix"], mmap_mode="c")
            if len(ids) != manifest["count"] or matrix.shape != (len(ids), self.dimension):
                raise SnapshotError("the snapshot's files disagree on its size")
            graph = None
            # A graph of another build (older code, other M or ef_construction, or
            # built below the size band where the build breadth grows) is not reused:
            # the rows serve, and the graph is built again and saved.
            current = settings is not None and manifest.get("graph_build") == build_key(
                settings, len(ids)
            )
            if settings is not None and "graph" in paths and current:
                labels = np.arange(len(ids), dtype=np.int64)
                graph = HnswGraph.view(paths["graph"], labels, settings)
        except SnapshotError:
            raise
        except (OSError, ValueError, KeyError, TypeError, RuntimeError) as exc:
            raise SnapshotError(f"damaged snapshot: {type(exc).__name__}: {exc}") from exc
        return Saved(
            ids=ids,
            order=order,
            matrix=matrix,
            graph=graph,
            epoch=int(manifest["epoch"]),
            complete=bool(manifest["complete"]),
            _hashes=paths["hashes"],
            _matrix_file=paths["matrix"],
            _matrix_crc=int(manifest["files"]["matrix"]["crc32"]),
        )

    def drop(self, namespace: str) -> None:
        """Remove a namespace's snapshot (it is rebuilt from the store when needed)."""
        drop_generations(self.directory, self._stem(namespace))


def remove_model(directory: Path | None, model: str | None) -> None:
    """Drop every snapshot of ``model`` (None: all), as when its vectors are deleted."""
    if directory is None or not directory.is_dir():
        return
    for manifest in directory.glob("*.json"):
        try:
            saved = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            saved = {}
        if "model" in saved and (model is None or saved["model"] == model):
            drop_generations(directory, manifest.name.removesuffix(".json"))


def drop_namespace(directory: Path | None, namespace: str) -> int:
    """Drop every snapshot of ``namespace`` (vectors of any model, terms, facts): each
    manifest names its namespace, so a kind added later is dropped too. Returns how many
    were dropped. An erase calls it: the files hold the erased memories' vectors, ids,
    terms and openings, and would otherwise stay until the namespace is searched again."""
    if directory is None or not directory.is_dir():
        return 0
    dropped = 0
    for manifest in directory.glob("*.json"):
        try:
            saved = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(saved, dict) and saved.get("namespace") == namespace:
            drop_generations(directory, manifest.name.removesuffix(".json"))
            dropped += 1
    return dropped


def load_array(path: Path, *, mapped: bool) -> npt.NDArray[Any]:
    """A saved array, memory-mapped read-only when ``mapped`` (as a plain ndarray over
    the map: ``np.memmap``'s Python ``__getitem__`` cost ~1 us on every row read)."""
    array: npt.NDArray[Any] = np.asarray(np.load(path, mmap_mode="r" if mapped else None))
    return array


def _write_npy(path: Path, array: npt.NDArray[Any]) -> None:
    with path.open("wb") as f:
        np.save(f, array, allow_pickle=False)
        f.flush()
        os.fsync(f.fileno())


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
