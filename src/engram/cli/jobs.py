"""``engram worker`` (the job worker as a process of its own) and ``engram jobs`` (the
queue: list, dead, retry, status)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Sequence
from types import FrameType
from typing import Any

import click
from rich.table import Table

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    page_options,
    scope_options,
)
from engram.jobs import JOB_STATUSES, Job


@click.command()
@click.option("--once", is_flag=True, help="Run what is runnable now, then exit.")
@click.option("--limit", type=click.IntRange(min=1), help="With --once: run at most this many.")
@json_command
def worker(obj: Ctx, once: bool, limit: int | None, as_json: bool) -> None:
    """Run the job worker until interrupted (Ctrl-C or SIGTERM).

    It leases queued jobs (extraction, hints, document ingest ...) from the store and
    runs them; any number of workers may share one store. `engram serve` runs one in
    its own process too.
    """
    with obj.memory(must_exist=True) as mem:
        if once:
            ran = mem.jobs.process_pending(limit)
            counts = mem.jobs.counts()
            if as_json:
                render.emit_json({"processed": ran, "counts": counts})
            else:
                waiting = counts["pending"] + counts["leased"]
                render.console.print(
                    f"ran {render.plural(ran, 'job', 'jobs')}; {waiting} still queued, "
                    f"{counts['dead']} dead",
                    markup=False,
                )
            return
        stop = threading.Event()

        def on_signal(signum: int, frame: FrameType | None) -> None:
            stop.set()

        main = threading.current_thread() is threading.main_thread()
        # SIGTERM (a service manager stopping it) ends the loop like Ctrl-C does.
        previous = signal.signal(signal.SIGTERM, on_signal) if main else None
        mem.jobs.start()
        if not as_json:
            render.err_console.print(
                f"worker running on {mem.admin.location}; Ctrl-C stops it", markup=False
            )
        try:
            stop.wait()
        except KeyboardInterrupt:
            pass
        finally:
            if main:
                signal.signal(signal.SIGTERM, previous)
            mem.jobs.stop()
        stats = mem.jobs.status()["worker"]
    if as_json:
        render.emit_json(stats)
    else:
        render.console.print(
            f"worker stopped: {stats['completed']} completed, {stats['failed']} failed",
            markup=False,
        )


@click.group()
def jobs() -> None:
    """The job queue: list jobs, the dead ones, retry one, the pipeline's status."""


def _table(items: Sequence[Job]) -> None:
    table = Table()
    for column in ("id", "kind", "status", "tries", "namespace", "error"):
        table.add_column(column, overflow="fold", no_wrap=column == "id")
    for job in items:
        table.add_row(
            str(job.id),
            job.kind,
            job.status,
            f"{job.attempts}/{job.max_attempts}",
            job.namespace,
            (job.error or "")[:120],
        )
    render.console.print(table)


def _list(obj: Ctx, status: str | None, kind: str | None, limit: int, offset: int,
          as_json: bool, scope: dict[str, Any]) -> None:  # fmt: skip
    with obj.memory(must_exist=True, embedder=None) as mem:
        page = mem.jobs.list(status=status, kind=kind, limit=limit, offset=offset, **scope)
    if as_json:
        render.emit_json(page.to_dict())
    elif not page:
        render.console.print(f"no {status + ' ' if status else ''}jobs", markup=False)
    else:
        _table(page)
        if page.total > len(page):
            render.console.print(f"{len(page)} of {page.total} shown", markup=False)


@jobs.command("list")
@scope_options
@click.option("--status", type=click.Choice([*JOB_STATUSES, "all"]), default="all")
@click.option("--kind", help="Only jobs of this kind (extract, hints, document_ingest ...).")
@page_options(50)
@json_command
def list_(
    obj: Ctx,
    scope: dict[str, Any],
    status: str,
    kind: str | None,
    limit: int,
    offset: int,
    as_json: bool,
) -> None:
    """Jobs, newest first (every namespace unless a scope is given)."""
    wanted = None if status == "all" else status
    _list(obj, wanted, kind, limit, offset, as_json, scope)


@jobs.command()
@scope_options
@page_options(50)
@json_command
def dead(obj: Ctx, scope: dict[str, Any], limit: int, offset: int, as_json: bool) -> None:
    """Jobs that failed max_attempts times and wait for `engram jobs retry`."""
    _list(obj, "dead", None, limit, offset, as_json, scope)


@jobs.command()
@click.argument("job_id", type=int)
@scope_options
@json_command
def retry(obj: Ctx, job_id: int, scope: dict[str, Any], as_json: bool) -> None:
    """Send job JOB_ID back to the queue with its attempts reset."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        job = mem.jobs.retry(job_id, **scope)
    if as_json:
        render.emit_json(job.to_dict())
    else:
        render.console.print(f"job {job.id} ({job.kind}) is queued again", markup=False)


@jobs.command()
@scope_options
@json_command
def status(obj: Ctx, scope: dict[str, Any], as_json: bool) -> None:
    """Queue counts per status and per kind, and the latest failure."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        report = mem.jobs.status(**scope)
    if as_json:
        render.emit_json(report)
        return
    table = Table()
    table.add_column("kind")
    for name in JOB_STATUSES:
        table.add_column(name, justify="right")
    for kind, counts in report["kinds"].items():
        table.add_row(kind, *(str(counts[name]) for name in JOB_STATUSES))
    table.add_row("all", *(str(report["counts"][name]) for name in JOB_STATUSES), style="bold")
    render.console.print(table)
    failure = report["last_error"]
    if failure is not None:
        render.console.print(
            f"last failure: job {failure['job_id']} ({failure['kind']}, {failure['status']}) "
            f"at {failure['failed_at']}: {failure['error']}",
            markup=False,
        )
