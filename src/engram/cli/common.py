"""What every ``engram`` command shares: the context object, scope options, error
handling, short ids and the progress bar."""

from __future__ import annotations

import functools
import json
import os
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO, TypeVar

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from engram.cli import render
from engram.config import Config, ConfigWarning, sqlite_file
from engram.errors import (
    EngramError,
    InjectionBlocked,
    InvalidInputError,
    NotFoundError,
    StoreError,
)
from engram.ids import MIN_ID_PREFIX
from engram.memory import Memory
from engram.records import MemoryRecord
from engram.validate import utf8_text

F = TypeVar("F", bound=Callable[..., Any])

#: Exit codes, documented in docs/cli.md ("Exit codes"); a test checks the two agree.
EXIT_OK, EXIT_ERROR, EXIT_INPUT, EXIT_NOT_FOUND, EXIT_PORT = 0, 1, 2, 3, 4
EXIT_CODES: dict[str, int] = {
    "engram_error": EXIT_ERROR,
    "invalid_input": EXIT_INPUT,
    "not_found": EXIT_NOT_FOUND,
    "port_unavailable": EXIT_PORT,
}

#: How wide the one-line injection error may get without ``--verbose``.
INJECTION_LINE = 160


class PortUnavailableError(EngramError):
    """``engram serve`` cannot listen on the address asked for (busy or not allowed).

    It lives here, not in ``engram.errors``, because only the CLI binds a port."""

    code = "port_unavailable"


class Ctx:
    """What the group options decided, shared with every command."""

    def __init__(
        self, home: str | None, db: str | None, config_path: str | None, verbose: bool = False
    ) -> None:
        self.home = home
        self.db = db
        self.config_path = config_path
        self.verbose = verbose
        self._config: Config | None = None

    def config(self) -> Config:
        """The settings, loaded once; configuration warnings become ``warning:`` lines."""
        if self._config is not None:
            return self._config
        overrides: dict[str, Any] = {}
        if self.home:
            overrides["home"] = self.home
        if self.db:
            overrides["store"] = self.db
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConfigWarning)
            config = Config.load(self.config_path, **overrides)
        for warning in caught:
            if issubclass(warning.category, ConfigWarning):
                render.err_console.print(f"warning: {warning.message}", markup=False)
            else:  # not ours to reword: hand it back to Python's machinery
                warnings.warn_explicit(
                    warning.message, warning.category, warning.filename, warning.lineno
                )
        self._config = config
        return config

    @contextmanager
    def memory(self, *, must_exist: bool = False, **kwargs: Any) -> Iterator[Memory]:
        """Open the store. ``must_exist`` for commands that only read or change what is
        there: opening a SQLite file creates it, so a mistyped ``--db`` would otherwise
        leave an empty store (and its directories) behind and report nothing found."""
        config = self.config()
        if must_exist:
            require_store(config)
        with Memory(config=config, **kwargs) as mem:
            yield mem


STDIN = "standard input"


def named(source: str, argument: str, takes: str) -> str:
    """``source``, a file argument as typed, unless it names nothing: ``Path("")`` is
    the current directory, so ``engram ingest ""`` was refused as a directory. An empty
    or blank name is refused as what it is, with what to give (``takes``)."""
    if not source.strip():
        raise InvalidInputError(f"{argument} is {'blank' if source else 'empty'}: give {takes}")
    return source


def read_text(source: str | Path) -> str:
    """The text of a file, or of standard input for "-": read as bytes and decoded by
    the library's rule (UTF-8, a BOM dropped), so bytes in another encoding are an
    input error naming the source, whatever locale decoded ``sys.stdin``."""
    if str(source) == "-":
        text = utf8_text(sys.stdin.buffer.read(), STDIN)
    else:
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            raise InvalidInputError(f"cannot read {source}: {exc.strerror or exc}") from None
        text = utf8_text(data, str(source))
    # Universal newlines, as text-mode reads gave: a Windows file's CRLF is one break.
    return text.replace("\r\n", "\n").replace("\r", "\n")


def stdin_chunks(size: int = 1 << 16) -> Iterator[str]:
    """Standard input as text, a chunk at a time (an import can be larger than memory),
    checked as ``read_text`` checks it."""
    tail = b""  # a character split across two reads waits for the next one
    offset = 0
    while chunk := sys.stdin.buffer.read(size):
        data = tail + chunk
        cut = _complete(data)
        yield utf8_text(data[:cut], STDIN, offset)
        offset += cut
        tail = data[cut:]
    if tail:
        utf8_text(tail, STDIN, offset)  # an incomplete last character: the error


def _complete(data: bytes) -> int:
    """Where the last whole UTF-8 character of ``data`` ends."""
    for back in range(1, min(4, len(data)) + 1):
        byte = data[-back]
        if byte & 0xC0 != 0x80:  # a lead byte (or ASCII): is its sequence complete?
            need = 1 if byte < 0x80 else 2 if byte >> 5 == 6 else 3 if byte >> 4 == 14 else 4
            return len(data) if back >= need else len(data) - back
    return len(data)


def require_store(config: Config) -> None:
    """``StoreError`` naming the path when the SQLite store file does not exist.

    PostgreSQL databases and ``:memory:`` are not files and always pass."""
    location = sqlite_file(config.store_path)
    if location is None:
        return
    path = Path(location).expanduser()
    if path.is_file():
        return
    raise StoreError(
        f"no engram store at {path.absolute()}: this command does not create one. Run "
        "`engram add` or `engram serve` to create it there, or point at an existing "
        "store with --db (ENGRAM_STORE) or --home (ENGRAM_HOME)"
    )


def exit_code(exc: EngramError) -> int:
    """The exit code of an engram error (the table in docs/cli.md)."""
    if isinstance(exc, PortUnavailableError):
        return EXIT_PORT
    if isinstance(exc, NotFoundError):
        return EXIT_NOT_FOUND
    if isinstance(exc, InvalidInputError):
        return EXIT_INPUT
    return EXIT_ERROR


def error_json(exc: EngramError) -> dict[str, Any]:
    """The ``{"error", "detail"}`` body the HTTP API sends for the same error: the
    code is the error class's own ``code``, which the API uses too."""
    body: dict[str, Any] = {"error": exc.code, "detail": str(exc)}
    if isinstance(exc, InjectionBlocked):
        body["reasons"] = list(exc.reasons)
    return body


def _injection_line(exc: InjectionBlocked) -> str:
    """The injection error in one line: which rules matched, and where the rest is."""
    head = "error: not stored: looks like a prompt injection ("
    tail = "); --verbose shows why and how to store it anyway"
    codes = [reason.split(":", 1)[0] for reason in exc.reasons]
    shown: list[str] = []
    for i, code in enumerate(codes):
        rest = len(codes) - i - 1
        more = f", +{rest} more" if rest else ""
        if len(head + ", ".join([*shown, code]) + more + tail) > INJECTION_LINE:
            shown.append(f"+{len(codes) - i} more")
            break
        shown.append(code)
    return head + ", ".join(shown) + tail


def _print_error(
    exc: EngramError, as_json: bool, verbose: bool, command: click.Command | None = None
) -> None:
    if as_json:
        # stderr, like every error: stdout carries only results (export's JSONL too).
        print(json.dumps(error_json(exc), ensure_ascii=False), file=sys.stderr)
        return
    if isinstance(exc, InjectionBlocked) and not verbose:
        render.err_console.print(_injection_line(exc), markup=False)
        return
    render.err_console.print(f"error: {render.flag_words(str(exc), command)}", markup=False)
    if not verbose:
        return
    if isinstance(exc, InjectionBlocked):
        for reason in exc.reasons:
            render.err_console.print(f"  - {reason}", markup=False)
    cause = exc.__cause__ or exc.__context__
    if cause is not None:
        render.err_console.print(f"  caused by {type(cause).__name__}: {cause}", markup=False)


def handle_errors(fn: F) -> F:
    """Turn engram errors into one line on stderr (a JSON object with ``--json``) and
    an exit code."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except EngramError as exc:
            context = click.get_current_context(silent=True)
            obj = context.find_object(Ctx) if context is not None else None
            verbose = obj is not None and obj.verbose
            command = context.command if context is not None else None
            _print_error(exc, bool(kwargs.get("as_json")), verbose, command)
            sys.exit(exit_code(exc))

    return wrapper  # type: ignore[return-value]


#: The scope options, in the order ``--help`` lists them, by the keyword they fill.
_SCOPE_OPTIONS: dict[str, Callable[[Any], Any]] = {
    "namespace": click.option("-n", "--namespace", help="Namespace (default: 'default')."),
    "user_id": click.option("--user", "user_id", help="User id (namespace user:<id>)."),
    "agent_id": click.option(
        "--agent", "agent_id", help="Agent id (namespace agent:<id> if alone)."
    ),
    "run_id": click.option("--run", "run_id", help="Run id (narrows within the namespace)."),
}


def scoped(*, run: bool = True) -> Callable[[F], F]:
    """``--namespace``, ``--user``, ``--agent`` and (with ``run``) ``--run``, handed to
    the command as one ``scope`` keyword: the dict of the library's scope arguments, so
    a command passes ``**scope`` on instead of naming each one. ``run=False`` for the
    commands whose library calls take no run id (or where a run's id is the argument)."""
    names = list(_SCOPE_OPTIONS) if run else [n for n in _SCOPE_OPTIONS if n != "run_id"]

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            kwargs["scope"] = {name: kwargs.pop(name) for name in names}
            return fn(*args, **kwargs)

        # click lists options in the order of the decorators: apply the last one first.
        command: Any = wrapper
        for name in reversed(names):
            command = _SCOPE_OPTIONS[name](command)
        return command  # type: ignore[no-any-return]

    return decorate


#: The four scope options (``scoped()``), for most commands.
scope_options = scoped()
#: ``--namespace``, ``--user`` and ``--agent`` without ``--run``.
owner_scope_options = scoped(run=False)


def limit_option(default: int) -> Callable[[F], F]:
    """``-k/--limit``: how many rows a listing shows, ``default`` unless given."""
    return click.option("-k", "--limit", default=default, show_default=True)


def page_options(limit: int) -> Callable[[F], F]:
    """``-k/--limit`` (default ``limit``) and ``--offset`` (default 0): one page of a
    listing, as the library's paged reads take it."""

    def decorate(fn: F) -> F:
        return limit_option(limit)(click.option("--offset", default=0, show_default=True)(fn))

    return decorate


def serving_options(fn: F) -> F:
    """``--no-worker`` and ``--no-schedules``: what ``engram serve`` and ``engram mcp``
    run beside the server (``engram.serving``), each left to another process when
    given. One definition, so both commands take the same names with the same meaning."""
    no_worker = click.option(
        "--no-worker",
        is_flag=True,
        help="Do not run the job worker (fact extraction, graph, hints, chat mining, "
        "document ingest) in this process; another one must (`engram worker`, or an "
        "`engram serve` / `engram mcp` without this flag on the same store).",
    )
    no_schedules = click.option(
        "--no-schedules",
        is_flag=True,
        help="Do not run the sessions, lifecycle and maintenance schedules (checkpoint "
        "pruning, consolidation, retention, aspect decay, the embedding tracker, repair "
        "cycles) nor the vector backfill here; leave them to another engram server on "
        "the same store. Without it, one process per store runs each schedule at a time.",
    )
    return no_worker(no_schedules(fn))


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")


def json_taking(option: Callable[[Any], Any]) -> Callable[[F], F]:
    """``option`` (the command's ``--json`` flag, its last option), the ``Ctx`` and
    ``handle_errors``: the three every command that prints a result takes, in that order."""

    def decorate(fn: F) -> F:
        return option(click.pass_obj(handle_errors(fn)))  # type: ignore[no-any-return]

    return decorate


#: ``json_taking`` the CLI's ``--json`` ("instead of a table").
json_command = json_taking(json_option)


def one_of(
    group: click.Group, name: str | None, argument: str, *, run: bool = True
) -> Callable[[F], Any]:
    """A subcommand of ``group`` (``name``, or the function's own) that acts on one thing
    named by ``argument``: that argument, the scope options (without ``--run`` when
    ``run`` is false) and ``--json``, the stack every "show / delete one" command takes,
    applied in the order ``--help`` lists them."""

    def decorate(fn: F) -> Any:
        taking = json_command(fn)
        scoped_fn = (scope_options if run else owner_scope_options)(taking)
        named = click.argument(argument)(scoped_fn)
        return (group.command(name) if name else group.command())(named)

    return decorate


def pasted_id(memory_id: str) -> str:
    """An id as the user pasted it: tables that cut an id short end it with an ellipsis."""
    return memory_id.strip().removesuffix("…").removesuffix("...")


def short_ids(mem: Memory, records: Sequence[MemoryRecord]) -> dict[str, str]:
    """Each record's id cut to the shortest prefix (8 characters or more) that names it
    alone in its namespace, as git abbreviates hashes: short enough for an 80-column
    table, and ``show``/``forget`` take it back."""
    return shortest_prefixes(
        {r.id: r.namespace for r in records},
        lambda prefix, namespace: mem.admin.resolve_id(
            prefix, namespace=namespace, include_deleted=True
        ),
    )


def shortest_prefixes(ids: Mapping[str, str], resolve: Callable[[str, str], str]) -> dict[str, str]:
    """Each id of ``ids`` (id -> the scope it is resolved in) cut to the shortest prefix
    (``MIN_ID_PREFIX`` or more) that ``resolve(prefix, scope)`` takes back to it.

    Ids begin with their creation time, so records written close together share long
    prefixes; each candidate is checked against the whole scope."""
    ordered = sorted(ids.items())
    out: dict[str, str] = {}
    for i, (full, scope) in enumerate(ordered):
        # A prefix shared with another shown id is ambiguous for sure: start past it.
        # In sorted order the longest shared prefix is with a neighbour.
        length = MIN_ID_PREFIX
        for j in (i - 1, i + 1):
            if 0 <= j < len(ordered):
                length = max(length, len(os.path.commonprefix([full, ordered[j][0]])) + 1)
        while length < len(full):
            try:
                found: str | None = resolve(full[:length], scope)
            except InvalidInputError:  # ambiguous: one more character
                found = None
            except NotFoundError:  # purged meanwhile: show it whole
                length = len(full)
                break
            if found == full:
                break
            length += 1
        out[full] = full[:length]
    return out


@contextmanager
def whole_file(path: Path, what: str = "--output") -> Iterator[TextIO]:
    """``path`` opened for writing and put in place only once it is written whole (a
    ``.partial`` file until then), so a failed export leaves no half file. A path that
    cannot be written is an ``InvalidInputError`` naming it and ``what`` to change."""
    partial = path.with_name(path.name + ".partial")
    try:
        out = partial.open("w", encoding="utf-8", newline="\n")
    except OSError as exc:
        reason = (
            f"its folder {str(path.parent)!r} does not exist"
            if not path.parent.is_dir()
            else exc.strerror or type(exc).__name__
        )
        raise InvalidInputError(
            f"cannot write {str(path)!r}: {reason}; create the folder or give another {what}"
        ) from None
    try:
        with out:
            yield out
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


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


def _not_a_number(name: str) -> Any:
    raise ValueError(name)  # NaN and Infinity stay text: no store compares them


def typed_value(raw: str) -> str | int | float | bool | None:
    """The one typing rule of ``KEY=VALUE`` values, for what ``add --meta`` stores and
    what ``--filter`` compares (so ``--meta n=3`` is found by ``--filter
    metadata.n=3``): a JSON number, ``true``, ``false`` or ``null`` is that value;
    anything else, lists and objects included, is the text as typed. Quote a value to
    keep it text: ``n='"3"'``."""
    try:
        value = json.loads(raw, parse_constant=_not_a_number)
    except ValueError:
        return raw
    if isinstance(value, list | dict):
        return raw
    return value  # type: ignore[no-any-return]
