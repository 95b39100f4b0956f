"""``engram maintenance``: seed 004's maintenance worker and embedding tracker, by hand
(``engram serve`` runs them on a schedule)."""

from __future__ import annotations

from typing import Any

import click

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    owner_scope_options,
    page_options,
)
from engram.maintenance import ACTIONS, MaintenanceRun


def _run_lines(run: MaintenanceRun) -> None:
    delta = run.score_after - run.score_before
    render.console.print(
        f"run {run.id} ({run.kind}, {run.mode}): score {run.score_before:.3f} -> "
        f"{run.score_after:.3f} ({delta:+.3f})"
    )
    if not run.actions:
        render.console.print("no repairs recommended")
    for action in run.actions:
        detail = ", ".join(f"{k}={v}" for k, v in action.get("detail", {}).items())
        render.console.print(f"  {action['action']}: {action['outcome']}  {detail}".rstrip())


@click.group()
def maintenance() -> None:
    """Diagnostics, repairs, semantic dedup and the embedding tracker."""


@maintenance.command("diagnose")
@json_command
def diagnose(obj: Ctx, as_json: bool) -> None:
    """The health report: queue, index and storage, the score and recommendations."""
    with obj.memory(must_exist=True) as mem:
        report = mem.maintenance.diagnose().to_dict()
    if as_json:
        render.emit_json(report)
        return
    render.console.print(f"health score {report['score']:.3f} ({report['status']})")
    for domain in ("queue", "index", "storage"):
        values = {k: v for k, v in report[domain].items() if k != "score"}
        shown = ", ".join(f"{k}={v}" for k, v in values.items())
        render.console.print(f"  {domain:<8} {report[domain]['score']:.3f}  {shown}")
    recommended = report["recommendations"]
    render.console.print("recommended: " + (", ".join(recommended) or "nothing"))


@maintenance.command("run")
@click.option("--execute", is_flag=True, help="Apply the repairs (default: observe, report only).")
@json_command
def run(obj: Ctx, execute: bool, as_json: bool) -> None:
    """One maintenance cycle: diagnose, recommend and, with --execute, repair."""
    with obj.memory(must_exist=True) as mem:
        result = mem.maintenance.run(execute=execute)
    if as_json:
        render.emit_json(result.to_dict())
        return
    _run_lines(result)


@maintenance.command("dedup")
@owner_scope_options
@click.option("--execute", is_flag=True, help="Supersede the duplicates (default: report only).")
@click.option("--threshold", type=float, help="Cosine at or above which memories are duplicates.")
@json_command
def dedup(
    obj: Ctx, scope: dict[str, Any], execute: bool, threshold: float | None, as_json: bool
) -> None:
    """Near-duplicate memories of a namespace (cosine 0.92); --execute merges them."""
    with obj.memory(must_exist=True) as mem:
        report = mem.maintenance.dedup(**scope, execute=execute, threshold=threshold)
    if as_json:
        render.emit_json(report.to_dict())
        return
    render.console.print(
        f"scanned {report.scanned} memories of {report.namespace!r} at cosine "
        f">= {report.threshold}: {render.plural(len(report.groups), 'group', 'groups')}"
    )
    for group in report.groups:
        dups = ", ".join(f"{m} ({c:.3f})" for m, c in group.duplicates.items())
        render.console.print(f"  keep {group.kept}; duplicates: {dups}")
    if report.skipped:
        render.console.print(f"nothing merged: {report.skipped}")
    elif report.executed:
        render.console.print(f"superseded {report.merged}")


@maintenance.command("status")
@json_command
def status(obj: Ctx, as_json: bool) -> None:
    """The schedule's settings, halted actions, the latest cycle and the tracker."""
    with obj.memory(must_exist=True) as mem:
        data = mem.maintenance.status()
    if as_json:
        render.emit_json(data)
        return
    state = "frozen" if data["frozen"] else ("enabled" if data["enabled"] else "disabled")
    render.console.print(
        f"maintenance: {state}, mode {data['mode']}, every {data['interval_ms']} ms"
    )
    for action, halt in data["halts"].items():
        mark = "HALTED" if halt["halted"] else "running"
        render.console.print(f"  {action}: {mark}, {halt['streak']} non-improving runs")
    last = data["last_run"]
    render.console.print(
        "last cycle: none"
        if last is None
        else f"last cycle: {last['started_at']} score {last['score_after']:.3f}"
    )


@maintenance.command("runs")
@click.option("--kind", type=click.Choice(["cycle", "dedup"]), help="Only this kind of run.")
@page_options(20)
@json_command
def runs(obj: Ctx, kind: str | None, limit: int, offset: int, as_json: bool) -> None:
    """Recorded maintenance runs, newest first."""
    with obj.memory(must_exist=True) as mem:
        rows = mem.maintenance.runs(limit=limit, offset=offset, kind=kind)
    render.listing(
        {"items": [r.to_dict() for r in rows], "limit": limit, "offset": offset},
        as_json,
        "no maintenance runs recorded",
        ("id", "kind", "mode", "started", "before", "after", "actions"),
        (
            (
                str(r.id),
                r.kind,
                r.mode,
                r.to_dict()["started_at"],
                f"{r.score_before:.3f}",
                f"{r.score_after:.3f}",
                ", ".join(f"{a['action']}:{a['outcome']}" for a in r.actions),
            )
            for r in rows
        ),
    )


@maintenance.command("track")
@click.option("--batch-size", type=int, help="Memories to re-embed (default: the config's 8).")
@json_command
def track(obj: Ctx, batch_size: int | None, as_json: bool) -> None:
    """One embedding-tracker cycle: re-embed missing, stale or other-model vectors."""
    with obj.memory(must_exist=True) as mem:
        cycle = mem.maintenance.track(batch_size=batch_size)
    data: dict[str, Any] = cycle.to_dict()
    if as_json:
        render.emit_json(data)
        return
    if cycle.skipped:
        render.console.print(f"skipped: {cycle.skipped}")
        return
    done = ", ".join(f"{k}={v}" for k, v in data["embedded"].items()) or "nothing"
    render.console.print(f"re-embedded {done}; failed {cycle.failed}; left {cycle.queue_depth}")


@maintenance.command("resume")
@click.argument("action", required=False, type=click.Choice(ACTIONS))
@json_command
def resume(obj: Ctx, action: str | None, as_json: bool) -> None:
    """Lift the halt tracker's halt of ACTION (default: every action)."""
    with obj.memory(must_exist=True) as mem:
        count = mem.maintenance.resume(action)
    if as_json:
        render.emit_json({"reset": count})
        return
    render.console.print(f"reset {render.plural(count, 'action', 'actions')}")


@maintenance.command("reindex-vectors")
@click.option(
    "--work-mem", help="The build's maintenance_work_mem, e.g. 4GB (default: the server's)."
)
@click.option("--force", is_flag=True, help="Rebuild every index, even one already configured.")
@json_command
def reindex_vectors(obj: Ctx, work_mem: str | None, force: bool, as_json: bool) -> None:
    """Rebuild PostgreSQL's vector indexes with the configured HNSW build, online."""
    with obj.memory(must_exist=True) as mem:
        done = mem.maintenance.reindex_vectors(work_mem=work_mem, force=force)
    if as_json:
        render.emit_json([r.to_dict() for r in done])
        return
    if not done:
        render.console.print("no vector indexes")
    for r in done:
        before = "missing" if r.before is None else _build(r.before)
        if r.rebuilt:
            line = f"rebuilt in {r.seconds} s: {before} -> {_build(r.after)}"
        else:
            line = f"already {_build(r.after)}, left alone"
        render.console.print(f"{r.index} ({r.model}, {r.dimension}): {line}")


def _build(build: dict[str, int]) -> str:
    return f"m {build['m']} / ef_construction {build['ef_construction']}"
