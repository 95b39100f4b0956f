"""What the derived per-namespace blocks of a SQLite store read from ``fts_log``, and how
they read and write their snapshots: shared by the term index (``term_search``) and
recall's facts (``fact_index``).

``fts_log`` is the change log ``fts.flush`` writes in the transaction of every index
change (an insert, a delete, a change of a memory's text), whichever process wrote it.
A block made at log row ``log_id`` applies the seqs logged beyond it, or is made again
when it cannot: the log went backwards (another file took this path) or was pruned past
it, the namespace was re-indexed (a row without a seq), or too much changed at once.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import numpy.typing as npt

from engram.store.sqlite.snapshot import SnapshotError, drop_generations, write_generation

T = TypeVar("T")


class _Entry(Protocol):
    build: threading.Thread | None


E = TypeVar("E", bound=_Entry)
_BATCH = 500
#: Seconds a namespace's "too small for a block" verdict is reused.
SIZE_TTL = 60.0


class _Block(Protocol):
    @property
    def size(self) -> int: ...

    def arrays(self) -> dict[str, npt.NDArray[Any]]: ...


@dataclass
class Sizes:
    """Which namespaces are too small for a block, each verdict kept ``SIZE_TTL`` s
    (a namespace is counted once a minute at most, not on every search)."""

    small: dict[str, float] = field(default_factory=dict)

    def recently_small(self, namespace: str) -> bool:
        checked = self.small.get(namespace)
        return checked is not None and time.monotonic() - checked < SIZE_TTL

    def known(self, entries: dict[str, E], namespace: str) -> tuple[bool, E | None]:
        """(True, its entry) when ``namespace`` has an entry in ``entries`` or was
        found small lately (None then); (False, None) when it must be counted."""
        entry = entries.get(namespace)
        return entry is not None or self.recently_small(namespace), entry

    def forget(self, entries: dict[str, E]) -> None:
        """Drop every entry (a build in flight lands nowhere) and every verdict."""
        for entry in entries.values():
            entry.build = None
        entries.clear()
        self.small.clear()

    def drop(self, entries: dict[str, E], namespace: str) -> threading.Thread | None:
        """Drop one namespace's entry and verdict (its data was erased); the build in
        flight, if any, is returned so the caller can wait for it to finish writing."""
        self.small.pop(namespace, None)
        entry = entries.pop(namespace, None)
        if entry is None:
            return None
        build, entry.build = entry.build, None
        return build

    def large(self, conn: sqlite3.Connection, namespace: str, wanted: int) -> bool:
        """Whether ``namespace`` holds ``wanted`` live memories (counted no further);
        a no is kept."""
        (size,) = conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM memories WHERE namespace = ? "
            "AND deleted_at IS NULL LIMIT ?)",
            (namespace, wanted),
        ).fetchone()
        if size < wanted:
            self.small[namespace] = time.monotonic()
            return False
        return True


@dataclass(frozen=True)
class Logged:
    """The log's newest row and the seqs of ``namespace`` logged since a block's row,
    or why the block must be made again (``remake``)."""

    head: int
    seqs: frozenset[int] = frozenset()
    remake: str | None = None


def head(conn: sqlite3.Connection) -> int:
    """The log's newest row (0 when empty)."""
    (newest,) = conn.execute("SELECT coalesce(max(id), 0) FROM fts_log").fetchone()
    return int(newest)


def since(conn: sqlite3.Connection, namespace: str, log_id: int, most: int) -> Logged:
    """The changes of ``namespace`` logged after row ``log_id``; ``remake`` says why
    they cannot be applied (more than ``most`` of them, among others)."""
    newest = head(conn)
    if newest == log_id:
        return Logged(newest)
    (oldest,) = conn.execute("SELECT coalesce(min(id), 0) FROM fts_log").fetchone()
    if newest < log_id or oldest > log_id + 1:
        return Logged(newest, remake="the change log moved past it")
    seqs = {
        row[0]
        for row in conn.execute(
            "SELECT seq FROM fts_log WHERE id > ? AND id <= ? AND namespace = ?",
            (log_id, newest, namespace),
        )
    }
    if None in seqs:
        return Logged(newest, remake="the namespace was re-indexed")
    if len(seqs) > most:
        return Logged(newest, remake=f"{len(seqs)} memories changed")
    return Logged(newest, frozenset(seqs))


def live_rows(
    conn: sqlite3.Connection, namespace: str, columns: str, seqs: Sequence[int]
) -> list[tuple[Any, ...]]:
    """``columns`` of the live ones of ``seqs`` in ``namespace``, in seq order."""
    rows: list[tuple[Any, ...]] = []
    for lo in range(0, len(seqs), _BATCH):
        chunk = seqs[lo : lo + _BATCH]
        marks = ",".join("?" * len(chunk))
        rows.extend(
            conn.execute(
                f"SELECT {columns} FROM memories WHERE seq IN ({marks}) AND namespace = ? "
                "AND deleted_at IS NULL ORDER BY seq",
                (*chunk, namespace),
            )
        )
    return rows


def load_saved(
    directory: Path | None,
    files: BlockFiles,
    namespace: str,
    load: Callable[[Path], T],
    failures: list[str],
) -> T | None:
    """``load(directory)``, or None: no directory, no snapshot, or an unusable one
    (then dropped, and the failure noted)."""
    if directory is None:
        return None
    try:
        return load(directory)
    except SnapshotError as exc:
        if str(exc) != "no snapshot":
            failures.append(f"{files.label} of {namespace!r} dropped: {exc}")
            drop_generations(directory, files.stem(namespace))
        return None


def save_quietly(
    directory: Path | None,
    files: BlockFiles,
    namespace: str,
    block: _Block,
    log_id: int,
    failures: list[str],
) -> None:
    """Save a fresh block; a failure is noted, never raised (the block still answers,
    and the next open makes it again)."""
    if directory is None:
        return
    try:
        files.save(directory, namespace, block, log_id)
    except Exception as exc:
        failures.append(f"saving the {files.label} of {namespace!r} failed: {exc}")


@dataclass(frozen=True)
class BlockFiles:
    """How one kind of block (``terms``, ``facts``) names, describes and checks its
    snapshot beside the store."""

    kind: str
    format: int
    label: str
    """What failures call it ("term snapshot")."""

    def stem(self, namespace: str) -> str:
        return f"{self.kind}-" + hashlib.sha1(namespace.encode()).hexdigest()[:20]

    def want(self, namespace: str) -> dict[str, object]:
        return {"format": self.format, "kind": self.kind, "namespace": namespace}

    def save(self, directory: Path, namespace: str, block: _Block, log_id: int) -> None:
        """Persist a fresh block (as made, nothing applied since) with the log row it
        reflects."""
        meta = self.want(namespace) | {"log_id": log_id, "count": block.size}
        write_generation(directory, self.stem(namespace), block.arrays(), {}, meta)

    def check_store(self, conn: sqlite3.Connection, seq: int, memory_id: str) -> None:
        """Refuse a snapshot of another store file once at this path: its newest saved
        memory ``seq`` must be ``memory_id`` in this store."""
        row = conn.execute("SELECT id FROM memories WHERE seq = ?", (seq,)).fetchone()
        if row is None or row[0] != memory_id:
            raise SnapshotError(f"the {self.label} is of another store")


class Blocks(Generic[E]):
    """What both in-memory indexes of a SQLite store (terms, facts) hold the same way:
    an entry per namespace, the size verdicts, the lock over them, and the erase of
    one namespace."""

    def __init__(self) -> None:
        self._entries: dict[str, E] = {}
        self._sizes = Sizes()
        self._lock = threading.Lock()

    def erased(self, namespace: str, timeout: float = 60.0) -> None:
        """Forget a namespace whose memories were erased, and wait for its build (load
        or make) in flight: a build that read the store before the erase must finish
        saving its snapshot before the erase drops the files, or the snapshot outlives
        it."""
        with self._lock:
            build = self._sizes.drop(self._entries, namespace)
        if build is not None and build is not threading.current_thread():
            build.join(timeout)
