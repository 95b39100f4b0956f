"""An id inside a namespace narrows it, and an empty answer says so (new-user pass,
round three; round two found that a request with both ``namespace`` and ``user_id``
came back empty with only "the filters (user_id) excluded ...").

A user who sends ``{"namespace": "team", "user_id": "alice"}`` may expect "alice's
memories in team" to mean something else than "the memories of team stored with
user_id alice"; the answer names the rule and what to change, on every surface in its
own words.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.cli.main import cli

TEAM = "team"
DEPLOY = "Deploys go through ops/deploy.sh and need the VPN"


@pytest.fixture
def config(tmp_path: Path) -> Config:
    # Silent when unsure, so the empty answer is the filter's, not a low-confidence line.
    return Config.load(env={}, home=str(tmp_path / "home")).with_overrides(
        recall={"low_confidence": False}
    )


@pytest.fixture
def team(tmp_path: Path, config: Config) -> Iterator[Memory]:
    """The team's deploy note, stored by bob; nothing of alice's."""
    with Memory(str(tmp_path / "team.db"), config=config, embedder=HashEmbedder()) as mem:
        mem.add(DEPLOY, namespace=TEAM, user_id="bob")
        mem.add("The VPN config lives in the ops vault", namespace=TEAM, user_id="bob")
        yield mem


def test_the_library_says_user_id_narrows_within_the_namespace(team: Memory) -> None:
    result = team.recall("deploy VPN", namespace=TEAM, user_id="alice")
    assert result.hits == () and result.empty_reason == "filtered"
    assert result.empty_message == (
        "the filters (user_id) excluded all 2 memories the query found; user_id narrows "
        "namespace 'team' to the memories stored with that id: leave it out to search "
        "the whole namespace"
    )
    # What the message says to do works.
    assert [h.memory.content for h in team.recall("deploy VPN", namespace=TEAM).hits][0] == DEPLOY


def test_two_ids_are_named_together(team: Memory) -> None:
    said = team.recall("deploy", namespace=TEAM, user_id="alice", agent_id="ci").empty_message
    assert said is not None
    assert "user_id or agent_id narrow namespace 'team'" in said
    assert said.endswith("leave them out to search the whole namespace")


def test_a_filter_that_is_not_an_id_keeps_its_short_message(team: Memory) -> None:
    said = team.recall("deploy", namespace=TEAM, filters={"type": "decision"}).empty_message
    assert said == "the filters (filters['type']) excluded all 2 memories the query found"


def test_http_names_the_json_field(team: Memory) -> None:
    _, admin = team.keys.create("ops", admin=True)
    client = TestClient(create_app(team, mcp=False, worker=False))
    auth = {"Authorization": f"Bearer {admin}"}
    for route in ("/v1/search", "/v1/recall"):
        body = {"query": "deploy VPN", "namespace": TEAM, "user_id": "alice"}
        answer = client.post(route, json=body, headers=auth)
        assert answer.status_code == 200, answer.text
        assert answer.json()["empty_reason"] == "filtered"
        assert answer.json()["empty_message"].endswith(
            "user_id narrows namespace 'team' to the memories stored with that id: "
            "leave it out to search the whole namespace"
        ), route


def test_the_cli_names_its_flag(
    team: Memory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("engram.memory.create_embedder", lambda *_: HashEmbedder())
    result = CliRunner().invoke(
        cli,
        ["--home", str(tmp_path / "cli"), "--db", str(tmp_path / "team.db"), "recall"]
        + ["deploy VPN", "-n", TEAM, "--user", "alice"],
        env={"ENGRAM_CONFIG": "", "ENGRAM_RECALL_LOW_CONFIDENCE": "false"},
    )
    assert result.exit_code == 0, result.output
    assert "--user narrows namespace 'team'" in result.stderr
