"""What every ``engram`` command shares: the context object, scope options, error
handling and the progress bar."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from engram.cli import render
from engram.config import Config
from engram.errors import EngramError, InvalidInputError, NotFoundError
from engram.memory import Memory

F = TypeVar("F", bound=Callable[..., Any])

#: Exit codes: 1 generic engram error, 2 bad input (as click's usage errors), 3 not found.
EXIT_ERROR, EXIT_INPUT, EXIT_NOT_FOUND = 1, 2, 3


class Ctx:
    """What the group options decided, shared with every command."""

    def __init__(self, home: str | None, db: str | None, config_path: str | None) -> None:
        self.home = home
        self.db = db
        self.config_path = config_path

    def config(self) -> Config:
        overrides: dict[str, Any] = {}
        if self.home:
            overrides["home"] = self.home
        if self.db:
            overrides["store"] = self.db
        return Config.load(self.config_path, **overrides)

    @contextmanager
    def memory(self, **kwargs: Any) -> Iterator[Memory]:
        with Memory(config=self.config(), **kwargs) as mem:
            yield mem


def handle_errors(fn: F) -> F:
    """Turn engram errors into one line on stderr and an exit code."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except NotFoundError as exc:
            render.err_console.print(f"error: {exc}", markup=False)
            sys.exit(EXIT_NOT_FOUND)
        except InvalidInputError as exc:
            render.err_console.print(f"error: {exc}", markup=False)
            sys.exit(EXIT_INPUT)
        except EngramError as exc:
            render.err_console.print(f"error: {exc}", markup=False)
            sys.exit(EXIT_ERROR)

    return wrapper  # type: ignore[return-value]


def scope_options(fn: F) -> F:
    """``--namespace``, ``--user``, ``--agent`` and ``--run`` for commands that take a scope."""
    fn = click.option("--run", "run_id", help="Run id (narrows within the namespace).")(fn)
    fn = click.option("--agent", "agent_id", help="Agent id (namespace agent:<id> if alone).")(fn)
    fn = click.option("--user", "user_id", help="User id (namespace user:<id>).")(fn)
    fn = click.option("-n", "--namespace", help="Namespace (default: 'default').")(fn)
    return fn


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")


def scope_kwargs(
    namespace: str | None, user_id: str | None, agent_id: str | None, run_id: str | None
) -> dict[str, Any]:
    return {"namespace": namespace, "user_id": user_id, "agent_id": agent_id, "run_id": run_id}


def progress_bar() -> Progress:
    """A progress bar on stderr for long operations."""
    return Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=render.err_console,
        transient=False,
    )
