"""Where one proxied chat turn's time went, as a ``Server-Timing`` header (issue 31).

The chat proxy's target is the time it adds before the upstream sees the request (at
most recall's time plus 5 ms). Each response says how its milliseconds were spent in
the standard ``Server-Timing`` header (``name;dur=ms``, comma-separated), so a client
or ``engram bench chat`` can split that time without a log line per request. The
stages, in order:

- ``read``: reading the request's body;
- ``queue``: waiting for a worker thread (the store and the embedder are blocking);
- ``auth``: the key check;
- ``parse``: the body's JSON, the turn's names and the namespace they may reach;
- ``prepare``: checking the messages, the user's settings, naming the conversation;
- ``recall``: recall with the real embedder, and the ``<memory_context>`` block;
- ``hop``: back from the worker thread to the server's event loop;
- ``upstream``: sending to the upstream until its response headers (the upstream's
  own time included);
- ``record``: waiting for the injected memories' record (FEATURES S13), which runs
  beside the upstream call, after the request went out.
"""

from __future__ import annotations

import time

#: The response header.
HEADER = "Server-Timing"


class Stages:
    """Milliseconds per stage, timed by laps of one clock."""

    __slots__ = ("_last", "ms")

    def __init__(self) -> None:
        self.ms: dict[str, float] = {}
        self._last = time.perf_counter()

    def lap(self, name: str) -> None:
        """Charge the time since the last lap to ``name``."""
        now = time.perf_counter()
        self.ms[name] = self.ms.get(name, 0.0) + (now - self._last) * 1000
        self._last = now

    def split(self, name: str, parts: dict[str, float]) -> None:
        """Charge the time since the last lap to ``parts`` (timed inside it) and the
        rest to ``name``."""
        self.lap(name)
        for part, ms in parts.items():
            self.ms[part] = self.ms.get(part, 0.0) + ms
            self.ms[name] -= ms

    def header(self) -> str:
        """The ``Server-Timing`` value: ``name;dur=ms`` for each stage."""
        return ", ".join(f"{name};dur={ms:.3f}" for name, ms in self.ms.items())


def parse(value: str) -> dict[str, float]:
    """A ``Server-Timing`` value as ``{name: ms}`` (entries without a duration are
    left out)."""
    out: dict[str, float] = {}
    for entry in value.split(","):
        name, *params = (p.strip() for p in entry.split(";"))
        for param in params:
            key, _, ms = param.partition("=")
            if name and key == "dur":
                try:
                    out[name] = float(ms)
                except ValueError:
                    continue
    return out
