"""``engram mcp``: serve the MCP tools over stdio to one agent, in one namespace."""

from __future__ import annotations

import contextlib
from typing import Any

import click

from engram.cli import render
from engram.cli.common import Ctx, handle_errors
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
@click.option(
    "--no-worker",
    is_flag=True,
    help="Do not run the job worker (fact extraction, graph, hints, chat mining, document "
    "ingest) in this process; another one must (`engram worker`, `engram serve`).",
)
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
    as_json: bool,
) -> None:
    """Serve engram's memory tools to an MCP client over stdio.

    The client starts this command and talks JSON-RPC on its stdin and stdout; every
    tool works in the one namespace given here (default: 'default'). Logs go to stderr.
    The job worker runs while it serves, as in `engram serve`, so what the tools queue
    (facts, graph relations, hints, chat mining, documents) gets done; --no-worker
    leaves that to another process.
    """
    from engram.jobs import worker_while_serving
    from engram.mcp.server import create_mcp_server, tool_manifest

    # The manifest needs no model: do not load one just to print it.
    quiet: dict[str, Any] = {"embedder": None} if as_json else {}
    with obj.memory(**quiet) as mem:
        scope = mem.scope(namespace, user_id=user_id, agent_id=agent_id)
        author = OrgFactAuthor("agent", agent_id or "mcp", seniority)
        server = create_mcp_server(mem, namespace=scope.namespace, author=author)
        if as_json:
            render.emit_json({"namespace": scope.namespace, "tools": tool_manifest(server)})
            return
        worker = "no job worker" if no_worker else "job worker on"
        render.err_console.print(
            f"engram MCP server on stdio, namespace {scope.namespace!r}, store "
            f"{mem.admin.location}, {worker}",
            markup=False,
        )
        # An agent that talks only MCP has no other process to run the jobs its writes
        # queue (seed 003's mining after each turn, seed 004's extraction): run them here.
        with worker_while_serving(mem.jobs, not no_worker), contextlib.suppress(KeyboardInterrupt):
            server.run("stdio")
