"""``engram palace`` (the tree, ``resolve``) and ``engram mine`` (a conversation export
into the palace) (FEATURES G6, G7, G8; seed 003)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from engram.bench import beam, locomo
from engram.bench.dataset import session_messages
from engram.cli import render
from engram.cli.common import (
    Ctx,
    handle_errors,
    json_command,
    json_option,
    one_of,
    progress_bar,
    scope_options,
)
from engram.errors import InvalidInputError
from engram.palace import MineResult
from engram.validate import utf8_text

FORMATS = ("auto", "messages", "locomo", "beam")


@dataclass(frozen=True, slots=True)
class Conversation:
    """One room's worth of messages from an export."""

    wing: str
    session: str | None
    messages: list[dict[str, Any]]


@click.group(invoke_without_command=True)
@scope_options
@click.option("--wing", help="Only this wing (name, alias, or code such as W-001).")
@json_option
@click.pass_context
@handle_errors
def palace(ctx: click.Context, scope: dict[str, Any], wing: str | None, as_json: bool) -> None:
    """The palace tree: wings, their rooms, the rooms' closets and drawer counts."""
    if ctx.invoked_subcommand is not None:
        return
    obj: Ctx = ctx.obj
    with obj.memory(must_exist=True) as mem:
        tree = mem.palace.tree(wing, **scope)
    if as_json:
        render.emit_json({"wings": [node.to_dict() for node in tree]})
        return
    if not tree:
        render.console.print("the palace is empty: `engram mine FILE` files a conversation")
        return
    out = render.console
    for node in tree:
        w = node.wing
        count = render.plural(node.drawers, "drawer", "drawers")
        out.print(f"{w.code} {w.name} ({w.kind}): {count}", markup=False, soft_wrap=True)
        for rn in node.rooms:
            count = render.plural(rn.drawers, "drawer", "drawers")
            out.print(f"  R-{rn.room.number:02d} {rn.room.name}: {count}", markup=False)
            for closet in rn.closets:
                out.print(f"    {closet.name} ({closet.drawers})", markup=False)


@one_of(palace, "resolve", "pointer")
def resolve(obj: Ctx, pointer: str, scope: dict[str, Any], as_json: bool) -> None:
    """The drawer an AAAK POINTER names (e.g. "§ W-001/R-01/D-003") and its message."""
    with obj.memory(must_exist=True) as mem:
        found = mem.palace.resolve(pointer, **scope)
    if as_json:
        render.emit_json(found.to_dict())
        return
    role = f"{found.drawer.role}: " if found.drawer.role else ""
    render.console.print(found.pointer, markup=False)
    render.console.print(f"{role}{found.memory.content}", markup=False, soft_wrap=True)
    render.console.print(f"(memory {found.memory.id})", markup=False)


@click.command("mine")
@click.argument("file", type=click.Path(exists=True, path_type=Path))
@scope_options
@click.option("--wing", help="The wing to file into (default: each conversation's id).")
@click.option("--session", help="The room (messages format; default: from the first message).")
@click.option(
    "--kind",
    type=click.Choice(["person", "project", "topic", "agent"]),
    default="topic",
    show_default=True,
    help="The kind of a wing mining creates.",
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="auto", show_default=True)
@click.option("--graph", is_flag=True, help="Also record the relations found in mem.graph.")
@json_command
def mine(
    obj: Ctx,
    file: Path,
    scope: dict[str, Any],
    wing: str | None,
    session: str | None,
    kind: str,
    fmt: str,
    graph: bool,
    as_json: bool,
) -> None:
    """Mine a conversation export FILE into the palace: one drawer per message.

    FILE is a JSON list of {role, content} messages (or {"messages": [...]}), a LoCoMo
    file (each sample a wing, each session a room) or a BEAM chat directory (each batch
    a room). Mining the same file again files nothing twice.
    """
    conversations = read_export(file, fmt, wing, session)
    results: list[MineResult] = []
    total = sum(len(c.messages) for c in conversations)
    with obj.memory() as mem:
        if as_json:
            for c in conversations:
                results.append(_mine_one(mem, c, kind, graph, scope, None))
        else:
            with progress_bar() as bar:
                task = bar.add_task("mining", total=total)
                base = 0
                for c in conversations:

                    def show(done: int, _total: int, at: int = base) -> None:
                        bar.update(task, completed=at + done)

                    results.append(_mine_one(mem, c, kind, graph, scope, show))
                    base += len(c.messages)
                    bar.update(task, completed=base)
    if as_json:
        render.emit_json({"conversations": [_summary(r) for r in results]})
        return
    for r in results:
        s = _summary(r)
        if r.room is None:
            continue
        render.console.print(
            f"{s['room']} {s['wing']} / {r.room.name}: {s['added']} filed, {s['kept']} "
            f"already there" + (f", {s['blocked']} blocked" if s["blocked"] else ""),
            markup=False,
            soft_wrap=True,
        )
        for warning in r.warnings:  # the LLM's bad answers: the rules read those windows
            render.console.print(f"  warning: {warning}", markup=False, soft_wrap=True)


def _mine_one(
    mem: Any, c: Conversation, kind: str, graph: bool, scope: dict[str, Any], show: Any
) -> MineResult:
    result: MineResult = mem.palace.mine_conversation(
        c.messages, wing=c.wing, session=c.session, kind=kind, graph=graph, progress=show, **scope
    )
    return result


def _summary(r: MineResult) -> dict[str, Any]:
    return {
        "wing": None if r.wing is None else r.wing.name,
        "room": None if r.room is None else r.room.code,
        "turns": r.turns,
        "added": len(r.added),
        "kept": r.kept,
        "blocked": r.blocked,
        "invalid": r.invalid,
        "closets": [c.name for c in r.closets],
        "llm_windows": len(r.llm_windows),
        "warnings": list(r.warnings),
    }


def read_export(path: Path, fmt: str, wing: str | None, session: str | None) -> list[Conversation]:
    """The conversations in an export, in the given or detected format."""
    if fmt == "auto":
        fmt = _detect(path)
    if fmt == "beam":
        data = beam.load(str(path))
        return _from_bench(data.conversations, wing)
    if fmt == "locomo":
        return _from_bench(locomo.load(str(path)).conversations, wing)
    if wing is None:
        raise InvalidInputError("a list of messages needs --wing: the wing to file it in")
    data = _read_json(path)
    messages = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(messages, list):
        raise InvalidInputError(
            f'{path} must hold a JSON list of {{role, content}} messages, or {{"messages": [...]}}'
        )
    if not messages:
        raise InvalidInputError(
            f"{path} holds no messages (an empty list): nothing to mine; give it the "
            "conversation's {role, content} messages"
        )
    return [Conversation(wing, session, messages)]


def _detect(path: Path) -> str:
    if path.is_dir():
        return "beam"
    data = _read_json(path)
    first = data[0] if isinstance(data, list) and data else None
    return "locomo" if isinstance(first, dict) and "conversation" in first else "messages"


def _read_json(path: Path) -> Any:
    if path.is_dir():
        raise InvalidInputError(f"{path} is a directory; only a BEAM chat is mined from one")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror or exc}") from exc
    # the byte and the fix, as `add -` and `import` name them (a byte order mark is fine)
    text = utf8_text(raw, str(path))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"cannot read {path} as JSON: {exc}") from exc


def _from_bench(conversations: Sequence[Any], wing: str | None) -> list[Conversation]:
    """Benchmark conversations as rooms: one per session, turns stored as the benchmark
    stores them (``"<speaker>: <text>"``) with the speaker as the role."""
    out: list[Conversation] = []
    for conv in conversations:
        for name, messages in session_messages(conv).items():
            out.append(Conversation(wing or conv.id, f"session {name}", messages))
    return out
