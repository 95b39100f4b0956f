"""``engram``: add, search, list, show, forget, history, feedback, reindex, doctor...

Every command only calls the library (STYLE 3), takes ``--json`` for scripts, and turns
an ``EngramError`` into a one-line message on stderr with a non-zero exit code.
"""

from __future__ import annotations

from typing import Any

import click

from engram.cli import render
from engram.cli.bench import bench
from engram.cli.common import (
    Ctx,
    F,
    json_command,
    one_of,
    page_options,
    pasted_id,
    progress_bar,
    read_text,
    scope_options,
    short_ids,
    typed_value,
)
from engram.cli.documents import documents
from engram.cli.erase import erasures, filter_option, forget_all, parse_filters
from engram.cli.examples import attach as attach_examples
from engram.cli.feedback import feedback
from engram.cli.graph import graph
from engram.cli.ingest import ingest
from engram.cli.inject import blocks, inject
from engram.cli.jobs import jobs, worker
from engram.cli.lifecycle import lifecycle
from engram.cli.maintenance import maintenance
from engram.cli.mcp import mcp
from engram.cli.migrate import migrate_store
from engram.cli.names import EngramGroup
from engram.cli.org import org
from engram.cli.palace import mine, palace
from engram.cli.procedures import procedure
from engram.cli.quickstart import run_quickstart
from engram.cli.review import review
from engram.cli.runs import observe, runs
from engram.cli.serve import keys, serve
from engram.cli.sessions import sessions
from engram.cli.shared import agents, backend, shared
from engram.cli.transfer import export, import_
from engram.errors import InvalidInputError, NotFoundError


@click.group(cls=EngramGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--home", envvar="ENGRAM_HOME", help="Data directory (default ~/.engram).")
@click.option(
    "--db", help="Store: a SQLite path, :memory: or postgresql://... (default <home>/engram.db)."
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False),
    help="TOML config file (default <home>/config.toml).",
)
@click.option(
    "-v",
    "--verbose",
    is_flag=True,
    help="Longer error messages: every reason and the underlying cause.",
)
@click.version_option(package_name="engramdb", prog_name="engram")
@click.pass_context
def cli(
    ctx: click.Context, home: str | None, db: str | None, config_path: str | None, verbose: bool
) -> None:
    """engram: long-term memory for AI agents."""
    ctx.obj = Ctx(home, db, config_path, verbose)


_no_abstain = click.option(
    "--no-abstain",
    is_flag=True,
    help="Return the nearest memories even when none looks related (the 'nothing "
    "matched' decision off for this call).",
)
_min_relevance = click.option(
    "--min-relevance",
    type=float,
    help="Keep hits scoring at least this; 0 turns off the 'nothing matched' decision.",
)


def relevance_options(fn: F) -> F:
    """``--min-relevance`` and ``--no-abstain``: recall's floor for this call (``_floor``)."""
    return _min_relevance(_no_abstain(fn))


@cli.command()
@click.argument("content")
@scope_options
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--type", "type_", help="fact, preference, decision, procedural, semantic, ...")
@click.option("--category", help="working, episodic, semantic, procedural or social.")
@click.option("--title", help="A one-line title (seed 000 observations).")
@click.option("--score", type=float, help="External quality score, 0-10.")
@click.option("--importance", type=float, help="Importance, 0-1.")
@click.option("--created-at", help="ISO 8601 timestamp, for importing history.")
@click.option(
    "--meta",
    "meta",
    multiple=True,
    help="Metadata KEY=VALUE (repeatable); numbers, true, false and null are typed, as "
    "--filter compares them.",
)
@json_command
def add(
    obj: Ctx,
    content: str,
    scope: dict[str, Any],
    tags: tuple[str, ...],
    type_: str | None,
    category: str | None,
    title: str | None,
    score: float | None,
    importance: float | None,
    created_at: str | None,
    meta: tuple[str, ...],
    as_json: bool,
) -> None:
    """Store CONTENT verbatim ("-" reads it from stdin)."""
    # From a pipe, the text is stored as read, newlines and indentation included; only
    # the final line break that ends a file or an ``echo`` is not part of the content.
    text = _without_final_newline(read_text("-")) if content == "-" else content
    metadata = {}
    for pair in meta:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidInputError(f"--meta expects KEY=VALUE, got {pair!r}")
        metadata[key] = typed_value(value)  # the rule --filter compares by
    item = {
        "content": text,
        **scope,
        "tags": list(tags),
        "type": type_,
        "category": category,
        "title": title,
        "score": score,
        "importance": importance,
        "created_at": created_at,
        "metadata": metadata,
    }
    with obj.memory() as mem:
        [result] = mem.add_many([item], on_blocked="raise").items
    record = result.record
    assert record is not None  # a refused item raised
    if as_json:
        merged = None if result.merged is None else result.merged.to_dict()
        render.emit_json(
            {
                **record.to_dict(),
                "created": result.created,
                "duplicate_of": result.duplicate_of,
                "merged": merged,
            }
        )
    elif result.created:
        render.console.print(f"stored {record.id} in {record.namespace}")
    else:
        summary = result.merged.summary() if result.merged is not None else ""
        render.console.print(
            f"already stored as {record.id} in {record.namespace} (same content): {summary}",
            markup=False,
        )


def _without_final_newline(text: str) -> str:
    """``text`` less one trailing line break (``\\n`` or ``\\r\\n``)."""
    return text.removesuffix("\n").removesuffix("\r") if text.endswith("\n") else text


@cli.command()
@click.argument("query")
@scope_options
@click.option("-k", "--limit", default=10, show_default=True, help="How many hits.")
@click.option("--fusion", type=click.Choice(["weighted", "rrf"]), help="Fusion for this query.")
@click.option(
    "--strategy",
    type=click.Choice(["hybrid", "dense", "bm25"]),
    help="Retrieval legs for this query.",
)
@relevance_options
@filter_option
@json_command
def search(
    obj: Ctx,
    query: str,
    scope: dict[str, Any],
    limit: int,
    fusion: str | None,
    strategy: str | None,
    min_relevance: float | None,
    no_abstain: bool,
    filter_pairs: tuple[str, ...],
    as_json: bool,
) -> None:
    """Show what recall returns for QUERY, with every score stage (seed 001's --search)."""
    chosen = {"fusion": fusion, "strategy": strategy}
    overrides: dict[str, Any] = {k: v for k, v in chosen.items() if v}
    overrides.update(_floor(min_relevance, no_abstain))
    with obj.memory(must_exist=True) as mem:
        result = mem.recall(
            query, **scope, limit=limit, filters=parse_filters(filter_pairs), **overrides
        )
        if as_json:
            render.emit_json(render.recall_json(result))
            return
        short = short_ids(mem, [hit.memory for hit in result.hits])
    render.hits_table(result.hits, result, short)


@cli.command()
@click.argument("query")
@scope_options
@click.option("-k", "--limit", type=int, help="How many memories (default 4, seed 000).")
@click.option("--budget", "budget_tokens", type=int, help="Token budget for the block.")
@click.option("--wing", help="Only memories filed in this palace wing (name or W-001).")
@click.option("--room", help="... and in this room of it (name or number).")
@click.option(
    "--cite",
    type=click.Choice(["id", "pointer"]),
    default="id",
    help="Cite drawers by AAAK pointer.",
)
@relevance_options
@filter_option
@json_command
def recall(
    obj: Ctx,
    query: str,
    scope: dict[str, Any],
    limit: int | None,
    budget_tokens: int | None,
    wing: str | None,
    room: str | None,
    cite: str,
    min_relevance: float | None,
    no_abstain: bool,
    filter_pairs: tuple[str, ...],
    as_json: bool,
) -> None:
    """Print the context block to inject into a prompt for QUERY.

    When no memory reaches the block, stdout gets nothing (or only the org's core
    policies) and stderr one line saying why, naming the flag that would change it; the
    exit code stays 0: nothing found is an answer. --json carries empty_reason."""
    with obj.memory(must_exist=True) as mem:
        result = mem.recall(
            query,
            **scope,
            limit=limit,
            budget_tokens=budget_tokens,
            filters=parse_filters(filter_pairs),
            wing=wing,
            room=int(room) if room and room.isdigit() else room,
            cite=cite,
            **_floor(min_relevance, no_abstain),
        )
    if as_json:
        render.emit_json(render.recall_json(result))
        return
    if result.context:
        print(result.context)
    why = render.empty_message(result)
    if why is not None:
        click.echo(why, err=True)
    for warning in result.warnings:  # e.g. flagged memories left out of the block
        click.echo(f"warning: {warning}", err=True)


def _floor(min_relevance: float | None, no_abstain: bool) -> dict[str, Any]:
    """The recall overrides of ``--min-relevance`` and ``--no-abstain``."""
    out: dict[str, Any] = {} if min_relevance is None else {"min_relevance": min_relevance}
    if no_abstain:
        out["abstain"] = False
    return out


@cli.command("list")
@scope_options
@page_options(20)
@click.option("--type", "type_", help="Only this type.")
@click.option("--tag", "tags", multiple=True, help="Only memories with this tag.")
@click.option("--deleted", is_flag=True, help="Include tombstoned memories.")
@filter_option
@json_command
def list_(
    obj: Ctx,
    scope: dict[str, Any],
    limit: int,
    offset: int,
    type_: str | None,
    tags: tuple[str, ...],
    deleted: bool,
    filter_pairs: tuple[str, ...],
    as_json: bool,
) -> None:
    """List memories, newest first."""
    filters: dict[str, Any] = parse_filters(filter_pairs) or {}
    if type_:
        filters["type"] = type_
    if tags:
        filters["tags"] = [*filters.get("tags", []), *tags]
    with obj.memory(must_exist=True) as mem:
        records = mem.get_all(
            **scope, filters=filters, limit=limit, offset=offset, include_deleted=deleted
        )
        if as_json:
            render.emit_json(records.to_dict())
            return
        if not records:
            # Filters or a page past the end explain an empty answer; else it is empty.
            where = mem.scope(**scope).namespace
            owners = {k.removesuffix("_id"): v for k, v in scope.items() if k != "namespace"}
            narrowed = (
                filters
                or offset
                or any(v is not None and where != f"{k}:{v}" for k, v in owners.items())
            )
            render.console.print(
                "no memories match" if narrowed else f"no memories in namespace {where!r} yet",
                markup=False,
            )
            return
        short = short_ids(mem, records)
    render.memory_table(records, short)


@one_of(cli, None, "memory_id")
def show(obj: Ctx, memory_id: str, scope: dict[str, Any], as_json: bool) -> None:
    """Show every field of MEMORY_ID (the id, or 8 or more of its first characters)."""
    with obj.memory(must_exist=True) as mem:
        record = mem.get(mem.admin.resolve_id(pasted_id(memory_id), **scope), **scope)
    if as_json:
        render.emit_json(record.to_dict())
    else:
        render.memory_detail(record)


@cli.command()
@click.argument("memory_id", required=False)
@scope_options
@click.option("--all", "erase_all", is_flag=True, help="Erase the whole scope for good (audited).")
@filter_option
@click.option("--dry-run", is_flag=True, help="With --all: count, erase nothing.")
@click.option("-y", "--yes", is_flag=True, help="With --all: do not ask for confirmation.")
@json_command
def forget(
    obj: Ctx,
    memory_id: str | None,
    scope: dict[str, Any],
    erase_all: bool,
    filter_pairs: tuple[str, ...],
    dry_run: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Tombstone MEMORY_ID: it leaves recall at once (``purge`` removes it for good).

    Takes the id or 8 or more of its first characters. Forgetting a memory twice is
    fine: it says it is already forgotten. ``forget --all --namespace NS`` erases the
    namespace (or what ``--filter`` picks) for good, after a confirmation, and leaves
    an audit row (``engram erasures``).
    """
    if erase_all or memory_id is None:
        if memory_id is not None or not erase_all:
            raise InvalidInputError("give a MEMORY_ID, or --all to erase a whole scope")
        filters = parse_filters(filter_pairs)
        forget_all(obj, scope, filters, yes=yes, dry_run=dry_run, as_json=as_json)
        return
    if filter_pairs or dry_run or yes:
        raise InvalidInputError("--filter, --dry-run and --yes go with --all")
    with obj.memory(must_exist=True) as mem:
        full = mem.admin.resolve_id(pasted_id(memory_id), **scope, include_deleted=True)
        try:
            mem.get(full, **scope)
        except NotFoundError:
            # resolve_id found it with tombstones included: so it is one already, and
            # deleting it again would change nothing (the library's rule, HTTP's too).
            where = mem.scope(**scope).namespace
            if as_json:
                render.emit_json({"id": full, "namespace": where, "already_forgotten": True})
            else:
                render.console.print(
                    f"already forgotten: {full} in namespace {where!r} (`engram purge` "
                    "removes it for good)",
                    markup=False,
                    soft_wrap=True,
                )
            return
        record = mem.delete(full, **scope)
    if as_json:
        render.emit_json({**record.to_dict(), "already_forgotten": False})
    else:
        render.console.print(f"forgot {record.id}")


@cli.command()
@scope_options
@click.option("--all-namespaces", is_flag=True, help="Purge tombstones in every namespace.")
@json_command
def purge(obj: Ctx, scope: dict[str, Any], all_namespaces: bool, as_json: bool) -> None:
    """Hard-delete tombstoned memories with their vectors, history and feedback."""
    with obj.memory(must_exist=True) as mem:
        where = mem.scope(**scope)
        count = mem.admin.purge(namespace=where.namespace, all_namespaces=all_namespaces)
    if as_json:
        render.emit_json({"purged": count})
    else:
        render.console.print(f"purged {render.plural(count, 'memory', 'memories')}")


@one_of(cli, None, "memory_id")
def history(obj: Ctx, memory_id: str, scope: dict[str, Any], as_json: bool) -> None:
    """Show the audit trail of MEMORY_ID (the id or 8 or more of its first characters):
    create, update, delete, feedback, dedup."""
    with obj.memory(must_exist=True) as mem:
        full = mem.admin.resolve_id(pasted_id(memory_id), **scope, include_deleted=True)
        entries = mem.history(full, **scope)
    if as_json:
        render.emit_json([e.to_dict() for e in entries])
    else:
        render.history_table(entries)


@cli.command()
@click.option("--rebuild", is_flag=True, help="Re-embed everything, not just what is missing.")
@click.option("--batch-size", default=256, show_default=True)
@json_command
def reindex(obj: Ctx, rebuild: bool, batch_size: int, as_json: bool) -> None:
    """Embed memories that lack a current vector (after a model change or a failure)."""
    with obj.memory(must_exist=True, allow_dimension_mismatch=True) as mem:
        if as_json:
            count = mem.admin.reindex(batch_size=batch_size, rebuild=rebuild)
            render.emit_json({"embedded": count})
            return
        with progress_bar() as bar:
            task = bar.add_task("embedding", total=None)
            count = mem.admin.reindex(
                batch_size=batch_size,
                rebuild=rebuild,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        render.console.print(f"embedded {render.plural(count, 'memory', 'memories')}")


@cli.command()
@json_command
def doctor(obj: Ctx, as_json: bool) -> None:
    """Versions, store path, counts per namespace, vector index, embedder and recall mode."""
    with obj.memory(must_exist=True, allow_dimension_mismatch=True) as mem:
        report = mem.admin.doctor()
    if as_json:
        render.emit_json(report)
    else:
        render.doctor_report(report)


@cli.command()
@json_command
def quickstart(obj: Ctx, as_json: bool) -> None:
    """Store a few example memories and show a recall with its scores and timings."""
    with obj.memory() as mem:
        result = run_quickstart(mem)
        if as_json:
            render.emit_json(result.to_dict())
            return
        short = short_ids(mem, [hit.memory for hit in result.recall.hits])
    render.console.print(
        f"[bold]engram quickstart[/bold]: {result.stored} new, {result.existing} already "
        f"stored, in namespace {result.namespace!r} of {result.location}"
    )
    render.console.print(f"\n[bold]recall:[/bold] {result.recall.query!r}")
    render.hits_table(result.recall.hits, result.recall, short)
    render.console.print("\n[bold]context block:[/bold]")
    print(result.recall.context)


cli.add_command(bench)
cli.add_command(serve)
cli.add_command(keys)
cli.add_command(mcp)
cli.add_command(export)
cli.add_command(import_)
cli.add_command(migrate_store)
cli.add_command(ingest)
cli.add_command(documents)
cli.add_command(review)
cli.add_command(sessions)
cli.add_command(lifecycle)
cli.add_command(maintenance)
cli.add_command(org)
cli.add_command(blocks)
cli.add_command(inject)
cli.add_command(procedure)
cli.add_command(feedback)
cli.add_command(palace)
cli.add_command(mine)
cli.add_command(jobs)
cli.add_command(graph)
cli.add_command(runs)
cli.add_command(observe)
cli.add_command(worker)
cli.add_command(erasures)
cli.add_command(backend)
cli.add_command(agents)
cli.add_command(shared)
attach_examples(cli)


def main() -> None:
    """Entry point of the ``engram`` command."""
    cli(prog_name="engram")


if __name__ == "__main__":  # pragma: no cover
    main()
