"""``engram review``: the write pipeline's proposals held back for a person."""

from __future__ import annotations

from typing import Any

import click
from rich.table import Table

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    page_options,
    pasted_id,
    scope_options,
)


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
@page_options(50)
@json_command
def list_(
    obj: Ctx, scope: dict[str, Any], status: str, limit: int, offset: int, as_json: bool
) -> None:
    """Held-back proposals, oldest first."""
    wanted = None if status == "all" else status
    with obj.memory(must_exist=True) as mem:
        items = mem.review.list(status=wanted, limit=limit, offset=offset, **scope)
        total = mem.review.count(status=wanted, **scope)
    render.listing(
        {"items": [i.to_dict() for i in items], "total": total, "limit": limit, "offset": offset},
        as_json,
        f"no {status if wanted else ''} review items".replace("  ", " "),
        ("id", "action", "old claim", "new claim", "why", "status"),
        (
            (
                str(item.id),
                item.action,
                _side(item.sides["old"]),
                _side(item.sides["new"]),
                item.reason,
                item.status,
            )
            for item in items
        ),
    )


def _side(side: dict[str, Any]) -> str:
    """One side of a proposal: its memory id (12 characters) and the clause it says
    (the whole text when no clause was singled out)."""
    said = side.get("claim") or side.get("text") or ""
    return f"[{str(side.get('memory_id') or '')[:12]}] {said}"


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
@json_command
def approve(obj: Ctx, item_id: int, note: str | None, scope: dict[str, Any], as_json: bool) -> None:
    """Apply a held-back proposal (supersede or delete its target)."""
    _resolve(obj, True, item_id, note, as_json, scope)


@review.command()
@click.argument("item_id", type=int)
@click.option("--note", help="Why (kept in the audit trail).")
@scope_options
@json_command
def reject(obj: Ctx, item_id: int, note: str | None, scope: dict[str, Any], as_json: bool) -> None:
    """Drop a held-back proposal; nothing changes but the audit trail."""
    _resolve(obj, False, item_id, note, as_json, scope)


@review.command()
@click.argument("ids", nargs=-1)
@click.option(
    "--dry-run/--yes",
    "dry_run",
    default=True,
    show_default=True,
    help="Only show what would be deleted (the default), or delete it.",
)
@click.option(
    "--any",
    "any_memory",
    is_flag=True,
    help="Delete the IDS given even if they are not prune candidates.",
)
@click.option("-k", "--limit", default=100, show_default=True, help="Candidates taken without IDS.")
@scope_options
@json_command
def prune(
    obj: Ctx,
    ids: tuple[str, ...],
    dry_run: bool,
    any_memory: bool,
    limit: int,
    scope: dict[str, Any],
    as_json: bool,
) -> None:
    """Tombstone prune candidates (seed 000: quality <= -2, or score < 6 and quality < 0).

    Without IDS, takes the worst LIMIT candidates. A dry run by default: pass --yes to
    delete. Each deletion is in the memory's history; `engram purge` removes it for good.
    """
    with obj.memory(must_exist=True) as mem:
        if ids:
            wanted = [mem.admin.resolve_id(pasted_id(i), **scope) for i in ids]
        else:
            wanted = [r.id for r in mem.review.prune_candidates(limit=limit, **scope)]
        report = mem.review.prune(
            wanted, dry_run=dry_run, only_candidates=not any_memory, actor="cli", **scope
        )
    if as_json:
        render.emit_json(report.to_dict())
        return
    if not report.items:
        render.console.print("no prune candidates")
        return
    render.fold_table(
        ("id", "action", "why"), ((item.id, item.action, item.reason) for item in report.items)
    )
    done = len(report.would_delete if dry_run else report.deleted)
    verb = "would delete" if dry_run else "deleted"
    hint = " (run again with --yes to delete)" if dry_run and done else ""
    render.console.print(f"{verb} {done} memories{hint}", markup=False)


@review.command()
@click.option("-k", "--limit", type=int, help="Nodes (default: review.graph_max_nodes, 600).")
@click.option("--type", "kind", help="Only memories of this type (fact, observation ...).")
@click.option(
    "--method",
    type=click.Choice(["umap", "pca"]),
    default="umap",
    show_default=True,
    help="pca skips UMAP's start-up compilation (tens of seconds in a fresh process).",
)
@scope_options
@json_command
def graph(
    obj: Ctx, limit: int | None, kind: str | None, method: str, scope: dict[str, Any], as_json: bool
) -> None:
    """The 2-D graph view of the newest memories: UMAP (PCA without the [viz] extra)
    and KMeans clusters. --json prints the nodes the dashboard draws."""
    with obj.memory(must_exist=True) as mem:
        view = mem.review.graph(limit=limit, type=kind, method=method, **scope)
    if as_json:
        render.emit_json(view.to_dict())
        return
    render.console.print(
        f"{len(view.nodes)} of {view.total} memories, projected by {view.method}", markup=False
    )
    if view.note:
        render.console.print(f"note: {view.note}", markup=False)
    table = Table()
    for column in ("cluster", "size", "titles"):
        table.add_column(column, overflow="fold")
    for cluster in view.clusters:
        titles = [n["title"] for n in view.nodes if n["cluster"] == cluster["id"]][:3]
        table.add_row(str(cluster["id"]), str(cluster["size"]), " | ".join(titles))
    render.console.print(table)
