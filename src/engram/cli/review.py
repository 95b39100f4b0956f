"""``engram review``: the write pipeline's proposals held back for a person."""

from __future__ import annotations

import click
from rich.table import Table

from engram.cli import render
from engram.cli.common import Ctx, handle_errors, json_option, scope_kwargs, scope_options


@click.group()
def review() -> None:
    """List, approve and reject proposals that contradiction detection held back."""


@review.command("list")
@scope_options
@click.option(
    "--status",
    type=click.Choice(["pending", "approved", "rejected", "all"]),
    default="pending",
    show_default=True,
)
@click.option("-k", "--limit", default=50, show_default=True)
@click.option("--offset", default=0, show_default=True)
@json_option
@click.pass_obj
@handle_errors
def list_(
    obj: Ctx,
    namespace: str | None,
    user_id: str | None,
    agent_id: str | None,
    run_id: str | None,
    status: str,
    limit: int,
    offset: int,
    as_json: bool,
) -> None:
    """Held-back proposals, oldest first."""
    wanted = None if status == "all" else status
    scope = scope_kwargs(namespace, user_id, agent_id, run_id)
    with obj.memory(must_exist=True) as mem:
        items = mem.review.list(status=wanted, limit=limit, offset=offset, **scope)
        total = mem.review.count(status=wanted, **scope)
    if as_json:
        render.emit_json(
            {"items": [i.to_dict() for i in items], "total": total, "limit": limit,
             "offset": offset}
        )  # fmt: skip
        return
    if not items:
        render.console.print(f"no {status if wanted else ''} review items".replace("  ", " "))
        return
    table = Table()
    for column in ("id", "action", "target", "proposed", "why", "status"):
        table.add_column(column, overflow="fold")
    for item in items:
        table.add_row(
            str(item.id),
            item.action,
            (item.target_id or "")[:12],
            str(item.proposal.get("content", "")),
            item.reason,
            item.status,
        )
    render.console.print(table)


def _resolve(obj: Ctx, approve: bool, item_id: int, note: str | None, as_json: bool,
             scope: dict[str, str | None]) -> None:  # fmt: skip
    with obj.memory(must_exist=True) as mem:
        if approve:
            item = mem.review.approve(item_id, note=note, actor="cli", **scope)
        else:
            item = mem.review.reject(item_id, note=note, actor="cli", **scope)
    if as_json:
        render.emit_json(item.to_dict())
    else:
        render.console.print(f"review item {item.id} {item.status}", markup=False)


@review.command()
@click.argument("item_id", type=int)
@click.option("--note", help="Why (kept in the audit trail).")
@scope_options
@json_option
@click.pass_obj
@handle_errors
def approve(
    obj: Ctx,
    item_id: int,
    note: str | None,
    namespace: str | None,
    user_id: str | None,
    agent_id: str | None,
    run_id: str | None,
    as_json: bool,
) -> None:
    """Apply a held-back proposal (supersede or delete its target)."""
    _resolve(obj, True, item_id, note, as_json, scope_kwargs(namespace, user_id, agent_id, run_id))


@review.command()
@click.argument("item_id", type=int)
@click.option("--note", help="Why (kept in the audit trail).")
@scope_options
@json_option
@click.pass_obj
@handle_errors
def reject(
    obj: Ctx,
    item_id: int,
    note: str | None,
    namespace: str | None,
    user_id: str | None,
    agent_id: str | None,
    run_id: str | None,
    as_json: bool,
) -> None:
    """Drop a held-back proposal; nothing changes but the audit trail."""
    _resolve(obj, False, item_id, note, as_json, scope_kwargs(namespace, user_id, agent_id, run_id))
