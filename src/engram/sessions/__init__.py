"""``mem.sessions``: session checkpoints, recovery and continuity scoring (seed 004;
FEATURES S11, S13).

A harness tells engram what happens in a session (``track``: prompts, memory queries,
remembers; ``injected``: what recall put in front of it). Checkpoints are taken on
seed 004's five triggers — ``periodic`` (every ``prompt_interval`` prompts or
``time_interval_s``), ``pre_compaction``, ``session_end``, ``agent`` and ``explicit`` —
with secrets redacted, debounced (triggers within ``debounce_ms`` merge into one row),
capped per session and pruned after ``retention_days``. ``recover`` hands a resuming
agent the digest of where it was. ``end`` writes the final checkpoint, scores how well
the injected memories served (LLM or an offline heuristic), stores each one's relevance
and confirms the aspects of the useful ones in the graph.

Time comes from ``self.clock`` (UTC ``datetime``), so tests move it by hand.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Unpack

from engram.core import Core, Part, narrowing_agent
from engram.errors import InvalidInputError, PermissionDeniedError
from engram.records import Hit, utcnow
from engram.safety import InjectionMode, scan
from engram.schedule import run_every
from engram.scoping import OwnerArgs, scoped
from engram.sessions import continuity
from engram.sessions.autoflush import AutoFlush
from engram.sessions.digest import format_digest, recovery_digest
from engram.sessions.redact import redact
from engram.sessions.tracker import LiveSession, Pending, Tracker
from engram.spotlight import guard_lines
from engram.store.protocols.sessions import (
    TRIGGERS,
    Checkpoint,
    InjectedMemory,
    NewCheckpoint,
    SessionScore,
)
from engram.validate import choice, name_value, no_nul, offset_value, positive_int, type_name

__all__ = ["TRIGGERS", "Checkpoint", "Confirm", "InjectedMemory", "SessionScore", "Sessions"]

#: How sessions confirm useful memories' aspects: ``mem.graph.aspect_feedback``
#: ({memory id: confirmations}, namespace, time), handed in by ``Memory`` so the two
#: parts stay apart.
Confirm = Callable[[dict[str, int], str, datetime], object]
#: seed 004's aspect decay every N sessions: ``mem.graph.decay_aspects`` (namespace,
#: time), handed in the same way.
Decay = Callable[[str, datetime], object]
#: What else a session's end sets off for an agent: ``mem.agents.end_session`` (agent id,
#: session key, namespace) removes what the agent wrote at the ``session`` level.
Ended = Callable[[str, str, str], object]


#: Characters of a session key.
MAX_KEY = 200
#: How often the upkeep schedule prunes checkpoints past ``retention_days``.
PRUNE_EVERY = timedelta(hours=1)
#: How often a server runs the sessions round (``engram.serving``; ``run_upkeep``'s
#: default): seed 004's debounced checkpoints fall due within a second of their window.
UPKEEP_INTERVAL_S = 1.0


def _key(session_key: object) -> str:
    return name_value("session_key", session_key, limit=MAX_KEY)


def _text(name: str, value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} must be a string, got {type_name(value)}")
    return redact(no_nul(name, value))


def feedback_counts(useful: Sequence[str], fts_hits: dict[str, int]) -> dict[str, int]:
    """Confirmations per memory at session end: seed 004 confirms each memory that got
    at least one FTS hit in the session, by its hit count; a memory the continuity
    score found useful counts at least once, hit or not."""
    counts = {m: n for m, n in fts_hits.items() if n > 0}
    for memory_id in useful:
        counts[memory_id] = max(counts.get(memory_id, 0), 1)
    return counts


def _normalize_project(project: str | None) -> str | None:
    return None if project is None else project.strip().rstrip("/").lower() or None


class Sessions(Part):
    """Checkpoints, recovery digests and continuity scores of agent sessions."""

    def __init__(
        self,
        core: Core,
        confirm: Confirm,
        ended: Ended | None = None,
        decay: Decay | None = None,
    ) -> None:
        super().__init__(core)
        self._confirm_aspects = confirm
        self._ended = ended
        self._decay = decay
        self._ends: dict[str, int] = {}  # sessions ended per namespace (the decay counter)
        self._ends_lock = threading.Lock()
        self._tracker = Tracker()
        self._pruned_at: datetime | None = None
        self.clock: Callable[[], datetime] = utcnow
        """Where the time comes from: UTC now, or a test's hand-moved clock."""
        self._autoflush = AutoFlush(
            self._tracker.oldest,
            self.flush,
            lambda: timedelta(milliseconds=core.config.sessions.debounce_ms),
            lambda: self.clock(),
        )

    # -- what happens in a session ------------------------------------------------
    @scoped
    def track(
        self,
        session_key: str,
        *,
        prompt: str | None = None,
        query: str | None = None,
        remembered: str | None = None,
        harness: str | None = None,
        project: str | None = None,
        **who: Unpack[OwnerArgs],
    ) -> Checkpoint | None:
        """Note a prompt, a memory query and/or a remember. When a periodic checkpoint
        falls due, it is queued; any checkpoints whose debounce window closed are
        written, and the newest written for this session is returned."""
        core = self._core
        scope = core.open_scope(**who)
        key = _key(session_key)
        settings = core.config.sessions
        now = self.clock()
        state = self._tracker.note(
            scope.namespace,
            key,
            now,
            prompt=_text("prompt", prompt),
            query=_text("query", query),
            remembered=_text("remembered", remembered),
            harness=_text("harness", harness),
            project=_text("project", project),
            agent_id=scope.agent_id,
        )
        if settings.enabled and self._tracker.periodic_due(
            state, now, settings.prompt_interval, settings.time_interval_s
        ):
            self._tracker.queue(state, "periodic", now)
        written = self.flush()
        self._arm()
        mine = [c for c in written if c.session_key == key and c.namespace == scope.namespace]
        return mine[-1] if mine else None

    @scoped
    def injected(
        self, session_key: str, memories: Iterable[Hit | str], **who: Unpack[OwnerArgs]
    ) -> int:
        """Record memories put in front of the session (hits or ids, in rank order);
        returns how many were new to it."""
        core = self._core
        scope = core.open_scope(**who)
        key = _key(session_key)
        ids: list[str] = []
        if isinstance(memories, str | bytes) or not isinstance(memories, Iterable):
            raise InvalidInputError(
                f"injected memories must be a list of hits or memory ids, got {type_name(memories)}"
            )
        items = list(memories)  # read twice: ids, then keyword hits
        for item in items:
            memory_id = item.memory.id if isinstance(item, Hit) else item
            if not isinstance(memory_id, str) or not memory_id:
                raise InvalidInputError(
                    f"injected memories must be hits or memory ids, got {type_name(item)}"
                )
            ids.append(no_nul("an injected memory id", memory_id))
        now = self.clock()
        # injection starts a session too
        self._tracker.touch(scope.namespace, key, now, agent_id=scope.agent_id)
        # seed 004's fts_hit_count: a hit the keyword leg scored matched the query's words.
        matched = [
            item.memory.id
            for item in items
            if isinstance(item, Hit) and (item.breakdown.bm25 or 0.0) > 0.0
        ]
        if matched:
            self._tracker.fts_hit(scope.namespace, key, matched, now)
        return core.store.sessions.log_injected(scope.namespace, key, ids, now=now)

    # -- checkpoints ----------------------------------------------------------------
    @scoped
    def checkpoint(
        self,
        session_key: str,
        trigger: str = "explicit",
        *,
        context: str | None = None,
        **who: Unpack[OwnerArgs],
    ) -> Checkpoint | None:
        """Queue a checkpoint on ``trigger``; written once its debounce window closes
        (``flush``), at once when ``debounce_ms`` is 0. Returns it when written now.
        ``context`` (pre_compaction) is the harness's own summary of the session."""
        core = self._core
        core.check_open()
        choice("trigger", trigger, TRIGGERS)
        scope = core.scope(**who)
        if not core.config.sessions.enabled:
            return None
        key = _key(session_key)
        now = self.clock()
        state = self._tracker.touch(scope.namespace, key, now, agent_id=scope.agent_id)
        self._tracker.queue(state, trigger, now, _text("context", context))
        written = self.flush()
        self._arm()
        mine = [c for c in written if c.session_key == key and c.namespace == scope.namespace]
        return mine[-1] if mine else None

    def flush(self, *, force: bool = False) -> list[Checkpoint]:
        """Write every queued checkpoint whose debounce window has closed (all of them
        with ``force``); ``engram serve`` calls this on its schedule."""
        core = self._core
        core.check_open()
        now = self.clock()
        due = self._tracker.due(now, core.config.sessions.debounce_ms, force=force)
        return [self._write(pending, now) for pending in due]

    def _arm(self) -> None:
        # A queued checkpoint is written when its window closes even if this process
        # makes no other call (it may be killed next): serve's schedule does the same
        # every second. A hand-moved clock (tests) leaves flushing to its caller.
        if self.clock is utcnow and self._tracker.oldest() is not None:
            self._autoflush.arm()

    def stop_autoflush(self) -> None:
        """Stop the thread that writes checkpoints as their windows close
        (``Memory.close`` calls it, then writes what is still queued)."""
        self._autoflush.stop()

    def _write(self, pending: Pending, now: datetime) -> Checkpoint:
        core = self._core
        state = self._tracker.live(pending.namespace, pending.session_key) or LiveSession(
            pending.namespace, pending.session_key, started_at=pending.queued_at
        )
        digest = format_digest(
            pending.trigger,
            session_key=pending.session_key,
            project=state.project,
            prompt_count=pending.prompt_count,
            total_prompts=state.prompts,
            started_at=state.started_at,
            now=now,
            recent_prompts=state.recent_prompts,
            queries=pending.queries,
            remembers=pending.remembers,
            context=pending.context,
        )
        row = NewCheckpoint(
            session_key=pending.session_key,
            trigger=pending.trigger,
            digest=redact(digest),
            prompt_count=pending.prompt_count,
            memory_queries=pending.queries,
            recent_remembers=pending.remembers,
            harness=state.harness,
            project=state.project,
            project_normalized=_normalize_project(state.project),
            agent_id=state.agent_id,
        )
        cap = core.config.sessions.max_checkpoints_per_session
        return core.store.sessions.add_checkpoint(pending.namespace, row, cap=cap, now=now)

    @scoped
    def checkpoints(
        self,
        session_key: str,
        *,
        limit: int = 50,
        trigger: str | None = None,
        **who: Unpack[OwnerArgs],
    ) -> list[Checkpoint]:
        """The session's stored checkpoints, newest first."""
        core = self._core
        core.check_open()
        if trigger is not None:
            choice("trigger", trigger, TRIGGERS)
        scope = core.scope(**who)
        return core.store.sessions.checkpoints(
            scope.namespace, _key(session_key), limit=positive_int("limit", limit), trigger=trigger
        )

    @scoped
    def agents(self, session_key: str, **who: Unpack[OwnerArgs]) -> set[str | None]:
        """The agents the session is tracked for, as far as this process and the store
        know: its live state's and its stored checkpoints' (None: no agent named). An
        agent's API key touches only a session of its own (keys38)."""
        core = self._core
        scope = core.open_scope(**who)
        key = _key(session_key)
        rows = core.store.sessions.checkpoints(scope.namespace, key, limit=1000, trigger=None)
        found: set[str | None] = {c.agent_id for c in rows}
        live = self._tracker.live(scope.namespace, key)
        if live is not None:
            found.add(live.agent_id)
        return found

    @scoped
    def require_agent(self, session_key: str, agent: str, **who: Unpack[OwnerArgs]) -> None:
        """``PermissionDeniedError`` unless the session is ``agent``'s or new: sessions
        are named per namespace, so in a team namespace ``user:U`` one agent's key could
        otherwise read or extend another's session (round twenty-eight)."""
        agent = name_value("agent", agent)
        others = self.agents(session_key, **who) - {agent}
        if others:
            whose = ", ".join(sorted(repr(a) for a in others if a is not None)) or "no agent"
            raise PermissionDeniedError(
                f"session {session_key!r} is tracked for {whose}, not for agent {agent!r}: "
                "an agent's API key reads and writes only its own sessions"
            )

    @scoped
    def recover(
        self, session_key: str, *, budget: int | None = None, **who: Unpack[OwnerArgs]
    ) -> str:
        """The recovery digest of the session: where it was, newest first, within
        ``budget`` characters (``recovery_budget_chars``); a checkpoint of it still
        waiting out its debounce window is written first. Empty without checkpoints."""
        core = self._core
        scope = core.open_scope(**who)
        key = _key(session_key)
        chars = core.config.sessions.recovery_budget_chars if budget is None else budget
        chars = positive_int("budget", chars)
        # A checkpoint of this session still in its debounce window is written now:
        # whoever asks to recover wants the latest state.
        pending = self._tracker.take(scope.namespace, key)
        if pending is not None:
            self._write(pending, self.clock())
        rows = core.store.sessions.checkpoints(scope.namespace, key, limit=10)
        digest = recovery_digest(key, rows, chars)
        if InjectionMode(core.config.injection_mode) is InjectionMode.OFF:
            return digest
        # Issue 26: tracked prompts, queries and remembers reach an agent's context here;
        # a line the injection scan flags is withheld, every other line escaped (this
        # covers checkpoints written before the scan was applied too).
        return guard_lines(digest, scan, "prompt or note")

    def upkeep(self, *, prune: bool = True) -> tuple[int, int]:
        """One round of the schedule ``engram serve`` runs every second: write the
        checkpoints whose debounce window closed, and prune old ones once an hour.
        Returns (checkpoints written, checkpoints pruned).

        The checkpoints waiting here are this process's own, so every server writes
        them; pruning is store-wide, and ``prune=False`` leaves it to the process that
        holds the schedule (``engram.serving``)."""
        written = len(self.flush())
        now = self.clock()
        if not prune:
            return written, 0
        if self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY:
            return written, 0
        self._pruned_at = now
        return written, self.prune()

    def run_upkeep(self, stop: threading.Event, *, interval_s: float = UPKEEP_INTERVAL_S) -> None:
        """Call ``upkeep`` every ``interval_s`` until ``stop`` is set (a thread's body;
        a failing round is logged and the next one runs)."""
        run_every(self.upkeep, stop, interval_s, "session upkeep")

    def prune(self) -> int:
        """Hard-delete checkpoints older than ``retention_days`` (seed 004: strict)."""
        core = self._core
        core.check_open()
        cutoff = self.clock() - timedelta(days=core.config.sessions.retention_days)
        return core.store.sessions.prune_checkpoints(cutoff)

    # -- session end ----------------------------------------------------------------
    @scoped
    def end(
        self, session_key: str, *, transcript: str | None = None, **who: Unpack[OwnerArgs]
    ) -> SessionScore:
        """Close the session: write its ``session_end`` checkpoint now, score how well
        the injected memories served it (``transcript``, else the stored transcript,
        else what the session tracked), store each memory's relevance and confirm the
        aspects of those at least ``confirm_relevance`` relevant. With ``agent_id``, the
        memories that agent wrote at the ``session`` level in this session (its
        ``session_id`` is the session key) are removed too (``mem.agents.end_session``)."""
        core = self._core
        scope = core.open_scope(**who)
        key = _key(session_key)
        now = self.clock()
        if core.config.sessions.enabled:
            state = self._tracker.touch(scope.namespace, key, now, agent_id=scope.agent_id)
            self._tracker.queue(state, "session_end", now)
            pending = self._tracker.take(scope.namespace, key)
            if pending is not None:
                self._write(pending, now)
        text = self._transcript(scope.namespace, key, _text("transcript", transcript))
        injected = core.store.sessions.injected(scope.namespace, key)
        contents = self._contents(scope.namespace, injected)
        scored = continuity.score_session(core.llm(), contents, text)
        result = core.store.sessions.save_score(
            SessionScore(
                namespace=scope.namespace,
                session_key=key,
                score=scored.score,
                confidence=scored.confidence,
                # seed 004: "memories_recalled uses the actual injected count (not zero)".
                memories_recalled=len(injected),
                memories_used=scored.memories_used,
                novel_context_count=scored.novel_context_count,
                reasoning=scored.reasoning,
                method=scored.method,
                scored_at=now,
                per_memory=dict(scored.relevance),
            ),
            scored.relevance,
        )
        threshold = core.config.sessions.confirm_relevance
        useful = [m for m, value in scored.relevance.items() if value >= threshold]
        live = self._tracker.live(scope.namespace, key)
        counts = feedback_counts(useful, {} if live is None else live.fts_hits)
        if counts:
            self._confirm(counts, scope.namespace)
        self._tracker.forget(scope.namespace, key)
        self._count_end(scope.namespace)
        if scope.agent_id is not None and self._ended is not None:
            # seed 002's session level: an agent's session-level memories end with it.
            self._ended(scope.agent_id, key, scope.namespace)
        return result

    @scoped
    def score(self, session_key: str, **who: Unpack[OwnerArgs]) -> SessionScore | None:
        """The session's continuity score, once ``end`` scored it."""
        core = self._core
        scope = core.open_scope(**who)
        return core.store.sessions.score(scope.namespace, _key(session_key))

    @scoped
    def injected_memories(self, session_key: str, **who: Unpack[OwnerArgs]) -> list[InjectedMemory]:
        """The memories injected into the session, by rank, with their relevance once
        the session was scored."""
        core = self._core
        scope = core.open_scope(**who)
        return core.store.sessions.injected(scope.namespace, _key(session_key))

    # -- helpers --------------------------------------------------------------------
    def _transcript(self, namespace: str, key: str, given: str | None) -> str:
        if given:
            return given
        stored = self._core.store.transcripts.get(namespace, [key])
        if stored.get(key):
            return stored[key]
        state = self._tracker.live(namespace, key)
        if state is None:
            return ""
        return "\n".join([*state.recent_prompts, *state.queries, *state.remembers])

    def _contents(self, namespace: str, injected: Sequence[InjectedMemory]) -> dict[str, str]:
        records = self._core.store.memories.get_many(namespace, [m.memory_id for m in injected])
        return {
            m.memory_id: records[m.memory_id].content for m in injected if m.memory_id in records
        }

    def _confirm(self, counts: dict[str, int], namespace: str) -> None:
        # seed 004's aspect feedback at session end: memories that proved useful raise
        # the weight of the aspects their attributes are filed under.
        self._confirm_aspects(counts, namespace, self.clock())

    def _count_end(self, namespace: str) -> None:
        """seed 004: aspect decay "runs every N sessions rather than on every call"."""
        every = self._core.config.graph.aspect_decay_sessions
        if not every or self._decay is None:
            return
        with self._ends_lock:
            ended = self._ends[namespace] = self._ends.get(namespace, 0) + 1
        if ended % every == 0:
            self._decay(namespace, self.clock())

    # Last in the class: a method named ``list`` would shadow the builtin in the
    # annotations of every method after it.
    @scoped
    def list(
        self, *, limit: int = 50, offset: int = 0, **who: Unpack[OwnerArgs]
    ) -> list[tuple[str, int, datetime]]:
        """(session key, checkpoints, last checkpoint time) of the namespace's sessions;
        an ``agent_id`` narrower than the namespace lists that agent's sessions."""
        core = self._core
        scope = core.open_scope(**who)
        offset_value(offset)
        return core.store.sessions.sessions(
            scope.namespace,
            limit=positive_int("limit", limit),
            offset=offset,
            agent_id=narrowing_agent(scope),
        )
