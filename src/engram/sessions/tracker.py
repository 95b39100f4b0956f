"""Live session state and the debounced checkpoint queue (seed 004), in one process.

The tracker counts prompts and keeps the recent prompts, memory queries and remembers
of each session; it decides when a periodic checkpoint is due (every
``prompt_interval`` prompts or ``time_interval_s`` seconds) and queues checkpoints so
that triggers firing close together become one row. It holds no store and reads the
time only from the ``now`` it is given, so tests drive it with a fake clock.

seed 004: "A buffered flush queue (queueCheckpointWrite) debounces writes at 2,500 ms
intervals. If two triggers fire within the flush window for the same session, queries
and remembers are merged (union with caps: 20 queries, 10 remembers) and prompt counts
are summed."
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta

#: seed 004's merge caps.
MAX_QUERIES = 20
MAX_REMEMBERS = 10
#: Recent prompts a digest shows.
MAX_PROMPTS = 5
#: Later triggers win when several merge: a session end says more than a period.
_PRIORITY = {"periodic": 0, "agent": 1, "explicit": 2, "pre_compaction": 3, "session_end": 4}


def _capped_union(old: tuple[str, ...], new: tuple[str, ...], cap: int) -> tuple[str, ...]:
    """Union in first-seen order, keeping the newest ``cap``."""
    merged = list(dict.fromkeys([*old, *new]))
    return tuple(merged[-cap:])


@dataclass
class LiveSession:
    """What the tracker knows of one running session."""

    namespace: str
    session_key: str
    started_at: datetime
    harness: str | None = None
    project: str | None = None
    agent_id: str | None = None
    """The agent the session is first tracked for (its checkpoints carry it)."""
    prompts: int = 0
    """Prompts since the session started (as far as this process saw)."""
    since_checkpoint: int = 0
    """Prompts since the last checkpoint was queued."""
    last_checkpoint_at: datetime | None = None
    recent_prompts: tuple[str, ...] = ()
    queries: tuple[str, ...] = ()
    remembers: tuple[str, ...] = ()
    fts_hits: dict[str, int] = field(default_factory=dict)
    """seed 004's ``session_memories.fts_hit_count``: memory id -> injections in which
    it matched the query's words (the keyword leg scored it)."""


@dataclass
class Pending:
    """A queued checkpoint: triggers merged until its window closes."""

    namespace: str
    session_key: str
    trigger: str
    queued_at: datetime
    prompt_count: int
    queries: tuple[str, ...]
    remembers: tuple[str, ...]
    context: str | None = None
    triggers: list[str] = field(default_factory=list)


class Tracker:
    """Sessions of this process and their checkpoint queue; thread-safe."""

    def __init__(self) -> None:
        self._live: dict[tuple[str, str], LiveSession] = {}
        self._queue: dict[tuple[str, str], Pending] = {}
        self._lock = threading.Lock()

    def live(self, namespace: str, session_key: str) -> LiveSession | None:
        with self._lock:
            return self._live.get((namespace, session_key))

    def touch(
        self,
        namespace: str,
        session_key: str,
        now: datetime,
        *,
        harness: str | None = None,
        project: str | None = None,
        agent_id: str | None = None,
    ) -> LiveSession:
        """The session's state, started now if this process has not seen it."""
        with self._lock:
            return self._touch(namespace, session_key, now, harness, project, agent_id)

    def _touch(
        self,
        namespace: str,
        session_key: str,
        now: datetime,
        harness: str | None,
        project: str | None,
        agent_id: str | None = None,
    ) -> LiveSession:
        key = (namespace, session_key)
        state = self._live.get(key)
        if state is None:
            state = self._live[key] = LiveSession(namespace, session_key, started_at=now)
        state.harness = harness or state.harness
        state.project = project or state.project
        state.agent_id = state.agent_id or agent_id
        return state

    def note(
        self,
        namespace: str,
        session_key: str,
        now: datetime,
        *,
        prompt: str | None = None,
        query: str | None = None,
        remembered: str | None = None,
        harness: str | None = None,
        project: str | None = None,
        agent_id: str | None = None,
    ) -> LiveSession:
        """Record a prompt, a memory query and/or a remember."""
        with self._lock:
            state = self._touch(namespace, session_key, now, harness, project, agent_id)
            if prompt is not None:
                state.prompts += 1
                state.since_checkpoint += 1
                state.recent_prompts = (*state.recent_prompts, prompt)[-MAX_PROMPTS:]
            if query is not None:
                state.queries = _capped_union(state.queries, (query,), MAX_QUERIES)
            if remembered is not None:
                state.remembers = _capped_union(state.remembers, (remembered,), MAX_REMEMBERS)
            return state

    def periodic_due(
        self, state: LiveSession, now: datetime, prompt_interval: int, time_interval_s: float
    ) -> bool:
        """seed 004: "periodic — fired on a timer or prompt-count interval"."""
        if state.since_checkpoint >= prompt_interval:
            return True
        since = state.last_checkpoint_at or state.started_at
        return state.since_checkpoint > 0 and now - since >= timedelta(seconds=time_interval_s)

    def queue(
        self, state: LiveSession, trigger: str, now: datetime, context: str | None = None
    ) -> Pending:
        """Queue a checkpoint of ``state``, merging into one still waiting for it."""
        with self._lock:
            key = (state.namespace, state.session_key)
            delta = state.since_checkpoint
            state.since_checkpoint = 0
            state.last_checkpoint_at = now
            pending = self._queue.get(key)
            if pending is None:
                pending = self._queue[key] = Pending(
                    state.namespace,
                    state.session_key,
                    trigger,
                    queued_at=now,
                    prompt_count=delta,
                    queries=state.queries[-MAX_QUERIES:],
                    remembers=state.remembers[-MAX_REMEMBERS:],
                    context=context,
                    triggers=[trigger],
                )
                return pending
            pending.prompt_count += delta
            pending.queries = _capped_union(pending.queries, state.queries, MAX_QUERIES)
            pending.remembers = _capped_union(pending.remembers, state.remembers, MAX_REMEMBERS)
            pending.triggers.append(trigger)
            if _PRIORITY.get(trigger, 0) >= _PRIORITY.get(pending.trigger, 0):
                pending.trigger = trigger
            pending.context = context or pending.context
            return pending

    def due(self, now: datetime, debounce_ms: int, *, force: bool = False) -> list[Pending]:
        """Take the queued checkpoints whose window has closed (all with ``force``)."""
        window = timedelta(milliseconds=debounce_ms)
        with self._lock:
            ready = [
                key
                for key, pending in self._queue.items()
                if force or now - pending.queued_at >= window
            ]
            return [self._queue.pop(key) for key in ready]

    def oldest(self) -> datetime | None:
        """When the longest-waiting queued checkpoint was queued; None when none is."""
        with self._lock:
            return min((p.queued_at for p in self._queue.values()), default=None)

    def take(self, namespace: str, session_key: str) -> Pending | None:
        """Take one session's queued checkpoint, due or not (session end flushes it)."""
        with self._lock:
            return self._queue.pop((namespace, session_key), None)

    def fts_hit(self, namespace: str, session_key: str, ids: list[str], now: datetime) -> None:
        """Count one keyword (FTS) hit for each of ``ids`` in the session."""
        with self._lock:
            hits = self._touch(namespace, session_key, now, None, None).fts_hits
            for memory_id in ids:
                hits[memory_id] = hits.get(memory_id, 0) + 1

    def forget(self, namespace: str, session_key: str) -> None:
        """Drop an ended session's live state."""
        with self._lock:
            self._live.pop((namespace, session_key), None)
