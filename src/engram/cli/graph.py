"""``engram graph``: the knowledge graph (FEATURES G1, G2, G5) from a terminal: entities,
relations with their validity windows, timelines, neighbourhoods, the repairs (merge,
split, invalidate, dedupe) and seed 004's aspect decay (``decay-aspects``).

Every command calls ``mem.graph`` and nothing else; dates (``--at``) go to the library
as typed, so a bad one is the library's ``InvalidInputError`` (exit 2), and an unknown
entity its ``NotFoundError`` (exit 3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import click
from rich.table import Table

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    limit_option,
    one_of,
    page_options,
    scope_options,
)
from engram.errors import InvalidInputError
from engram.graph import Entity, Relation


def when(moment: datetime | None) -> str:
    """A validity bound for a table: minutes in UTC, ``now`` for an open end."""
    return "now" if moment is None else moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M")


def window(relation: Relation) -> str:
    return f"{when(relation.valid_from)} → {when(relation.valid_to)}"


def relation_table(relations: Sequence[Relation]) -> None:
    table = Table()
    # Confidence and mention counts are in --json; the window must never wrap.
    for column in ("source", "relation", "target", "valid"):
        table.add_column(column, overflow="fold", no_wrap=column == "valid")
    for rel in relations:
        table.add_row(rel.source, rel.relation_type, rel.target, window(rel))
    render.console.print(table)


def entity_table(entities: Sequence[Entity], hops: Sequence[int] | None = None) -> None:
    table = Table()
    if hops is not None:
        table.add_column("hops", justify="right")
    for column in ("name", "type", "mentions", "aliases"):
        table.add_column(
            column, overflow="fold", justify="right" if column == "mentions" else "left"
        )
    for i, entity in enumerate(entities):
        row = [entity.name, entity.entity_type, str(entity.mentions), ", ".join(entity.aliases)]
        table.add_row(*([str(hops[i])] if hops is not None else []), *row)
    render.console.print(table)


def _page(
    items: Sequence[Entity] | Sequence[Relation], total: int, limit: int, offset: int
) -> dict[str, Any]:
    return {"items": [i.to_dict() for i in items], "total": total, "limit": limit, "offset": offset}


def _show_page(
    items: Any,
    total: int,
    limit: int,
    offset: int,
    as_json: bool,
    empty: str,
    table: Callable[[Any], None],
) -> None:
    """A page of a listing: the JSON page, ``empty`` when there is nothing, or the
    ``table`` and, when more match than shown, how to page on."""
    if as_json:
        render.emit_json(_page(items, total, limit, offset))
    elif not items:
        # The message can quote the user's --query / --entity: printed, not rich markup.
        render.console.print(empty, markup=False)
    else:
        table(items)
        if total > len(items):
            render.console.print(
                f"{len(items)} of {total} shown (from {offset}); --offset pages on", markup=False
            )


@click.group()
def graph() -> None:
    """The knowledge graph: entities, relations over time, and their repairs."""


@graph.command()
@scope_options
@click.option("-q", "--query", help="Only entities whose name contains this.")
@page_options(50)
@json_command
def entities(
    obj: Ctx, scope: dict[str, Any], query: str | None, limit: int, offset: int, as_json: bool
) -> None:
    """Entities, most mentioned first."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        items = mem.graph.entities(limit, offset, query, **scope)
        total = mem.graph.count_entities(query, **scope)
    empty = "no entities" + (f" matching {query!r}" if query else "")
    _show_page(items, total, limit, offset, as_json, empty, entity_table)


@one_of(graph, None, "name")
def entity(obj: Ctx, name: str, scope: dict[str, Any], as_json: bool) -> None:
    """One entity: its aliases, mentions, aspects and structural facts."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        found = mem.graph.entity(name, **scope)
        aspects = mem.graph.aspects(name, **scope)
        attributes = mem.graph.attributes(name, **scope)
        memory_ids = mem.graph.memories_of(name, **scope)
    if as_json:
        render.emit_json(
            {
                **found.to_dict(),
                "aspects": [a.to_dict() for a in aspects],
                "attributes": [a.to_dict() for a in attributes],
                "memory_ids": memory_ids,
            }
        )
        return
    aliases = f" (also {', '.join(found.aliases)})" if found.aliases else ""
    render.console.print(
        f"{found.name} [{found.entity_type}]{aliases}: mentioned by "
        f"{render.plural(found.mentions, 'memory', 'memories')}",
        markup=False,
    )
    for aspect in aspects:
        render.console.print(f"  aspect {aspect.name} (weight {aspect.weight:.2f})", markup=False)
    for fact in attributes:
        render.console.print(f"  {fact.kind}: {fact.content}", markup=False)


@graph.command()
@scope_options
@click.option("--entity", "name", help="Only relations of this entity (either end).")
@click.option("--all", "everything", is_flag=True, help="Closed relations too.")
@click.option("--at", help="The relations that held at this date or ISO 8601 time.")
@page_options(100)
@json_command
def relations(
    obj: Ctx,
    scope: dict[str, Any],
    name: str | None,
    everything: bool,
    at: str | None,
    limit: int,
    offset: int,
    as_json: bool,
) -> None:
    """Relations that hold now (all of them with --all, those at a time with --at), by
    when they began."""
    if everything and at is not None:
        raise InvalidInputError("--all and --at exclude each other: --at already reaches back")
    with obj.memory(must_exist=True, embedder=None) as mem:
        if at is not None:
            items = mem.graph.as_of(at, entity=name, limit=limit, offset=offset, **scope)
        else:
            items = mem.graph.relations(name, not everything, limit=limit, offset=offset, **scope)
        total = mem.graph.count_relations(name, current_only=not everything, at=at, **scope)
    empty = "no relations" + (f" of {name!r}" if name else "")
    _show_page(items, total, limit, offset, as_json, empty, relation_table)


@one_of(graph, None, "name")
def timeline(obj: Ctx, name: str, scope: dict[str, Any], as_json: bool) -> None:
    """An entity's whole history: every relation it was part of, closed ones included."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        found = mem.graph.entity(name, **scope)
        items = mem.graph.timeline(name, **scope)
    if as_json:
        render.emit_json({"entity": found.to_dict(), "items": [r.to_dict() for r in items]})
    elif not items:
        render.console.print(f"{found.name} is in no relation", markup=False)
    else:
        relation_table(items)


@graph.command()
@click.argument("name")
@scope_options
@click.option("--hops", default=1, show_default=True, help="How far to walk (1-4).")
@click.option("--at", help="Walk the relations that held at this date or ISO 8601 time.")
@limit_option(100)
@json_command
def neighbors(
    obj: Ctx, name: str, scope: dict[str, Any], hops: int, at: str | None, limit: int, as_json: bool
) -> None:
    """Entities within --hops relations of NAME, either direction, nearest first."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        found = mem.graph.neighbors(name, hops, at=at, limit=limit, **scope)
    if as_json:
        render.emit_json({"entity": name, "hops": hops, "at": at,
                          "items": [n.to_dict() for n in found]})  # fmt: skip
    elif not found:
        render.console.print(f"nothing within {render.plural(hops, 'hop', 'hops')}", markup=False)
    else:
        entity_table([n.entity for n in found], [n.hops for n in found])


@graph.command()
@click.argument("keep")
@click.argument("other")
@scope_options
@json_command
def merge(obj: Ctx, keep: str, other: str, scope: dict[str, Any], as_json: bool) -> None:
    """Fold entity OTHER into KEEP: its mentions, relations and names (which become
    aliases of KEEP) move over, and OTHER is gone."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        kept = mem.graph.merge(keep, other, **scope)
    if as_json:
        render.emit_json(kept.to_dict())
    else:
        render.console.print(
            f"merged {other!r} into {kept.name!r} (now also {', '.join(kept.aliases)})",
            markup=False,
        )


@graph.command()
@click.argument("name")
@click.argument("alias")
@scope_options
@json_command
def split(obj: Ctx, name: str, alias: str, scope: dict[str, Any], as_json: bool) -> None:
    """Turn ALIAS of entity NAME back into an entity of its own (undoing a wrong merge):
    the mentions and relations that came by that name go with it."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        made = mem.graph.split(name, alias, **scope)
    if as_json:
        render.emit_json(made.to_dict())
    else:
        render.console.print(
            f"split {made.name!r} off {name!r}: "
            f"{render.plural(made.mentions, 'mention', 'mentions')} went with it",
            markup=False,
        )


@graph.command()
@click.argument("source")
@click.argument("relation")
@click.argument("target")
@click.option("--at", help="When it stopped holding (default now): a date or ISO 8601 time.")
@scope_options
@json_command
def invalidate(
    obj: Ctx,
    source: str,
    relation: str,
    target: str,
    at: str | None,
    scope: dict[str, Any],
    as_json: bool,
) -> None:
    """End the relation SOURCE RELATION TARGET that holds now (its history stays)."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        closed = mem.graph.invalidate(source, relation, target, at=at, **scope)
    if as_json:
        render.emit_json(closed.to_dict())
    else:
        render.console.print(
            f"{closed.source} {closed.relation_type} {closed.target}: {window(closed)}",
            markup=False,
        )


@graph.command()
@click.option(
    "--threshold",
    type=click.FloatRange(0.0, 1.0),
    default=0.9,
    show_default=True,
    help="How alike two names' embeddings must be (the name rules need no threshold).",
)
@click.option("--apply", is_flag=True, help="Merge what is found (default: only list it).")
@click.option("--type", "entity_type", help="Only entities of this type (person, item ...).")
@scope_options
@json_command
def dedupe(
    obj: Ctx,
    threshold: float,
    apply: bool,
    entity_type: str | None,
    scope: dict[str, Any],
    as_json: bool,
) -> None:
    """Find entities that are one under two names; --apply merges them.

    By normalised name (Dr. Smith / dr smith), a lone first name (Caroline / the one
    Caroline Smith) and, with an embedder, names' embeddings at least --threshold
    alike. Each group merges into its most mentioned entity."""
    with obj.memory(must_exist=True) as mem:  # the embedder compares names
        result = mem.graph.dedupe(threshold, not apply, entity_type=entity_type, **scope)
    if as_json:
        render.emit_json(result.to_dict())
        return
    if not result.pairs:
        render.console.print(
            f"no duplicates among {render.plural(result.scanned, 'entity', 'entities')}",
            markup=False,
        )
        return
    render.fold_table(
        ("keep", "merge", "similarity", "why"),
        ((pair.keep, pair.other, f"{pair.similarity:.2f}", pair.reason) for pair in result.pairs),
    )
    done = f"merged {result.merged}" if apply else "nothing merged; --apply merges them"
    render.console.print(
        f"{render.plural(len(result.pairs), 'pair', 'pairs')} among {result.scanned} "
        f"entities: {done}",
        markup=False,
    )


@graph.command("decay-aspects")
@click.option(
    "--now", default=None, help="The time decay runs at (default now): a date or ISO time."
)
@scope_options
@json_command
def decay_aspects(obj: Ctx, now: str | None, scope: dict[str, Any], as_json: bool) -> None:
    """Let aspects nobody confirmed for [graph] aspect_stale_days lose
    aspect_decay_rate (seed 004); each decays at most once per stale period."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        decayed = mem.graph.decay_aspects(now=now, **scope)
    if as_json:
        render.emit_json({"decayed": decayed})
    else:
        render.console.print(f"{render.plural(decayed, 'aspect', 'aspects')} decayed", markup=False)
