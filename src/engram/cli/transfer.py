"""``engram export`` and ``engram import``: the store as lossless JSONL (FEATURES I2)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TextIO

import click

from engram import transfer
from engram.cli import render
from engram.cli.common import (
    EXIT_ERROR,
    Ctx,
    json_command,
    named,
    progress_bar,
    scope_options,
    stdin_chunks,
    whole_file,
)
from engram.errors import InvalidInputError


@click.command("export")
@scope_options
@click.option("--all", "all_namespaces", is_flag=True, help="Export every namespace.")
@click.option("--vectors", is_flag=True, help="Include vectors (base64 float32 with model).")
@click.option(
    "--nested/--no-nested",
    default=True,
    help="With the namespaces below the one named (user:<u>/shared, user:<u>/<agent>).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False),
    help="File to write (default: standard output).",
)
@json_command
def export(
    obj: Ctx,
    scope: dict[str, Any],
    all_namespaces: bool,
    vectors: bool,
    nested: bool,
    output: str | None,
    as_json: bool,
) -> None:
    """Write memories (tombstoned ones too), history, feedback and transcripts as JSONL.

    Exports one namespace (default 'default') with the namespaces below it (a user's
    /shared space and agents' notes; --no-nested: that one alone), or every one with
    --all. Without -o the JSONL goes to standard output and the summary to standard error.
    """
    if all_namespaces and any(scope.values()):
        raise InvalidInputError("--all exports every namespace: drop --namespace/--user/...")
    with obj.memory(must_exist=True, embedder=None) as mem:
        namespaces = None
        if not all_namespaces:
            named = mem.scope(**scope).namespace
            # A subject access request for a user wants their crew's namespaces too.
            namespaces = [named, *(mem.erasure.nested(named) if nested else [])]
        with _destination(output) as out, _bar("exporting", as_json) as progress:
            counts = mem.admin.export_jsonl(
                out, namespaces=namespaces, vectors=vectors, progress=progress
            )
    where = "every namespace" if namespaces is None else f"namespace {namespaces[0]!r}"
    if namespaces is not None and len(namespaces) > 1:
        where += " and " + ", ".join(repr(ns) for ns in namespaces[1:])
    if namespaces is not None and not (counts.memories or counts.transcripts or counts.rows):
        # Most likely a mistyped --user or -n: a backup of nothing should not pass quietly.
        render.err_console.print(
            f"warning: {where} holds nothing to export (a mistyped --user, --agent or -n?); "
            "engram doctor lists the namespaces",
            markup=False,
        )
    summary: dict[str, Any] = {**counts.to_dict(), "namespaces": namespaces, "file": output}
    console = render.console if output else render.err_console
    if as_json:
        if output:
            render.emit_json(summary)
        else:
            render.err_console.print_json(data=summary)
    else:
        console.print(
            f"exported {render.plural(counts.memories, 'memory', 'memories')} "
            f"({counts.history} history, "
            f"{counts.feedback} feedback, {counts.vectors} vector and {counts.transcripts} "
            f"transcript rows; {counts.rows} rows of other tables) from {where}"
            + (f" to {output}" if output else ""),
            markup=False,
        )


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--skip-vectors", is_flag=True, help="Leave the file's vectors out (then run `engram reindex`)."
)
@click.option(
    "--trusted",
    is_flag=True,
    help="Skip the injection scan: for restoring your own backup, not for files from others.",
)
@json_command
def import_(obj: Ctx, file: str, skip_vectors: bool, trusted: bool, as_json: bool) -> None:
    """Import an `engram export` FILE ("-" reads standard input).

    Ids, timestamps, quality, tombstones, history and feedback are kept. Memories
    already stored (same id, or same content in their namespace) are skipped, so
    importing a file twice changes nothing. A malformed file imports nothing. Every
    memory and transcript passes the injection scan unless --trusted: blocked ones are
    skipped and listed, the rest are imported.
    """
    named(file, "FILE", 'the path of an `engram export` file, or "-" to read standard input')
    seen = [0, 0]  # memories written so far (whole batches) and in the file
    try:
        with _source(file) as path:
            # Checked before the store is opened: opening a SQLite file creates it, and a
            # malformed file must leave nothing behind, not even an empty store (issue 26).
            transfer.check_file(Path(path))
            with obj.memory(embedder=None) as mem, _bar("importing", as_json) as bar:

                def progress(done: int, total: int) -> None:
                    seen[:] = [done, total]
                    if bar is not None:
                        bar(done, total)

                counts = mem.admin.import_jsonl(
                    path, vectors=not skip_vectors, trusted=trusted, progress=progress
                )
                undone = mem.erasure.undone_since(transfer.made_at(Path(path)))
    except KeyboardInterrupt:
        _interrupted(seen[0], seen[1], as_json)  # after the bar has drawn its last state
    for row in undone:  # a backup from before an erase brings the person back
        render.err_console.print(
            f"warning: namespace {row.namespace!r} was erased at {row.created_at:%Y-%m-%d %H:%M} "
            f"UTC (audit #{row.id}), after this export was made, and holds data again: "
            f"erase it again (engram forget --all --namespace {row.namespace})",
            markup=False,
        )
    if as_json:
        out: dict[str, Any] = {
            name: getattr(counts, name)
            for name in counts.__dataclass_fields__
            if name != "blocked_items"
        }
        out["blocked_items"] = [{"id": key, "reason": why} for key, why in counts.blocked_items]
        render.emit_json(out)
        return
    render.console.print(
        f"imported {counts.memories} memories ({counts.history} history, {counts.feedback} "
        f"feedback, {counts.vectors} vector and {counts.transcripts} transcript rows); "
        f"skipped {counts.existing} already stored and {counts.duplicates} duplicates",
        markup=False,
    )
    if counts.rows or counts.rows_existing or counts.orphans:
        render.console.print(
            f"other tables: {counts.rows} rows imported, {counts.rows_existing} already "
            f"stored, {counts.orphans} skipped (their memory was not imported)",
            markup=False,
        )
    if counts.flagged:
        render.console.print(
            f"{counts.flagged} imported with injection flags (flag mode, or the learned "
            "injection detector's quarantine, kept from the file): recall keeps them out "
            "of the context block",
            markup=False,
        )
    if counts.blocked:
        render.console.print(
            f"blocked {counts.blocked} by the injection scan (not imported; --trusted "
            "skips the scan for your own backups):",
            markup=False,
        )
        for key, why in counts.blocked_items:
            render.console.print(f"  {key}: {why}", markup=False)
    if counts.memories > counts.vectors:
        render.console.print("memories without vectors: run `engram reindex` to embed them")


def _interrupted(done: int, total: int, as_json: bool) -> NoReturn:
    """Ctrl-C during an import: what the store kept (each batch is one transaction) and
    how to finish, instead of click's bare 'Aborted!'."""
    detail = (
        f"interrupted: {done} of {total} memories were imported (each batch whole; the "
        "other tables' rows come last and were not); run the same import again to finish "
        "it: what is stored is skipped"
        if done
        else "interrupted before anything was imported (the file was being checked); "
        "the store is unchanged"
    )
    if as_json:
        print(json.dumps({"error": "interrupted", "detail": detail}), file=sys.stderr)
    else:
        render.err_console.print(f"error: {detail}", markup=False)
    sys.exit(EXIT_ERROR)


@contextmanager
def _destination(output: str | None) -> Iterator[TextIO]:
    """Standard output, or ``output`` written whole: a failed export leaves no file."""
    if not output:
        yield sys.stdout
        return
    with whole_file(Path(output)) as out:
        yield out


@contextmanager
def _source(file: str) -> Iterator[str]:
    """``file``, or standard input spooled to a temporary file (import reads twice)."""
    if file != "-":
        yield file
        return
    with tempfile.TemporaryDirectory(prefix="engram-import-") as tmp:
        path = os.path.join(tmp, "stdin.jsonl")
        with open(path, "w", encoding="utf-8", newline="") as spool:
            spool.writelines(stdin_chunks())
        yield path


@contextmanager
def _bar(label: str, quiet: bool) -> Iterator[transfer.Progress | None]:
    """A progress callback drawing a bar on stderr, or None with --json."""
    if quiet:
        yield None
        return
    with progress_bar() as bar:
        task = bar.add_task(label, total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)
