"""New-user pass, round fourteen: bad input at the CLI, the library and its surfaces.

A name given as an empty or blank string (``engram agents end-session ""``, ``engram
sessions checkpoint " "``, ``engram org history ""``, ``engram shared publish "" ...``)
was refused with "agent_id must be a non-empty string, got str": the type of what came,
which tells someone who typed ``""`` nothing. And a publisher's agent id had no bound in
the library (the CLI stored a 5,000-character one) while HTTP and MCP refuse past 190."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli
from engram import Memory
from engram.errors import InvalidInputError


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_blank_name_is_shown_as_it_came(mem: Memory, blank: str) -> None:
    calls = {
        "agent_id": lambda: mem.agents.end_session(blank, "s-1"),
        "session_id": lambda: mem.agents.end_session("planner", blank),
        "session_key": lambda: mem.sessions.checkpoint(blank, user_id="ann"),
        "fact_id": lambda: mem.org.history(blank),
        "conversation_id": lambda: mem.chat.before(
            [{"role": "user", "content": "hi"}], user_id="ann", conversation_id=blank
        ),
    }
    for what, call in calls.items():
        with pytest.raises(InvalidInputError) as caught:
            call()
        said = str(caught.value)
        assert said == f"{what} must be a non-empty string, got {blank!r}", said
    with pytest.raises(InvalidInputError, match=f"agent_id must be a non-empty string, got {blank!r}"):
        mem.shared.publish(blank, "Backups run at 02:00 UTC")
    assert mem.browse.namespaces() == []  # nothing stored anywhere


def test_a_name_that_is_not_a_string_still_names_its_type(mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="agent_id must be a non-empty string, got int"):
        mem.shared.publish(7, "Backups run at 02:00 UTC")  # type: ignore[arg-type]


def test_a_publishers_agent_id_is_bounded_as_other_names_are(mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="agent_id is 5000 characters; at most 200"):
        mem.shared.publish("9" * 5000, "Backups run at 02:00 UTC")
    assert mem.browse.namespaces() == []
    with pytest.raises(InvalidInputError, match="fact_id is 201 characters; at most 200"):
        mem.org.history("f" * 201)
    assert mem.shared.publish("9" * 200, "Backups run at 02:00 UTC").namespace


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["agents", "end-session", "", "s-1"], "got ''"),
        (["sessions", "checkpoint", " "], "got ' '"),
        (["org", "history", ""], "fact_id must be a non-empty string, got ''"),
        (["org", "retract", "f" * 300], "fact_id is 300 characters; at most 200"),
        (["shared", "publish", "", "Backups run at 02:00 UTC"], "got ''"),
        (["shared", "publish", "9" * 5000, "Backups run at 02:00 UTC"], "at most 200"),
    ],
)
def test_the_cli_says_what_was_typed(tmp_path: Path, args: list[str], said: str) -> None:
    assert run_cli(tmp_path, "add", "The boiler was serviced in March.").exit_code == 0
    result = run_cli(tmp_path, *args)
    assert result.exit_code == 2, result.output
    assert said in result.output and "got str" not in result.output
    assert "Traceback" not in result.output
    assert run_cli(tmp_path, "list", "-n", "shared:default").output.count("Backups") == 0
