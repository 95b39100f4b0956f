"""``engram sessions``: checkpoints, recovery digests and continuity scores (seed 004)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    limit_option,
    owner_scope_options,
    page_options,
    read_text,
)
from engram.records import iso
from engram.sessions import TRIGGERS


@click.group()
def sessions() -> None:
    """Session checkpoints, recovery digests and continuity scores."""


@sessions.command("list")
@owner_scope_options
@page_options(50)
@json_command
def list_(obj: Ctx, scope: dict[str, Any], limit: int, offset: int, as_json: bool) -> None:
    """Sessions with checkpoints, most recent first."""
    with obj.memory(must_exist=True) as mem:
        rows = mem.sessions.list(limit=limit, offset=offset, **scope)
    items = [
        {"session_key": k, "checkpoints": n, "last_checkpoint_at": iso(at)} for k, n, at in rows
    ]
    render.listing(
        {"items": items, "limit": limit, "offset": offset},
        as_json,
        "no sessions with checkpoints",
        ("session", "checkpoints", "last checkpoint"),
        ((key, str(count), iso(at)) for key, count, at in rows),
    )


@sessions.command("checkpoints")
@click.argument("session_key")
@owner_scope_options
@click.option("--trigger", type=click.Choice(TRIGGERS), help="Only this trigger's checkpoints.")
@limit_option(50)
@json_command
def checkpoints(
    obj: Ctx,
    session_key: str,
    scope: dict[str, Any],
    trigger: str | None,
    limit: int,
    as_json: bool,
) -> None:
    """A session's checkpoints, newest first."""
    with obj.memory(must_exist=True) as mem:
        rows = mem.sessions.checkpoints(session_key, limit=limit, trigger=trigger, **scope)
    empty = f"no checkpoints for session {session_key!r}"
    if render.said(as_json, {"items": [c.to_dict() for c in rows]}, rows, empty):
        return
    for c in rows:
        render.console.print(f"[bold]#{c.id}[/bold] {c.trigger} at {iso(c.created_at)}")
        render.console.print(c.digest, markup=False)
        render.console.print()


@sessions.command("checkpoint")
@click.argument("session_key")
@owner_scope_options
@click.option("--trigger", type=click.Choice(TRIGGERS), default="explicit", show_default=True)
@click.option("--context", help="The harness's own summary of the session (pre_compaction).")
@json_command
def checkpoint(
    obj: Ctx,
    session_key: str,
    scope: dict[str, Any],
    trigger: str,
    context: str | None,
    as_json: bool,
) -> None:
    """Take a checkpoint now (this process ends at once, so it skips the debounce)."""
    with obj.memory() as mem:
        written = mem.sessions.checkpoint(session_key, trigger, context=context, **scope)
        if written is None:
            flushed = mem.sessions.flush(force=True)
            written = flushed[-1] if flushed else None
    if written is None:
        render.console.print("sessions are disabled ([sessions] enabled = false)")
        return
    if as_json:
        render.emit_json(written.to_dict())
        return
    render.console.print(f"checkpoint #{written.id} ({written.trigger}) stored")


@sessions.command("recover")
@click.argument("session_key")
@owner_scope_options
@click.option("--budget", type=int, help="Characters at most (default: recovery_budget_chars).")
@json_command
def recover(
    obj: Ctx, session_key: str, scope: dict[str, Any], budget: int | None, as_json: bool
) -> None:
    """Print the recovery digest of a session: where it was, newest first."""
    with obj.memory(must_exist=True) as mem:
        digest = mem.sessions.recover(session_key, budget=budget, **scope)
    if as_json:
        render.emit_json({"session_key": session_key, "digest": digest})
        return
    render.console.print(digest or f"no checkpoints for session {session_key!r}", markup=False)


@sessions.command("end")
@click.argument("session_key")
@owner_scope_options
@click.option(
    "--transcript",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="The session's transcript (default: the stored one).",
)
@json_command
def end(
    obj: Ctx, session_key: str, scope: dict[str, Any], transcript: Path | None, as_json: bool
) -> None:
    """End a session: its session_end checkpoint and continuity score."""
    text = None if transcript is None else read_text(transcript)
    with obj.memory() as mem:
        score = mem.sessions.end(session_key, transcript=text, **scope)
    if as_json:
        render.emit_json(score.to_dict())
        return
    render.console.print(
        f"session {session_key!r}: continuity {score.score:.2f} "
        f"(confidence {score.confidence:.2f}, {score.method}); "
        f"{score.memories_used} of {score.memories_recalled} injected memories used"
    )
    render.console.print(score.reasoning, markup=False)


@sessions.command("prune")
@json_command
def prune(obj: Ctx, as_json: bool) -> None:
    """Delete checkpoints older than retention_days (every namespace)."""
    with obj.memory(must_exist=True) as mem:
        removed = mem.sessions.prune()
    if as_json:
        render.emit_json({"pruned": removed})
        return
    render.console.print(f"{removed} checkpoints pruned")
