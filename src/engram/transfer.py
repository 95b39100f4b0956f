"""Lossless export and import of a store as JSONL (FEATURES I2).

The file is one JSON object per line::

    {"engram_export": 1, "created_at": ..., "engram_version": ..., "namespaces": [...] | null,
     "vectors": true | false}
    {"kind": "memory", "memory": {...every MemoryRecord field...}}
    {"kind": "history", "memory_id": ..., "event": ..., "before": ..., "after": ..., ...}
    {"kind": "feedback", "memory_id": ..., "rating": 1, "comment": ..., "created_at": ...}
    {"kind": "vector", "memory_id": ..., "model": ..., "dim": 384, "content_hash": ...,
     "vector": "<base64 of little-endian float32>"}
    ...
    {"kind": "transcript", "namespace": ..., "session_key": ..., "content": ..., ...}
    {"kind": "row", "table": "runs", "row": {...canonical columns...}, "n": 2}
    {"kind": "end", "memories": N, "history": N, "feedback": N, "vectors": N,
     "transcripts": N, "rows": N}

``row`` lines (format 2) carry every other table ``engram.store.tables`` lists, parents
first, as ``engram.table_copy`` writes them; a format 1 file has none.

A memory's history, feedback and vector lines follow its own line. Memories appear in
id order, tombstoned ones included; the ``end`` line lets import tell a whole file from
a truncated one.

``import_jsonl`` reads the file twice. The first pass checks every line and writes
nothing, so a malformed file changes nothing and the error names its line. The second
pass imports batches of memories with their rows, one transaction each, and holds the
``row`` lines aside (``engram.transfer_order``) until every memory is in: then they are
imported parents first, wherever they sit in the file, so one import is complete. A
memory whose id is already stored, or whose content is already live in its namespace,
is skipped with its rows, so importing a file twice is a no-op, and an import that
stopped half way (the store failed, the process was killed) finishes when run again.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from engram import transfer_lines as lines
from engram._version import __version__
from engram.errors import InvalidInputError, shown
from engram.records import HistoryEntry, MemoryCategory, MemoryRecord, MemoryType, iso, utcnow
from engram.store.protocols import (
    FeedbackRow,
    ImportCounts,
    MemoryBundle,
    Store,
    TableRow,
    TranscriptRow,
    VectorRow,
)
from engram.store.protocols.record import Record
from engram.table_copy import RowImport, export_row_lines, row_from_line
from engram.text import normalize_content
from engram.transfer_order import RowSpool
from engram.validate import namespace_for

#: The format this engram writes, and the newest it reads.
FORMAT_VERSION = 2
#: Memories per page on export and per transaction on import.
BATCH = 500

Progress = Callable[[int, int], None]
Item = MemoryBundle | TranscriptRow | TableRow
#: Sees each item an import reads: returns it (possibly changed) or why to skip it.
Screen = Callable[[Item], Item | str]


@dataclass(frozen=True, slots=True)
class ExportCounts(Record):
    """How many rows of each kind an export wrote."""

    memories: int = 0
    history: int = 0
    feedback: int = 0
    vectors: int = 0
    transcripts: int = 0
    rows: int = 0


# -- export -------------------------------------------------------------------------
def export_total(store: Store, namespaces: Sequence[str] | None) -> int:
    """How many memories, tombstoned ones included, an export of ``namespaces`` holds."""
    if namespaces is None:
        stats = store.stats(None)
        return sum(stats.memories.values()) + stats.tombstoned
    return sum(store.memories.count(ns, include_deleted=True) for ns in namespaces)


def export_jsonl(
    store: Store,
    out: TextIO,
    *,
    namespaces: Sequence[str] | None = None,
    vectors: bool = False,
    batch_size: int = BATCH,
    progress: Progress | None = None,
) -> ExportCounts:
    """Write the memories of ``namespaces`` (all when None), their history, feedback,
    transcripts and, with ``vectors``, their vectors to ``out``."""
    ns = None if namespaces is None else list(dict.fromkeys(namespaces))
    total = export_total(store, ns) if progress is not None else 0
    header = {
        "engram_export": FORMAT_VERSION,
        "created_at": iso(utcnow()),
        "engram_version": __version__,
        "namespaces": ns,
        "vectors": vectors,
    }
    _write(out, header)
    memories = history = feedback = vector_rows = transcripts = 0
    after: str | None = None
    while page := store.transfer.export_bundles(
        after=after, limit=batch_size, namespaces=ns, vectors=vectors
    ):
        for bundle in page:
            _write(out, {"kind": "memory", "memory": bundle.record.to_dict()})
            for entry in bundle.history:
                _write(out, _history_line(entry))
            for row in bundle.feedback:
                _write(out, _feedback_line(row))
            if bundle.vector is not None:
                _write(out, _vector_line(bundle.vector))
            memories += 1
            history += len(bundle.history)
            feedback += len(bundle.feedback)
            vector_rows += bundle.vector is not None
        after = page[-1].record.id
        if progress is not None:
            progress(memories, max(total, memories))
    key: tuple[str, str] | None = None
    while rows := store.transfer.export_transcripts(after=key, limit=batch_size, namespaces=ns):
        for transcript in rows:
            _write(
                out,
                {
                    "kind": "transcript",
                    "namespace": transcript.namespace,
                    "session_key": transcript.session_key,
                    "content": transcript.content,
                    "agent_id": transcript.agent_id,
                    "created_at": iso(transcript.created_at),
                },
            )
        transcripts += len(rows)
        key = (rows[-1].namespace, rows[-1].session_key)
    carried = export_row_lines(store, lambda line: _write(out, line), ns)
    counts = ExportCounts(memories, history, feedback, vector_rows, transcripts, carried)
    _write(out, {"kind": "end", **counts.to_dict()})
    return counts


def _write(out: TextIO, obj: Mapping[str, Any]) -> None:
    out.write(json.dumps(obj, ensure_ascii=False) + "\n")


def _history_line(entry: HistoryEntry) -> dict[str, Any]:
    data = entry.to_dict()
    data.pop("id")  # a local row id: the importing store assigns its own
    return {"kind": "history", **data}


def _feedback_line(row: FeedbackRow) -> dict[str, Any]:
    return {
        "kind": "feedback",
        "memory_id": row.memory_id,
        "namespace": row.namespace,
        "rating": row.rating,
        "comment": row.comment,
        "created_at": iso(row.created_at),
    }


def _vector_line(row: VectorRow) -> dict[str, Any]:
    vector = np.asarray(row.vector, dtype="<f4")
    return {
        "kind": "vector",
        "memory_id": row.memory_id,
        "model": row.model,
        "dim": int(vector.shape[0]),
        "content_hash": row.content_hash,
        "vector": base64.b64encode(vector.tobytes()).decode("ascii"),
    }


# -- import -------------------------------------------------------------------------
def import_jsonl(
    store: Store,
    path: str | os.PathLike[str],
    *,
    vectors: bool = True,
    batch_size: int = BATCH,
    progress: Progress | None = None,
    screen: Screen | None = None,
) -> ImportCounts:
    """Import an export file into ``store``; see the module docstring for the rules.

    Raises ``InvalidInputError`` naming the line when the file is not a whole, valid
    export of a format this engram reads; nothing is written then. ``vectors=False``
    leaves vectors out (``engram reindex`` makes them). ``screen`` sees every memory
    and transcript before it is imported: it returns the item to import (possibly
    changed, e.g. flagged) or a reason to skip it (counted as ``blocked``).
    """
    file = Path(path)
    total, dims = check_file(file)
    if vectors:
        _check_dimensions(store, dims, file)
    if progress is not None:
        progress(0, total)
    counts = ImportCounts()
    done = 0
    bundles: list[MemoryBundle] = []
    transcripts: list[TranscriptRow] = []
    rows = RowImport(store, batch_size, screen)

    def flush() -> None:
        nonlocal counts, done
        if bundles:
            counts += store.transfer.import_bundles(bundles)
            done += len(bundles)
            bundles.clear()
            if progress is not None:
                progress(done, total)
        if transcripts:
            counts += store.transfer.import_transcripts(transcripts)
            transcripts.clear()

    with closing(RowSpool()) as spool:
        for item in _items(file):
            if isinstance(item, TableRow):  # after every memory: their rows may point at them
                spool.add(item)
                continue
            if screen is not None:
                screened = screen(item)
                if isinstance(screened, str):
                    key = (
                        item.record.id
                        if isinstance(item, MemoryBundle)
                        else f"transcript {item.namespace}/{item.session_key}"
                    )
                    counts += ImportCounts(blocked=1, blocked_items=((key, screened),))
                    continue
                item = screened
            if isinstance(item, MemoryBundle):
                if not vectors and item.vector is not None:
                    item = MemoryBundle(item.record, item.history, item.feedback, None)
                bundles.append(item)
            elif isinstance(item, TranscriptRow):
                transcripts.append(item)
            if len(bundles) >= batch_size or len(transcripts) >= batch_size:
                flush()
        flush()
        for row in spool.rows():
            rows.add(row)
    return counts + rows.finish()


def made_at(file: Path) -> datetime:
    """When an export was made (its header's ``created_at``; the epoch when it has none):
    ``Erasure.undone_since`` names the erases made after it that an import undid."""
    with file.open(encoding="utf-8") as f:
        header = json.loads(f.readline() or "{}")
    try:
        made = lines.time_field(header, "created_at")
    except (lines.Problem, KeyError, TypeError, ValueError, AttributeError):
        return datetime.fromtimestamp(0, UTC)
    return made if made.tzinfo is not None else made.replace(tzinfo=UTC)


def check_file(file: Path) -> tuple[int, dict[str, int]]:
    """Read the whole file and raise on the first problem; returns the memory count and
    the dimension of each vector model."""
    total = 0
    dims: dict[str, int] = {}
    for item in _items(file):
        if isinstance(item, MemoryBundle):
            total += 1
            if item.vector is not None:
                dim = int(item.vector.vector.shape[0])
                if dims.setdefault(item.vector.model, dim) != dim:
                    raise InvalidInputError(
                        f"{file}: vectors of model {shown(item.vector.model)} have dimensions "
                        f"{dims[item.vector.model]} and {dim}"
                    )
    return total, dims


def _check_dimensions(store: Store, dims: Mapping[str, int], file: Path) -> None:
    stored = store.vectors.dimensions()
    for model, dim in dims.items():
        if model in stored and stored[model] != dim:
            raise InvalidInputError(
                f"{file}: its vectors from {shown(model)} have dimension {dim} but this "
                "store's have "
                f"{stored[model]}; import without vectors and run `engram reindex`"
            )


def _items(file: Path) -> Iterator[Item]:
    """The file's bundles (a memory with its rows) and transcripts, in file order."""
    try:
        # Bytes, decoded line by line: a text-mode file decodes ahead in 8 KiB blocks,
        # so a bad byte was reported at the line being read, not the line holding it.
        handle = file.open("rb")
    except OSError as exc:
        raise InvalidInputError(f"cannot read {file}: {exc.strerror or exc}") from None
    number = 0
    current: _Bundle | None = None
    counts = dict.fromkeys(ExportCounts.__dataclass_fields__, 0)
    ended = False
    try:
        with handle:
            for number, raw in enumerate(handle, start=1):
                line = lines.line_text(raw)
                if not line.strip():
                    continue
                data = lines.json_object(line)
                if number == 1:
                    _header(data)
                    continue
                if ended:
                    raise lines.Problem("content after the 'end' line")
                kind = data.get("kind")
                if kind == "memory":
                    lines.exact_keys(data, {"kind", "memory"}, "a memory line")
                    if current is not None:
                        yield current.bundle()
                    current = _Bundle(_record(lines.field(data, "memory", dict)))
                    counts["memories"] += 1
                elif kind in ("history", "feedback", "vector"):
                    if current is None or data.get("memory_id") != current.record.id:
                        raise lines.Problem(f"a {kind} line must follow the line of its memory")
                    current.add(kind, data)
                    counts["vectors" if kind == "vector" else kind] += 1
                elif kind == "transcript":
                    counts["transcripts"] += 1
                    yield _transcript(data)
                elif kind == "row":
                    counts["rows"] += 1
                    yield row_from_line(data, lines.Problem)
                elif kind == "end":
                    _end(data, counts)
                    ended = True
                else:
                    raise lines.Problem(f"unknown kind {shown(kind)}")
    except lines.Problem as exc:
        instead = lines.what_it_is(file) if number == 1 else None
        raise InvalidInputError(instead or f"{file}, line {number}: {exc}") from None
    except OSError as exc:
        raise InvalidInputError(f"cannot read {file}: {exc.strerror or exc}") from None
    if number == 0:
        raise InvalidInputError(f"{file} is empty: it is not an engram export")
    if not ended:
        raise InvalidInputError(
            f"{file} ends at line {number} without its 'end' line: the file is truncated"
        )
    if current is not None:
        yield current.bundle()


class _Bundle:
    """A memory and the rows read after it so far."""

    def __init__(self, record: MemoryRecord) -> None:
        self.record = record
        self.history: list[HistoryEntry] = []
        self.feedback: list[FeedbackRow] = []
        self.vector: VectorRow | None = None

    def add(self, kind: str, data: Mapping[str, Any]) -> None:
        if kind == "history":
            self.history.append(_history(data, self.record))
        elif kind == "feedback":
            self.feedback.append(_feedback(data, self.record))
        else:
            if self.vector is not None:
                raise lines.Problem(f"a second vector for memory {self.record.id}")
            self.vector = _vector(data)

    def bundle(self) -> MemoryBundle:
        return MemoryBundle(self.record, tuple(self.history), tuple(self.feedback), self.vector)


def _header(data: Mapping[str, Any]) -> None:
    version = data.get("engram_export")
    if isinstance(version, bool) or not isinstance(version, int):
        raise lines.Problem("not an engram export: the first line has no 'engram_export' version")
    if version > FORMAT_VERSION:
        raise lines.Problem(
            f"export format {version} was written by a newer engram; this engram reads "
            f"format {FORMAT_VERSION} and older: upgrade engram to import it"
        )
    if version < 1:
        raise lines.Problem(f"unknown export format {version}")


def _end(data: Mapping[str, Any], counts: Mapping[str, int]) -> None:
    for name, seen in counts.items():
        expected = data.get(name, 0 if name == "rows" else None)  # format 1 has no rows
        if expected != seen:
            raise lines.Problem(
                f"the 'end' line says {shown(expected)} {name} but the file holds {seen}: "
                "the file is incomplete or was edited"
            )


# How each MemoryRecord field is read, by its annotation.
_READERS: dict[str, Callable[[Mapping[str, Any], str], Any]] = {
    "str": lines.text_field,
    "str | None": lambda d, n: lines.text_field(d, n, optional=True),
    "MemoryType": lambda d, n: lines.enum(d, n, MemoryType),
    "MemoryCategory | None": lambda d, n: lines.enum(d, n, MemoryCategory, optional=True),
    "tuple[str, ...]": lines.strings,
    "float | None": lines.number,
    "int": lambda d, n: lines.field(d, n, int),
    "dict[str, Any]": lambda d, n: lines.field(d, n, dict),
    "datetime": lines.time_field,
    "datetime | None": lines.maybe_time,
}
_RECORD_FIELDS = {f.name: str(f.type) for f in fields(MemoryRecord)}


def _record(data: Mapping[str, Any]) -> MemoryRecord:
    lines.exact_keys(data, set(_RECORD_FIELDS), "memory")
    values = {name: _READERS[kind](data, name) for name, kind in _RECORD_FIELDS.items()}
    record = MemoryRecord(**values)
    if not record.id:
        raise lines.Problem("a memory needs a non-empty id")
    _namespace(record.namespace)
    if normalize_content(record.content).content_hash != record.content_hash:
        raise lines.Problem(f"memory {record.id}: content_hash does not match its content")
    return record


def _namespace(name: str) -> None:
    # An export keeps what its store held, a namespace from before the rule on its ends
    # included (``validate.namespace_for``'s ``held``), so a backup restores as it was.
    try:
        namespace_for(name, None, None, None, name, held=lambda _: True)
    except InvalidInputError as exc:
        raise lines.Problem(str(exc)) from None


def _same_memory(data: Mapping[str, Any], record: MemoryRecord) -> None:
    if lines.text_field(data, "namespace") != record.namespace:
        raise lines.Problem(f"namespace differs from its memory's ({shown(record.namespace)})")


_HISTORY_KEYS = {"kind", "memory_id", "namespace", "event", "before", "after", "actor"}
_HISTORY_KEYS |= {"reason", "created_at"}


def _history(data: Mapping[str, Any], record: MemoryRecord) -> HistoryEntry:
    lines.exact_keys(data, _HISTORY_KEYS, "history")
    _same_memory(data, record)
    created = lines.time_field(data, "created_at")
    return HistoryEntry(
        id=0,  # the importing store assigns the row id
        memory_id=record.id,
        namespace=record.namespace,
        event=lines.text_field(data, "event"),
        before=lines.field(data, "before", (dict, type(None))),
        after=lines.field(data, "after", (dict, type(None))),
        actor=lines.text_field(data, "actor", optional=True),
        reason=lines.text_field(data, "reason", optional=True),
        created_at=created,
    )


def _feedback(data: Mapping[str, Any], record: MemoryRecord) -> FeedbackRow:
    lines.exact_keys(
        data, {"kind", "memory_id", "namespace", "rating", "comment", "created_at"}, "feedback"
    )
    _same_memory(data, record)
    rating = lines.field(data, "rating", int)
    if rating not in (1, -1):
        raise lines.Problem(f"rating must be 1 or -1, got {shown(rating)}")
    created = lines.time_field(data, "created_at")
    return FeedbackRow(
        memory_id=record.id,
        namespace=record.namespace,
        rating=rating,
        comment=lines.text_field(data, "comment", optional=True),
        created_at=created,
    )


def _vector(data: Mapping[str, Any]) -> VectorRow:
    lines.exact_keys(
        data, {"kind", "memory_id", "model", "dim", "content_hash", "vector"}, "vector"
    )
    dim = lines.field(data, "dim", int)
    try:
        raw = base64.b64decode(lines.text_field(data, "vector"), validate=True)
    except (binascii.Error, ValueError):
        raise lines.Problem("field 'vector' is not base64") from None
    if dim < 1 or len(raw) != 4 * dim:
        raise lines.Problem(f"the vector holds {len(raw) // 4} float32 values, not dim={dim}")
    return VectorRow(
        memory_id=lines.text_field(data, "memory_id"),
        model=lines.text_field(data, "model"),
        vector=np.frombuffer(raw, dtype="<f4").astype(np.float32),
        content_hash=lines.text_field(data, "content_hash"),
    )


def _transcript(data: Mapping[str, Any]) -> TranscriptRow:
    lines.exact_keys(
        data,
        {"kind", "namespace", "session_key", "content", "agent_id", "created_at"},
        "transcript",
    )
    created = lines.time_field(data, "created_at")
    _namespace(lines.text_field(data, "namespace"))
    return TranscriptRow(
        namespace=lines.text_field(data, "namespace"),
        session_key=lines.text_field(data, "session_key"),
        content=lines.text_field(data, "content"),
        agent_id=lines.text_field(data, "agent_id", optional=True),
        created_at=created,
    )
