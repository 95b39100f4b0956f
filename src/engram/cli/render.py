"""Rendering library results for a terminal: tables for people, JSON for scripts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from engram.records import HistoryEntry, Hit, MemoryRecord, Recall

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True)


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON on stdout (no colour, no wrapping)."""
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def _short(text: str, width: int = 90) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def memory_detail(record: MemoryRecord) -> None:
    """Every field of one memory."""
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for key, value in record.to_dict().items():
        if value in (None, [], {}):
            continue
        table.add_row(
            key,
            json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else str(value),
        )
    console.print(table)


def memory_table(records: Sequence[MemoryRecord]) -> None:
    """One line per memory."""
    table = Table()
    for column in ("id", "created", "type", "quality", "content"):
        table.add_column(column)
    for r in records:
        table.add_row(
            r.id,
            r.created_at.strftime("%Y-%m-%d %H:%M"),
            r.type.value,
            f"{r.quality:+d}",
            _short(r.content),
        )
    console.print(table)


def hits_table(hits: Sequence[Hit], recall: Recall | None = None) -> None:
    """Seed 001's ``--search`` inspection: ranked hits with every score stage."""
    table = Table(title=None if recall is None else f"mode: {recall.mode.value}")
    for column in (
        "#",
        "id",
        "final",
        "sim",
        "bm25",
        "fused",
        "q_adj",
        "qual",
        "recency",
        "content",
    ):
        table.add_column(column, justify="right" if column not in ("id", "content") else "left")
    for rank, hit in enumerate(hits, start=1):
        b = hit.breakdown
        table.add_row(
            str(rank),
            hit.memory.id[:12],
            _num(b.final),
            _num(b.sim),
            _num(b.bm25),
            _num(b.fused),
            f"{b.quality_factor:.2f}",
            _num(b.quality_weight),
            _num(b.recency),
            _short(hit.memory.content, 60),
        )
    console.print(table)
    if recall is not None:
        stages = ", ".join(f"{k} {v:.2f} ms" for k, v in recall.timings.items())
        console.print(f"[dim]timings: {stages}[/dim]")
        for warning in recall.warnings:
            err_console.print(f"[yellow]warning:[/yellow] {warning}")


def history_table(entries: Sequence[HistoryEntry]) -> None:
    """The audit trail of one memory."""
    table = Table()
    for column in ("when", "event", "change", "reason"):
        table.add_column(column)
    for e in entries:
        table.add_row(
            e.created_at.strftime("%Y-%m-%d %H:%M:%S"), e.event, _change(e), e.reason or ""
        )
    console.print(table)


def _change(entry: HistoryEntry) -> str:
    before, after = entry.before or {}, entry.after or {}
    if not before:
        return _short(str(after.get("content", "")), 60)
    changed = [k for k in after if k != "updated_at" and before.get(k) != after.get(k)]
    return ", ".join(
        f"{k}: {_short(str(before.get(k)), 25)} → {_short(str(after.get(k)), 25)}" for k in changed
    )


def doctor_report(data: dict[str, Any]) -> None:
    """``doctor`` as a readable tree of key/value lines."""

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict) and value:
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        else:
            console.print(f"[bold]{prefix}[/bold]: {value}")

    walk("", data)
