"""``engram bench graph-view``: the graph tab's projection time against issue 15's
2 s target (median of several calls after the UMAP warm-up)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from engram.bench import graph_view
from engram.cli import render
from engram.cli.bench_options import data_option, json_command, out_option
from engram.cli.common import Ctx

F = TypeVar("F", bound=Callable[..., Any])


def _count(name: str, default: int, help: str) -> Callable[[F], F]:
    """A whole-number option of at least 1 (zero runs or nodes measure nothing)."""
    return click.option(name, default=default, show_default=True, type=click.IntRange(1), help=help)


@click.command("graph-view")
@data_option("The LoCoMo JSON file whose first turns become the graph's nodes.")
@_count("--nodes", 600, "Memories stored and drawn.")
@_count("--runs", 5, "Timed graph() calls; the median is reported.")
@out_option("Directory for graph-view.json and graph-view.md.")
@json_command
def graph_view_cmd(obj: Ctx, /, data: str, nodes: int, runs: int, out: str, as_json: bool) -> None:
    """How long the graph view takes for NODES memories after the UMAP warm-up
    (issue 15: 600 nodes within 2 s), as the median of RUNS calls."""
    result = graph_view.run(obj.config(), data, nodes=nodes, runs=runs)
    render.publish(out, "graph-view", result, graph_view.markdown(result), as_json=as_json)
