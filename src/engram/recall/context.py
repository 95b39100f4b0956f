"""Session context: scoring a memory together with the episode it belongs to.

Memories that share a ``session_id`` form an episode (one conversation, one run). A
turn such as "Yes, last week!" is only relevant through its neighbours, and a question
about an episode matches the episode as a whole better than any single turn. So each
leg's score of a memory is blended with:

- **context**: its score smoothed with its immediate neighbours in the session
  (ordered by time): dense ``(s + ½ s_prev + ½ s_next) / (1 + ½·neighbours)``, keyword
  ``b + b_prev + b_next`` (as if the three turns were one document);
- **session**: the session's aggregate: the mean dense similarity of its members, and
  the sum of squared keyword scores of its members (rewarding several strong matches
  over many weak ones).

Memories without a session, or in a session too large to be one episode, are their
own context. All functions are pure: they take scores and the session structure and
return per-candidate features.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engram.config import RecallConfig
from engram.records import RecallMode
from engram.store.protocols.memories import FactColumns, MemoryStore

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Sessions:
    """Ordered live members of the candidates' sessions."""

    members: Mapping[str, Sequence[str]]
    """Session id -> member memory ids, oldest first."""
    session_of: Mapping[str, str]
    """Memory id -> its session id, for every member of ``members``."""
    position: Mapping[str, int]
    """Memory id -> its index in its session's member list."""

    @classmethod
    def from_members(cls, members: Mapping[str, Sequence[str]]) -> Sessions:
        """Index ``members`` (session id -> ordered member ids)."""
        session_of: dict[str, str] = {}
        position: dict[str, int] = {}
        for session, ids in members.items():
            for at, memory_id in enumerate(ids):
                session_of[memory_id] = session
                position[memory_id] = at
        return cls(members, session_of, position)

    @classmethod
    def empty(cls) -> Sessions:
        """No session structure: every memory is its own context."""
        return cls({}, {}, {})

    def without(self, ids: frozenset[str] | set[str]) -> Sessions:
        """These sessions with ``ids`` taken out: each becomes its own context, and its
        neighbours each other's (``current.closed``: a statement of a fact since closed
        lends its neighbours no context when the query asks about now)."""
        if not ids or not any(i in self.session_of for i in ids):
            return self
        members = {s: [m for m in ms if m not in ids] for s, ms in self.members.items()}
        return Sessions.from_members({s: ms for s, ms in members.items() if ms})

    def all_ids(self) -> list[str]:
        """Every member of every session."""
        return list(self.session_of)

    def neighbours(self, memory_id: str) -> tuple[str | None, str | None]:
        """The members just before and after ``memory_id`` in its session."""
        session = self.session_of.get(memory_id)
        if session is None:
            return None, None
        ids = self.members[session]
        at = self.position[memory_id]
        before = ids[at - 1] if at > 0 else None
        after = ids[at + 1] if at + 1 < len(ids) else None
        return before, after


def _max_normalised(values: Mapping[str, float]) -> dict[str, float]:
    best = max(values.values(), default=0.0)
    if best <= 0:
        return {k: 0.0 for k in values}
    return {k: v / best for k, v in values.items()}


def dense_context(
    candidates: Iterable[str],
    sims: Mapping[str, float],
    sessions: Sessions,
    previous: float = 0.5,
) -> tuple[dict[str, float], dict[str, float]]:
    """Per candidate: (neighbour-smoothed cosine, session mean cosine), clipped at 0.
    ``previous`` weighs the neighbour before, the one after weighs ½."""
    if not sessions.session_of:
        # No candidate is in a session: each is its own context and its own session,
        # the same values without a neighbour lookup per candidate.
        alone = {i: max(0.0, sims.get(i, 0.0)) for i in candidates}
        return alone, dict(alone)
    ctx: dict[str, float] = {}
    sess: dict[str, float] = {}
    means: dict[str, float] = {}
    for memory_id in candidates:
        own = max(0.0, sims.get(memory_id, 0.0))
        total, weight = own, 1.0
        for neighbour, w in zip(sessions.neighbours(memory_id), (previous, 0.5), strict=True):
            if neighbour is not None and neighbour in sims:
                total += w * max(0.0, sims[neighbour])
                weight += w
        ctx[memory_id] = total / weight
        session = sessions.session_of.get(memory_id)
        if session is None:
            sess[memory_id] = own
            continue
        if session not in means:
            members = [max(0.0, sims[m]) for m in sessions.members[session] if m in sims]
            means[session] = sum(members) / len(members) if members else 0.0
        sess[memory_id] = means[session]
    return ctx, sess


def keyword_context(
    candidates: Iterable[str], scores: Mapping[str, float], sessions: Sessions
) -> tuple[dict[str, float], dict[str, float]]:
    """Per candidate: (keyword score of it and its neighbours, session sum of squares),
    each scaled so the best candidate is 1. ``scores`` are normalised keyword scores."""
    if not sessions.session_of:  # no sessions: as above, each candidate alone
        alone = {i: scores.get(i, 0.0) for i in candidates}
        return _max_normalised(alone), _max_normalised({i: s * s for i, s in alone.items()})
    ctx: dict[str, float] = {}
    sess: dict[str, float] = {}
    sums: dict[str, float] = {}
    for memory_id in candidates:
        own = scores.get(memory_id, 0.0)
        total = own
        for neighbour in sessions.neighbours(memory_id):
            if neighbour is not None:
                total += scores.get(neighbour, 0.0)
        ctx[memory_id] = total
        session = sessions.session_of.get(memory_id)
        if session is None:
            sess[memory_id] = own * own
            continue
        if session not in sums:
            sums[session] = sum(scores.get(m, 0.0) ** 2 for m in sessions.members[session])
        sess[memory_id] = sums[session]
    return _max_normalised(ctx), _max_normalised(sess)


def blend(
    own: Floats, context: Floats, session: Floats, w_context: float, w_session: float
) -> Floats:
    """Per candidate (arrays in the candidates' order): ``(own + w_c·context +
    w_s·session) / (1 + w_c + w_s)``, in [0, 1]. One pass of array arithmetic (a
    function call per candidate cost more than the arithmetic)."""
    return (own + w_context * context + w_session * session) / (1.0 + w_context + w_session)


def best_is_one(values: Floats) -> Floats:
    """``values`` over the best of them, or all 0 when none is above 0 (as
    ``keyword_context`` scales a candidate alone)."""
    best = float(values.max()) if len(values) else 0.0
    return values / best if best > 0 else np.zeros(len(values))


def sessionless(facts: FactColumns) -> frozenset[str]:
    """The candidates outside any session (agent notes, facts added one by one): they
    have no episode whose context the keyword leg could carry (issue 24, round 9)."""
    return facts.without_session()


def read(
    memories: MemoryStore, namespace: str, cfg: RecallConfig, mode: RecallMode, facts: FactColumns
) -> Sessions:
    """The sessions of the candidates (``facts``), when a leg the recall runs in ``mode``
    weighs session context at all."""
    weights = (
        cfg.context_dense + cfg.session_dense
        if mode is not RecallMode.KEYWORD and cfg.strategy != "bm25"
        else 0.0
    )
    if mode is not RecallMode.DENSE and cfg.strategy != "dense":
        weights += cfg.context_keyword + cfg.session_keyword
    wanted = facts.session_ids()
    if not weights or not wanted:
        return Sessions.empty()
    members = memories.session_members(
        namespace, sorted(wanted), max_members=cfg.session_max_members
    )
    return Sessions.from_members(members)
