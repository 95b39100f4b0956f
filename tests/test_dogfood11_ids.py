"""Ids in round ten's leftovers (new-user pass, round eleven): ``engram keys list``
printed whole 32-character ids, which left the other columns no room at 80 columns,
where every other table shows the shortest unique prefix that commands take back."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from mcp import Client

from conftest import HashEmbedder, HttpServed
from conftest import run_cli as run
from engram import Config, Memory
from engram.api import create_app
from engram.errors import InvalidInputError, NotFoundError
from engram.mcp.server import create_mcp_server

SHARED = "0190a1b2c3d4"
ALICE, BOB = (SHARED + c * 20 for c in "ab")
CAROL = "0190ffee" + "c" * 24


def test_keys_resolve_takes_an_id_or_a_unique_prefix(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = iter([ALICE, BOB])
    monkeypatch.setattr("engram.keys.new_id", lambda: next(ids))
    mem.keys.create("alice")
    mem.keys.create("bob")
    assert mem.keys.resolve(ALICE) == ALICE
    assert mem.keys.resolve(BOB[:13]) == BOB
    with pytest.raises(InvalidInputError, match="it matches 2 API keys"):
        mem.keys.resolve(SHARED)
    with pytest.raises(NotFoundError, match="`engram keys list` shows them"):
        mem.keys.resolve("ffffffffffff")


def test_keys_list_shows_the_short_id_that_revoke_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    ids = iter([ALICE, BOB, CAROL])
    monkeypatch.setattr("engram.keys.new_id", lambda: next(ids))
    for user in ("alice", "bob", "carol"):
        assert run(home, "keys", "create", "--user", user).exit_code == 0
    listed = run(home, "keys", "list")
    assert listed.exit_code == 0, listed.output
    rows = {
        line.split()[3]: line.split()[1]
        for line in listed.stdout.splitlines()
        if line.startswith("│") and line.split()[3] in {"alice", "bob", "carol"}
    }
    # the shortest prefix that names each key alone: 13 characters for the two that
    # share 12, the minimum 8 for the third; never the whole id
    assert rows == {"alice": ALICE[:13], "bob": BOB[:13], "carol": CAROL[:8]}
    revoked = run(home, "keys", "revoke", rows["bob"])
    assert revoked.exit_code == 0, revoked.output
    assert f"revoked {BOB}" in revoked.stdout


# Memory ids over the library, HTTP and MCP are whole ids (docs/http.md's id rule):
# an API client holds the whole ids it was given, and a prefix could name a sibling
# written in the same millisecond. A prefix copied from a CLI table said only "no
# memory"; it now says to give the whole id, and that the CLI takes a prefix.
WHOLE = "give the whole id (32 characters): only the CLI takes a prefix"


def test_a_memory_id_prefix_is_refused_saying_to_give_it_whole(mem: Memory) -> None:
    stored = mem.add("The staging DB is db-staging-2", user_id="alice")
    prefix = stored.id[:12]
    verbs = {
        "get": lambda: mem.get(prefix, user_id="alice"),
        "history": lambda: mem.history(prefix, user_id="alice"),
        "update": lambda: mem.update(prefix, "db-staging-3", user_id="alice"),
        "delete": lambda: mem.delete(prefix, user_id="alice"),
        "feedback": lambda: mem.feedback(prefix, 1, user_id="alice"),
    }
    for name, verb in verbs.items():
        with pytest.raises(NotFoundError, match=re.escape(WHOLE)):
            verb()
        assert mem.get(stored.id, user_id="alice").content == stored.content, name
    # an unknown whole id is only not found; one too short to be a prefix says so
    # (round thirteen: "not found" alone read as a memory that was there)
    with pytest.raises(NotFoundError) as caught:
        mem.get("f" * 32, user_id="alice")
    assert "only the CLI" not in str(caught.value)
    with pytest.raises(NotFoundError, match="'nope' is too short to be a memory id"):
        mem.get("nope", user_id="alice")


def test_http_memory_and_shared_routes_take_whole_ids(http_server: HttpServed) -> None:
    url, keys, _ = http_server
    auth = {"Authorization": f"Bearer {keys['alice']}"}
    made = httpx.post(f"{url}/v1/memories", headers=auth, json={"content": "Backups at 2am"})
    full = made.json()["id"]
    got = httpx.get(f"{url}/v1/memories/{full[:12]}", headers=auth)
    assert got.status_code == 404 and WHOLE in got.json()["detail"], got.text
    assert httpx.get(f"{url}/v1/memories/{full}", headers=auth).status_code == 200
    published = httpx.post(
        f"{url}/v1/shared", headers=auth, json={"agent_id": "planner", "content": "Ship it"}
    ).json()["id"]
    body = {"agent_id": "planner"}
    short = httpx.post(f"{url}/v1/shared/{published[:12]}/retract", headers=auth, json=body)
    assert short.status_code == 404 and WHOLE in short.json()["detail"], short.text
    whole = httpx.post(f"{url}/v1/shared/{published}/retract", headers=auth, json=body)
    assert whole.status_code == 200, whole.text


# What the schemas say an id is (round ten left "The fact's id." on a parameter that
# takes a prefix, and "A memory id." on ones that take only the whole id).
def test_the_openapi_document_says_which_ids_take_a_prefix(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        paths = create_app(memory, mcp=False).openapi()["paths"]

    def described(path: str, method: str) -> str:
        (parameter,) = [p for p in paths[path][method]["parameters"] if p["in"] == "path"]
        return str(parameter["description"])

    assert "unique prefix" in described("/v1/org/facts/{fact_id}", "get")
    assert "unique prefix" in described("/v1/org/facts/{fact_id}/retract", "post")
    assert "unique prefix" in described("/v1/lifecycle/restore/{memory_id}", "post")
    for path, method in [
        ("/v1/memories/{memory_id}", "get"),
        ("/v1/memories/{memory_id}", "delete"),
        ("/v1/memories/{memory_id}/history", "get"),
        ("/v1/shared/{memory_id}/retract", "post"),
        ("/v1/procedures/{memory_id}", "get"),
    ]:
        assert "whole id" in described(path, method), path


@pytest.mark.anyio
async def test_the_mcp_tools_say_which_ids_take_a_prefix(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        async with Client(create_mcp_server(memory, namespace="user:alice")) as client:
            tools = {
                t.name: t.input_schema["properties"] for t in (await client.list_tools()).tools
            }
    assert "unique prefix" in str(tools["org_write"]["fact_id"])
    assert "unique prefix" in str(tools["restore_memory"]["memory_id"])
    for tool, field in [("forget", "id"), ("feedback", "id"), ("retract_knowledge", "memory_id")]:
        assert "whole id" in str(tools[tool][field]), tool
