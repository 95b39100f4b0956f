"""``engram backend``, ``engram agents`` and ``engram shared``: the store's lifecycle and
capabilities, per-agent memory levels and cross-agent shared knowledge (FEATURES S1-S3)."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table

from engram.agents import AgentProfile, MemoryLevel
from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    limit_option,
    page_options,
    pasted_id,
)
from engram.records import iso
from engram.shared import DEFAULT_SPACE

LEVELS = [level.value for level in MemoryLevel]


def _profile(agent_id: str, found: AgentProfile | None, level: MemoryLevel) -> dict[str, Any]:
    return {
        "agent_id": agent_id,
        "level": level.value,
        "project": None if found is None else found.project,
        "stored": found is not None,
        "updated_at": None if found is None else iso(found.updated_at),
    }


@click.command("backend")
@json_command
def backend(obj: Ctx, as_json: bool) -> None:
    """The store: its backend, connection, a health round trip and its capabilities."""
    with obj.memory(must_exist=True) as mem:
        status = mem.backend.status()
    if as_json:
        render.emit_json(status)
        return
    caps = status["capabilities"]
    render.console.print(
        f"backend: {status['backend']}  connected: {status['connected']}  "
        f"healthy: {status['healthy']}",
        markup=False,
    )
    table = Table()
    table.add_column("capability")
    table.add_column("value", overflow="fold")
    for name, value in caps.items():
        shown = ", ".join(value) if isinstance(value, list) else str(value)
        table.add_row(name, shown)
    render.console.print(table)


@click.group()
def agents() -> None:
    """Per-agent memory levels: none, session, project, persistent."""


@agents.command("level")
@click.argument("agent_id")
@click.argument("level", required=False, type=click.Choice(LEVELS))
@click.option("--project", help="The project (required with the project level).")
@json_command
def level(obj: Ctx, agent_id: str, level: str | None, project: str | None, as_json: bool) -> None:
    """Show the agent's level, or set it to LEVEL."""
    with obj.memory(must_exist=level is None) as mem:
        if level is not None:
            found: AgentProfile | None = mem.agents.set_level(agent_id, level, project=project)
        else:
            found = mem.agents.profile(agent_id)
        out = _profile(agent_id, found, mem.agents.level(agent_id))
    if as_json:
        render.emit_json(out)
        return
    where = f" (project {out['project']})" if out["project"] else ""
    note = "" if out["stored"] else " (default: never set)"
    render.console.print(f"{agent_id}: {out['level']}{where}{note}", markup=False)


@agents.command("reset")
@click.argument("agent_id")
@json_command
def reset(obj: Ctx, agent_id: str, as_json: bool) -> None:
    """Forget the agent's level; it is persistent again."""
    with obj.memory(must_exist=True) as mem:
        had = mem.agents.reset(agent_id)
    if as_json:
        render.emit_json({"agent_id": agent_id, "reset": had, "level": "persistent"})
        return
    render.console.print(
        f"{agent_id}: level reset to persistent" if had else f"{agent_id} had no level set",
        markup=False,
    )


@agents.command("list")
@page_options(100)
@json_command
def list_(obj: Ctx, limit: int, offset: int, as_json: bool) -> None:
    """Agents with a level set, by id."""
    with obj.memory(must_exist=True) as mem:
        found = mem.agents.list_levels(limit=limit, offset=offset)
    items = [_profile(p.agent_id, p, p.level) for p in found]
    render.listing(
        {"items": items, "limit": limit, "offset": offset},
        as_json,
        "no agent has a level set (every agent is persistent)",
        ("agent", "level", "project", "updated"),
        ((p.agent_id, p.level.value, p.project or "", iso(p.updated_at)) for p in found),
    )


@agents.command("end-session")
@click.argument("agent_id")
@click.argument("session_id")
@click.option("-n", "--namespace", help="Only this namespace (default: every namespace).")
@json_command
def end_session(
    obj: Ctx, agent_id: str, session_id: str, namespace: str | None, as_json: bool
) -> None:
    """Tombstone the agent's session-level memories of SESSION_ID."""
    with obj.memory(must_exist=True) as mem:
        removed = mem.agents.end_session(agent_id, session_id, namespace=namespace)
    if as_json:
        render.emit_json({"agent_id": agent_id, "session_id": session_id, "removed": removed})
        return
    render.console.print(f"removed {removed} session-level memories", markup=False)


@click.group()
def shared() -> None:
    """Knowledge agents publish for each other: publish, search, list, retract."""


_SPACE = click.option("-n", "--namespace", help="The shared namespace (default shared:default).")


@shared.command("publish")
@click.argument("agent_id")
@click.argument("content")
@_SPACE
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@json_command
def publish(
    obj: Ctx,
    agent_id: str,
    content: str,
    namespace: str | None,
    tags: tuple[str, ...],
    as_json: bool,
) -> None:
    """Publish CONTENT as AGENT_ID."""
    with obj.memory() as mem:
        record = mem.shared.publish(agent_id, content, namespace=namespace, tags=list(tags) or None)
    if as_json:
        render.emit_json(record.to_dict())
        return
    render.console.print(f"published {record.id} in {record.namespace}", markup=False)


@shared.command("search")
@click.argument("query")
@_SPACE
@click.option("--exclude-agent", help="Leave out this agent's publications (yours).")
@click.option("-k", "--limit", type=int, help="How many hits (default: recall's limit).")
@json_command
def search(
    obj: Ctx,
    query: str,
    namespace: str | None,
    exclude_agent: str | None,
    limit: int | None,
    as_json: bool,
) -> None:
    """Ranked publications for QUERY."""
    with obj.memory(must_exist=True) as mem:
        hits = mem.shared.search_shared(
            query, exclude_agent=exclude_agent, namespace=namespace, limit=limit
        )
    if render.said(
        as_json, {"hits": [h.to_dict() for h in hits]}, hits, "no shared knowledge matches"
    ):
        return
    render.fold_table(
        ("id", "score", "publisher", "content"),
        ((h.id, f"{h.score:.3f}", h.memory.agent_id or "", h.memory.content) for h in hits),
    )


@shared.command("list")
@_SPACE
@click.option("--agent", "agent_id", help="Only this publisher's.")
@limit_option(100)
@json_command
def publications(
    obj: Ctx, namespace: str | None, agent_id: str | None, limit: int, as_json: bool
) -> None:
    """Live publications, newest first."""
    with obj.memory(must_exist=True) as mem:
        found = mem.shared.publications(namespace=namespace, agent_id=agent_id, limit=limit)
    if render.said(as_json, {"items": [r.to_dict() for r in found]}, found, "nothing published"):
        return
    render.fold_table(
        ("id", "publisher", "content"), ((r.id, r.agent_id or "", r.content) for r in found)
    )


@shared.command("retract")
@click.argument("agent_id")
@click.argument("memory_id")
@_SPACE
@click.option("--reason", help="Why (kept in the audit row).")
@json_command
def retract(
    obj: Ctx,
    agent_id: str,
    memory_id: str,
    namespace: str | None,
    reason: str | None,
    as_json: bool,
) -> None:
    """Retract a publication; only its publisher (AGENT_ID) may."""
    with obj.memory(must_exist=True) as mem:
        # The short id `shared list` and `engram list` show, as every command takes.
        full = mem.admin.resolve_id(pasted_id(memory_id), namespace=namespace or DEFAULT_SPACE)
        record = mem.shared.retract(agent_id, full, namespace=namespace, reason=reason)
    if as_json:
        render.emit_json(record.to_dict())
        return
    render.console.print(f"retracted {record.id} from {record.namespace}", markup=False)
