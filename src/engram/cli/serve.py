"""``engram serve`` (the HTTP API) and ``engram keys`` (its API keys)."""

from __future__ import annotations

import json
import os
import socket

import click
from rich.table import Table

from engram.cli import common, render
from engram.cli.common import (
    Ctx,
    PortUnavailableError,
    json_command,
    json_taking,
    serving_options,
)
from engram.org import SENIORITY

#: uvicorn's exit status when the server cannot start (``uvicorn.config.STARTUP_FAILURE``).
#: It equals engram's "unknown id" code, so it is translated, never passed through.
UVICORN_STARTUP_FAILURE = 3


def check_port(host: str, port: int) -> None:
    """``PortUnavailableError`` when nothing could listen on ``host:port`` now.

    Checked before anything else, so a busy port fails fast and clearly instead of
    after the start-up banner (and a freshly printed admin key) in uvicorn's log.
    """
    if port == 0:  # any free port: nothing to check
        return
    advice = "stop what uses it, or pick another port with --port (or api.port)"
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise PortUnavailableError(
            f"cannot listen on {host}:{port}: {exc.strerror}; check --host (or api.host)"
        ) from exc
    for family, kind, proto, _, address in addresses:
        try:
            probe = socket.socket(family, kind, proto)
        except OSError:  # a family this machine lacks (IPv6): asyncio skips it too
            continue
        with probe:
            if os.name != "nt":
                # As uvicorn (asyncio) binds: a port left in TIME_WAIT is free to use.
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as exc:
                raise PortUnavailableError(
                    f"cannot listen on {host}:{port}: {exc.strerror or exc}; {advice}"
                ) from exc


@click.command()
@click.option("--host", help="Interface to bind (default api.host: 127.0.0.1, loopback only).")
@click.option("--port", type=int, help="Port (default api.port: 8765).")
@click.option(
    "--no-auth",
    is_flag=True,
    help="Serve without API keys: every namespace to anyone who reaches the port. "
    "Local single-user use only.",
)
@click.option("--no-mcp", is_flag=True, help="Do not serve the MCP endpoint at /mcp.")
@serving_options
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
    help="The least severe log lines written to stderr.",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    help="Log lines as text or one JSON object each (default api.log_format: text).",
)
@click.option(
    "--root-path",
    help="The path a reverse proxy serves engram under and strips, such as /engram "
    "(default api.root_path: none).",
)
@click.option(
    "--forwarded-allow-ips",
    help="Reverse proxies whose X-Forwarded-For/-Proto are believed, comma-separated "
    "addresses or networks, '*' for any (default api.forwarded_allow_ips: 127.0.0.1, a "
    "proxy on this machine; '' for none).",
)
@json_taking(
    click.option(
        "--json",
        "as_json",
        is_flag=True,
        help="Print the start-up lines (addresses, auth, the first admin key) as one JSON "
        "line, for scripts.",
    )
)
def serve(
    obj: Ctx,
    host: str | None,
    port: int | None,
    no_auth: bool,
    no_mcp: bool,
    no_worker: bool,
    no_schedules: bool,
    log_level: str,
    log_format: str | None,
    root_path: str | None,
    forwarded_allow_ips: str | None,
    as_json: bool,
) -> None:
    """Serve the HTTP API (and MCP at /mcp) on the store, behind API keys.

    On the first start with keys required, an admin key is created and printed once.
    Beside the server it runs the job worker and the sessions, lifecycle and
    maintenance schedules (as `engram mcp` does); --no-worker and --no-schedules leave
    them to another process.
    """
    import logging.config

    from engram.api import create_app
    from engram.api.logs import log_config
    from engram.api.server import checked_root_path, prepare, run, trusted_proxies

    config = obj.config()
    if port is not None:  # --port is api.port: checked against the same range
        config = config.with_overrides(api={"port": port})
    bind = host or config.api.host
    listen = config.api.port
    check_port(bind, listen)
    fmt = log_format or config.api.log_format
    prefix = checked_root_path(config.api.root_path if root_path is None else root_path)
    proxies = trusted_proxies(config.api.forwarded_allow_ips, forwarded_allow_ips)
    logging.config.dictConfig(log_config(fmt, log_level))  # start-up lines too
    with obj.memory() as mem:
        app = create_app(
            mem,
            auth=not no_auth,
            mcp=not no_mcp,
            host=bind,
            worker=not no_worker,
            schedules=not no_schedules,
            warm_graph=True,
            warm_indexes=True,
        )
        startup = prepare(mem, host=bind, port=listen, auth=not no_auth, mcp=app.state.mcp)
        if as_json:
            print(json.dumps(startup.to_dict()), flush=True)
        else:
            for line in startup.lines():
                target = render.err_console if line.startswith("WARNING") else render.console
                target.print(line, markup=False, soft_wrap=True)
        try:
            run(
                app,
                host=bind,
                port=listen,
                log_level=log_level,
                log_format=fmt,
                root_path=prefix,
                forwarded_allow_ips=proxies,
            )
        except SystemExit as exc:
            # The port was taken between check_port and uvicorn's bind (or start-up
            # failed another way, which uvicorn has just logged).
            if exc.code == UVICORN_STARTUP_FAILURE:
                raise PortUnavailableError(
                    f"the server could not start on {bind}:{listen}; see the log above"
                ) from None
            raise


@click.group()
def keys() -> None:
    """Create, list and revoke API keys for `engram serve` (stored hashed).

    Every subcommand takes --json.
    """


@keys.command("create")
@click.option("--user", help="Whose namespaces the key reaches: user:NAME/...")
@click.option("--admin", is_flag=True, help="Reach every namespace (and admin routes).")
@click.option(
    "--agent",
    help="With --user: a key of that user bound to this agent; it acts only as the agent "
    "and reaches user:USER, user:USER/shared/... and user:USER/AGENT/..., never another "
    "agent's user:USER/OTHER. Alone, with --seniority: an org agent's key (user:AGENT/...).",
)
@click.option(
    "--seniority",
    type=click.Choice(SENIORITY),
    help="The agent's seniority: what it may write to org memory.",
)
@click.option("--name", help="A label, e.g. the service that holds the key.")
@json_command
def keys_create(
    obj: Ctx,
    user: str | None,
    admin: bool,
    agent: str | None,
    seniority: str | None,
    name: str | None,
    as_json: bool,
) -> None:
    """Create a key and print it once: only its hash is stored."""
    bound = user is not None and agent is not None  # a user's key bound to one agent
    if user is None and agent is None:
        raise click.UsageError("give --user NAME (and --agent NAME to bind it to an agent)")
    if agent is not None and admin:
        raise click.UsageError("an admin key reaches everything: it takes no --agent")
    if bound and seniority is not None:
        raise click.UsageError(
            "--seniority makes an org agent's key (--agent NAME without --user); a key of "
            "--user NAME bound to --agent NAME takes none"
        )
    if user is None and seniority is None:
        raise click.UsageError(
            "--agent NAME needs --user NAME (a key of that user bound to the agent) or "
            "--seniority LEVEL (an org agent's key)"
        )
    if agent is None and seniority is not None:
        raise click.UsageError("--seniority goes with --agent NAME")
    with obj.memory(embedder=None) as mem:
        if agent is not None and seniority is not None:
            key, plaintext = mem.org.create_agent_key(agent, seniority=seniority, name=name)
        else:
            key, plaintext = mem.keys.create(
                user or "", admin=admin, name=name, agent=agent if bound else None
            )
    if as_json:
        render.emit_json({**key.to_dict(), "seniority": seniority, "key": plaintext})
        return
    kind = (
        "admin key"
        if admin
        else f"key for agent {agent} of user:{user} (it acts only as {agent})"
        if bound
        else f"key for agent {agent} ({seniority})"
        if agent
        else f"key for user:{user}"
    )
    render.console.print(
        f"created {kind} {key.id}; it is shown only now:", markup=False, soft_wrap=True
    )
    print(plaintext)


@keys.command("list")
@json_command
def keys_list(obj: Ctx, as_json: bool) -> None:
    """List keys (never their secrets), revoked ones included."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        found = mem.keys.list()
        empty = "no API keys yet: `engram keys create --user NAME` makes one"
        if render.said(as_json, [k.to_dict() for k in found], found, empty):
            return
        # The shortest unique prefix, as memory and org tables show ids: the whole
        # 32-character id left the other columns no room at 80 columns, and
        # `keys revoke` takes the prefix back.
        short = common.shortest_prefixes(
            {k.id: "" for k in found}, lambda p, _: mem.keys.resolve(p)
        )
    table = Table()
    table.add_column("id", no_wrap=True)  # a wrapped id cannot be pasted back
    for column in ("user", "agent", "admin", "name", "created", "last used", "revoked"):
        table.add_column(column)
    for k in found:
        table.add_row(
            short[k.id],
            k.user,
            k.agent or "",
            "yes" if k.admin else "",
            k.name or "",
            k.created_at.strftime("%Y-%m-%d %H:%M"),
            k.last_used_at.strftime("%Y-%m-%d %H:%M") if k.last_used_at else "",
            k.revoked_at.strftime("%Y-%m-%d %H:%M") if k.revoked_at else "",
        )
    render.console.print(table)


@keys.command("revoke")
@click.argument("key_id")
@json_command
def keys_revoke(obj: Ctx, key_id: str, as_json: bool) -> None:
    """Revoke key KEY_ID (its id or the prefix `keys list` shows): it stops working at once."""
    with obj.memory(must_exist=True, embedder=None) as mem:
        key = mem.keys.revoke(key_id)
    if as_json:
        render.emit_json(key.to_dict())
    else:
        render.console.print(f"revoked {key.id} (user {key.user})", markup=False, soft_wrap=True)
