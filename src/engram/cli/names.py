"""The ``engram`` group: the names a new user types from another surface.

The library and the HTTP API call their verbs ``get``, ``delete`` and ``update``; the
CLI calls them ``show`` and ``forget``, and has no edit. A new user who types ``engram
get ID`` was offered "agents, forget, ingest" by click's spelling match (new-user pass,
round six), which names nothing that shows a memory. These names now say which command
does the job, or, for an edit, where it is done.
"""

from __future__ import annotations

import click

_SHOW = "to show a memory: `engram show MEMORY_ID` (`engram list` lists them)"
_FORGET = (
    "to delete a memory: `engram forget MEMORY_ID` (a tombstone; `engram purge` then "
    "removes it for good)"
)
_EDIT = (
    "the CLI does not edit a memory: `engram forget MEMORY_ID` and `engram add` the new "
    "text, or change it in place with `mem.update(...)` or `PATCH /v1/memories/{id}`"
)
#: A command name of another surface (or shell habit) -> what does it here.
OTHER_NAMES = {
    "get": _SHOW,
    "read": _SHOW,
    "view": _SHOW,
    "delete": _FORGET,
    "del": _FORGET,
    "remove": _FORGET,
    "rm": _FORGET,
    "update": _EDIT,
    "edit": _EDIT,
    "ls": "to list memories: `engram list`",
    "find": "to search: `engram search QUERY` (`engram recall QUERY` for the prompt block)",
}


class EngramGroup(click.Group):
    """click's group, which answers a name of ``OTHER_NAMES`` with the command to use."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0] if args else None
        if name in OTHER_NAMES and self.get_command(ctx, name) is None:
            ctx.fail(f"No such command '{name}': {OTHER_NAMES[name]}.")
        return super().resolve_command(ctx, args)
