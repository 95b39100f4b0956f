"""``engram mcp``: serve the MCP tools over stdio to one agent, in one namespace."""

from __future__ import annotations

import contextlib
from typing import Any

import click

from engram.cli import render
from engram.cli.common import Ctx, handle_errors, serving_options
from engram.org import SENIORITY, OrgFactAuthor


@click.command("mcp")
@click.option(
    "-n",
    "--namespace",
    envvar="ENGRAM_MCP_NAMESPACE",
    help="Namespace the tools work in (also $ENGRAM_MCP_NAMESPACE).",
)
@click.option("--user", "user_id", help="User id: namespace user:<id>.")
@click.option("--agent", "agent_id", help="Agent id: namespace agent:<id> if alone.")
@click.option(
    "--seniority",
    type=click.Choice(SENIORITY),
    default="junior",
    show_default=True,
    help="The agent's seniority: what org_write may write (seed 002's write access).",
)
@serving_options
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the tool manifest (names, descriptions, schemas) as JSON and exit.",
)
@click.pass_obj
@handle_errors
def mcp(
    obj: Ctx,
    namespace: str | None,
    user_id: str | None,
    agent_id: str | None,
    seniority: str,
    no_worker: bool,
    no_schedules: bool,
    as_json: bool,
) -> None:
    """Serve engram's memory tools to an MCP client over stdio.

    The client starts this command and talks JSON-RPC on its stdin and stdout; every
    tool works in the one namespace given here (default: 'default'). Logs go to stderr.
    While it serves it runs what `engram serve` runs beside its server: the job worker
    (facts, graph relations, hints, chat mining, documents the tools queue) and the
    sessions, lifecycle and maintenance schedules; --no-worker and --no-schedules
    leave them to another process.
    """
    from engram.mcp.server import create_mcp_server, tool_manifest
    from engram.serving import serving

    # The manifest needs no model: do not load one just to print it.
    quiet: dict[str, Any] = {"embedder": None} if as_json else {}
    with obj.memory(**quiet) as mem:
        scope = mem.scope(namespace, user_id=user_id, agent_id=agent_id)
        author = OrgFactAuthor("agent", agent_id or "mcp", seniority)
        server = create_mcp_server(
            mem, namespace=scope.namespace, author=author, user_id=user_id, agent_id=agent_id
        )
        if as_json:
            render.emit_json({"namespace": scope.namespace, "tools": tool_manifest(server)})
            return
        worker = "no job worker" if no_worker else "job worker on"
        schedules = "no schedules" if no_schedules else "schedules on"
        render.err_console.print(
            f"engram MCP server on stdio, namespace {scope.namespace!r}, store "
            f"{mem.admin.location}, {worker}, {schedules}",
            markup=False,
        )
        # An agent that talks only MCP has no other process to run the jobs its writes
        # queue (seed 003's mining after each turn, seed 004's extraction) nor the
        # schedules (idle sessions' checkpoints, consolidation, retention): run them here.
        running = serving(mem, worker=not no_worker, schedules=not no_schedules)
        with running, contextlib.suppress(KeyboardInterrupt):
            server.run("stdio")
