"""``mem.runs``: observations from runs and their provenance (FEATURES H1, H2; seeds
000 and 001).

A harness run ends with ``compress_and_store``: the run is recorded in the run log and
compressed (by the configured LLM, or offline) into one observation memory with a
title, a narrative and facts, the evaluator's issues among them as ``[wiggum]`` facts.
The next run on a related topic starts with ``get_context``: seed 001's "Prior work on
related topics" block, and, given its ``run_id``, a log of which memories were injected
(seed 000's ``log_memory_hits``). Both directions of the chain can then be walked:
``get(run_id)`` lists what a run produced and what was injected into it, ``run_of``
goes from an observation back to its run.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Unpack

from engram.core import Part, RecordInjected, Scope, narrowing_agent
from engram.errors import InvalidInputError, NotFoundError, shown
from engram.filters import scope_filter
from engram.recall.request import RecallRequest
from engram.recall.shared import recall_space
from engram.records import MemoryRecord, new_id, utcnow
from engram.runs import compress
from engram.runs.views import (
    MAX_ISSUE_CHARS,
    MAX_ISSUES,
    MAX_TASK_CHARS,
    BlockedIssue,
    Observed,
    RunView,
    given_text,
    hit_items,
    run_id_value,
    score_value,
    status_value,
    task_value,
    text_list,
    text_value,
    tokens_value,
)
from engram.scoping import OwnerArgs, scoped
from engram.store.protocols.memories import ListQuery
from engram.store.protocols.runs import Run, RunHit
from engram.validate import (
    metadata_dict,
    offset_value,
    positive_int,
    timestamp,
)

__all__ = ["BlockedIssue", "Observed", "Run", "RunHit", "RunView", "Runs"]

#: The longest output kept in the run log (a synthesis document, not a data dump).
MAX_OUTPUT_CHARS = 10_000_000
#: seed 000's titles are "max 80 chars"; a memory without one is logged by its head.
_TITLE_CHARS = 80
#: At most this many observations of one run are listed with it.
MAX_OBSERVATIONS = 100


def _title(memory: MemoryRecord) -> str:
    return memory.title or memory.content[:_TITLE_CHARS]


class Runs(Part):
    """The run log of a ``Memory`` and the observations made from runs."""

    record_injected: RecordInjected | None = None
    """``mem.sessions.injected``, set by ``engram.parts`` (S13)."""

    @scoped
    def record_run(
        self,
        run_id: str | None = None,
        *,
        task: str | None = None,
        task_type: str | None = None,
        status: str | None = None,
        output: str | None = None,
        output_path: str | None = None,
        score: float | None = None,
        issues: Sequence[str] | None = None,
        tokens_in: int | None = None,
        tokens_out: int | None = None,
        metadata: Mapping[str, Any] | None = None,
        started_at: Any = None,
        finished_at: Any = None,
        **who: Unpack[OwnerArgs],
    ) -> Run:
        """Record a run, or update a recorded one: the fields given replace the stored
        ones, the rest are kept (``metadata`` is merged). A new run gets an id when
        ``run_id`` is None and status ``completed`` unless told otherwise."""
        scope = self._core.open_scope(**who)
        changes: dict[str, Any] = {
            "task": given_text("task", task, MAX_TASK_CHARS),
            "task_type": given_text("task_type", task_type, 200),
            "status": None if status is None else status_value(status),
            "output": text_value("output", output, MAX_OUTPUT_CHARS),
            "output_path": text_value("output_path", output_path, 4096),
            "score": score_value(score),
            "issues": None
            if issues is None
            else text_list("issues", issues, most=MAX_ISSUES, each=MAX_ISSUE_CHARS),
            "tokens_in": tokens_value("tokens_in", tokens_in),
            "tokens_out": tokens_value("tokens_out", tokens_out),
            "started_at": timestamp("started_at", started_at),
            "finished_at": timestamp("finished_at", finished_at),
        }
        extra = metadata_dict(metadata) if metadata is not None else None
        ident = new_id() if run_id is None else run_id_value(run_id)
        return self._save(scope, ident, changes, extra)

    def _save(
        self, scope: Scope, run_id: str, changes: Mapping[str, Any], extra: dict[str, Any] | None
    ) -> Run:
        store = self._core.store
        now = utcnow()
        with store.transaction():
            current = store.runs.get(scope.namespace, run_id)
            if current is None:
                # The agent that records a run owns it; a later update by another (a
                # reviewer scoring it) does not take it over.
                current = Run(
                    run_id=run_id,
                    namespace=scope.namespace,
                    started_at=now,
                    agent_id=scope.agent_id,
                )
            fields = {k: v for k, v in changes.items() if v is not None}
            if extra:
                fields["metadata"] = {**current.metadata, **extra}
            run = _with(current, **fields)
            if run.status != "running" and run.finished_at is None:
                run = _with(run, finished_at=now)
            return store.runs.save(run, now=now)

    @scoped
    def get(self, run_id: str, **who: Unpack[OwnerArgs]) -> RunView:
        """A run with the observations it produced and the memories injected into it;
        ``NotFoundError`` if the namespace has no such run."""
        scope = self._core.open_scope(**who)
        return self._view(scope, run_id_value(run_id))

    def _view(self, scope: Scope, run_id: str) -> RunView:
        store = self._core.store
        run = store.runs.get(scope.namespace, run_id)
        if run is None:
            raise NotFoundError(f"no run {shown(run_id)} in namespace {shown(scope.namespace)}")
        produced = store.memories.select(
            scope.namespace,
            ListQuery(type="observation", run_id=run_id, limit=MAX_OBSERVATIONS),
        )
        hits = store.runs.hits(scope.namespace, run_id)
        live = store.memories.get_many(scope.namespace, [h.memory_id for h in hits])
        injected = tuple(live[h.memory_id] for h in hits if h.memory_id in live)
        return RunView(run, tuple(produced), injected, tuple(hits))

    @scoped
    def list(
        self,
        *,
        status: str | None = None,
        task_type: str | None = None,
        limit: int = 50,
        offset: int = 0,
        **who: Unpack[OwnerArgs],
    ) -> builtins.list[Run]:
        """Runs of a namespace, newest first, without their output (``get`` has it);
        an ``agent_id`` narrower than the namespace lists that agent's runs."""
        scope = self._core.open_scope(**who)
        return self._core.store.runs.select(
            scope.namespace,
            status=None if status is None else status_value(status),
            task_type=text_value("task_type", task_type, 200),
            agent_id=narrowing_agent(scope),
            limit=positive_int("limit", limit, upper=10_000),
            offset=offset_value(offset),
        )

    @scoped
    def count(
        self, *, status: str | None = None, task_type: str | None = None, **who: Unpack[OwnerArgs]
    ) -> int:
        """How many runs ``list`` pages through with the same filters."""
        scope = self._core.open_scope(**who)
        return self._core.store.runs.count(
            scope.namespace,
            status=None if status is None else status_value(status),
            task_type=text_value("task_type", task_type, 200),
            agent_id=narrowing_agent(scope),
        )

    @scoped
    def delete(self, run_id: str, **who: Unpack[OwnerArgs]) -> bool:
        """Remove a run and its injection log; its observations stay (they keep their
        ``run_id``). False if there was no such run."""
        scope = self._core.open_scope(**who)
        return self._core.store.runs.delete(scope.namespace, run_id_value(run_id))

    @scoped
    def log_memory_hits(
        self, run_id: str, hits: Sequence[Any], *, task: str | None = None, **who: Unpack[OwnerArgs]
    ) -> int:
        """Record which memories were injected into a run, in rank order (seed 000's
        ``RunTrace.log_memory_hits``, with each memory's title). ``hits`` are recall
        ``Hit``s, memories, memory ids or ``{"memory_id", "score"}`` dicts. A run not
        yet recorded is recorded as ``running`` (with ``task``). Every memory must be in
        the namespace (``NotFoundError`` otherwise, and nothing is logged)."""
        scope = self._core.open_scope(**who)
        ident = run_id_value(run_id)
        items = hit_items(hits)
        task_text = text_value("task", task, MAX_TASK_CHARS)
        found = self._core.store.memories.get_many(scope.namespace, [i for i, _ in items])
        missing = [i for i, _ in items if i not in found]
        if missing:
            raise NotFoundError(
                f"no memory {shown(missing[0])} in namespace {shown(scope.namespace)}; "
                "nothing was logged"
            )
        return self._log(scope, ident, [(found[i], s) for i, s in items], task_text)

    def _log(
        self,
        scope: Scope,
        run_id: str,
        hits: Sequence[tuple[MemoryRecord, float | None]],
        task: str | None,
    ) -> int:
        store = self._core.store
        now = utcnow()
        rows = [
            RunHit(run_id, scope.namespace, memory.id, rank, score, _title(memory), now)
            for rank, (memory, score) in enumerate(hits, start=1)
        ]
        with store.transaction():
            if store.runs.get(scope.namespace, run_id) is None:
                store.runs.save(
                    Run(run_id, scope.namespace, task=task, status="running", started_at=now),
                    now=now,
                )
            return store.runs.log_hits(scope.namespace, run_id, rows)

    @scoped
    def run_of(self, memory_id: str, **who: Unpack[OwnerArgs]) -> RunView:
        """The run an observation came from, as ``get`` shows it. ``NotFoundError`` if
        the memory is not there, carries no ``run_id``, or names a run never recorded."""
        scope = self._core.open_scope(**who)
        memory = self._core.get(scope, memory_id)
        if memory.run_id is None:
            raise NotFoundError(f"memory {shown(memory.id)} was not produced by a run (no run_id)")
        try:
            return self._view(scope, memory.run_id)
        except NotFoundError:
            raise NotFoundError(
                f"memory {shown(memory.id)} names run {shown(memory.run_id)}, which was never "
                f"recorded in namespace {shown(scope.namespace)}"
            ) from None

    @scoped
    def compress_and_store(
        self,
        task: str,
        output: str,
        *,
        task_type: str | None = None,
        queries: Sequence[str] | None = None,
        score: float | None = None,
        issues: Sequence[str] | None = None,
        run_id: str | None = None,
        tokens_in: int | None = None,
        tokens_out: int | None = None,
        output_path: str | None = None,
        **who: Unpack[OwnerArgs],
    ) -> Observed:
        """Compress a completed run into one observation and record the run (seed 000).

        The configured LLM gets seed 001's prompt (without one, or with ``[pipeline]
        extractor = "offline"``, an extractive summary is made instead; a failing model
        falls back to it with a warning). Evaluator ``issues`` become ``[wiggum]``
        facts after the injection scan: a matching issue is dropped and reported in
        ``blocked_issues``. The run is recorded first, so an observation the scan
        blocks (``InjectionBlocked``) still leaves its run in the log."""
        scope = self._core.open_scope(**who)
        task_text = task_value(task)
        if not isinstance(output, str):
            raise InvalidInputError(f"output must be a string, got {type(output).__name__}")
        output_text = text_value("output", output, MAX_OUTPUT_CHARS) or ""
        kind = text_value("task_type", task_type, 200)
        asked = text_list("queries", queries, most=100, each=10_000)
        graded = score_value(score)
        complaints = text_list("issues", issues, most=MAX_ISSUES, each=MAX_ISSUE_CHARS)
        ident = new_id() if run_id is None else run_id_value(run_id)
        changes = {
            "task": task_text,
            "task_type": kind,
            "status": "completed",
            "output": output_text,
            "output_path": text_value("output_path", output_path, 4096),
            "score": graded,
            "issues": complaints,
            "tokens_in": tokens_value("tokens_in", tokens_in),
            "tokens_out": tokens_value("tokens_out", tokens_out),
        }
        wiggum, blocked = compress.wiggum_facts(self._core, complaints)
        # The model is asked before anything is written, never inside a transaction.
        summary, warnings = compress.summary_of(
            self._core, task_text, output_text, task_type=kind, queries=asked, score=graded
        )
        run = self._save(scope, ident, changes, {"queries": list(asked)} if asked else None)
        memory, created = compress.store_observation(
            self._core,
            scope,
            ident,
            summary,
            [*summary.facts, *wiggum],
            task=task_text,
            task_type=kind,
            score=graded,
        )
        return Observed(memory, created, run, summary.summarizer, tuple(blocked), tuple(warnings))

    @scoped
    def get_context(
        self,
        task: str,
        *,
        run_id: str | None = None,
        limit: int | None = None,
        budget_tokens: int | None = None,
        filters: Mapping[str, Any] | None = None,
        session_id: str | None = None,
        **who: Unpack[OwnerArgs],
    ) -> str:
        """seed 001's "Prior work on related topics" block for ``task`` (each memory's
        title, score, narrative and key facts); "" when nothing related is stored.
        With ``run_id``, the memories in the block are logged as injected into that
        run (``log_memory_hits``); with ``session_id``, as injected into that session
        (continuity scoring, FEATURES S13)."""
        core = self._core
        scope = self._core.open_scope(**who)
        text = task_value(task)
        ident = None if run_id is None else run_id_value(run_id)
        k = positive_int("limit", limit if limit is not None else core.config.recall.limit)
        if budget_tokens is not None:
            positive_int("budget_tokens", budget_tokens, upper=10_000_000)
        request = RecallRequest(
            query=text,
            namespace=scope.namespace,
            limit=k,
            budget_tokens=budget_tokens,
            matches=scope_filter(scope, filters),
            config=core.config.with_overrides(recall={"context_style": "prior_work"}).recall,
        )
        # FEATURES S3: the namespace's shared space is ranked with it (seed 002).
        space = recall_space(
            scope.namespace,
            enabled=core.config.agents.shared_knowledge_base,
            filtered=bool(filters),
        )
        result = core.retriever.recall(replace(request, shared=space))
        if ident is not None:
            self._log(scope, ident, [(h.memory, h.score) for h in result.hits], text)
        if session_id is not None and self.record_injected is not None:
            self.record_injected(session_id, result.shown, scope.namespace)
        return result.context


def _fields(run: Run) -> dict[str, Any]:
    return {name: getattr(run, name) for name in run.__dataclass_fields__}


def _with(run: Run, **changes: Any) -> Run:
    return Run(**{**_fields(run), **changes})
