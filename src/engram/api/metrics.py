"""Prometheus metrics of ``engram serve``, written in the text exposition format 0.0.4.

No client library: counters and histograms keyed by their label values, rendered on
each scrape with the store's gauges (``Memory.health.snapshot``). Route labels are
route *templates* (``/v1/memories/{memory_id}``), so ids never multiply the series.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from engram._version import __version__
from engram.health import Snapshot

#: The content type of the text exposition format.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

#: Request latency buckets (seconds): Prometheus client libraries' defaults.
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Recall stage buckets (seconds): stages run from tens of microseconds to seconds.
STAGE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

Labels = tuple[str, ...]
_INF = 'le="+Inf"'


def escape(value: str) -> str:
    """A label value as the exposition format wants it quoted."""
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(names: Sequence[str], values: Sequence[str], extra: str = "") -> str:
    parts = [f'{n}="{escape(v)}"' for n, v in zip(names, values, strict=True)]
    if extra:
        parts.append(extra)
    return "{" + ",".join(parts) + "}" if parts else ""


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


@dataclass
class Counter:
    """A monotonically increasing count per label values."""

    name: str
    help: str
    label_names: Labels
    values: dict[Labels, float] = field(default_factory=dict)

    def inc(self, labels: Labels, amount: float = 1.0) -> None:
        """Add ``amount`` to the series of ``labels``."""
        self.values[labels] = self.values.get(labels, 0.0) + amount

    def lines(self) -> Iterable[str]:
        """The exposition lines."""
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} counter"
        for labels, value in sorted(self.values.items()):
            yield f"{self.name}{_labels(self.label_names, labels)} {_number(value)}"


@dataclass
class _Series:
    buckets: list[int]
    count: int = 0
    total: float = 0.0


@dataclass
class Histogram:
    """Observations counted into cumulative ``le`` buckets per label values."""

    name: str
    help: str
    label_names: Labels
    bounds: tuple[float, ...]
    series: dict[Labels, _Series] = field(default_factory=dict)

    def observe(self, labels: Labels, value: float) -> None:
        """Count one observation of ``value`` (seconds)."""
        found = self.series.get(labels)
        if found is None:
            found = self.series[labels] = _Series([0] * len(self.bounds))
        for i, bound in enumerate(self.bounds):
            if value <= bound:
                found.buckets[i] += 1
        found.count += 1
        found.total += value

    def lines(self) -> Iterable[str]:
        """The exposition lines: cumulative buckets, ``+Inf``, ``_sum`` and ``_count``."""
        yield f"# HELP {self.name} {self.help}"
        yield f"# TYPE {self.name} histogram"
        names = self.label_names
        for labels, s in sorted(self.series.items()):
            for bound, n in zip(self.bounds, s.buckets, strict=True):
                le = f'le="{_number(bound)}"'
                yield f"{self.name}_bucket{_labels(names, labels, le)} {n}"
            yield f"{self.name}_bucket{_labels(names, labels, _INF)} {s.count}"
            yield f"{self.name}_sum{_labels(names, labels)} {_number(s.total)}"
            yield f"{self.name}_count{_labels(names, labels)} {s.count}"


def _gauge(name: str, help: str, label: str | None, values: Mapping[str, float]) -> list[str]:
    out = [f"# HELP {name} {help}", f"# TYPE {name} gauge"]
    for key, value in sorted(values.items()):
        where = _labels((label,), (key,)) if label else ""
        out.append(f"{name}{where} {_number(value)}")
    return out


class Metrics:
    """The server's counters and histograms; thread-safe (routes run on a pool)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests = Counter(
            "engram_http_requests_total",
            "HTTP requests answered, by method, route template and status.",
            ("method", "route", "status"),
        )
        self.latency = Histogram(
            "engram_http_request_duration_seconds",
            "HTTP request latency, by method, route template and status.",
            ("method", "route", "status"),
            REQUEST_BUCKETS,
        )
        self.recall = Histogram(
            "engram_recall_stage_duration_seconds",
            "Recall time per stage (total is the whole recall), from HTTP recall and search.",
            ("stage",),
            STAGE_BUCKETS,
        )
        self.rate_limited = Counter(
            "engram_rate_limited_total",
            "Requests refused with 429 by the per-key rate limit.",
            (),
        )
        self.in_flight = 0

    def started(self) -> None:
        """A request began."""
        with self._lock:
            self.in_flight += 1

    def finished(
        self,
        method: str,
        route: str,
        status: int,
        seconds: float,
        recall_ms: Mapping[str, float] | None = None,
    ) -> None:
        """A request ended: count it, time it, and time its recall stages if it recalled."""
        labels = (method, route, str(status))
        with self._lock:
            self.in_flight -= 1
            self.requests.inc(labels)
            self.latency.observe(labels, seconds)
            if status == 429:
                self.rate_limited.inc(())
            for stage, ms in (recall_ms or {}).items():
                self.recall.observe((stage,), ms / 1000.0)

    def render(self, snapshot: Snapshot | None) -> str:
        """Every metric in the text format; the store gauges when ``snapshot`` is given."""
        with self._lock:
            lines = [
                *_gauge("engram_info", "engram's version.", "version", {__version__: 1}),
                *_gauge(
                    "engram_http_requests_in_flight",
                    "Requests being served.",
                    None,
                    {"": self.in_flight},
                ),
                *self.requests.lines(),
                *self.latency.lines(),
                *self.recall.lines(),
                *self.rate_limited.lines(),
            ]
        up = {"": 0 if snapshot is None else 1}
        lines += _gauge("engram_store_up", "1 when the store answered this scrape.", None, up)
        if snapshot is not None:
            lines += _gauge(
                "engram_memories", "Live memories per namespace.", "namespace", snapshot.memories
            )
            lines += _gauge(
                "engram_jobs", "Jobs per status, every namespace.", "status", snapshot.jobs
            )
            lines += _gauge(
                "engram_job_queue_depth",
                "Jobs waiting to run (status pending).",
                None,
                {"": snapshot.jobs.get("pending", 0)},
            )
            failures = Counter(
                "engram_embed_failures_total",
                "Memories this process failed to embed since it started.",
                (),
                {(): snapshot.embed_failures},
            )
            lines += failures.lines()
        return "\n".join(lines) + "\n"
