"""What the ``engram bench`` commands share: the data and output options, and a
progress bar with a row per stage."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from engram.cli import render
from engram.cli.common import json_taking, progress_bar

F = TypeVar("F", bound=Callable[..., Any])

SHARED_BENCH = Path("..") / "shared" / "bench"
LOCOMO_DEV = str(SHARED_BENCH / "locomo" / "locomo10_dev.json")
BEAM_DEV = str(SHARED_BENCH / "beam-100k")

json_option = click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
json_command = json_taking(json_option)


def data_option(help: str, *decls: str, default: str = LOCOMO_DEV) -> Callable[[F], F]:
    """A dataset option (``--data`` unless ``decls`` names it), LoCoMo dev by default."""
    return click.option(*(decls or ("--data",)), default=default, show_default=True, help=help)


def out_option(help: str) -> Callable[[F], F]:
    """``--out``: the directory a benchmark writes its results to."""
    return click.option(
        "--out",
        default="bench-results",
        show_default=True,
        type=click.Path(file_okay=False),
        help=help,
    )


Advance = Callable[[str, int, int], None]


@contextmanager
def stage_progress(*, shown: bool = True) -> Iterator[Advance | None]:
    """A progress bar with one row per stage; yields ``advance(stage, done, total)``
    (``None``, and no bar, when not ``shown``: ``--json`` prints only the results)."""
    if not shown:
        yield None
        return
    with progress_bar() as bar:
        tasks: dict[str, Any] = {}

        def advance(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = bar.add_task(stage, total=total)
            bar.update(tasks[stage], completed=done)

        yield advance


def show_results(
    result: dict[str, Any],
    path: Path,
    markdown: Callable[[dict[str, Any]], str],
    *,
    as_json: bool,
) -> None:
    """A benchmark's results already written to ``path``: the JSON with the path in it
    (``--json``), or the markdown table and where the file is."""
    if as_json:
        render.emit_json(result | {"results": str(path)})
        return
    print(markdown(result))
    render.console.print(f"results: {path}")
