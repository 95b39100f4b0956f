"""RFC 9728 discovery for ``/mcp``: the protected-resource metadata and the
``WWW-Authenticate`` challenge that points to it.

An MCP client that gets a 401 looks for an OAuth authorization server before it gives
up. engram's keys are issued by ``engram keys create``, not by OAuth, so the metadata
names no ``authorization_servers`` and only the bearer header: the client then shows
the 401's own message ("unknown or revoked key") instead of starting an OAuth flow.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from starlette.types import Scope

#: Where the metadata is served (RFC 9728 section 3): at the root, which MCP clients
#: try when the challenge names nothing, and with the resource's path appended.
METADATA_PATH = "/.well-known/oauth-protected-resource"
MCP_PATH = "/mcp"

router = APIRouter()


def base_url(scope: Scope) -> str:
    """``scheme://host[/root_path]`` as the client addressed this server (its ``Host``
    header, so a proxy that keeps it gets URLs its clients can reach)."""
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    host = headers.get("host")
    if not host:
        server = scope.get("server") or ("127.0.0.1", 80)
        host = f"{server[0]}:{server[1]}"
    return f"{scope.get('scheme', 'http')}://{host}{scope.get('root_path', '')}".rstrip("/")


def challenge(scope: Scope) -> bytes:
    """The ``WWW-Authenticate`` value of a 401 from ``/mcp``."""
    return f'Bearer resource_metadata="{base_url(scope)}{METADATA_PATH}"'.encode("latin-1")


def metadata(base: str) -> dict[str, Any]:
    """The protected-resource metadata of ``<base>/mcp``."""
    return {
        "resource": f"{base}{MCP_PATH}",
        "resource_name": "engram MCP server",
        # Keys come from `engram keys create --user NAME`: no authorization server.
        "bearer_methods_supported": ["header"],
    }


@router.get(METADATA_PATH, include_in_schema=False)
@router.get(METADATA_PATH + MCP_PATH, include_in_schema=False)
def protected_resource(request: Request) -> dict[str, Any]:
    """RFC 9728 metadata for ``/mcp`` (public: it holds nothing secret)."""
    return metadata(base_url(request.scope))
