"""The loop behind every schedule an engram server runs (sessions, lifecycle,
maintenance; ``engram.serving`` leases each to one process per store): one round now
and then every interval until told to stop.

Each part keeps its own clock-driven ``upkeep()`` round, which tests call by hand with a
fake clock; this loop only paces those rounds in a thread, so no test has to sleep.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from engram.errors import EngramError, StoreClosedError

log = logging.getLogger("engram.schedule")


def run_every(
    round_: Callable[[], object], stop: threading.Event, interval_s: float, what: str
) -> None:
    """Call ``round_`` at once and then every ``interval_s`` seconds until ``stop`` is
    set. A round that fails with an ``EngramError`` is logged and the next one runs; a
    closed store ends the loop (the ``Memory`` is shutting down)."""
    while True:
        try:
            round_()
        except StoreClosedError:
            return
        except EngramError as exc:
            log.warning("%s failed: %s", what, exc)
        if stop.wait(interval_s):
            return
