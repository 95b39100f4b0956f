"""Running the API: ``engram serve``'s start-up (first admin key, URLs) and uvicorn."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import uvicorn
from fastapi import FastAPI

from engram.api.logs import log_config
from engram.config import ApiConfig
from engram.errors import ConfigError
from engram.memory import Memory

log = logging.getLogger("engram.api")


@dataclass(frozen=True, slots=True)
class Startup:
    """What ``engram serve`` prints when it starts."""

    api: str
    docs: str
    openapi: str
    mcp: str | None
    auth: bool
    admin_key: str | None = None
    """The plaintext of an admin key created at this start (the store had none): shown
    once, never again."""
    admin_key_id: str | None = None

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    def lines(self) -> list[str]:
        """The start-up banner, one line each."""
        out = [f"engram API     {self.api}", f"OpenAPI docs   {self.docs}  ({self.openapi})"]
        out.append(f"Dashboard      {self.api}/  (paste a key to open it)")
        if self.mcp is not None:
            out.append(f"MCP endpoint   {self.mcp}")
        if not self.auth:
            out.append(
                "WARNING: --no-auth: anyone who can reach this port can read and change "
                "every namespace. Use it only for local single-user work."
            )
        elif self.admin_key is not None:
            out += [
                f"Created the first admin key ({self.admin_key_id}); it is shown only now:",
                f"    {self.admin_key}",
                "Send it as 'Authorization: Bearer <key>'. Make user keys with "
                "`engram keys create --user NAME`.",
            ]
        return out


def base_url(host: str, port: int) -> str:
    """``http://host:port`` with IPv6 hosts in brackets."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def prepare(memory: Memory, *, host: str, port: int, auth: bool, mcp: bool) -> Startup:
    """Create the first admin key if the store has none (with ``auth``), load the
    embedder (so the first request does not pay for it), and return the URLs."""
    created = memory.keys.ensure_admin() if auth else None
    if memory.embedder is not None:
        try:
            memory.embedder.embed_batch(["warm up"])
        except Exception as exc:  # recall degrades to keyword search and says so
            log.warning("the embedder failed to load: %s", exc)
    url = base_url(host, port)
    return Startup(
        api=url,
        docs=f"{url}/docs",
        openapi=f"{url}/openapi.json",
        mcp=f"{url}/mcp" if mcp else None,
        auth=auth,
        admin_key=None if created is None else created[1],
        admin_key_id=None if created is None else created[0].id,
    )


def checked_root_path(value: str) -> str:
    """``api.root_path`` as uvicorn takes it: empty, or ``/`` and a path without a
    trailing slash (``/engram``); a ``ConfigError`` that shows the form otherwise."""
    path = value.strip().rstrip("/")
    if path and (not path.startswith("/") or "?" in path or "#" in path or " " in path):
        raise ConfigError(
            f"api.root_path (--root-path) must be the path the proxy serves engram under, "
            f"starting with '/' (such as /engram), got {value!r}"
        )
    return path


#: uvicorn's own variable for the trusted proxies, which engram serve read before
#: ``api.forwarded_allow_ips`` existed (docs/operations.md, "Behind a reverse proxy").
UVICORN_FORWARDED = "FORWARDED_ALLOW_IPS"


def trusted_proxies(setting: str, flag: str | None) -> str:
    """The proxies whose forwarded headers are believed: ``--forwarded-allow-ips``, else
    ``api.forwarded_allow_ips``; while that is at its default, uvicorn's
    ``FORWARDED_ALLOW_IPS`` still counts, so a deployment configured with it keeps
    working."""
    if flag is not None:
        return flag.strip()
    default = ApiConfig().forwarded_allow_ips
    if setting == default and UVICORN_FORWARDED in os.environ:
        return os.environ[UVICORN_FORWARDED].strip()
    return setting.strip()


def run(
    app: FastAPI,
    *,
    host: str,
    port: int,
    log_level: str = "info",
    log_format: str = "text",
    root_path: str = "",
    forwarded_allow_ips: str = "127.0.0.1",
) -> None:
    """Serve ``app`` with uvicorn until interrupted; ``log_format`` is ``text`` or
    ``json`` (``engram.api.logs``). engram's access line replaces uvicorn's.
    ``root_path`` is the prefix a proxy strips (``api.root_path``);
    ``forwarded_allow_ips`` the proxies whose forwarded headers are believed
    (``api.forwarded_allow_ips``)."""
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=log_config(log_format, log_level),
        access_log=False,
        root_path=root_path,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    uvicorn.Server(config).run()


@contextmanager
def serve_in_thread(
    app: FastAPI,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    timeout: float = 10.0,
    root_path: str = "",
    forwarded_allow_ips: str = "127.0.0.1",
) -> Iterator[str]:
    """Serve ``app`` on a real socket in a background thread; yields its base URL.

    ``port=0`` picks a free port. Used by the tests and the load measurement.
    """
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        lifespan="on",
        root_path=root_path,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="engram-serve", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            raise RuntimeError(f"the API server did not start on {host}:{port}")
        time.sleep(0.01)
    bound = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield base_url(host, int(bound))
    finally:
        server.should_exit = True
        thread.join(timeout)
