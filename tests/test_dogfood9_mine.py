"""`engram mine` given another tool's export (new-user pass, round nine): ChatGPT's and
Claude's conversations.json are not read, and the refusal says what the file is and
what to give instead, rather than only listing the fields it did not expect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from test_cli_newcomer import home, reopen, run

__all__ = ["home"]

CHATGPT = {
    "title": "Efoil",
    "create_time": 1700000000.0,
    "mapping": {"a": {"id": "a", "message": None, "parent": None, "children": []}},
}
CLAUDE = {"uuid": "c1", "name": "Efoil", "chat_messages": [{"sender": "human", "text": "hi"}]}


@pytest.mark.parametrize(("export", "tool"), [(CHATGPT, "ChatGPT"), (CLAUDE, "Claude")])
def test_another_tools_export_is_named_and_nothing_is_filed(
    home: Path, tmp_path: Path, export: dict[str, object], tool: str
) -> None:
    run(home, "add", "an earlier note")
    path = tmp_path / "conversations.json"
    path.write_text(json.dumps([export]))
    result = run(home, "mine", str(path), "--wing", "Efoil")
    assert result.exit_code == 2
    assert f"{tool} export" in result.output and "{role, content}" in result.output
    with reopen(home) as mem:
        assert [r.content for r in mem.get_all()] == ["an earlier note"]
