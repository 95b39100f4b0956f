"""``engram feedback``: seed 000's thumbs on a memory, and the feedback log as a
preference data set.

``engram feedback MEMORY_ID up`` is short for ``engram feedback rate MEMORY_ID up``:
the group runs ``rate`` when its first argument is not one of its commands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    pasted_id,
    scope_options,
    whole_file,
)


class RateByDefault(click.Group):
    """A group whose unknown first argument starts its ``rate`` command."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and not args[0].startswith("-"):
            args = ["rate", *args]
        return super().parse_args(ctx, args)


@click.group(cls=RateByDefault)
def feedback() -> None:
    """Thumbs up or down on a memory (`engram feedback MEMORY_ID up`), and the
    feedback log as a preference data set (`engram feedback export`)."""


@feedback.command()
@click.argument("memory_id")
@click.argument("rating", type=click.Choice(["up", "down"]))
@scope_options
@click.option("-m", "--comment", help="Why (kept in the feedback log).")
@json_command
def rate(
    obj: Ctx, memory_id: str, rating: str, scope: dict[str, Any], comment: str | None, as_json: bool
) -> None:
    """Thumbs up or down on MEMORY_ID (the id or 8 or more of its first characters):
    quality moves by one within [-3, +3] (seed 000)."""
    with obj.memory(must_exist=True) as mem:
        record = mem.feedback(
            mem.admin.resolve_id(pasted_id(memory_id), **scope), rating, comment, **scope
        )
    if as_json:
        render.emit_json(record.to_dict())
    else:
        render.console.print(f"{record.id} quality is now {record.quality:+d}")


@feedback.command("export")
@click.option(
    "-o",
    "--out",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="The JSONL file to write (default: stdout).",
)
@scope_options
@json_command
def export_(obj: Ctx, out: Path | None, scope: dict[str, Any], as_json: bool) -> None:
    """Write the feedback log as JSONL, one rating a line: {memory_id, content, title,
    rating, comment, at, quality}, oldest first (a preference data set for fine-tuning).
    --json prints a summary {"path", "rows"} instead of a sentence."""
    rows = 0
    with obj.memory(must_exist=True) as mem:
        lines = mem.review.export_feedback(**scope)
        if out is None:
            for line in lines:
                click.echo(json.dumps(line, ensure_ascii=False))
            return
        with whole_file(out, "--out") as fh:
            for line in lines:
                fh.write(json.dumps(line, ensure_ascii=False) + "\n")
                rows += 1
    summary: dict[str, Any] = {"path": str(out), "rows": rows}
    if as_json:
        render.emit_json(summary)
    else:
        render.console.print(f"wrote {rows} ratings to {out}", markup=False)
