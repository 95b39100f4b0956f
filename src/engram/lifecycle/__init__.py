"""``mem.lifecycle``: consolidation with dual-mode archival, retention and its sweep
(seed 002, seed 004; FEATURES S8, S9).

- ``consolidate``: a namespace (an agent's store) holding more than
  ``max_memories_per_agent`` live memories has its oldest ones folded, per category, into
  summary memories, and so, below the cap too, have its memories older than
  ``compress_after_days`` (in full groups; ``aging``). Each group is classified dense
  or sparse (``density``): dense groups get an extractive summary, sparse ones an
  abstractive (LLM) one. The originals move to the archive, out of recall but kept
  whole; the archival index maps each original to its summary, and ``restore`` brings
  originals back exactly (ids and content).
- ``retention``: one sweep of the retention worker (``retention.sweep``).
- ``upkeep``: what ``engram serve`` runs on its schedule: consolidation every
  ``consolidation_interval`` and a sweep every ``retention_interval_s``, each sweep
  followed by seed 004's aspect decay in every namespace (FEATURES G5; ``decay``,
  handed in by ``Memory``: it is ``mem.graph.decay_aspects``).

Time comes from ``self.clock``, so tests (and the year simulation) move it by hand;
setting it also sets the store's clock, so the rows the retention windows prune by age
(history, tombstones, queued jobs, archive entries) are stamped by the same clock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Unpack

from engram.core import Core, Part
from engram.errors import InvalidInputError, shown
from engram.lifecycle import archival
from engram.lifecycle.aging import SUMMARY_TAG, aged_groups, groups
from engram.lifecycle.compaction import archived_id, not_archived
from engram.lifecycle.density import Density, classify_group
from engram.lifecycle.retention import (
    CATEGORIES,
    COMPACT_STEP,
    STEPS,
    SweepReport,
    resolve,
    sweep,
)
from engram.records import MemoryRecord, MemoryType, iso, utcnow
from engram.schedule import run_every
from engram.scoping import OwnerArgs, scoped
from engram.store.protocols import ListQuery
from engram.store.protocols.lifecycle import ANY_CATEGORY, ArchiveEntry
from engram.validate import build_record, memory_id_value, offset_value, positive_int

__all__ = [
    "CATEGORIES_AND_ANY",
    "COMPACT_STEP",
    "INTERVALS",
    "STEPS",
    "ArchiveEntry",
    "ConsolidationResult",
    "Lifecycle",
    "SweepReport",
]


#: seed 002's ConsolidationInterval; NEVER is None.
INTERVALS: dict[str, timedelta | None] = {
    "hourly": timedelta(hours=1),
    "daily": timedelta(days=1),
    "weekly": timedelta(weeks=1),
    "never": None,
}
#: The categories a retention rule names, and ``*`` (uncategorised / the default).
CATEGORIES_AND_ANY = (*CATEGORIES, ANY_CATEGORY)
ACTOR = "engram-lifecycle"
#: How often a server runs the lifecycle round (``engram.serving``; ``run_upkeep``'s
#: default): the first round starts the schedule, consolidation and the sweep fall due
#: one interval later.
UPKEEP_INTERVAL_S = 60.0


@dataclass(frozen=True, slots=True)
class ConsolidationResult:
    """seed 002's ConsolidationResult: the summaries written and the archival index
    (original id -> archive row and summary) of what was archived."""

    at: datetime
    summaries: tuple[str, ...] = ()
    archival_index: tuple[ArchiveEntry, ...] = ()
    modes: dict[str, str] = field(default_factory=dict)
    """summary id -> ``abstractive`` or ``extractive``."""

    @property
    def archived(self) -> int:
        """Originals moved to the archive."""
        return len(self.archival_index)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "at": iso(self.at),
            "archived": self.archived,
            "summaries": list(self.summaries),
            "modes": dict(self.modes),
            "archival_index": [e.to_dict() for e in self.archival_index],
        }


#: seed 004's aspect decay of one namespace at a time (``mem.graph.decay_aspects``):
#: (namespace, now) -> aspects decayed.
Decay = Callable[[str, datetime], int]


class Lifecycle(Part):
    """Consolidation, archival and restore, retention rules and the retention sweep."""

    def __init__(self, core: Core, decay: Decay | None = None) -> None:
        super().__init__(core)
        self._decay = decay
        self.aspects_decayed = 0
        """Aspects the schedule's decay runs lowered since this ``Memory`` opened."""
        self._clock: Callable[[], datetime] = utcnow
        self._consolidated_at: datetime | None = None
        self._schedule_from: datetime | None = None
        self._swept_at: datetime | None = None
        # One round at a time: the server's schedule and a hand-run call must not fold
        # the same originals twice.
        self._round = threading.Lock()

    @property
    def clock(self) -> Callable[[], datetime]:
        """Where the time comes from: UTC now, or a test's hand-moved clock. Setting it
        sets the store's clock too (``store.clock``), so history rows, tombstones and
        queued jobs are stamped by the same clock the retention windows read."""
        return self._clock

    @clock.setter
    def clock(self, value: Callable[[], datetime]) -> None:
        self._clock = value
        self._core.store.clock = value

    # -- consolidation ------------------------------------------------------------------
    @scoped
    def consolidate(self, **who: Unpack[OwnerArgs]) -> ConsolidationResult:
        """Archive the oldest live memories of every namespace over
        ``max_memories_per_agent`` (of one, when a namespace or id is given) into
        summary memories, so each ends at or under the cap; and, under the cap too,
        memories older than ``compress_after_days``, in full groups (seed 002's
        periodic compression of old memories)."""
        core = self._core
        core.check_open()
        if all(value is None for value in who.values()):
            namespaces = sorted(core.store.memories.namespaces())
        else:
            namespaces = [core.scope(**who).namespace]
        now = self.clock()
        summaries: list[str] = []
        index: list[ArchiveEntry] = []
        modes: dict[str, str] = {}
        with self._round:
            for ns in namespaces:
                for summary, mode, entries in self._consolidate_namespace(ns, now):
                    summaries.append(summary)
                    modes[summary] = mode
                    index.extend(entries)
            self._consolidated_at = now
        return ConsolidationResult(now, tuple(summaries), tuple(index), modes)

    def _plan(self, namespace: str, now: datetime) -> list[list[MemoryRecord]]:
        """The groups to fold: the cap's, then full groups of old memories."""
        settings = self._core.config.lifecycle
        capped = self._capped(namespace)
        taken = {r.id for g in capped for r in g}
        aged = aged_groups(
            self._core.store,
            namespace,
            days=settings.compress_after_days,
            size=settings.group_size,
            now=now,
            taken=taken,
        )
        return capped + aged

    def _capped(self, namespace: str) -> list[list[MemoryRecord]]:
        """The groups to fold so the namespace ends at or under the cap."""
        store = self._core.store
        settings = self._core.config.lifecycle
        cap = settings.max_memories_per_agent
        live = store.memories.count(namespace)
        if live <= cap:
            return []
        take = live - cap
        planned: list[list[MemoryRecord]] = []
        for _ in range(20):  # each round adds what the summaries themselves cost
            oldest = store.memories.select(
                namespace, ListQuery(newest_first=False, limit=min(take, live))
            )
            planned = [g for g in groups(oldest, settings.group_size) if len(g) > 1]
            folded = sum(len(g) for g in planned)
            after = live - folded + len(planned)
            if after <= cap or take >= live:
                break
            take += after - cap
        return planned

    def _consolidate_namespace(
        self, namespace: str, now: datetime
    ) -> list[tuple[str, str, list[ArchiveEntry]]]:
        core = self._core
        settings = core.config.lifecycle
        out: list[tuple[str, str, list[ArchiveEntry]]] = []
        for group in self._plan(namespace, now):
            texts = [r.content for r in group]
            dense = settings.dual_mode and (
                classify_group(texts, settings.dense_threshold) is Density.DENSE
            )
            if dense:
                mode, method = archival.EXTRACTIVE, "extractive"
                text = archival.extractive(
                    texts, max_facts=settings.max_facts, max_chars=settings.summary_max_chars
                )
            else:
                made = archival.abstractive(
                    core.llm(),
                    texts,
                    max_facts=settings.max_facts,
                    max_chars=settings.summary_max_chars,
                )
                mode, method, text = archival.ABSTRACTIVE, made.method, made.text
            first = group[0]
            summary = build_record(
                text,
                namespace=namespace,
                max_chars=max(core.config.max_content_chars, len(text)),
                user_id=first.user_id,
                agent_id=first.agent_id,
                type=MemoryType.SEMANTIC.value,
                category=None if first.category is None else str(first.category),
                tags=[SUMMARY_TAG],
                metadata={
                    "consolidated": {
                        "mode": mode,
                        "method": method,
                        "originals": [r.id for r in group],
                        "from": iso(group[0].created_at),
                        "to": iso(group[-1].created_at),
                    }
                },
                who=ACTOR,
                created_at=now,
            )
            with core.store.transaction():
                summary = core.store.memories.insert([summary], actor=ACTOR)[0].record
                entries = core.store.lifecycle.archive(
                    namespace, group, summary_id=summary.id, mode=mode, now=now
                )
            if core.index is not None:
                for record in group:
                    core.index.removed(namespace, record.id)
            core.embed_and_store([summary])
            out.append((summary.id, mode, entries))
        return out

    # -- the archive --------------------------------------------------------------------
    @scoped
    def archived(
        self,
        *,
        summary_id: str | None = None,
        limit: int = 100,
        offset: int = 0,
        **who: Unpack[OwnerArgs],
    ) -> list[ArchiveEntry]:
        """The archival index (original -> summary), newest first; of one summary when
        ``summary_id`` is given."""
        core = self._core
        scope = core.open_scope(**who)
        offset_value(offset)
        return core.store.lifecycle.entries(
            scope.namespace,
            summary_id=None if summary_id is None else memory_id_value(summary_id),
            limit=positive_int("limit", limit),
            offset=offset,
        )

    @scoped
    def restore(self, memory_id: str, **who: Unpack[OwnerArgs]) -> list[MemoryRecord]:
        """Bring archived originals back into recall, exactly as they were (id, content,
        times): one original by its id, or every original of a summary by the summary's
        id. A summary left with no archived originals is deleted, unless some of its
        originals were compacted (or expired) and it is all that holds them.
        ``NotFoundError`` when the id is neither (saying when an original was compacted
        and which summary holds it)."""
        core = self._core
        scope = core.open_scope(**who)
        key = archived_id(core.store, scope.namespace, memory_id_value(memory_id))
        lifecycle = core.store.lifecycle
        mine = lifecycle.entries(scope.namespace, original_id=key, limit=1)
        if mine:
            ids, summary_id = [key], mine[0].summary_id
        else:
            members = lifecycle.entries(scope.namespace, summary_id=key, limit=1_000_000)
            if not members:
                raise not_archived(core.store, scope.namespace, key)
            ids, summary_id = [e.original_id for e in members], key
        restored: list[MemoryRecord] = []
        for original_id in ids:
            with core.store.transaction():
                record = lifecycle.take(scope.namespace, original_id)
                if record is None:
                    continue
                result = core.store.memories.insert([record], actor=ACTOR)[0]
                if not result.created:
                    raise InvalidInputError(
                        f"cannot restore {shown(original_id)}: memory "
                        f"{shown(result.record.id)} with "
                        "the same content is live; delete it first (the archive is unchanged)"
                    )
            restored.append(result.record)
        core.embed_and_store(restored)
        if not lifecycle.entries(scope.namespace, summary_id=summary_id, limit=1):
            summary = core.store.memories.get(scope.namespace, summary_id)
            if summary is not None and self._all_back(summary):
                core.store.memories.delete(scope.namespace, summary_id, actor=ACTOR)
                if core.index is not None:
                    core.index.removed(scope.namespace, summary_id)
        return restored

    def _all_back(self, summary: MemoryRecord) -> bool:
        """True when every original the summary folded is live again (none of them was
        compacted or expired, so the summary holds nothing else)."""
        folded = summary.metadata.get("consolidated")
        originals = folded.get("originals") if isinstance(folded, dict) else None
        if not isinstance(originals, list):
            return True
        live = self._core.store.memories.get_many(summary.namespace, [str(i) for i in originals])
        return len(live) == len(set(originals))

    # -- retention ----------------------------------------------------------------------
    @scoped
    def set_retention(
        self, days: int | None, *, category: str | None = None, **who: Unpack[OwnerArgs]
    ) -> dict[str, int | None]:
        """Set the agent's (namespace's) retention for ``category`` (its global default
        when None) to ``days``, or clear it with None; returns the effective rules."""
        core = self._core
        scope = core.open_scope(**who)
        if category is not None and category not in CATEGORIES:
            raise InvalidInputError(
                f"category must be one of {', '.join(CATEGORIES)}, got {shown(category)}"
            )
        if days is not None:
            days = positive_int("days", days)
        core.store.lifecycle.set_override(scope.namespace, category or ANY_CATEGORY, days)
        return self.rules(namespace=scope.namespace)

    @scoped
    def rules(self, **who: Unpack[OwnerArgs]) -> dict[str, int | None]:
        """The effective retention days per category (``*`` = uncategorised) of the
        namespace, resolved in seed 002's order; None = forever."""
        core = self._core
        scope = core.open_scope(**who)
        agent = core.store.lifecycle.overrides().get(scope.namespace, {})
        settings = core.config.lifecycle
        out: dict[str, int | None] = {c: resolve(c, agent, settings) for c in CATEGORIES}
        out[ANY_CATEGORY] = resolve(None, agent, settings)
        return out

    def retention(self) -> SweepReport:
        """One retention sweep over every namespace: expiry by the rules, then seed
        004's graph links, embeddings, tombstones, history, completed and dead jobs."""
        core = self._core
        core.check_open()
        now = self.clock()
        store = core.store
        namespaces = sorted(set(store.memories.namespaces()) | set(store.lifecycle.counts()))

        def removed(ns: str, ids: list[str]) -> None:
            if core.index is not None:
                for memory_id in ids:
                    core.index.removed(ns, memory_id)

        with self._round:
            report = sweep(store.lifecycle, namespaces, core.config.lifecycle, now, removed=removed)
            self._swept_at = now
        return report

    # -- the schedule -------------------------------------------------------------------
    def due(self) -> dict[str, bool]:
        """Which scheduled round falls due now: ``consolidation``, ``retention``."""
        now = self.clock()
        settings = self._core.config.lifecycle
        every = INTERVALS[settings.consolidation_interval]
        sweep_every = timedelta(seconds=settings.retention_interval_s)
        # The schedule starts when first asked: a round falls due one interval later,
        # never at start-up, so opening a large store (or restarting engram serve) does
        # not archive thousands of memories before the first request is served.
        if self._schedule_from is None:
            self._schedule_from = now
        consolidated = self._consolidated_at or self._schedule_from
        swept = self._swept_at or self._schedule_from
        return {
            "consolidation": every is not None and now - consolidated >= every,
            "retention": now - swept >= sweep_every,
        }

    def upkeep(self) -> tuple[ConsolidationResult | None, SweepReport | None]:
        """One round of ``engram serve``'s schedule: consolidate when the
        consolidation interval has passed, sweep when the retention interval has."""
        due = self.due()
        done = self.consolidate() if due["consolidation"] else None
        swept = self.retention() if due["retention"] else None
        if swept is not None:
            self.decay_aspects()
        return done, swept

    def decay_aspects(self) -> int:
        """seed 004's aspect decay over every namespace (each aspect at most once per
        ``[graph] aspect_stale_days``, however often it runs); the schedule runs it
        after each retention sweep. Returns how many aspects decayed."""
        if self._decay is None:
            return 0
        now = self.clock()
        decayed = sum(self._decay(ns, now) for ns in sorted(self._core.store.memories.namespaces()))
        self.aspects_decayed += decayed
        return decayed

    def run_upkeep(self, stop: threading.Event, *, interval_s: float = UPKEEP_INTERVAL_S) -> None:
        """Call ``upkeep`` every ``interval_s`` until ``stop`` is set (a thread's body;
        a failing round is logged and the next one runs). The first round only starts
        the schedule: consolidation and the sweep fall due one interval later."""
        run_every(self.upkeep, stop, interval_s, "lifecycle upkeep")

    @scoped
    def status(self, **who: Unpack[OwnerArgs]) -> dict[str, Any]:
        """Store size (rows per table, live / tombstoned / archived memories), the
        namespace's archive and rules, and the schedule."""
        core = self._core
        scope = core.open_scope(**who)
        settings = core.config.lifecycle
        return {
            "namespace": scope.namespace,
            "live": core.store.memories.count(scope.namespace),
            "archived": core.store.lifecycle.counts(scope.namespace).get(scope.namespace, 0),
            "max_memories_per_agent": settings.max_memories_per_agent,
            "archive_max_per_agent": settings.archive_max_per_agent,
            "rules": self.rules(namespace=scope.namespace),
            "sizes": core.store.lifecycle.sizes(),
            "consolidation_interval": settings.consolidation_interval,
            "retention_interval_s": settings.retention_interval_s,
            "last_consolidation": None
            if self._consolidated_at is None
            else iso(self._consolidated_at),
            "last_retention": None if self._swept_at is None else iso(self._swept_at),
            "due": self.due(),
        }
