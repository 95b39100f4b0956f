"""Benchmark results as markdown tables and a JSON file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engram.bench.dataset import write_result
from engram.bench.runner import RunResult


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def markdown(result: RunResult) -> str:
    """The overall table (one row per mode), then per-category tables."""
    parts: list[str] = []
    variants: list[tuple[str, str | None]] = [(m, None) for m in result.modes]
    variants += [(m, alt) for alt in result.alternatives() for m in result.modes]
    header = ["mode", "questions", *result.headline, "p50 ms", "p95 ms"]
    rows = []
    for mode, alt in variants:
        s = result.summary(mode, alternative=alt)
        rows.append(
            [
                mode if alt is None else f"{mode} ({alt})",
                s["questions"],
                *(s["overall"].get(h, "-") for h in result.headline),
                s["latency_ms"]["p50"],
                s["latency_ms"]["p95"],
            ]
        )
    parts.append(f"### {result.dataset}: overall\n\n" + table(header, rows))
    for mode in result.modes:
        s = result.summary(mode)
        names = sorted({n for c in s["per_category"].values() for n in c if n != "questions"})
        shown = [n for n in result.headline if n in names] + [
            n for n in names if n not in result.headline
        ]
        cat_rows = [
            [cat, stats["questions"], *(stats.get(n, "-") for n in shown)]
            for cat, stats in s["per_category"].items()
        ]
        parts.append(
            f"### {result.dataset}: per category ({mode})\n\n"
            + table(["category", "questions", *shown], cat_rows)
        )
    ingest = result.ingest
    if ingest:
        parts.append(
            f"ingest: {ingest.get('ingested', 0)} of {ingest.get('turns', 0)} turns stored "
            f"in {ingest.get('seconds', 0)} s ({ingest.get('turns_per_second', 0)} turns/s)"
        )
    return "\n\n".join(parts) + "\n"


def write(result: RunResult, out_dir: str | Path, *, extra: dict[str, Any] | None = None) -> Path:
    """Write ``<dataset>.json`` and ``<dataset>.md`` into ``out_dir``; returns the JSON path."""
    data = result.to_dict() | (extra or {})
    return write_result(out_dir, result.dataset, data, markdown(result))
