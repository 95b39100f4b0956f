"""Injection strategies, core blocks and procedures through every surface (FEATURES S5,
S7): the HTTP routes over a real socket with two users' keys, the ``engram blocks``,
``engram inject`` and ``engram procedure`` commands (each a fresh process's worth of
state, reopened from disk), and the MCP tools in-process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from mcp import Client

from conftest import HashEmbedder, HttpServed
from conftest import bearer_client as client
from conftest import tool_call as call
from engram import Config, Memory
from engram.cli.main import cli
from engram.inject.tools import TOOLS
from engram.mcp.server import create_mcp_server, tool_manifest

ALICE, BOB = "user:alice", "user:bob"
FAILURE = {
    "task": "Publish the docs site",
    "error": "mkdocs: Config value 'nav' is invalid",
    "steps": ["mkdocs build"],
    "trace": "mkdocs/config/base.py line 4",
}


# -- HTTP ------------------------------------------------------------------------------------
def test_http_blocks_round_trip_with_history_per_key(http_server: HttpServed) -> None:
    url, keys, memory = http_server
    with client(url, keys["alice"]) as alice, client(url, keys["bob"]) as bob:
        made = alice.put("/v1/blocks/human", json={"value": "Name: Alice", "char_limit": 50})
        assert made.status_code == 200, made.text
        assert made.json()["namespace"] == ALICE and made.json()["version"] == 1
        grown = alice.post("/v1/blocks/human/append", json={"content": "Likes tea"}).json()
        assert grown["value"] == "Name: Alice\nLikes tea"
        swapped = alice.post(
            "/v1/blocks/human/replace", json={"old_content": "tea", "new_content": "cocoa"}
        )
        assert swapped.json()["value"] == "Name: Alice\nLikes cocoa"
        too_long = alice.post("/v1/blocks/human/append", json={"content": "x" * 60})
        assert too_long.status_code == 422 and "limit is 50" in too_long.json()["detail"]
        alice.put("/v1/blocks/persona", json={"value": "Calm.", "read_only": True})
        locked = alice.post("/v1/blocks/persona/append", json={"content": "Loud."})
        assert locked.status_code == 403
        assert [b["label"] for b in alice.get("/v1/blocks").json()["items"]] == [
            "human",
            "persona",
        ]
        history = alice.get("/v1/blocks/human/history").json()["items"]
        assert [e["op"] for e in history] == ["replace", "append", "create"]
        key_id = memory.keys.verify(keys["alice"]).id  # type: ignore[union-attr]
        assert {e["actor"] for e in history} == {f"key:{key_id}"}
        assert alice.delete("/v1/blocks/persona").json()["label"] == "persona"
        assert alice.get("/v1/blocks/persona").status_code == 404
        # Bob has none of them and cannot reach alice's.
        assert bob.get("/v1/blocks").json()["items"] == []
        assert bob.get("/v1/blocks/human").status_code == 404
        assert bob.get("/v1/blocks", params={"namespace": ALICE}).status_code == 403
        assert bob.put("/v1/blocks/Bad Label", json={"value": "x"}).status_code == 422
        extra = bob.put("/v1/blocks/human", json={"value": "x", "mood": "ok"})
        assert extra.status_code == 422
    assert memory.inject.blocks.get("human", namespace=ALICE).version == 3


def test_http_an_agent_key_writes_blocks_under_the_agents_rules(http_server: HttpServed) -> None:
    url, _, memory = http_server
    _, plaintext = memory.org.create_agent_key("bot", seniority="senior")
    memory.inject.blocks.set("persona", "I am careful.", read_only=True, user_id="bot")
    with client(url, plaintext) as bot:
        assert bot.put("/v1/blocks/persona", json={"value": "reckless"}).status_code == 403
        assert bot.delete("/v1/blocks/persona").status_code == 403
        locked = bot.put("/v1/blocks/notes", json={"value": "x", "read_only": True})
        assert locked.status_code == 403
        made = bot.put("/v1/blocks/notes", json={"value": "todo: docs"})
        assert made.status_code == 200, made.text
        assert bot.delete("/v1/blocks/notes").status_code == 200
    assert memory.inject.blocks.get("persona", user_id="bot").value == "I am careful."
    history = memory.inject.blocks.history("notes", user_id="bot")
    assert [(e.op, e.actor) for e in history] == [("delete", "agent:bot"), ("create", "agent:bot")]


def test_http_context_and_tools(http_server: HttpServed) -> None:
    url, keys, memory = http_server
    note = memory.add("The docs site deploys from the gh-pages branch", user_id="alice")
    memory.inject.blocks.set("human", "Name: Alice", user_id="alice")
    turn = [
        {"role": "system", "content": "You maintain the docs."},
        {"role": "user", "content": "Where does the docs site deploy from?"},
    ]
    with client(url, keys["alice"]) as alice, client(url, keys["bob"]) as bob:
        got = alice.post("/v1/inject/context", json={"messages": turn, "budget_tokens": 400})
        assert got.status_code == 200, got.text
        body = got.json()
        assert [m["role"] for m in body["messages"]] == ["system", "system", "user"]
        assert body["memory_ids"] == [note.id] and body["blocks"] == ["human"]
        assert "gh-pages" in body["messages"][1]["content"] and body["tokens"] <= 400
        as_user = alice.post(
            "/v1/inject/context", json={"messages": turn, "budget_tokens": 400, "role": "user"}
        ).json()
        assert as_user["messages"][1]["role"] == "user"
        no_user = alice.post(
            "/v1/inject/context", json={"messages": turn[:1], "budget_tokens": 400}
        )
        assert no_user.status_code == 422 and "no user message" in no_user.json()["detail"]
        tools = alice.get("/v1/inject/tools", params={"strategy": "self_editing"}).json()
        assert [t["function"]["name"] for t in tools["tools"]][:2] == [
            "core_memory_append",
            "core_memory_replace",
        ]
        assert alice.get("/v1/inject/tools", params={"strategy": "x"}).status_code == 422
        found = alice.post(
            "/v1/inject/tools/search_memory", json={"arguments": {"query": "gh-pages branch"}}
        ).json()
        assert found["hits"][0]["id"] == note.id
        edited = alice.post(
            "/v1/inject/tools/core_memory_append",
            json={"arguments": {"label": "human", "content": "Owns the docs"}},
        ).json()
        assert edited["value"] == "Name: Alice\nOwns the docs"
        bad = alice.post("/v1/inject/tools/search_memory", json={"arguments": {"q": "x"}})
        assert bad.status_code == 422
        assert "'q' is not an argument of search_memory" in bad.json()["detail"]
        assert alice.post("/v1/inject/tools/teleport", json={}).status_code == 422
        # Bob's context holds none of alice's memory.
        bobs = bob.post("/v1/inject/context", json={"messages": turn, "budget_tokens": 400})
        assert bobs.json()["messages"] == turn and bobs.json()["memory_ids"] == []
    assert memory.inject.blocks.history("human", namespace=ALICE)[0].actor == "agent"


def test_http_procedures(http_server: HttpServed) -> None:
    url, keys, memory = http_server
    with client(url, keys["alice"]) as alice, client(url, keys["bob"]) as bob:
        made = alice.post("/v1/procedures", json=FAILURE)
        assert made.status_code == 200, made.text
        proposal = made.json()
        assert proposal["method"] == "template" and proposal["confidence"] == 0.6
        assert proposal["memory_id"] and proposal["skill_path"] is None
        assert set(proposal["activation"]) == {"condition", "action", "rationale"}
        listed = alice.get("/v1/procedures").json()["items"]
        assert [p["memory_id"] for p in listed] == [proposal["memory_id"]]
        assert alice.get(f"/v1/procedures/{proposal['memory_id']}").json() == proposal
        skill = alice.get(f"/v1/procedures/{proposal['memory_id']}/skill")
        assert skill.headers["content-type"].startswith("text/markdown")
        assert skill.text.startswith(f"---\nname: {proposal['name']}\n")
        dry = alice.post("/v1/procedures", json={**FAILURE, "task": "Other", "store": False})
        assert dry.json()["memory_id"] is None
        assert alice.post("/v1/procedures", json={"task": "t"}).status_code == 422
        assert alice.post("/v1/procedures", json={**FAILURE, "x": 1}).status_code == 422
        assert bob.get(f"/v1/procedures/{proposal['memory_id']}").status_code == 404
        assert bob.get("/v1/procedures", params={"namespace": ALICE}).status_code == 403
    assert len(memory.procedures.list(namespace=ALICE)) == 1


# -- the CLI ---------------------------------------------------------------------------------
def run(home: Path, *args: str, stdin: str | None = None) -> Result:
    env = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
    return CliRunner().invoke(cli, ["--home", str(home), *args], env=env, input=stdin)


def test_cli_blocks(tmp_path: Path) -> None:
    home = tmp_path / "home"
    made = run(home, "blocks", "set", "human", "-", "--limit", "40", "--json", stdin="Name: Ada")
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["value"] == "Name: Ada"
    assert run(home, "blocks", "append", "human", "Likes tea").exit_code == 0
    replaced = run(home, "blocks", "replace", "human", "tea", "cocoa", "--json")
    assert json.loads(replaced.stdout)["version"] == 3
    shown = run(home, "blocks", "show", "human")
    assert "Name: Ada\nLikes cocoa" in shown.stdout and "21/40" in shown.stdout
    history = json.loads(run(home, "blocks", "history", "human", "--json").stdout)["items"]
    assert [(e["op"], e["actor"]) for e in history] == [
        ("replace", "cli"),
        ("append", "cli"),
        ("create", "cli"),
    ]
    over = run(home, "blocks", "append", "human", "x" * 50)
    assert over.exit_code != 0 and "limit is 40" in over.output
    listed = json.loads(run(home, "blocks", "list", "--json").stdout)["items"]
    assert [b["label"] for b in listed] == ["human"]
    assert run(home, "blocks", "delete", "human").exit_code == 0
    missing = run(home, "blocks", "show", "human")
    assert missing.exit_code != 0 and "no core block 'human'" in missing.output


def test_cli_inject_context_tools_and_call(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run(home, "add", "The docs deploy from the gh-pages branch").exit_code == 0
    assert run(home, "blocks", "set", "human", "Name: Ada").exit_code == 0
    shown = run(home, "inject", "context", "docs gh-pages deploy", "--budget", "300")
    assert shown.exit_code == 0, shown.output
    assert "<core_memory>" in shown.stdout and "gh-pages" in shown.stdout
    as_json = json.loads(run(home, "inject", "context", "gh-pages", "--json").stdout)
    assert as_json["message"]["role"] == "system" and len(as_json["memory_ids"]) == 1
    tools = json.loads(run(home, "inject", "tools", "--strategy", "tool_based", "--json").stdout)
    assert [t["function"]["name"] for t in tools["tools"]] == ["search_memory", "recall_memory"]
    called = run(
        home, "inject", "call", "core_memory_append", '{"label":"human","content":"Hi"}', "--json"
    )
    assert called.exit_code == 0, called.output
    assert json.loads(called.stdout)["value"] == "Name: Ada\nHi"
    readable = run(home, "inject", "tools", "--strategy", "self_editing").stdout
    assert "core_memory_append(label, content)" in readable and "core memory blocks" in readable
    hit = run(home, "inject", "call", "search_memory", '{"query": "gh-pages"}')
    assert hit.exit_code == 0 and "The docs deploy from the gh-pages branch" in hit.stdout
    bad = run(home, "inject", "call", "search_memory", "{oops")
    assert bad.exit_code != 0 and "ARGUMENTS must be a JSON object" in bad.output


def test_cli_procedures(tmp_path: Path) -> None:
    home = tmp_path / "home"
    made = run(
        home, "procedure", "propose", "--task", FAILURE["task"], "--error", FAILURE["error"],
        "--step", "mkdocs build", "--trace", "base.py line 4", "--json",
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    proposal = json.loads(made.stdout)
    assert proposal["memory_id"] and proposal["method"] == "template"
    bare = run(home, "procedure", "propose", "--task", "Deploy", "--error", "timeout")
    assert bare.exit_code == 0 and "discarded: confidence 0.4" in bare.stdout
    listed = json.loads(run(home, "procedure", "list", "--json").stdout)["items"]
    assert [p["memory_id"] for p in listed] == [proposal["memory_id"]]
    shown = run(home, "procedure", "show", proposal["memory_id"])
    assert f"name: {proposal['name']}" in shown.stdout
    skills = tmp_path / "skills"
    wrote = run(home, "procedure", "skill", proposal["memory_id"], str(skills))
    assert wrote.exit_code == 0, wrote.output
    text = (skills / proposal["name"] / "SKILL.md").read_text(encoding="utf-8")
    assert text.startswith(f"---\nname: {proposal['name']}\n") and "## Steps" in text
    unknown = run(home, "procedure", "show", "nope")
    assert unknown.exit_code != 0


# -- MCP -------------------------------------------------------------------------------------
@pytest.fixture
def mem(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        yield m


@pytest.mark.anyio
async def test_mcp_self_editing_tools(alice: Client, mem: Memory) -> None:
    assert (await call(alice, "core_memory"))["core_memory"] == ""
    mem.inject.blocks.set("human", "Name: Alice", namespace=ALICE)
    assert "Name: Alice" in (await call(alice, "core_memory"))["core_memory"]
    edited = await call(alice, "core_memory_append", label="human", content="Likes tea")
    assert edited["value"] == "Name: Alice\nLikes tea" and edited["version"] == 2
    swapped = await call(
        alice, "core_memory_replace", label="human", old_content="tea", new_content="cocoa"
    )
    assert swapped["value"].endswith("cocoa")
    stored = await call(alice, "archival_memory_insert", content="Alice's cat is Ada")
    found = await call(alice, "archival_memory_search", query="cat Ada")
    assert found["hits"][0]["id"] == stored["id"]
    said = await call(alice, "conversation_search", query="anything")
    assert said["hits"] == []
    missing = await alice.call_tool("core_memory_append", {"label": "nope", "content": "x"})
    assert missing.is_error and "no core block 'nope'" in str(missing.content)
    async with Client(create_mcp_server(mem, namespace=BOB)) as bob:
        assert (await call(bob, "core_memory"))["core_memory"] == ""
    assert mem.inject.blocks.history("human", namespace=ALICE)[0].actor == "agent"


@pytest.mark.anyio
async def test_mcp_propose_procedure(alice: Client, mem: Memory) -> None:
    proposal = await call(alice, "propose_procedure", **FAILURE)
    assert proposal["memory_id"] and proposal["confidence"] == 0.6
    assert mem.procedures.get(proposal["memory_id"], namespace=ALICE).name == proposal["name"]
    bare = await call(alice, "propose_procedure", task="Deploy", error="timeout")
    assert bare["memory_id"] is None
    wrong = await alice.call_tool("propose_procedure", {"task": "t"})
    assert wrong.is_error


def test_mcp_block_tools_take_the_library_descriptions(mem: Memory) -> None:
    manifest = {t["name"]: t for t in tool_manifest(create_mcp_server(mem, namespace=ALICE))}
    for name in ("core_memory_append", "archival_memory_search", "conversation_search"):
        assert manifest[name]["description"] == TOOLS[name].description
    assert manifest["core_memory"]["annotations"]["readOnlyHint"] is True
    assert manifest["core_memory_append"]["annotations"]["readOnlyHint"] is False
