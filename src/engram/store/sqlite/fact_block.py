"""A large namespace's recall facts as arrays, and their snapshot beside the store.

Every recall asks ``MemoryStore.facts`` (creation time, session, length, opening) of
its ~100 candidates. At 1M memories their rows lie on ~100 random pages of a 5.8 GB
file: 1-1.3 ms at the median on a warm page cache, with a tail of page reads beyond it
(docs/benchmarks.md, "Recall's facts as arrays"). A ``FactBlock`` holds those columns
for every live memory of one namespace, one numpy array each, so a recall reads no row:
ids (sorted, one binary search for all candidates), seqs, creation
times (microseconds since the epoch, UTC), a session code per row into a table of
session ids, lengths, the openings as one UTF-8 buffer with offsets, and a source code
per row into a table of the memories pipeline-written facts were derived from (issue
28's demotion asks it: ``stale.py``). A recall's candidates are answered as columns
(``FactColumns``), with no object per memory.

Rows changed after the arrays were made (``fact_index`` applies ``fts_log``) are kept
in a small dict beside them, id -> facts or None (no longer live), which wins over the
arrays. Like the term index's, the block is saved in ``<store>.vindex/``
(``snapshot.write_generation``: generations, sizes and CRC-32s, an atomic manifest) with
the ``fts_log`` row it reflects; a load maps the arrays read-only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.store.protocols.memories import FactColumns, MemoryFacts
from engram.store.sql.memories import FACT_COLUMNS
from engram.store.sqlite.change_log import BlockFiles
from engram.store.sqlite.snapshot import SnapshotError, load_array, read_generation
from engram.store.sqlite.vector_ids import encode_ids

#: Bump when the columns or their encoding change: older files are then rebuilt.
FORMAT = 3
_PARTS = (
    "ids",
    "seqs",
    "created",
    "session",
    "chars",
    "heads",
    "offsets",
    "sessions",
    "source",
    "sources",
)
#: Parts read into memory rather than mapped: a recall's ~100 binary searches over a
#: mapped 1M-row id array and its order touched ~1,000 pages not yet mapped in this
#: process, 0.3 ms of page faults a recall; read whole (their checksum reads them
#: anyway), they cost ~50 MB of RSS at 1M and no faults.
_READ = tuple(part for part in _PARTS if part != "heads")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
#: Rows of facts met before, kept for the next recall that asks (a row of the arrays never
#: changes; ``changed`` wins over them): a recall at 100k meets about half of its ~95
#: candidates again, and a server asked about the same memories meets most of them;
#: a kept row costs a dict lookup, a gathered one ~0.5 us (docs/benchmarks.md, "SQLite at
#: 100k beside Chroma, session twenty"). At the limit (~10 MB) they are dropped.
MADE_LIMIT = 50_000
_Made = tuple[int, str | None, int, str, int]
"""A kept row: creation time (microseconds since the epoch), session, length, opening,
and the memory's seq (where its row is: ``seqs``)."""


def _none() -> FactColumns:
    """No facts."""
    return FactColumns([], [], [], [], [])


#: The columns a block is made of, by seq (the statement's namespace filter aside): the
#: facts, and the memory a pipeline-written fact was derived from (issue 28's demotion
#: asks it of every candidate: ``stale.py``).
COLUMNS = f"seq, id, {FACT_COLUMNS}, source_memory_id"
Row = tuple[int, str, str, str | None, int, str, str | None]


def micros(value: datetime) -> int:
    """``value`` as microseconds since the epoch (a naive time is taken as UTC)."""
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    delta = aware - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def facts_of(row: Sequence[Any]) -> MemoryFacts:
    """One row of ``COLUMNS`` as the facts ``SqlMemories.facts`` gives."""
    return MemoryFacts(datetime.fromisoformat(row[2]), row[3], int(row[4]), row[5])


class FactBlock:
    """The facts of one namespace's live memories as of one ``fts_log`` row."""

    def __init__(self, arrays: Mapping[str, npt.NDArray[Any]]) -> None:
        self.ids: npt.NDArray[np.bytes_] = arrays["ids"]
        """Memory ids as UTF-8 bytes, sorted: every other array is in this order."""
        self.seqs: npt.NDArray[np.int64] = arrays["seqs"]
        self.created: npt.NDArray[np.int64] = arrays["created"]
        self.session: npt.NDArray[np.int32] = arrays["session"]
        self.chars: npt.NDArray[np.int32] = arrays["chars"]
        self.heads: npt.NDArray[np.uint8] = arrays["heads"]
        self.offsets: npt.NDArray[np.int64] = arrays["offsets"]
        self.sessions = [s.decode() for s in arrays["sessions"].tolist()]
        self.source: npt.NDArray[np.int32] = arrays["source"]
        """Per row, its source memory's code into ``sources``; -1: none."""
        self.sources = [s.decode() for s in arrays["sources"].tolist()]
        self.changed: dict[str, MemoryFacts | None] = {}
        """Rows changed since the arrays were made: their facts, or None once not live."""
        self.changed_source: dict[str, str | None] = {}
        """The source memory of each live row of ``changed``."""
        self._arrays = dict(arrays)
        self._seq_order: npt.NDArray[np.int64] | None = None
        self._made: dict[str, _Made] = {}

    @classmethod
    def of_rows(cls, rows: Iterable[Row]) -> FactBlock:
        """A block of rows of ``COLUMNS`` (live memories, in seq order)."""
        seqs: list[int] = []
        ids: list[str] = []
        created: list[int] = []
        codes: list[int] = []
        chars: list[int] = []
        heads: list[bytes] = []
        sources: list[int] = []
        session_codes: dict[str, int] = {}
        source_codes: dict[str, int] = {}
        for seq, memory_id, at, session, length, head, source in rows:
            seqs.append(seq)
            ids.append(memory_id)
            created.append(micros(datetime.fromisoformat(at)))
            codes.append(
                -1 if session is None else session_codes.setdefault(session, len(session_codes))
            )
            chars.append(length)
            heads.append(head.encode())
            sources.append(
                -1 if source is None else source_codes.setdefault(source, len(source_codes))
            )
        encoded = encode_ids(ids) if ids else np.zeros(0, dtype="S1")
        # In id order: a lookup is then one binary search per id over one array (through
        # a sort order it read twice the memory, at random: ~0.6 ms for 100 ids at 1M).
        order = np.argsort(encoded, kind="stable")
        ordered = [heads[i] for i in order.tolist()]
        lengths = np.fromiter(map(len, ordered), dtype=np.int64, count=len(ordered))
        offsets = np.zeros(len(ordered) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        sessions = encode_ids(session_codes) if session_codes else np.zeros(0, dtype="S1")
        named = encode_ids(source_codes) if source_codes else np.zeros(0, dtype="S1")
        return cls(
            {
                "ids": encoded[order],
                "seqs": np.asarray(seqs, dtype=np.int64)[order],
                "created": np.asarray(created, dtype=np.int64)[order],
                "session": np.asarray(codes, dtype=np.int32)[order],
                "chars": np.asarray(chars, dtype=np.int32)[order],
                "heads": np.frombuffer(b"".join(ordered), dtype=np.uint8).copy(),
                "offsets": offsets,
                "sessions": sessions,
                "source": np.asarray(sources, dtype=np.int32)[order],
                "sources": named,
            }
        )

    @property
    def size(self) -> int:
        """Rows in the arrays (changed rows aside)."""
        return len(self.seqs)

    def facts(self, memory_ids: Sequence[str]) -> FactColumns:
        """The facts of the live ones of ``memory_ids`` (unique), as columns: those met
        before from the kept rows, the rest gathered from the arrays in a few numpy
        calls; no ``MemoryFacts`` is made (recall reads whole columns: ``FactColumns``)."""
        changed, made = self.changed, self._made
        rest: list[str] = []
        ids: list[str] = []
        rows: list[_Made] = []
        for i in memory_ids:
            if i in changed:
                continue
            row = made.get(i)
            if row is None:
                rest.append(i)
            else:
                ids.append(i)
                rows.append(row)
        if rest:
            found, gathered = self._gather(rest)
            if len(made) + len(found) > MADE_LIMIT:
                made.clear()
            made.update(zip(found, gathered, strict=True))
            ids += found
            rows += gathered
        out = _none()
        if rows:  # the rows turned into columns in one pass
            created, sessions, chars, heads, _ = zip(*rows, strict=True)
            out = FactColumns(ids, list(created), list(sessions), list(chars), list(heads))
        if changed:
            kept = {i: f for i in memory_ids if i in changed and (f := changed[i]) is not None}
            if kept:
                out.update(kept)
        return out

    def _gather(self, memory_ids: list[str]) -> tuple[list[str], list[_Made]]:
        """Those of ``memory_ids`` the arrays hold, and their rows of facts."""
        ids = self.ids
        if not len(ids):
            return [], []
        memory_ids.sort()  # sorted probes: each search starts where the last one ended
        probes = encode_ids(memory_ids)
        spots = np.minimum(np.searchsorted(ids, probes), len(ids) - 1)
        hit = ids[spots] == probes
        at = spots[hit]
        found = (
            memory_ids
            if len(at) == len(memory_ids)
            else [i for i, ok in zip(memory_ids, hit.tolist(), strict=True) if ok]
        )
        names = self.sessions
        sessions = [None if code < 0 else names[code] for code in self.session[at].tolist()]
        heads = memoryview(self.heads.data)  # a slice of it costs a third of an array's
        starts = self.offsets[at].tolist()
        ends = self.offsets[at + 1].tolist()
        texts = [str(heads[lo:hi], "utf-8") for lo, hi in zip(starts, ends, strict=True)]
        created = self.created[at].tolist()
        chars = self.chars[at].tolist()
        seqs = self.seqs[at].tolist()
        return found, list(zip(created, sessions, chars, texts, seqs, strict=True))

    def seqs_met(self, memory_ids: Sequence[str]) -> dict[str, int]:
        """The seq of those of ``memory_ids`` whose facts were gathered before (kept
        rows; a changed row has none): where each memory's row is, known without a
        search, for a read of the rows themselves (``SQLiteMemories.get_many``)."""
        changed, made = self.changed, self._made
        return {
            i: row[4] for i in memory_ids if (row := made.get(i)) is not None and i not in changed
        }

    def derived(self, memory_ids: Sequence[str]) -> tuple[dict[str, str], list[str]]:
        """The source memory of those of ``memory_ids`` (live here) a pipeline derived
        from one, and the ids this block does not hold as live (to be read instead)."""
        changed, named = self.changed, self.changed_source
        out: dict[str, str] = {}
        rest: list[str] = []
        absent: list[str] = []
        for i in memory_ids:
            if i not in changed:
                rest.append(i)
            elif changed[i] is None:
                absent.append(i)
            elif (source := named.get(i)) is not None:
                out[i] = source
        ids = self.ids
        if not rest or not len(ids):
            return out, absent + rest
        probes = encode_ids(rest)
        spots = np.minimum(np.searchsorted(ids, probes), len(ids) - 1)
        hit = (ids[spots] == probes).tolist()
        codes = self.source[spots].tolist()
        sources = self.sources
        for memory_id, ok, code in zip(rest, hit, codes, strict=True):
            if not ok:
                absent.append(memory_id)
            elif code >= 0:
                out[memory_id] = sources[code]
        return out, absent

    def row_of_seq(self, seq: int) -> int | None:
        """The arrays' row of ``seq``, or None (its order is made on first use: only a
        catch-up asks)."""
        if self._seq_order is None:
            self._seq_order = np.argsort(self.seqs, kind="stable").astype(np.int64)
        order = self._seq_order
        at = int(np.searchsorted(self.seqs, seq, sorter=order))
        if at >= len(order):
            return None
        row = int(order[at])
        return row if int(self.seqs[row]) == seq else None

    def apply(self, seqs: Iterable[int], rows: Sequence[tuple[Any, ...]]) -> None:
        """Apply logged changes: ``rows`` are the live ones of ``seqs`` now; every other
        seq is no longer a live memory of the namespace."""
        live = {row[0] for row in rows}
        for seq in seqs:
            if seq in live:
                continue
            at = self.row_of_seq(seq)
            if at is not None:
                self.changed[self.ids[at].decode()] = None
        for row in rows:
            self.changed[row[1]] = facts_of(row)
            self.changed_source[row[1]] = row[6]

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        return dict(self._arrays)


FILES = BlockFiles("facts", FORMAT, "facts snapshot")
stem, save = FILES.stem, FILES.save


def load(directory: Path, namespace: str, conn: sqlite3.Connection) -> tuple[FactBlock, int]:
    """The saved block and its change-log row; ``SnapshotError`` when there is none or
    it cannot be used (it is then made from the store)."""
    want = FILES.want(namespace)
    manifest, paths = read_generation(directory, stem(namespace), want, _PARTS, _PARTS)
    try:
        block = FactBlock(
            {part: load_array(path, mapped=part not in _READ) for part, path in paths.items()}
        )
    except (OSError, ValueError, KeyError) as exc:
        raise SnapshotError(f"damaged facts snapshot: {type(exc).__name__}: {exc}") from exc
    sizes = {
        len(block.ids),
        len(block.created),
        len(block.chars),
        len(block.source),
        len(block.offsets) - 1,
    }
    if sizes != {block.size} or block.size != manifest.get("count"):
        raise SnapshotError("the facts snapshot's files disagree on its size")
    if block.size:
        last = int(np.argmax(block.seqs))
        FILES.check_store(conn, int(block.seqs[last]), block.ids[last].decode())
    return block, int(manifest["log_id"])
