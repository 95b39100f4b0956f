"""``engram migrate-store``: copy a whole store to another backend and verify it (B4)."""

from __future__ import annotations

import click

from engram.cli import render
from engram.cli.common import Ctx, handle_errors, json_option, progress_bar
from engram.store.migrate import migrate_locations


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
@json_option
@click.pass_obj
@handle_errors
def migrate_store(obj: Ctx, source: str, target: str, batch: int, as_json: bool) -> None:
    """Copy every memory (tombstoned too), history, feedback, vector, transcript and API
    key from one store to another, then check row counts and per-table checksums.

    Run it again after an interruption: it skips what was copied and finishes the rest.
    Exits non-zero when the verification finds a difference.
    """
    config = obj.config()
    if as_json:
        report = migrate_locations(source, target, config, batch=batch)
    else:
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
        render.emit_json(report.to_dict())
    else:
        c = report.copied
        render.console.print(
            f"copied {c.memories} memories ({c.existing} already there, {c.duplicates} "
            f"duplicates skipped), {c.history} history rows, {c.feedback} feedback rows, "
            f"{c.vectors} vectors, {c.transcripts} transcripts, {report.api_keys} API keys",
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
