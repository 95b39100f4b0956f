"""Reads recall makes while its keyword leg is still running (PostgreSQL).

On PostgreSQL the keyword leg (BM25 over ``tsvector``, ranked to a depth of 1,000) is
recall's longest read, and it runs on a worker thread beside query embedding and the
dense search. The dense leg usually ends first, and the calling thread then waited
for the keyword leg doing nothing. The reads that do not need the keyword leg's
answer run in that wait instead of after it: the memories written near a time the
query names, and the facts (creation time, session, length) of the dense leg's and
the time leg's candidates. Their answers are the ones the same reads gave after the
wait: nothing in a recall writes, and each read is keyed by the ids it asks about.

A read made here that fails does not hide a failure of the keyword leg: the keyword
leg's error is the recall's, as it was when its answer was taken first.

On SQLite, the count of memories without a vector (``count_bare``) is read beside the
model with the other reads ahead (``workers.Batch``), not on the calling thread after
the dense search.

``StaleAhead`` starts the read of which candidates stated a fact since closed (issue
28) on a worker as soon as the candidates are known, beside their facts and fusion,
instead of after fusion.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

from engram.config import RecallConfig
from engram.errors import EngramError
from engram.recall import temporal, workers
from engram.recall.current import StaleReader, wanted
from engram.recall.request import Clock, Legs, RecallRequest
from engram.records import MemoryRecord
from engram.store.protocols import ListQuery, MemoryStore, VectorStore
from engram.store.protocols.memories import FactColumns, MemoryFacts

_T = TypeVar("_T")


def before_join(pending: Future[Any] | None, read: Callable[[], _T], what: str) -> _T:
    """``read()``, made while ``pending`` (the keyword leg, ``what``) may still run.

    If ``read`` fails and so did ``pending``, ``pending``'s error is raised (the error
    recall gave when it took the keyword leg's answer before making ``read``)."""
    try:
        return read()
    except EngramError:
        if pending is not None:
            workers.joined(pending, what)
        raise


def waiting(pending: Future[Any] | None) -> bool:
    """True while ``pending`` runs: a read made now overlaps it instead of following it."""
    return pending is not None and not pending.done()


def facts_of(
    memories: MemoryStore,
    namespace: str,
    ids: Sequence[str],
    known: Mapping[str, MemoryRecord],
    read: Mapping[str, MemoryFacts] | None = None,
) -> FactColumns:
    """``MemoryStore.facts`` of ``ids`` (as columns), taken from records already read
    (filtered recalls, time-matched candidates) or facts already ``read`` (while the
    keyword leg ran), and read for the rest."""
    have = {i: MemoryFacts.of(r) for i in ids if (r := known.get(i)) is not None}
    if read:
        have.update((i, f) for i in ids if i not in have and (f := read.get(i)) is not None)
    missing = [i for i in ids if i not in have] if have else ids
    if not missing:
        return FactColumns.of(have)
    out = memories.facts(namespace, missing)
    if have:
        out.update(have)
    return out


def while_keyword(
    memories: MemoryStore, request: RecallRequest, cfg: RecallConfig, legs: Legs, clock: Clock
) -> None:
    """The time leg and the facts of the dense and time candidates, read while the
    keyword leg runs (a keyword leg runs: not RECENT)."""
    time_leg(memories, request, cfg, legs, clock)
    ids = list(dict.fromkeys([*legs.dense_ranking, *legs.time_ids]))
    legs.facts.update(facts_of(memories, request.namespace, ids, legs.time_records, legs.facts))
    clock.lap("facts")


def count_bare(reads: workers.Batch, vectors: VectorStore, namespace: str) -> Future[int] | None:
    """The count of ``namespace``'s memories without a vector (the dense leg's warning),
    queued in ``reads`` when it queues (SQLite: one task beside the model, where it costs
    the calling thread nothing); else None, and the dense leg reads it after its search
    (PostgreSQL: one more round trip at once would compete for the recall's workers)."""
    return reads.submit(vectors.unembedded, namespace) if reads.queues else None


def unembedded(vectors: VectorStore, namespace: str, pending: Future[int] | None) -> int:
    """The count of ``namespace``'s memories without a vector: ``pending``'s, when it was
    read beside the model (SQLite's reads ahead, ``workers.Batch``), else read now."""
    if pending is None:
        return vectors.unembedded(namespace)
    return workers.joined(pending, "the count of memories without a vector")


def time_leg(
    memories: MemoryStore, request: RecallRequest, cfg: RecallConfig, legs: Legs, clock: Clock
) -> None:
    """The time leg: the memories written near a time the query names, in ``legs`` (read
    in the keyword leg's wait on PostgreSQL, after the legs elsewhere)."""
    legs.near_read = True
    span = temporal.search_span(legs.windows)
    if span is not None and cfg.time_candidates:
        # A query naming a time also draws memories from that time, even if its words
        # and meaning alone would not rank them.
        near = memories.select(
            request.namespace,
            ListQuery(created_after=span[0], created_before=span[1], limit=cfg.time_candidates),
        )
        legs.time_ids = [r.id for r in near]
        legs.time_records = {r.id: r for r in near}
        if not near:
            # Nothing was written near the named time ("4 years ago" when the memories
            # start last year): nearness would only favour whatever happens to be
            # closest, so time plays no part in this recall.
            legs.windows = []
        clock.lap("time")


def time_scores(legs: Legs, candidate_ids: Sequence[str], facts: FactColumns) -> dict[str, float]:
    """How near each candidate was written to the times the query names."""
    if not legs.windows:
        return {}
    records = legs.time_records
    out: dict[str, float] = {}
    for i in candidate_ids:
        record = records.get(i)
        if record is not None:
            out[i] = temporal.nearness(legs.windows, record.created_at)
        elif i in facts:
            out[i] = temporal.nearness(legs.windows, facts.created_at(i))
    return out


class StaleAhead:
    """A ``StaleReader`` (issue 28) whose answer for a recall's candidates was started
    on a worker before the facts read (PostgreSQL: it then overlaps that read, the
    sessions' and the dense leg's completion; fusion waits for it). Asked for ids, it
    gives that answer's members among them and reads the ids it was not asked about
    (session neighbours that joined the candidates after): what reading the ids gives,
    as ``current.closed``'s callers only test membership. A failure is the read's own,
    raised when asked, so ``closed`` warns about it as before."""

    def __init__(self, reader: StaleReader, asked: frozenset[str], early: Future[set[str]]):
        self._reader = reader
        self._asked = asked
        self._early = early

    @classmethod
    def start(
        cls,
        pool: workers.Workers,
        reader: StaleReader,
        request: RecallRequest,
        cfg: RecallConfig,
        ids: Sequence[str],
    ) -> StaleReader:
        """``reader`` with its read of ``ids`` started on ``pool``, when ``closed``
        will read; else ``reader`` itself."""
        if not ids or not wanted(reader, request.query, cfg):
            return reader
        asked = list(ids)
        return cls(reader, frozenset(asked), pool.submit(reader, request.namespace, asked))

    def __call__(self, namespace: str, ids: Sequence[str]) -> set[str]:
        wanted_ids = set(ids)
        old = self._early.result() & wanted_ids
        rest = [i for i in ids if i not in self._asked]
        if rest:
            old |= self._reader(namespace, rest)
        return old
