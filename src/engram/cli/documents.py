"""``engram documents``: the ingested documents of a namespace: list them (those whose
file is gone too) and delete them by id, by the file or URL they came from, or every
one whose file was deleted or renamed (round twenty of the new-user pass: a vault's
renamed and deleted notes kept answering, and the CLI had no way to drop them)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from engram import Memory
from engram.cli import render
from engram.cli.common import Ctx, json_command, page_options, scope_options
from engram.documents import DOCUMENT_STATUSES, Document
from engram.errors import InvalidInputError, NotFoundError

#: Documents read per page when every one is looked at (``--missing``).
PAGE = 1000
#: A document id: 32 hex digits.
ID_CHARS = 32


@click.group()
def documents() -> None:
    """The ingested documents: list them, delete those of a renamed or deleted file."""


def gone(document: Document) -> bool:
    """True for a document read from a file that is no longer there."""
    return document.source_type == "file" and not Path(document.source or "").exists()


def _every(mem: Memory, scope: dict[str, Any]) -> Iterator[Document]:
    offset = 0
    while True:
        page = mem.documents.list(limit=PAGE, offset=offset, **scope)
        yield from page
        if len(page) < PAGE:
            return
        offset += PAGE


def _table(items: Sequence[Document]) -> None:
    table = Table()
    for column in ("id", "status", "chunks", "source"):
        table.add_column(column, overflow="fold", no_wrap=column == "id")
    for doc in items:
        source = doc.source or (f"text ({doc.title})" if doc.title else "text")
        mark = " (file gone)" if gone(doc) else ""
        table.add_row(doc.id, doc.status, str(doc.chunk_count), f"{source}{mark}")
    render.console.print(table)


@documents.command("list")
@scope_options
@click.option("--status", type=click.Choice([*DOCUMENT_STATUSES, "all"]), default="all")
@click.option("--missing", is_flag=True, help="Only documents whose file is gone.")
@page_options(50)
@json_command
def list_(
    obj: Ctx,
    scope: dict[str, Any],
    status: str,
    missing: bool,
    limit: int,
    offset: int,
    as_json: bool,
) -> None:
    """Documents of the namespace, newest first, with the file or URL each came from."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        if missing:
            found = [d for d in _every(mem, scope) if gone(d)][offset : offset + limit]
        else:
            wanted = None if status == "all" else status
            found = mem.documents.list(status=wanted, limit=limit, offset=offset, **scope)
    if as_json:
        render.emit_json([d.to_dict() for d in found])
    elif not found:
        render.console.print("no documents" + (" whose file is gone" if missing else ""))
    else:
        _table(found)


def _targets(mem: Memory, targets: Sequence[str], scope: dict[str, Any]) -> list[Document]:
    """Every document a target names (an id, or a file or URL's documents); a target
    that names none is refused before anything is deleted."""
    found: dict[str, Document] = {}
    for target in targets:
        docs: list[Document] = []
        if len(target) == ID_CHARS and all(c in "0123456789abcdef" for c in target):
            try:
                docs = [mem.documents.get(target, **scope)]
            except NotFoundError:
                docs = []
        if not docs:
            docs = mem.documents.of_source(target, **scope)
        if not docs:
            raise InvalidInputError(
                f"no document {target!r} in this namespace: give a document id or the "
                "file or URL it was ingested from (engram documents list shows them)"
            )
        found.update((d.id, d) for d in docs)
    return list(found.values())


@documents.command()
@click.argument("targets", nargs=-1)
@scope_options
@click.option("--missing", is_flag=True, help="Every document whose file is gone.")
@json_command
def delete(
    obj: Ctx, targets: tuple[str, ...], scope: dict[str, Any], missing: bool, as_json: bool
) -> None:
    """Delete documents and tombstone their chunks (history keeps them): TARGETS are
    document ids or the files or URLs they were ingested from; --missing takes every
    document whose file was deleted or renamed."""
    if not targets and not missing:
        raise InvalidInputError(
            "give document ids, files or URLs to delete, or --missing for every document "
            "whose file is gone"
        )
    with obj.memory(must_exist=True, embedder=None) as mem:
        chosen = _targets(mem, targets, scope)
        if missing:
            seen = {d.id for d in chosen}
            chosen += [d for d in _every(mem, scope) if gone(d) and d.id not in seen]
        deleted = [mem.documents.delete(d.id, **scope) for d in chosen]
    if as_json:
        render.emit_json([d.to_dict() for d in deleted])
        return
    for doc in deleted:
        chunks = render.plural(doc.chunk_count, "chunk", "chunks")
        render.console.print(
            f"deleted {doc.id} ({doc.source or doc.title or 'text'}): {chunks}",
            markup=False,
            soft_wrap=True,
        )
    if not deleted:
        render.console.print("no documents whose file is gone", markup=False)
