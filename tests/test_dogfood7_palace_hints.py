"""A palace place that is not there (new-user pass, round seven): the error names the
palace tree on every surface, not only the CLI's `engram palace` (an agent over MCP
has no shell)."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.errors import NotFoundError


def test_an_unknown_pointer_or_wing_names_the_tree_on_every_surface(mem: Memory) -> None:
    talk = [{"role": "user", "content": "Suggest a name for my kitten"}]
    mem.palace.mine_conversation(talk, wing="chat", session="c-1", user_id="ann")
    with pytest.raises(NotFoundError, match="palace_tree") as unknown_pointer:
        mem.palace.resolve("§ W-009/R-01/D-001", user_id="ann")
    assert "GET /v1/palace" in str(unknown_pointer.value)
    with pytest.raises(NotFoundError, match="palace_tree"):
        mem.palace.tree("nowhere", user_id="ann")
