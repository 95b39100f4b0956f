"""``engram ingest``: a PDF or text file, a web page or standard input as a document, chunked
into memories (seed 004's document ingest)."""

from __future__ import annotations

from typing import Any

import click

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    named,
    progress_bar,
    read_text,
    scope_options,
)
from engram.documents import DOCUMENT_STATUSES, Document
from engram.errors import EngramError

#: The statuses a document walks through once its job runs, for the progress bar.
STEPS = DOCUMENT_STATUSES[1:-1]


class DocumentFailedError(EngramError):
    """The document's ingest failed (its ``error`` says why)."""

    code = "document_failed"


@click.command("ingest")
@click.argument("source")
@scope_options
@click.option("--title", help="A title; every chunk is tagged with it (HTML's <title> fills it).")
@click.option(
    "--no-wait",
    is_flag=True,
    help="Only queue the document; a worker (`engram serve`, `engram worker`) indexes it.",
)
@json_command
def ingest(
    obj: Ctx, source: str, scope: dict[str, Any], title: str | None, no_wait: bool, as_json: bool
) -> None:
    """Ingest SOURCE as chunked memories: a PDF or a UTF-8 text file (Markdown, HTML,
    JSON ...), an http(s) URL, or "-" for standard input.

    The document is stored and queued, then processed here (fetched, chunked, embedded
    and indexed) while its status is shown, unless --no-wait. Its chunks are memories of
    type document_chunk that search and recall find.
    """
    named(source, "SOURCE", 'a file\'s path, an http(s) URL, or "-" to read standard input')
    with obj.memory() as mem:
        if source == "-":
            document = mem.documents.ingest(read_text("-"), title=title, **scope)
        elif "://" in source:
            document = mem.documents.ingest(url=source, title=title, **scope)
        else:
            document = mem.documents.ingest(path=source, title=title, **scope)
        # A fresh ingest is queued; one that is done already is an unchanged file
        # ingested before, returned as it was.
        unchanged = document.status == "done"
        if not no_wait and not unchanged:
            if as_json:
                document = mem.documents.process(document.id, **scope)
            else:
                document = _process_with_bar(mem.documents.process, document, scope)
        memory_ids = [c.memory_id for c in mem.documents.chunks(document.id, **scope)]
    if as_json:
        render.emit_json({**document.to_dict(), "memory_ids": memory_ids})
    else:
        _report(document, unchanged=unchanged)
    if document.status == "failed":
        raise DocumentFailedError(f"document {document.id} failed: {document.error}")


def _process_with_bar(process: Any, document: Document, scope: dict[str, Any]) -> Document:
    """``mem.documents.process`` with a progress bar that names each status."""
    with progress_bar() as bar:
        task = bar.add_task(document.status, total=len(STEPS))

        def show(now: Document) -> None:
            done = STEPS.index(now.status) + 1 if now.status in STEPS else 0
            if now.status == "done":
                done = len(STEPS)
            # Each transition stays on screen as a line: the bar only shows the latest.
            note = f" ({now.error})" if now.error else ""
            bar.console.print(f"{now.id}: {now.status}{note}", markup=False, soft_wrap=True)
            bar.update(task, description=now.status, completed=done)

        finished: Document = process(document.id, progress=show, **scope)
        return finished


def _report(document: Document, *, unchanged: bool = False) -> None:
    where = f"in {document.namespace}"
    title = f" ({document.title})" if document.title else ""
    if document.status == "done":
        chunks = render.plural(document.chunk_count, "chunk", "chunks")
        verb, note = (
            ("unchanged", " (ingested before as it is; nothing stored)")
            if unchanged
            else ("ingested", "")
        )
        render.console.print(
            f"{verb} {document.id}{title} {where}: {chunks}{note}", markup=False, soft_wrap=True
        )
    elif document.status != "failed":
        render.console.print(
            f"queued {document.id}{title} {where}: status {document.status}"
            + (f" (last error: {document.error})" if document.error else ""),
            markup=False,
            soft_wrap=True,
        )
