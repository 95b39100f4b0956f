"""Write a process's debounced checkpoints when their window closes, with no server.

``engram serve`` and ``engram mcp`` call ``Sessions.flush`` every second. A program
that uses the library alone had nothing that did: a checkpoint waited for the next
``track``/``checkpoint`` call or for ``Memory.close()``, so an agent killed while idle
(SIGKILL, OOM, a crash) lost every checkpoint it had queued, and ``recover`` in the
restarted process answered an empty digest (docs/benchmarks.md, round twenty-eight).

``AutoFlush`` is one daemon thread per ``Sessions``, started when a checkpoint is
queued and ending when none is waiting, so an idle ``Memory`` holds no thread. It only
runs on the real clock: a test that moves ``Sessions.clock`` by hand flushes by hand.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from datetime import datetime, timedelta

from engram.errors import EngramError, StoreClosedError

log = logging.getLogger("engram.sessions")

#: The shortest wait between two looks at the queue (a window that closed already).
MIN_WAIT_S = 0.05


class AutoFlush:
    """Calls ``flush`` once the oldest queued checkpoint's window has closed."""

    def __init__(
        self,
        oldest: Callable[[], datetime | None],
        flush: Callable[[], object],
        window: Callable[[], timedelta],
        now: Callable[[], datetime],
    ) -> None:
        self._oldest = oldest
        self._flush = flush
        self._window = window
        self._now = now
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def arm(self) -> None:
        """A checkpoint was queued: make sure a thread will write it."""
        with self._lock:
            if self._stop.is_set() or self._thread is not None:
                return
            self._thread = threading.Thread(
                target=self._run, name="engram-session-flush", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        """End the thread (``Memory.close`` then writes what is still queued)."""
        self._stop.set()
        with self._lock:
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            with self._lock:
                # Decided under the lock ``arm`` takes: a checkpoint queued after this
                # look starts a new thread, so none is left waiting for a dead one.
                oldest = self._oldest()
                if oldest is None or self._stop.is_set():
                    self._thread = None
                    return
            wait = (oldest + self._window() - self._now()).total_seconds()
            if self._stop.wait(max(wait, MIN_WAIT_S)):
                with self._lock:
                    self._thread = None
                return
            try:
                self._flush()
            except StoreClosedError:
                with self._lock:
                    self._thread = None
                return
            except EngramError as exc:  # the next round tries again, as serve's does
                log.warning("session checkpoint flush failed: %s", exc)
                if self._stop.wait(1.0):
                    with self._lock:
                        self._thread = None
                    return
