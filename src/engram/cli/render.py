"""Rendering library results for a terminal: tables for people, JSON for scripts."""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from engram.recall.empty import Wording
from engram.recall.format import flags
from engram.records import HistoryEntry, Hit, MemoryRecord, Recall

# emoji=False: ":thumbs_up:" in a memory or a message is text, printed as stored.
console = Console(highlight=False, emoji=False)
err_console = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)


#: The CLI's names for recall's settings, so an empty answer names the flags to change.
WORDING = Wording(
    names={
        "namespace": "--namespace",
        "user_id": "--user",
        "agent_id": "--agent",
        "run_id": "--run",
        "wing": "--wing",
        "room": "--room",
        "budget_tokens": "--budget",
        "min_relevance": "--min-relevance",
        "abstain": "--no-abstain",
    },
    style="flag",
    filter_key="--filter {}=...",
)


#: Library arguments whose CLI flag differs from ``--`` plus the name, for error lines.
_FLAGS = {**WORDING.names, "limit": "--limit"}
_ARGUMENT = re.compile(r"^([a-z_]+)(?= must | is \d+ characters)")


def flag_words(message: str, command: click.Command | None = None) -> str:
    """``message`` with a leading library argument ("budget_tokens must be ...") named
    as the user typed it: as ``command``'s usage spells it (a positional ``AGENT_ID``,
    an option's ``--agent``) when the command takes it, else by the CLI's flag
    ("--budget must be ...")."""

    def typed(match: re.Match[str]) -> str:
        name = match.group(1)
        return _usage_name(command, name) or _FLAGS.get(name) or name

    return _ARGUMENT.sub(typed, message, count=1)


def _usage_name(command: click.Command | None, name: str) -> str | None:
    """How ``command``'s usage line spells its parameter ``name``: an argument's
    metavar (``AGENT_ID``), an option's long flag (``--agent``); None if it has none."""
    for param in command.params if command is not None else ():
        if param.name != name:
            continue
        if isinstance(param, click.Argument):
            return param.human_readable_name
        return next((o for o in param.opts if o.startswith("--")), param.opts[0])
    return None


def empty_message(recall: Recall) -> str | None:
    """Why no memory reached the context, naming the CLI's flags; None when one did."""
    if recall.empty is not None:
        return recall.empty.message(WORDING)
    return None if recall.abstain_reason is None else f"nothing matched: {recall.abstain_reason}"


def recall_json(recall: Recall) -> dict[str, Any]:
    """``Recall.to_dict`` with the empty answer's message in the CLI's words."""
    data = recall.to_dict()
    if recall.empty is not None:
        data["empty_message"] = empty_message(recall)
    return data


def emit_json(data: Any) -> None:
    """Print ``data`` as JSON on stdout (no colour, no wrapping)."""
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def _short(text: str, width: int = 90) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def cell(value: RenderableType | None) -> RenderableType | None:
    """A table cell: stored text as ``Text``, so '[red]' or '[link=...]' in a memory
    prints as written instead of being taken for rich markup."""
    return Text(value) if isinstance(value, str) else value


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
            cell(
                json.dumps(value, ensure_ascii=False)
                if isinstance(value, dict | list)
                else str(value)
            ),
        )
    console.print(table)


def fold_table(
    columns: Sequence[str],
    rows: Iterable[Sequence[RenderableType | None]],
    whole: Collection[str] = (),
) -> None:
    """Print ``rows`` under ``columns``, every column folding long values (the listing
    tables whose columns need nothing else) except those named in ``whole``, kept on
    one line (an id that wraps cannot be pasted back)."""
    table = Table()
    for column in columns:
        table.add_column(column, no_wrap=column in whole, overflow="fold")
    for row in rows:
        table.add_row(*map(cell, row))
    console.print(table)


def said(as_json: bool, data: Any, found: object, empty: str) -> bool:
    """The start of a command's answer: with ``--json`` the JSON-ready ``data``; else,
    when nothing was ``found``, the ``empty`` message. True when that was the whole
    answer (the caller returns), False when the caller prints what was found."""
    if as_json:
        emit_json(data)
        return True
    if not found:
        console.print(empty, markup=False)
        return True
    return False


def listing(
    page: Mapping[str, Any],
    as_json: bool,
    empty: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[RenderableType | None]],
) -> bool:
    """A list command's answer: with ``--json`` the JSON-ready ``page`` (``{items, ...}``);
    else ``empty`` when it has no items, or ``rows`` under ``columns`` as a folding table.
    True when the table was printed (for a footer after it)."""
    if said(as_json, page, page["items"], empty):
        return False
    fold_table(columns, rows)
    return True


def plural(count: int, one: str, many: str) -> str:
    """``1 memory``, ``0 memories``, ``2 memories``."""
    return f"{count} {one if count == 1 else many}"


def memory_table(records: Sequence[MemoryRecord], short: Mapping[str, str] | None = None) -> None:
    """One line per memory (the content wraps); ids shortened to ``short``'s prefixes."""
    table = Table()
    # Ids and dates never wrap (a wrapped id cannot be pasted back); the content does.
    table.add_column("id", no_wrap=True)
    table.add_column("created", no_wrap=True)
    table.add_column("type", overflow="fold")
    table.add_column("q", justify="right", no_wrap=True)
    table.add_column("content", overflow="fold", ratio=1)
    for r in records:
        table.add_row(
            (short or {}).get(r.id, r.id),
            r.created_at.strftime("%Y-%m-%d %H:%M"),
            r.type.value,
            f"{r.quality:+d}",
            cell(_short(r.content, 300)),
        )
    console.print(table)


def hits_table(
    hits: Sequence[Hit], recall: Recall | None = None, short: Mapping[str, str] | None = None
) -> None:
    """Seed 001's ``--search`` inspection: ranked hits with every score stage.

    Narrow enough for 80 columns: rank, short id and final score in columns, the
    content wrapped beside them with the other stages on a dim line under it."""
    if recall is not None:
        console.print(f"mode: {recall.mode.value}", markup=False)
    why = empty_message(recall) if recall is not None and not hits else None
    if why is not None:
        # Say why nothing came back, and which flag would change it.
        lead = "" if why.startswith("nothing matched") else "no memories match: "
        console.print(f"{lead}{why}", markup=False)
    elif not hits:
        console.print("no memories match")
    else:
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        table.add_column("#", justify="right", no_wrap=True)
        table.add_column("id", no_wrap=True)
        table.add_column("final", justify="right", no_wrap=True)
        table.add_column("content (and every score stage)", overflow="fold")
        for rank, hit in enumerate(hits, start=1):
            b = hit.breakdown
            # Two short lines, so the stages fit under the content at 80 columns.
            # Labelled with the breakdown's own field names, as in --json and HTTP.
            stages = (
                f"sim {_num(b.sim)}  bm25 {_num(b.bm25)}  fused {_num(b.fused)}\n"
                f"quality_factor {b.quality_factor:.2f}  quality_weight "
                f"{_num(b.quality_weight)}  recency {_num(b.recency)}"
            )
            cell = Text(_short(hit.memory.content, 400))
            cell.append("\n" + stages, style="dim")
            if flags(hit.memory):  # quarantined: recall never puts its text in a prompt
                cell.append(
                    "\nflagged by the injection scan: recall's context leaves it out or marks it"
                )
            table.add_row(
                str(rank), (short or {}).get(hit.memory.id, hit.memory.id), _num(b.final), cell
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
            e.created_at.strftime("%Y-%m-%d %H:%M:%S"),
            e.event,
            cell(_change(e)),
            cell(e.reason or ""),
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


#: What an empty or missing doctor value means, by key; other keys say "none".
_DOCTOR_EMPTY = {
    "namespaces": "(no namespaces yet)",
    "vectors.rows": "(no vectors yet)",
    "vectors.index": "none (no embedder configured)",
    "vectors.index.epoch": "none (the index loads on the first search)",
    "vectors.index.loaded_namespaces": "(none: the index loads on the first search)",
    "embedder.onnx_graph": "not built yet (built and cached on the first embed)",
}


def doctor_value(key: str, value: Any) -> str:
    """One doctor value for people: no raw ``None``, ``{}`` or ``True``."""
    if value is None or value == {} or value == [] or value == "":
        return _DOCTOR_EMPTY.get(key, "none")
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def doctor_report(data: dict[str, Any]) -> None:
    """``doctor`` as a readable tree of key/value lines."""

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict) and value:
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        else:
            # One line each even when a path is long: soft wrap leaves it whole to copy.
            console.print(
                Text.assemble((prefix, "bold"), ": ", doctor_value(prefix, value)), soft_wrap=True
            )

    walk("", data)


def publish(out: str, name: str, result: Any, text: str, *, as_json: bool, indent: int = 2) -> Path:
    """Write a benchmark's ``<name>.json`` and ``<name>.md`` under ``out``, then print
    the JSON (``--json``) or the markdown table; returns the JSON file's path."""
    folder = Path(out).expanduser()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(result, indent=indent), encoding="utf-8")
    (folder / f"{name}.md").write_text(text + "\n", encoding="utf-8")
    if as_json:
        emit_json(result)
    else:
        print(text)
    return path
