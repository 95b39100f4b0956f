"""``engram blocks`` and ``engram inject``: core memory blocks, the memory message of
the context strategy and the memory tools (seed 002's injection strategies; FEATURES S5).
"""

from __future__ import annotations

import json
from typing import Any

import click

from engram.cli import render
from engram.cli.common import (
    Ctx,
    json_command,
    limit_option,
    one_of,
    owner_scope_options,
    read_text,
)
from engram.errors import InvalidInputError
from engram.inject import STRATEGIES, CoreBlock
from engram.inject.blocks import block_dict
from engram.records import iso


def _block(b: CoreBlock) -> dict[str, Any]:
    """``block_dict`` without the namespace: the command names it."""
    return {k: v for k, v in block_dict(b).items() if k != "namespace"}


def _print_block(b: CoreBlock, as_json: bool) -> None:
    if as_json:
        render.emit_json(_block(b))
        return
    flag = ", read-only" if b.read_only else ""
    render.console.print(
        f"[bold]{b.label}[/bold] ({len(b.value)}/{b.char_limit} chars, v{b.version}{flag})"
    )
    if b.description:
        render.console.print(b.description, markup=False, style="dim")
    render.console.print(b.value, markup=False)


@click.group()
def blocks() -> None:
    """Core memory blocks: always in the agent's context, edited by its tools."""


@blocks.command("list")
@owner_scope_options
@json_command
def list_(obj: Ctx, scope: dict[str, Any], as_json: bool) -> None:
    """The namespace's core blocks."""
    with obj.memory(must_exist=True) as mem:
        found = mem.inject.blocks.list(**scope)
    if render.said(as_json, {"items": [_block(b) for b in found]}, found, "no core blocks"):
        return
    for b in found:
        _print_block(b, False)


@one_of(blocks, "show", "label", run=False)
def show(obj: Ctx, label: str, scope: dict[str, Any], as_json: bool) -> None:
    """One core block."""
    with obj.memory(must_exist=True) as mem:
        found = mem.inject.blocks.get(label, **scope)
    _print_block(found, as_json)


@blocks.command("set")
@click.argument("label")
@click.argument("value")
@click.option("--limit", "char_limit", type=int, help="Characters the block may hold.")
@click.option("--description", help="What the block is for (shown to the agent).")
@click.option("--read-only/--writable", default=None, help="May the agent's tools edit it?")
@owner_scope_options
@json_command
def set_(
    obj: Ctx,
    label: str,
    value: str,
    char_limit: int | None,
    description: str | None,
    read_only: bool | None,
    scope: dict[str, Any],
    as_json: bool,
) -> None:
    """Create a core block or overwrite its value (VALUE '-' reads stdin)."""
    text = read_text("-") if value == "-" else value
    with obj.memory() as mem:
        written = mem.inject.blocks.set(
            label,
            text,
            char_limit=char_limit,
            description=description,
            read_only=read_only,
            actor="cli",
            **scope,
        )
    _print_block(written, as_json)


@blocks.command("append")
@click.argument("label")
@click.argument("content")
@owner_scope_options
@json_command
def append(obj: Ctx, label: str, content: str, scope: dict[str, Any], as_json: bool) -> None:
    """Append a line to a core block, as the core_memory_append tool does."""
    with obj.memory(must_exist=True) as mem:
        written = mem.inject.blocks.append(label, content, actor="cli", **scope)
    _print_block(written, as_json)


@blocks.command("replace")
@click.argument("label")
@click.argument("old_content")
@click.argument("new_content")
@owner_scope_options
@json_command
def replace(
    obj: Ctx, label: str, old_content: str, new_content: str, scope: dict[str, Any], as_json: bool
) -> None:
    """Replace text in a core block, as the core_memory_replace tool does."""
    with obj.memory(must_exist=True) as mem:
        written = mem.inject.blocks.replace(label, old_content, new_content, actor="cli", **scope)
    _print_block(written, as_json)


@one_of(blocks, "delete", "label", run=False)
def delete(obj: Ctx, label: str, scope: dict[str, Any], as_json: bool) -> None:
    """Remove a core block (its history stays)."""
    with obj.memory(must_exist=True) as mem:
        removed = mem.inject.blocks.delete(label, actor="cli", **scope)
    if as_json:
        render.emit_json(_block(removed))
        return
    render.console.print(f"deleted core block {removed.label!r}", markup=False)


@blocks.command("history")
@click.argument("label")
@limit_option(50)
@owner_scope_options
@json_command
def history(obj: Ctx, label: str, limit: int, scope: dict[str, Any], as_json: bool) -> None:
    """Every edit of a core block, newest first."""
    with obj.memory(must_exist=True) as mem:
        edits = mem.inject.blocks.history(label, limit=limit, **scope)
    items = [
        {
            "id": e.id,
            "op": e.op,
            "actor": e.actor,
            "old_value": e.old_value,
            "new_value": e.new_value,
            "at": iso(e.at),
        }
        for e in edits
    ]
    if render.said(as_json, {"items": items}, items, f"no history for core block {label!r}"):
        return
    for e in edits:
        render.console.print(f"{iso(e.at)}  {e.op:<8} by {e.actor or '?'}", markup=False)
        render.console.print(f"  {e.new_value!r}", markup=False)


@click.group()
def inject() -> None:
    """The injection strategies: the context message, and the memory tools for agents."""


@inject.command("context")
@click.argument("query")
@click.option("--budget", "budget_tokens", type=int, default=1000, show_default=True)
@click.option("--role", type=click.Choice(["system", "user"]), default="system", show_default=True)
@click.option("-k", "--limit", type=int, help="At most this many memories.")
@click.option("--no-blocks", is_flag=True, help="Leave the core blocks out.")
@owner_scope_options
@json_command
def context(
    obj: Ctx,
    query: str,
    budget_tokens: int,
    role: str,
    limit: int | None,
    no_blocks: bool,
    scope: dict[str, Any],
    as_json: bool,
) -> None:
    """Print the memory message the context strategy injects for QUERY."""
    with obj.memory(must_exist=True) as mem:
        prepared = mem.inject.prepare(
            query,
            budget_tokens=budget_tokens,
            role=role,
            limit=limit,
            blocks=not no_blocks,
            **scope,
        )
    if as_json:
        render.emit_json(
            {
                "message": prepared.message,
                "memory_ids": [h.memory.id for h in prepared.hits],
                "blocks": [b.label for b in prepared.blocks],
                "tokens": prepared.tokens,
                "warnings": list(prepared.warnings),
            }
        )
        return
    if prepared.message is None:
        render.console.print("nothing to inject for this query")
        return
    render.console.print(prepared.message["content"], markup=False)


@inject.command("tools")
@click.option("--strategy", type=click.Choice(STRATEGIES), default="tool_based", show_default=True)
@json_command
def tools(obj: Ctx, strategy: str, as_json: bool) -> None:
    """The strategy's tools and system instruction; --json prints the definitions in
    OpenAI's function-calling shape, for any agent framework."""
    with obj.memory() as mem:
        instructions, defined = mem.inject.instructions(strategy), mem.inject.tools(strategy)
    if as_json:
        render.emit_json({"instructions": instructions, "tools": defined})
        return
    if instructions:
        render.console.print(instructions, markup=False)
    for tool in defined:
        fn = tool["function"]
        args = ", ".join(fn["parameters"]["properties"])
        render.console.print(f"[bold]{fn['name']}[/bold]({args})")
        render.console.print(f"  {fn['description']}", markup=False)


@inject.command("call")
@click.argument("name")
@click.argument("arguments", default="{}")
@owner_scope_options
@json_command
def call(obj: Ctx, name: str, arguments: str, scope: dict[str, Any], as_json: bool) -> None:
    """Run memory tool NAME with ARGUMENTS (a JSON object); --json prints the result
    the model would get."""
    try:
        parsed = json.loads(arguments)
    except json.JSONDecodeError as exc:
        raise InvalidInputError(f"ARGUMENTS must be a JSON object: {exc.msg}") from None
    with obj.memory() as mem:
        result = mem.inject.call(name, parsed, **scope)
    if as_json:
        render.emit_json(result)
        return
    for hit in result.get("hits", []):
        line = f"{hit['score']:.3f}  {hit['id']}  {hit['content']}"
        render.console.print(line, markup=False, soft_wrap=True)
    if "hits" in result and not result["hits"]:
        render.console.print("no hits")
    for memory in result.get("memories", []):
        render.console.print(f"{memory['id']}  {memory['content']}", markup=False, soft_wrap=True)
    if "value" in result:
        render.console.print(
            f"{result['label']} ({result['chars']}/{result['char_limit']} chars, "
            f"v{result['version']})\n{result['value']}",
            markup=False,
        )
    if set(result) == {"id"}:
        render.console.print(f"stored {result['id']}", markup=False)
