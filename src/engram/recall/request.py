"""What one recall asks for (``RecallRequest``), the filter predicate built from a
caller's ``filters``, and the small records the retriever passes between its stages."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.config import RecallConfig
from engram.recall import filtering, temporal
from engram.recall.completion import Completion
from engram.records import MemoryRecord, RecallMode
from engram.store.protocols.memories import MemoryFacts
from engram.store.protocols.vectors import Gathered

Filter = Callable[[MemoryRecord], bool]


@dataclass(frozen=True, slots=True)
class RecallRequest:
    """Everything one recall needs to know."""

    query: str
    namespace: str
    limit: int
    budget_tokens: int | None = None
    matches: Filter | None = None
    config: RecallConfig | None = None
    restrict: filtering.Restrict | None = None  # keeps the ids it returns (wing=, room=)
    cite: Callable[[Sequence[str]], Mapping[str, str]] | None = None  # id -> AAAK pointer
    filter_names: tuple[str, ...] = ()
    """The filters behind ``matches`` and ``restrict`` (``filters.<key>``, a narrower
    ``user_id``/``agent_id``/``run_id``, ``wing``, ``room``): an empty answer names them."""
    shared: str | None = None
    """The shared space whose publications are ranked with this recall's memories
    (seed 002, FEATURES S3; ``engram.recall.shared``); None: personal memories only."""
    centred_on: tuple[str, ...] = ()
    """Other namespaces whose vectors recall's centred cosines centre on too (the shared
    leg's personal namespace: ``engram.recall.centred``)."""

    @property
    def filtered(self) -> bool:
        """True when candidates are filtered (by predicate or by id)."""
        return self.matches is not None or self.restrict is not None

    def kept(self, records: Mapping[str, MemoryRecord]) -> dict[str, MemoryRecord]:
        """The records both filters keep."""
        return filtering.kept(records, self.matches, self.restrict)


@dataclass
class Legs:
    """What candidate generation found."""

    windows: list[temporal.TimeWindow]
    mode: RecallMode = RecallMode.RECENT
    query_vector: npt.NDArray[np.float32] | None = None
    dense: dict[str, float] = field(default_factory=dict)
    dense_ranking: list[str] = field(default_factory=list)
    keyword: dict[str, float] = field(default_factory=dict)
    """Raw keyword relevance (>= 0) of every match read, candidates or not."""
    keyword_ranking: list[str] = field(default_factory=list)
    keyword_match: str | None = None
    """The keyword query, when the keyword index scores other candidates exactly
    (``KeywordIndex.exact``): their scores are looked up once candidates are known."""
    time_ids: list[str] = field(default_factory=list)
    time_records: dict[str, MemoryRecord] = field(default_factory=dict)
    residual_vector: npt.NDArray[np.float32] | None = None
    """The query without its anchor names, embedded (``recall.residual_weight``)."""
    statement_vector: npt.NDArray[np.float32] | None = None
    """The statement that would answer the query, embedded (``recall.statement``)."""
    judgement_sessions: dict[str, int] = field(default_factory=dict)
    """A judgement question's sessions ranked from 1 (``recall.judgement_weight``)."""
    near_read: bool = False
    """The time leg has run (``time_ids``, ``time_records``)."""
    facts: dict[str, MemoryFacts] = field(default_factory=dict)
    """Facts read with the legs (PostgreSQL): the dense and time candidates' while the
    keyword leg ran (``recall/waiting.py``), the keyword leg's top ids' with its
    completion (``recall/completion.py``); a missing id was read and not found (not
    live)."""
    completion: Completion | None = None
    """The keyword leg's top ids' cosines, read where they were found
    (``recall/completion.py``)."""
    gathered: Gathered | None = None
    """The keyword leg's top ids' vectors, gathered on its worker (SQLite,
    ``completion.facts_ahead``)."""

    def second_legs(self, cfg: RecallConfig) -> list[tuple[npt.NDArray[np.float32], float, int]]:
        """The second dense legs fused by rank (issue 24: R1's, Q1's): vector, weight, k."""
        out = []
        if self.residual_vector is not None:
            out.append((self.residual_vector, cfg.residual_weight, cfg.residual_k))
        if self.statement_vector is not None:
            out.append((self.statement_vector, cfg.statement_weight, cfg.statement_k))
        return out


class Clock:
    def __init__(self) -> None:
        self.timings: dict[str, float] = {}
        self._start = self._last = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.timings[stage] = round((now - self._last) * 1000, 3)
        self._last = now

    def total(self) -> dict[str, float]:
        self.timings["total"] = round((time.perf_counter() - self._start) * 1000, 3)
        return self.timings


def filter_from(
    *,
    tags: Sequence[str] = (),
    fields: Mapping[str, Sequence[Any]] | None = None,
    metadata: Mapping[str, Sequence[Any]] | None = None,
) -> Filter | None:
    """A predicate over checked filters (``engram.filters.check``): the memory has every
    tag in ``tags``, each record field in ``fields`` is one of its values, and each key
    in ``metadata`` holds one of its values (None: a JSON null or no such key)."""
    wanted_tags = set(tags)
    by_field = {k: tuple(v) for k, v in (fields or {}).items()}
    by_key = {k: tuple(v) for k, v in (metadata or {}).items()}
    if not wanted_tags and not by_field and not by_key:
        return None

    def matches(memory: MemoryRecord) -> bool:
        if not wanted_tags <= set(memory.tags):
            return False
        for key, options in by_field.items():
            actual = getattr(memory, key)
            if getattr(actual, "value", actual) not in options:
                return False
        return all(memory.metadata.get(key) in options for key, options in by_key.items())

    return matches
