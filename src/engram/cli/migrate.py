"""``engram migrate-store``: copy a whole store to another backend and verify it (B4)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import click

from engram.cli import render
from engram.cli.common import Ctx, json_command, progress_bar
from engram.config import SQLITE_SCHEME, sqlite_file
from engram.migrate_store import migrate_locations


def shown_location(location: str) -> str:
    """Where a store location really is: a SQLite file as an absolute path (a relative
    one depends on the directory the command ran in), a URL without its password."""
    path = sqlite_file(location)
    if path is not None:
        return str(Path(path).expanduser().absolute())
    parts = urlsplit(location)
    if parts.password is None:
        return location
    return location.replace(f":{parts.password}@", ":***@", 1)


def relative_url_hint(location: str) -> str | None:
    """A note for ``sqlite:///x``: three slashes are relative (SQLAlchemy's rule), which
    surprises anyone who meant ``/x``."""
    if not location.startswith(SQLITE_SCHEME + "/") or location.startswith(SQLITE_SCHEME + "//"):
        return None
    path = sqlite_file(location)
    if path is None:
        return None
    return (
        f"note: {location} is relative to this directory; write "
        f"{SQLITE_SCHEME}//{path} for the absolute path /{path}"
    )


@click.command("migrate-store")
@click.option(
    "--from",
    "source",
    required=True,
    help="Source store: sqlite:///path, a SQLite path or postgresql://...",
)
@click.option(
    "--to",
    "target",
    required=True,
    help="Target store: postgresql://... or sqlite:///path (created if missing).",
)
@click.option("--batch", default=500, show_default=True, help="Memories per transaction.")
@json_command
def migrate_store(obj: Ctx, source: str, target: str, batch: int, as_json: bool) -> None:
    """Copy every memory (tombstoned too), history, feedback, vector, transcript and API
    key, and every other carried table (graph, palace, runs, sessions, org memory, core
    blocks, archive ...), from one store to another, then check row counts and
    per-table checksums.

    Run it again after an interruption: it skips what was copied and finishes the rest.
    Exits non-zero when the verification finds a difference.
    """
    config = obj.config()
    where = {"source": shown_location(source), "target": shown_location(target)}
    if as_json:
        report = migrate_locations(source, target, config, batch=batch)
    else:
        # Said before copying, so a surprising path shows before a long copy, not after.
        render.console.print(
            f"from {where['source']}\nto   {where['target']}", markup=False, soft_wrap=True
        )
        for location in (source, target):
            if (hint := relative_url_hint(location)) is not None:
                render.err_console.print(hint, markup=False, soft_wrap=True)
        with progress_bar() as bar:
            task = bar.add_task("copying", total=None)
            report = migrate_locations(
                source,
                target,
                config,
                batch=batch,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    if as_json:
        # Resolved paths, not the relative ones the store was opened with.
        render.emit_json({**report.to_dict(), **where})
    else:
        c = report.copied
        render.console.print(
            f"copied {c.memories} memories ({c.existing} already there, {c.duplicates} "
            f"duplicates skipped), {c.history} history rows, {c.feedback} feedback rows, "
            f"{c.vectors} vectors, {c.transcripts} transcripts, {report.api_keys} API keys, "
            f"{sum(t.inserted for t in report.tables.values())} rows of other tables",
            markup=False,
        )
        for check in report.checks:
            mark = "ok" if check.ok else "MISMATCH"
            render.console.print(
                f"  {check.table:<22} {check.source_rows:>9} -> {check.target_rows:<9} "
                f"{check.target_checksum[:16]}  {mark}",
                markup=False,
            )
    if not report.ok:
        raise click.exceptions.Exit(1)
