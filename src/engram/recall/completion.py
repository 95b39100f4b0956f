"""The keyword leg's candidates completed where they are found (PostgreSQL; SQLite's facts).

Fusion weighs every candidate by both legs: a candidate only the keyword leg found
needs its cosine to the query, and every candidate its facts (creation time, session,
length). On PostgreSQL each read is a round trip, and those two reads followed the
join on the keyword leg: about 2 ms of a 100k recall's reads after the dense leg. The
keyword leg's top ids and the query vector are each known earlier, on different
threads: the ids when the keyword search returns (its worker), the vector once the
query is embedded (the calling thread). Whichever comes second reads the ids'
cosines and facts (``FactsAlong``): the worker in a statement of its own right after
its search, beside the dense leg; or the calling thread in the dense search's own
round trip, when the keyword leg ended first (the model's time is usually longer
than it). Neither thread ever waits for the other (``Handoff``), and recall reads
what neither read as before, so every answer is the one the same reads gave after the
join (nothing in a recall writes, and each read is keyed by the ids it asks about).

A completion read on the worker that fails is dropped: the recall reads those ids
itself, as before, and a failure then is its own.

On SQLite a read costs less than a hand-off between threads, but the keyword leg's
worker is idle from its search's end to the model's (lat21): it reads its top ids'
facts then (``facts_ahead``), which the store keeps for the recall's own read.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, TypeGuard

import numpy as np
import numpy.typing as npt

from engram.errors import EngramError
from engram.store.protocols.memories import MemoryFacts
from engram.store.protocols.vectors import FactsAlong, Gathered, VectorsAhead, VectorSearch

if TYPE_CHECKING:
    from engram.recall.chunks import PooledDense
    from engram.recall.request import Legs

log = logging.getLogger("engram.recall")

Vector = npt.NDArray[np.float32]
Ranking = list[tuple[str, float]]


@dataclass(frozen=True, slots=True)
class Completion:
    """The cosines of the keyword leg's top ids (``asked``; an id without a live vector
    has none) and their facts (an id that is not a live memory has none)."""

    asked: frozenset[str]
    cosines: dict[str, float]
    facts: dict[str, MemoryFacts] = field(default_factory=dict)


class Handoff:
    """Which thread completes the keyword leg's ids: the one that arrives second, once.

    ``vector`` (the calling thread, once the query is embedded) and ``ranked`` (the
    keyword leg's worker, once its search returned) each give what their thread
    knows and get back what the other gave, if it is there and nobody took it yet."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._vector: Vector | None = None
        self._ids: list[str] | None = None
        self._taken = False

    def vector(self, vector: Vector) -> list[str] | None:
        """The query vector is known: the keyword leg's ids to complete now, or None
        (its search has not returned, or another thread completes them)."""
        with self._lock:
            self._vector = vector
            if not self._ids or self._taken:
                return None
            self._taken = True
            return self._ids

    def ranked(self, ids: list[str]) -> Vector | None:
        """The keyword leg's ids are known: the query vector to complete them with now,
        or None (not embedded yet, or another thread completes them)."""
        with self._lock:
            self._ids = ids
            if not ids or self._vector is None or self._taken:
                return None
            self._taken = True
            return self._vector


def keyword_leg(
    search: Callable[[str, str, int], Ranking],
    scorer: FactsAlong,
    handoff: Handoff,
    namespace: str,
    match: str,
    depth: int,
    *,
    top: int,
) -> tuple[Ranking, Completion | None]:
    """The keyword leg's ranking (``search``), and its first ``top`` ids completed when
    the query vector was there before it (run on the keyword leg's worker)."""
    found = search(namespace, match, depth)
    ids = [memory_id for memory_id, _ in found[:top]]
    vector = handoff.ranked(ids)
    if vector is None:
        return found, None
    try:
        cosines, facts = scorer.scores_facts(namespace, vector, ids)
    except EngramError as exc:  # the recall reads them itself, and fails on its own
        log.debug("the keyword leg's completion was not read: %s", exc)
        return found, None
    return found, Completion(frozenset(ids), cosines, facts)


def facts_ahead(
    search: Callable[[str, str, int], Ranking],
    facts: Callable[[str, Sequence[str]], object],
    namespace: str,
    match: str,
    depth: int,
    *,
    top: int,
    gather: Callable[[str, Sequence[str]], Gathered] | None = None,
) -> Ranking | tuple[Ranking, Gathered | None]:
    """The keyword leg's ranking (``search``), its first ``top`` ids' facts read right
    after it, on the leg's worker, while the calling thread runs the model (SQLite).

    The store keeps the facts it reads (a large namespace's ``FactBlock`` its kept
    rows, a small one's cache while the database is unchanged), so the recall's own
    read of every candidate's facts then finds these and gathers only the others: the
    same facts, read off the calling thread (docs/benchmarks.md, "The fuse stage's
    cold reads"). A failed read is dropped: the recall reads those ids itself.

    With ``gather`` (an in-memory index's ``VectorsAhead.gather``) those ids' vectors
    are copied out too, and returned beside the ranking: the cosines of the keyword-only
    candidates are then one product on the calling thread, not a search of their rows
    in the index made after the model evicted it from the caches (docs/benchmarks.md,
    "Recall's fuse stage at 100k")."""
    found = search(namespace, match, depth)
    ids = [memory_id for memory_id, _ in found[:top]]
    if ids:
        try:
            facts(namespace, ids)
        except EngramError as exc:
            log.debug("the keyword leg's facts were not read ahead: %s", exc)
    if gather is None:
        return found
    vectors = None
    if ids:
        try:
            vectors = gather(namespace, ids)
        except EngramError as exc:
            log.debug("the keyword leg's vectors were not gathered ahead: %s", exc)
    return found, vectors


Answer = Ranking | tuple[Ranking, Completion | None] | tuple[Ranking, Gathered | None]


def leg(
    search: Callable[[str, str, int], Ranking],
    scorer: object,
    handoff: Handoff | None,
    top: int,
    facts: Callable[[str, Sequence[str]], object] | None = None,
) -> Callable[[str, str, int], Answer]:
    """The keyword leg's work on its worker: ``search``, and with a ``handoff`` its
    first ``top`` ids completed by ``scorer`` (``keyword_leg``); else, given a
    ``facts`` reader (the store's, when it keeps what it reads), those ids' facts read
    ahead, and their vectors gathered when ``scorer`` can (``facts_ahead``)."""
    if handoff is None or not isinstance(scorer, FactsAlong):
        if facts is not None:
            gather = scorer.gather if _gathers(scorer) else None
            return partial(facts_ahead, search, facts, top=top, gather=gather)
        return search
    return partial(keyword_leg, search, scorer, handoff, top=top)


#: Whether a dense leg's class is ``VectorsAhead`` (``_gathers``), by class.
_GATHERS: dict[type, bool] = {}


def _gathers(scorer: object) -> TypeGuard[VectorsAhead]:
    """Whether ``scorer`` is ``VectorsAhead``, asked once per class: a protocol's
    ``isinstance`` walks its members on every call (~18 µs a recall at 100k, lat29's
    timing of ``completion.leg``). The protocol has only methods, so the class answers
    for each of its instances."""
    kind = type(scorer)
    known = _GATHERS.get(kind)
    if known is None:
        known = _GATHERS[kind] = issubclass(kind, VectorsAhead)
    return known


def joined(legs: Legs, answer: Answer) -> Ranking:
    """The keyword leg's ranking from its worker's ``answer``; its completion, if it
    read one, goes to ``legs`` (the facts of ids read by the dense search too are
    the same, and kept), and so do the vectors it gathered."""
    if not isinstance(answer, tuple):
        return answer
    found, done = answer
    if isinstance(done, Completion):
        _keep(legs, done)
    elif done is not None:
        legs.gathered = done
    return found


def _keep(legs: Legs, done: Completion) -> None:
    """``done`` is the recall's completion; its facts join those the legs read (an id
    read by both has the same facts: the first stays)."""
    legs.completion = done
    for memory_id, facts in done.facts.items():
        legs.facts.setdefault(memory_id, facts)


def dense_search(
    scorer: VectorSearch | PooledDense,
    handoff: Handoff | None,
    legs: Legs,
    namespace: str,
    k: int,
) -> Ranking:
    """The dense leg's search of ``legs.query_vector``; when the keyword leg ended
    before it, that leg's top ids' cosines and facts read in its round trip."""
    vector = legs.query_vector
    assert vector is not None
    others = handoff.vector(vector) if handoff is not None else None
    if others and isinstance(scorer, FactsAlong):
        found, near, facts = scorer.search_facts(namespace, vector, k, others)
        _keep(legs, Completion(frozenset(others), near, facts))
        return found
    return scorer.search(namespace, vector, k)


def cosines(legs: Legs, unranked: Sequence[str], dense: dict[str, float]) -> set[str]:
    """The cosines the keyword leg's worker completed (``legs.completion``) or gathered
    the vectors of (``legs.gathered``), of the candidates the dense leg did not rank
    (``unranked``), added to ``dense``; returned: those of them it asked about, which
    need no read. None without the query vector (the dense leg failed: no cosines are
    used), nor from vectors gathered that the index no longer holds as they were."""
    done: Completion | Gathered | None = legs.completion or legs.gathered
    vector = legs.query_vector
    if done is None or vector is None:
        return set()
    if isinstance(done, Gathered) and not done.current():
        return set()
    asked = {i for i in unranked if i in done.asked}
    if isinstance(done, Gathered):
        dense.update(done.scores(vector, [i for i in unranked if i in asked]))
    else:
        dense.update((i, c) for i in unranked if (c := done.cosines.get(i)) is not None)
    return asked
