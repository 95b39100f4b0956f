"""``engram procedure``: procedures proposed from failures, and their SKILL.md files
(seed 002's procedural memory; FEATURES S7)."""

from __future__ import annotations

from typing import Any

import click

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    limit_option,
    one_of,
    owner_scope_options,
    pasted_id,
)
from engram.procedures import Procedure, skill_markdown


def _show(p: Procedure) -> None:
    stored = f"stored as {p.memory_id}" if p.memory_id else "not stored"
    render.console.print(
        f"[bold]{p.name}[/bold] (confidence {p.confidence:g}, {p.method}; {stored})"
    )
    render.console.print(skill_markdown(p), markup=False)
    if p.skill_path:
        render.console.print(f"SKILL.md written to {p.skill_path}", markup=False)


@click.group()
def procedure() -> None:
    """Procedures proposed from failed tasks, stored as procedural memories."""


@procedure.command("propose")
@click.option("--task", required=True, help="What the agent was doing.")
@click.option("--error", required=True, help="The error it failed with.")
@click.option("--step", "steps", multiple=True, help="A step it tried (repeat, in order).")
@click.option("--trace", help="A stack trace or log excerpt.")
@click.option("--retries", type=click.IntRange(0), default=0, show_default=True)
@click.option("--turns", type=click.IntRange(0), default=0, show_default=True)
@click.option("--no-store", is_flag=True, help="Propose only; store nothing.")
@click.option(
    "--skill-dir",
    type=click.Path(file_okay=False),
    help="Also write <dir>/<name>/SKILL.md (default: [procedural] skill_md_directory).",
)
@owner_scope_options
@json_command
def propose(
    obj: Ctx,
    task: str,
    error: str,
    steps: tuple[str, ...],
    trace: str | None,
    retries: int,
    turns: int,
    no_store: bool,
    skill_dir: str | None,
    scope: dict[str, Any],
    as_json: bool,
) -> None:
    """Turn a failed task into a procedure (LLM of [llm], else the offline template).
    Stored only when its confidence reaches [procedural] min_confidence."""
    failure: dict[str, Any] = {"task": task, "error": error, "steps": list(steps)}
    failure |= {"trace": trace, "retries": retries, "turns": turns}
    with obj.memory() as mem:
        result = mem.procedures.propose(failure, store=not no_store, skill_dir=skill_dir, **scope)
        floor = mem.config.procedural.min_confidence
    if as_json:
        render.emit_json(result.to_dict())
        return
    _show(result)
    if result.memory_id is None and not no_store:
        render.console.print(
            f"discarded: confidence {result.confidence:g} is under min_confidence {floor:g}"
        )


@procedure.command("list")
@owner_scope_options
@limit_option(50)
@json_command
def list_(obj: Ctx, scope: dict[str, Any], limit: int, as_json: bool) -> None:
    """Stored procedures, newest first."""
    with obj.memory(must_exist=True) as mem:
        items = mem.procedures.list(limit=limit, **scope)
    if render.said(as_json, {"items": [p.to_dict() for p in items]}, items, "no stored procedures"):
        return
    for p in items:
        render.console.print(f"{p.memory_id}  {p.name}  ({p.confidence:g})", markup=False)


@one_of(procedure, "show", "memory_id", run=False)
def show(obj: Ctx, memory_id: str, scope: dict[str, Any], as_json: bool) -> None:
    """A stored procedure, as its SKILL.md would read."""
    with obj.memory(must_exist=True) as mem:
        found = mem.procedures.get(mem.admin.resolve_id(pasted_id(memory_id), **scope), **scope)
    if as_json:
        render.emit_json(found.to_dict())
        return
    _show(found)


@procedure.command("skill")
@click.argument("memory_id")
@click.argument("directory", type=click.Path(file_okay=False))
@owner_scope_options
@json_command
def skill(obj: Ctx, memory_id: str, directory: str, scope: dict[str, Any], as_json: bool) -> None:
    """Write a stored procedure as DIRECTORY/<name>/SKILL.md."""
    with obj.memory(must_exist=True) as mem:
        full = mem.admin.resolve_id(pasted_id(memory_id), **scope)
        path = mem.procedures.write_skill(full, directory, **scope)
    if as_json:
        render.emit_json({"path": str(path)})
        return
    render.console.print(f"wrote {path}", markup=False)
