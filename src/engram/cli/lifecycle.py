"""``engram lifecycle``: consolidation, archival and restore, retention rules and
sweeps (seed 002, seed 004; FEATURES S8, S9), by hand."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table

from engram.cli import render
from engram.cli.common import Ctx, json_command, one_of, owner_scope_options, pasted_id
from engram.lifecycle import CATEGORIES_AND_ANY


@click.group()
def lifecycle() -> None:
    """Consolidation, archival and restore, retention rules and sweeps."""


@lifecycle.command("consolidate")
@click.option("--all", "every", is_flag=True, help="Every namespace over the cap.")
@owner_scope_options
@json_command
def consolidate(obj: Ctx, every: bool, scope: dict[str, Any], as_json: bool) -> None:
    """Fold the oldest memories of namespaces over max_memories_per_agent into summaries
    (the originals move to the archive; `engram lifecycle restore` brings them back)."""
    with obj.memory(must_exist=True) as mem:
        if every:
            result = mem.lifecycle.consolidate()
        else:
            result = mem.lifecycle.consolidate(
                **(scope | {"namespace": scope["namespace"] or mem.config.default_namespace})
            )
    if as_json:
        render.emit_json(result.to_dict())
        return
    render.console.print(
        f"{result.archived} memories archived into {len(result.summaries)} summaries"
    )
    for summary_id, mode in result.modes.items():
        render.console.print(f"  {summary_id}  {mode}", markup=False)


@one_of(lifecycle, "restore", "memory_id", run=False)
def restore(obj: Ctx, memory_id: str, scope: dict[str, Any], as_json: bool) -> None:
    """Restore an archived memory by its id, or every original of a summary by the
    summary's id, exactly as it was."""
    with obj.memory(must_exist=True) as mem:
        records = mem.lifecycle.restore(pasted_id(memory_id), **scope)
    if as_json:
        render.emit_json({"restored": [r.to_dict() for r in records]})
        return
    render.console.print(f"{len(records)} memories restored")
    for record in records:
        render.console.print(f"  {record.id}  {record.content[:70]}", markup=False)


@lifecycle.command("retention")
@click.option("--until-done", is_flag=True, help="Sweep again while a sweep removed rows.")
@json_command
def retention(obj: Ctx, until_done: bool, as_json: bool) -> None:
    """One retention sweep (every namespace): expire by the rules, then graph links,
    embeddings, tombstones, history, completed and dead jobs, 500 rows a step."""
    reports = []
    with obj.memory(must_exist=True) as mem:
        while True:
            report = mem.lifecycle.retention()
            reports.append(report)
            if not until_done or report.total == 0:
                break
    if as_json:
        render.emit_json({"sweeps": [r.to_dict() for r in reports]})
        return
    table = Table("step", *(f"sweep {i + 1}" for i in range(len(reports))))
    for step in reports[0].steps:
        table.add_row(step, *(str(r.steps[step]) for r in reports))
    render.console.print(table)


@lifecycle.command("set-retention")
@click.argument("days", type=int, required=False)
@click.option("--category", type=click.Choice(CATEGORIES_AND_ANY[:-1]), help="Default: all.")
@click.option("--clear", is_flag=True, help="Remove the override instead.")
@owner_scope_options
@json_command
def set_retention(
    obj: Ctx,
    days: int | None,
    category: str | None,
    clear: bool,
    scope: dict[str, Any],
    as_json: bool,
) -> None:
    """Set the agent's (namespace's) retention override in days, for one category or
    as its global default; --clear removes it."""
    if (days is None) != clear:
        raise click.UsageError("give DAYS, or --clear to remove the override")
    with obj.memory(must_exist=True) as mem:
        rules = mem.lifecycle.set_retention(None if clear else days, category=category, **scope)
    _rules(rules, as_json)


def _rules(rules: dict[str, int | None], as_json: bool) -> None:
    if as_json:
        render.emit_json({"rules": rules})
        return
    table = Table("category", "retention")
    for category, days in rules.items():
        table.add_row(category, "forever" if days is None else f"{days} days")
    render.console.print(table)


@lifecycle.command("status")
@owner_scope_options
@json_command
def status(obj: Ctx, scope: dict[str, Any], as_json: bool) -> None:
    """Store size (rows per table; live, tombstoned, archived memories), the
    namespace's retention rules, and the schedule."""
    with obj.memory(must_exist=True) as mem:
        info = mem.lifecycle.status(**scope)
        index = mem.lifecycle.archived(limit=20, **scope)
    if as_json:
        render.emit_json(info | {"archival_index": [e.to_dict() for e in index]})
        return
    render.console.print(
        f"namespace {info['namespace']}: {info['live']} live (cap "
        f"{info['max_memories_per_agent']}), {info['archived']} archived (cap "
        f"{info['archive_max_per_agent'] or 'none'}); consolidation "
        f"{info['consolidation_interval']}, retention every {info['retention_interval_s']:g}s",
        markup=False,
    )
    sizes = Table("table", "rows")
    for name, rows in info["sizes"].items():
        sizes.add_row(name, str(rows))
    render.console.print(sizes)
    _rules(info["rules"], False)
