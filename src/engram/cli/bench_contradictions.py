"""``engram bench contradictions``: the contradiction detector's precision and recall on
the labelled set, and the false proposals mining LoCoMo dev puts in the review queue."""

from __future__ import annotations

import click

from engram.bench import contradictions as contra
from engram.cli import render
from engram.cli.bench_options import SHARED_BENCH, data_option, json_command, out_option
from engram.cli.common import Ctx


@click.command("contradictions")
@data_option(
    "The dev data folder: the set's LoCoMo and BEAM pairs are read from it (without it only "
    "the hand-written pairs are scored), and its LoCoMo file is mined.",
    default=str(SHARED_BENCH),
)
@click.option(
    "--set",
    "set_path",
    default=None,
    type=click.Path(dir_okay=False),
    help="A labelled pair set JSON file (default: the one engram ships).",
)
@click.option("--conversations", type=int, help="Mine only the first N conversations.")
@click.option("--no-mine", is_flag=True, help="Score the labelled set only (seconds, not minutes).")
@out_option("Directory for contradictions.json and contradictions.md.")
@json_command
def contradictions_cmd(
    obj: Ctx,
    /,
    data: str,
    set_path: str | None,
    conversations: int | None,
    no_mine: bool,
    out: str,
    as_json: bool,
) -> None:
    """Contradiction detection: precision and recall per fold of the labelled set (the
    detector and seed 004's lexical test), and queued proposals per 500 mined LoCoMo
    turns. The set's dev-data pairs are references resolved against --data."""
    result = contra.run(
        obj.config(), data, set_path=set_path, conversations=conversations, mine=not no_mine
    )
    render.publish(out, "contradictions", result, contra.markdown(result), as_json=as_json)
