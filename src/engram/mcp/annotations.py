"""The MCP tool annotations the tool modules share, written once: what a tool tells a
client about itself (reads only, writes, repeats safely, destroys). None reaches outside
the store (``open_world_hint=False``); a tool that does says so where it is declared."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.types import ToolAnnotations

#: What a tool module hands the server: each tool by name, with its annotations.
Tools = dict[str, tuple[Callable[..., Any], ToolAnnotations]]

#: Reads the store and changes nothing.
READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
#: Reads only, and the same call gives the same answer.
READ_ONLY_IDEMPOTENT = ToolAnnotations(
    read_only_hint=True, idempotent_hint=True, open_world_hint=False
)
#: Writes: each call adds something new.
WRITE = ToolAnnotations(read_only_hint=False, idempotent_hint=False, open_world_hint=False)
#: Writes, and repeating the call changes nothing more.
IDEMPOTENT_WRITE = ToolAnnotations(
    read_only_hint=False, idempotent_hint=True, open_world_hint=False
)
#: Removes or hides what is stored.
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
