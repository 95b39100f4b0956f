"""``engram runs`` (the run log: list, show, of) and ``engram observe`` (compress a
completed run into an observation), each a call of ``mem.runs`` (FEATURES H1, H2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    one_of,
    owner_scope_options,
    page_options,
    pasted_id,
    read_text,
)
from engram.errors import InvalidInputError
from engram.runs import RunView


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


@click.group()
def runs() -> None:
    """The run log: runs, the observations they produced, the memories injected."""


@runs.command("list")
@owner_scope_options
@click.option("--status", type=click.Choice(["running", "completed", "failed"]))
@click.option("--task-type", help="Only runs of this task type.")
@page_options(50)
@json_command
def list_(
    obj: Ctx,
    scope: dict[str, Any],
    status: str | None,
    task_type: str | None,
    limit: int,
    offset: int,
    as_json: bool,
) -> None:
    """Runs, newest first."""
    scope = scope
    filters = {"status": status, "task_type": task_type}
    with obj.memory(must_exist=True) as mem:
        found = mem.runs.list(limit=limit, offset=offset, **filters, **scope)
        total = mem.runs.count(**filters, **scope)
    shown = render.listing(
        {"items": [r.to_dict() for r in found], "total": total, "limit": limit, "offset": offset},
        as_json,
        "no runs",
        ("run", "status", "score", "type", "task", "finished"),
        (
            (
                escape(run.run_id),
                run.status,
                _score(run.score),
                escape(run.task_type or ""),
                escape((run.task or "")[:80]),
                "" if run.finished_at is None else run.finished_at.isoformat(timespec="seconds"),
            )
            for run in found
        ),
    )
    if shown:
        render.console.print(f"{len(found)} of {total} runs")


def _show(view: RunView, as_json: bool) -> None:
    if as_json:
        render.emit_json(view.to_dict())
        return
    run = view.run
    render.console.print(
        f"[bold]run {escape(run.run_id)}[/bold]  {run.status}  score {_score(run.score)}"
    )
    for label, value in (
        ("task", run.task),
        ("type", run.task_type),
        ("tokens", f"{run.tokens_in or 0} in / {run.tokens_out or 0} out"),
        ("output", run.output_path or f"{run.output_chars} characters"),
    ):
        if value:
            render.console.print(f"  {label}: {escape(value)}")
    for issue in run.issues:
        render.console.print(f"  issue: {escape(issue)}")
    render.console.print(f"\n[bold]produced[/bold] ({len(view.observations)})")
    for memory in view.observations:
        render.console.print(f"  {memory.id}  {escape(memory.title or memory.content[:80])}")
    render.console.print(f"\n[bold]injected[/bold] ({len(view.hits)})")
    for hit in view.hits:
        score = "" if hit.score is None else f"  {hit.score:.3f}"
        render.console.print(f"  {hit.rank}. {hit.memory_id}  {escape(hit.title or '')}{score}")


@one_of(runs, "show", "run_id", run=False)
def show(obj: Ctx, run_id: str, scope: dict[str, Any], as_json: bool) -> None:
    """A run with the observations it produced and the memories injected into it."""
    with obj.memory(must_exist=True) as mem:
        view = mem.runs.get(run_id, **scope)
    _show(view, as_json)


@one_of(runs, "of", "memory_id", run=False)
def of(obj: Ctx, memory_id: str, scope: dict[str, Any], as_json: bool) -> None:
    """The run an observation came from (MEMORY_ID may be a short id)."""
    scope = scope
    with obj.memory(must_exist=True) as mem:
        full = mem.admin.resolve_id(pasted_id(memory_id), **scope)
        view = mem.runs.run_of(full, **scope)
    _show(view, as_json)


def _read(source: str) -> str:
    if source != "-" and not Path(source).is_file():
        raise InvalidInputError(f"no file {source!r}: pass the run's output file, or - for stdin")
    return read_text(source)


@click.command()
@click.argument("output", metavar="OUTPUT_FILE")
@click.option("--task", required=True, help="What the run was asked to do.")
@click.option("--task-type", help="The kind of task (research, best_practices ...).")
@click.option("--query", "queries", multiple=True, help="A search query the run issued.")
@click.option("--score", type=float, help="The evaluator's final score, 0-10.")
@click.option("--issue", "issues", multiple=True, help="An evaluator issue ([wiggum] fact).")
@click.option("--run", "run_id", help="The run's id (a new one is made if left out).")
@click.option("--tokens-in", type=int)
@click.option("--tokens-out", type=int)
@owner_scope_options
@json_command
def observe(
    obj: Ctx,
    output: str,
    task: str,
    task_type: str | None,
    queries: tuple[str, ...],
    score: float | None,
    issues: tuple[str, ...],
    run_id: str | None,
    tokens_in: int | None,
    tokens_out: int | None,
    scope: dict[str, Any],
    as_json: bool,
) -> None:
    """Compress a completed run's OUTPUT_FILE ("-": stdin) into an observation and
    record the run."""
    text = _read(output)
    with obj.memory() as mem:
        observed = mem.runs.compress_and_store(
            task,
            text,
            task_type=task_type,
            queries=list(queries),
            score=score,
            issues=list(issues),
            run_id=run_id,
            tokens_in=tokens_in,
            tokens_out=tokens_out,
            output_path=None if output == "-" else str(Path(output).resolve()),
            **scope,
        )
    if as_json:
        render.emit_json(observed.to_dict())
        return
    memory = observed.memory
    verb = "stored" if observed.created else "already stored"
    render.console.print(f"{verb} observation {memory.id} of run {escape(observed.run.run_id)}")
    render.console.print(f"[bold]{escape(memory.title or '')}[/bold] ({observed.summarizer})")
    render.console.print(escape(memory.narrative or ""))
    for fact in memory.facts:
        render.console.print(f"  • {escape(fact)}")
    for blocked in observed.blocked_issues:
        render.console.print(
            f"[yellow]dropped issue[/yellow] {escape(repr(blocked.issue))}: "
            f"{escape('; '.join(blocked.reasons))}"
        )
    for warning in observed.warnings:
        render.console.print(f"[yellow]warning[/yellow] {escape(warning)}")
