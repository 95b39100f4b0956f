"""``engram bench lifecycle``: the year simulation (consolidation and retention under a
fake clock; store size over time, recall on kept memories before vs after)."""

from __future__ import annotations

import click

from engram.bench import lifecycle as year
from engram.cli import render
from engram.cli.bench_options import data_option, json_command, out_option
from engram.cli.common import Ctx, progress_bar


@click.command("lifecycle")
@data_option("The LoCoMo JSON file whose turns are the daily writes.")
@click.option("--days", default=365, show_default=True, help="Simulated days.")
@click.option("--per-day", default=50, show_default=True, help="Writes a day.")
@click.option("--sample-every", default=30, show_default=True, help="Days between snapshots.")
@click.option("--questions", type=int, default=None, help="At most N kept questions.")
@out_option("Directory for lifecycle.json and lifecycle.md.")
@json_command
def lifecycle_cmd(
    obj: Ctx,
    /,
    data: str,
    days: int,
    per_day: int,
    sample_every: int,
    questions: int | None,
    out: str,
    as_json: bool,
) -> None:
    """A year of simulated use with the lifecycle defaults ([lifecycle] settings apply):
    store size over time and recall on the kept memories before vs after."""
    with progress_bar() as bar:
        task = bar.add_task("simulated days", total=days)
        result = year.run(
            obj.config(),
            data,
            days=days,
            per_day=per_day,
            sample_every=sample_every,
            max_questions=questions,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    render.publish(out, "lifecycle", result, year.markdown(result), as_json=as_json)
