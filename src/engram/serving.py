"""``engram.serving``: what runs beside every engram server while it serves.

``engram serve`` (HTTP and MCP over HTTP) and ``engram mcp`` (MCP over stdio) enter
the same ``serving(memory)`` context, so an agent gets the same upkeep whichever door
it uses:

- the job worker (``engram.jobs.worker_while_serving``): extraction, hints, chat
  mining, document ingest;
- the backfill of memories a crash or a failed embedder left without a vector (once,
  at start);
- the schedules of ``SCHEDULES``: sessions (seed 004's debounced checkpoints, and the
  hourly pruning past ``retention_days``), the lifecycle (consolidation, the retention
  sweep, aspect decay) and maintenance (the embedding tracker, repair cycles).

Two engram processes on one store (a ``serve`` and an ``mcp``, two agents' ``mcp``)
must not run one schedule at the same time: two consolidations of one namespace at once
would summarise the same memories twice. Each schedule is therefore held through a
lease in the store (``store.schedule_leases``), the job queue's guard applied to a
schedule: a round first takes or renews the lease in one atomic statement; the process
that holds it runs the schedule, the others stand by and take it over once it is
released (at shutdown) or has lapsed (the holder died: ``interval`` plus the worker's
``lease_timeout_s`` without renewal). What a schedule keeps for this process alone
(the checkpoints waiting out their debounce window here) runs in every process.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from engram import lifecycle as lifecycle_part
from engram import maintenance as maintenance_part
from engram import sessions as sessions_part
from engram.errors import EngramError
from engram.jobs import worker_while_serving
from engram.memory import Memory
from engram.records import utcnow
from engram.schedule import run_every

log = logging.getLogger("engram.schedule")


@dataclass(frozen=True, slots=True)
class Schedule:
    """One schedule a server runs: its lease's name, how often a round runs, and the
    round (``held``: this process holds the lease, so the store-wide work is its own)."""

    name: str
    interval_s: float
    round: Callable[[Memory, bool], object]


def _sessions(memory: Memory, held: bool) -> object:
    return memory.sessions.upkeep(prune=held)


def _lifecycle(memory: Memory, held: bool) -> object:
    return memory.lifecycle.upkeep() if held else None


def _maintenance(memory: Memory, held: bool) -> object:
    return memory.maintenance.upkeep() if held else None


#: Every schedule a server runs, at each part's own interval: a round only does what
#: its clocks say is due.
SCHEDULES = (
    Schedule("sessions", sessions_part.UPKEEP_INTERVAL_S, _sessions),
    Schedule("lifecycle", lifecycle_part.UPKEEP_INTERVAL_S, _lifecycle),
    Schedule("maintenance", maintenance_part.UPKEEP_INTERVAL_S, _maintenance),
)


#: A process standing by asks for a schedule's lease every this many rounds ...
STANDBY_ROUNDS = 10
#: ... and at least this often (seconds): the longest a released schedule waits.
STANDBY_MAX_S = 30.0


def holder_name() -> str:
    """Who holds a lease: the host and process, and a token telling apart two servers
    of one process."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Leased:
    """A schedule's rounds for ``memory``, each run as the holder of its lease or not.

    Taking a lease is a write transaction; on a file store one every second per
    schedule would keep the writer busy for nothing while the server idles. So the
    holder renews only once half its lease has run out, and a process standing by asks
    again only every ``STANDBY_ROUNDS`` rounds (at most every ``STANDBY_MAX_S``): it
    takes a released or lapsed schedule over that much later, at worst."""

    def __init__(self, memory: Memory, schedule: Schedule, holder: str) -> None:
        self.memory = memory
        self.schedule = schedule
        self.holder = holder
        self.held = False
        self._ask_at: datetime | None = None  # None: ask at the next round

    def __call__(self) -> object:
        memory, schedule = self.memory, self.schedule
        now = utcnow()
        if self._ask_at is None or now >= self._ask_at:
            # The lease covers the wait to the next round and a round as long as a job
            # may run before the worker's reaper calls it dead (seed 004's lease timeout).
            hold = timedelta(seconds=schedule.interval_s + memory.config.worker.lease_timeout_s)
            leases = memory.store.schedule_leases
            held = leases.take(schedule.name, self.holder, now=now, until=now + hold)
            if held != self.held:
                log.info(
                    "%s schedule: %s",
                    schedule.name,
                    "running it here" if held else "another engram process runs it",
                )
            self.held = held
            standby = min(STANDBY_MAX_S, STANDBY_ROUNDS * schedule.interval_s)
            wait = hold / 2 if held else timedelta(seconds=max(schedule.interval_s, standby))
            self._ask_at = now + wait
        return schedule.round(memory, self.held)

    def release(self) -> None:
        """Give the lease up, so a standing-by process takes the schedule over."""
        self._ask_at = None
        if not self.held:
            return
        try:
            self.memory.store.schedule_leases.release(self.schedule.name, self.holder)
        except EngramError as exc:  # the store closed first: the lease lapses instead
            log.debug("could not release the %s schedule: %s", self.schedule.name, exc)
        self.held = False

    def run(self, stop: threading.Event) -> None:
        """A thread's body: a round now and every interval until ``stop``, then release."""
        try:
            run_every(self, stop, self.schedule.interval_s, f"{self.schedule.name} upkeep")
        finally:
            self.release()


@contextmanager
def background(target: Callable[[threading.Event], object], name: str) -> Iterator[None]:
    """Run ``target(stop)`` in a daemon thread while the server runs; set ``stop`` and
    wait for it at the end."""
    stop = threading.Event()
    thread = threading.Thread(target=target, args=(stop,), name=name, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=30)


@contextmanager
def serving(memory: Memory, *, worker: bool = True, schedules: bool = True) -> Iterator[None]:
    """Run the job worker (``worker``) and the backfill and schedules (``schedules``)
    while the ``with`` block serves; stop them at its end. ``False`` leaves that part to
    another process (``engram worker``, or another server on the same store)."""
    holder = holder_name()
    with ExitStack() as running:
        if schedules:
            running.enter_context(
                background(lambda stop: memory.admin.backfill(stop=stop), "engram-backfill")
            )
            for schedule in SCHEDULES:
                leased = Leased(memory, schedule, holder)
                running.enter_context(background(leased.run, f"engram-{schedule.name}"))
        running.enter_context(worker_while_serving(memory.jobs, worker))
        yield
