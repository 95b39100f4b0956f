"""``engram org``: organisational memory (seed 002; FEATURES S4).

Whoever runs the CLI has the store at hand, so they write as a human (``--author``,
default the login name) unless ``--as-agent NAME --seniority LEVEL`` says an agent is
writing. ``mem.org`` checks seed 002's write access and audits every write and refusal.
"""

from __future__ import annotations

import functools
import getpass
from collections.abc import Iterable, Mapping
from typing import Any

import click
from rich.table import Table

from engram.cli import render
from engram.cli.common import Ctx, F, json_command, limit_option, pasted_id, shortest_prefixes
from engram.memory import Memory
from engram.org import CATEGORIES, SENIORITY, OrgFact, OrgFactAuthor


def _who(author: str | None, as_agent: str | None, seniority: str | None) -> OrgFactAuthor:
    if as_agent is not None:
        if author is not None:
            raise click.UsageError("give --author (a human) or --as-agent, not both")
        if seniority is None:
            raise click.UsageError("--as-agent needs --seniority")
        return OrgFactAuthor("agent", as_agent, seniority)
    if seniority is not None:
        raise click.UsageError("--seniority goes with --as-agent NAME")
    return OrgFactAuthor("human", author or getpass.getuser())


def _author_options(fn: F) -> F:
    """``--author``, ``--as-agent`` and ``--seniority``, handed to the command as the one
    author they name (``who``, from ``_who``)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        names = kwargs.pop("author"), kwargs.pop("as_agent"), kwargs.pop("seniority")
        return fn(*args, who=_who(*names), **kwargs)

    command: Any = wrapper
    command = click.option(
        "--seniority", type=click.Choice(SENIORITY), help="The agent's seniority."
    )(command)
    command = click.option("--as-agent", help="Write as this agent (with --seniority).")(command)
    command = click.option("--author", help="Write as this human (default: your login name).")(
        command
    )
    return command  # type: ignore[no-any-return]


def _short(mem: Memory, ids: Iterable[str | None]) -> dict[str, str]:
    """Fact ids cut as memory tables cut theirs: the shortest unique prefix, which every
    ``engram org`` command takes back (a 32-character id wrapped over two lines)."""
    return shortest_prefixes({i: "" for i in ids if i}, lambda prefix, _: mem.org.resolve(prefix))


def _facts_table(facts: list[OrgFact], empty: str, short: Mapping[str, str]) -> None:
    if not facts:
        render.console.print(empty, markup=False)
        return
    table = Table()
    table.add_column("fact", no_wrap=True)  # a wrapped id cannot be pasted back
    for column in ("v", "category", "content", "tags", "author", "when"):
        table.add_column(column, overflow="fold")
    for f in facts:
        who = f.author.id if f.author.kind == "human" else f"{f.author.id} ({f.author.role})"
        table.add_row(
            short.get(f.fact_id, f.fact_id),
            str(f.version),
            f.category,
            ("[retracted] " if f.retracted else "") + f.content,
            ", ".join(f.tags),
            who,
            f.created_at.strftime("%Y-%m-%d %H:%M"),
        )
    render.console.print(table)


def _show(mem: Memory, facts: list[OrgFact], as_json: bool, empty: str) -> None:
    """``facts`` as JSON or a table; called while ``mem`` is open (the short ids)."""
    if as_json:
        render.emit_json([f.to_dict() for f in facts])
    else:
        _facts_table(facts, empty, _short(mem, (f.fact_id for f in facts)))


@click.group()
def org() -> None:
    """Organisational memory: core policies, ADRs, procedures, conventions; role-checked,
    append-only and audited."""


@org.command("policies")
@json_command
def policies(obj: Ctx, as_json: bool) -> None:
    """The active core policies: they head every recall context."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        found = mem.org.list_policies()
        _show(mem, found, as_json, "no core policies: `engram org write TEXT --category policy`")


@org.command("list")
@click.option("--category", "categories", multiple=True, type=click.Choice(CATEGORIES))
@click.option("--all", "include_retracted", is_flag=True, help="Retracted facts too.")
@json_command
def list_(obj: Ctx, categories: tuple[str, ...], include_retracted: bool, as_json: bool) -> None:
    """The current version of every org fact, oldest first."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        found = mem.org.facts(
            categories=list(categories) or None, include_retracted=include_retracted
        )
        _show(mem, found, as_json, "no org facts yet")


@org.command("write")
@click.argument("content")
@click.option("--category", required=True, type=click.Choice(CATEGORIES))
@click.option("--fact-id", help="Write the next version of this fact.")
@click.option("--tag", "tags", multiple=True, help="A tag (repeatable).")
@click.option("--reason", help="Why (kept in the audit trail).")
@_author_options
@json_command
def write(
    obj: Ctx,
    content: str,
    category: str,
    fact_id: str | None,
    tags: tuple[str, ...],
    reason: str | None,
    who: OrgFactAuthor,
    as_json: bool,
) -> None:
    """Write an org fact, or the next version of --fact-id."""
    with obj.memory() as mem:
        fact = mem.org.write(
            content,
            category=category,
            author=who,
            fact_id=None if fact_id is None else pasted_id(fact_id),
            tags=list(tags) or None,
            reason=reason,
        )
    if as_json:
        render.emit_json(fact.to_dict())
    else:
        render.console.print(
            f"wrote {fact.category} {fact.fact_id} version {fact.version}", markup=False
        )


@org.command("retract")
@click.argument("fact_id")
@click.option("--reason", help="Why (kept in the audit trail).")
@_author_options
@json_command
def retract(
    obj: Ctx,
    fact_id: str,
    reason: str | None,
    who: OrgFactAuthor,
    as_json: bool,
) -> None:
    """Retract FACT_ID: a new version marked retracted; its history stays."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        fact = mem.org.retract(pasted_id(fact_id), author=who, reason=reason)
    if as_json:
        render.emit_json(fact.to_dict())
    else:
        render.console.print(f"retracted {fact.fact_id} (version {fact.version})", markup=False)


@org.command("query")
@click.argument("text")
@click.option("--category", "categories", multiple=True, type=click.Choice(CATEGORIES))
@click.option("--tag", "tags", multiple=True, help="Only facts with all these tags.")
@click.option("-k", "--limit", type=int, help="At most this many (default 5).")
@json_command
def query(
    obj: Ctx,
    text: str,
    categories: tuple[str, ...],
    tags: tuple[str, ...],
    limit: int | None,
    as_json: bool,
) -> None:
    """The org facts most related to TEXT, best first (the extended store on demand)."""
    with obj.memory(must_exist=True) as mem:
        found = mem.org.query(
            text, categories=list(categories) or None, tags=list(tags) or None, limit=limit
        )
        _show(mem, found, as_json, "no related org facts")


@org.command("history")
@click.argument("fact_id")
@json_command
def history(obj: Ctx, fact_id: str, as_json: bool) -> None:
    """Every version of FACT_ID, oldest first."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        found = mem.org.history(pasted_id(fact_id))
        _show(mem, found, as_json, "")


@org.command("audit")
@click.option("--fact-id", help="Only this fact's rows.")
@click.option("--actor", help="Only this author's rows.")
@limit_option(100)
@json_command
def audit(obj: Ctx, fact_id: str | None, actor: str | None, limit: int, as_json: bool) -> None:
    """The audit trail, newest first: writes, new versions, retractions, refusals."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        wanted = None if fact_id is None else pasted_id(fact_id)
        rows = mem.org.audit(fact_id=wanted, actor=actor, limit=limit)
        # The short ids need the store open; JSON shows whole ids.
        short = {} if as_json else _short(mem, (e.fact_id for e in rows))
    if render.said(as_json, [e.to_dict() for e in rows], rows, "the org audit is empty"):
        return
    render.fold_table(
        ("when", "action", "who", "role", "category", "fact", "v", "why"),
        (
            (
                e.at.strftime("%Y-%m-%d %H:%M:%S"),
                e.action,
                e.actor.id,
                e.actor.role,
                e.category,
                short.get(e.fact_id or "", e.fact_id or ""),
                "" if e.version is None else str(e.version),
                e.detail if e.action == "denied" else (e.reason or ""),
            )
            for e in rows
        ),
        whole=("fact",),
    )
