"""New-user pass, round fourteen: bad input at the CLI, the library and its surfaces.

A name given as an empty or blank string (``engram agents end-session ""``, ``engram
sessions checkpoint " "``, ``engram org history ""``, ``engram shared publish "" ...``)
was refused with "agent_id must be a non-empty string, got str": the type of what came,
which tells someone who typed ``""`` nothing. And a publisher's agent id had no bound in
the library (the CLI stored a 5,000-character one) while HTTP and MCP refuse past 190."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from mcp import Client

from conftest import HashEmbedder, HttpServed, run_cli
from engram import Config, Memory
from engram.errors import InvalidInputError
from engram.mcp.server import create_mcp_server


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
    with pytest.raises(InvalidInputError) as caught:
        mem.shared.publish(blank, "Backups run at 02:00 UTC")
    assert str(caught.value) == f"agent_id must be a non-empty string, got {blank!r}"
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
        (["org", "history", ""], "FACT_ID must be a non-empty string, got ''"),
        (["org", "retract", "f" * 300], "FACT_ID is 300 characters; at most 200"),
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


# -- a per-call recall setting out of range ---------------------------------------------
@pytest.mark.parametrize(
    ("override", "said"),
    [
        ({"min_relevance": -1}, "min_relevance must be in [0.0, 10.0], got -1.0"),
        ({"alpha": 7}, "alpha must be in [0.0, 1.0], got 7.0"),
        ({"fusion": "nope"}, "fusion must be one of weighted, rrf, got 'nope'"),
        ({"alpah": 0.3}, "recall has no setting 'alpah'; did you mean alpha?"),
        ({"zzz": 1}, "recall has no setting 'zzz'; docs/configuration.md lists them"),
    ],
)
def test_a_bad_per_call_setting_is_the_callers_argument(
    mem: Memory, override: dict[str, object], said: str
) -> None:
    # It was a ConfigError naming "config key recall.min_relevance", as for a broken file.
    mem.add("Deploys go through ops/deploy.sh", user_id="ann")
    for call in (mem.recall, mem.search):
        with pytest.raises(InvalidInputError) as caught:
            call("how do I deploy?", user_id="ann", **override)  # type: ignore[operator]
        assert str(caught.value).startswith(said), str(caught.value)
    assert [h.memory.content for h in mem.search("how do I deploy?", user_id="ann", alpha=0.3)]


def test_the_cli_names_the_flag_and_exits_2(tmp_path: Path) -> None:
    assert run_cli(tmp_path, "add", "Deploys go through ops/deploy.sh").exit_code == 0
    for verb in ("recall", "search"):
        result = run_cli(tmp_path, verb, "how do I deploy?", "--min-relevance", "-1")
        assert result.exit_code == 2, result.output
        assert "--min-relevance must be in [0.0, 10.0], got -1.0" in result.output
        assert "config key" not in result.output


# -- a run recorded with an empty task ---------------------------------------------------
@pytest.mark.parametrize(("field", "value"), [("task", ""), ("task", "   "), ("task_type", "")])
def test_a_run_with_an_empty_task_is_refused(mem: Memory, field: str, value: str) -> None:
    # `engram observe --task ""` refused it; the library, HTTP and MCP stored task "".
    said = f"{field} is {'blank' if value else 'empty'}: leave it out, or give its text"
    with pytest.raises(InvalidInputError, match=said):
        mem.runs.record_run(user_id="ann", **{field: value})  # type: ignore[arg-type]
    assert mem.runs.list(user_id="ann") == []
    kept = mem.runs.record_run(user_id="ann", task="Refactor the exporter")
    with pytest.raises(InvalidInputError, match=said):
        mem.runs.record_run(kept.run_id, user_id="ann", **{field: value})  # type: ignore[arg-type]
    assert mem.runs.get(kept.run_id, user_id="ann").run.task == "Refactor the exporter"
    assert mem.runs.record_run(user_id="ann").task is None  # left out: still fine


def test_http_refuses_an_empty_task(http_server: HttpServed) -> None:
    url, keys, memory = http_server
    auth = {"Authorization": f"Bearer {keys['alice']}"}
    said = httpx.post(f"{url}/v1/runs", json={"task": ""}, headers=auth)
    assert said.status_code == 422 and "task is empty" in said.text, said.text
    assert memory.runs.list(user_id="alice") == []


@pytest.mark.anyio
async def test_mcp_refuses_an_empty_task(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        async with Client(create_mcp_server(memory, namespace="user:ann")) as client:
            result = await client.call_tool("record_run", {"task": ""})
        assert result.is_error
        assert "task is empty" in result.content[0].text  # type: ignore[union-attr]
        assert memory.runs.list(user_id="ann") == []
