"""The palace through every surface: ``engram mine`` and ``engram palace`` (then the
store is reopened), the HTTP routes over a real socket with two users' keys, and the
MCP tools in-process (FEATURES G6, G7, G8)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from conftest import HttpServed, keyed_server
from conftest import bearer_client as client
from conftest import run_cli as run
from conftest import tool_call as call
from engram import Config, Memory
from engram.mcp.server import create_mcp_server

ALICE, BOB = "user:alice", "user:bob"
EFOIL = [
    {"role": "Derek", "content": "I bought a 12V20Ah battery for the efoil last week."},
    {"role": "assistant", "content": "How is the efoil battery wiring going?"},
    {"role": "Derek", "content": "I moved to Lisbon, the efoil rides are better here."},
]


# -- the CLI ---------------------------------------------------------------------------------
def reopen(home: Path) -> Memory:
    return Memory(config=Config.load(env={}, home=str(home), embedder={"name": "none"}))


def test_cli_mines_a_message_list_once_and_prints_the_tree(tmp_path: Path) -> None:
    home, path = tmp_path / "home", tmp_path / "chat.json"
    path.write_text(json.dumps(EFOIL), encoding="utf-8")
    first = run(home, "mine", str(path), "--wing", "Efoil", "--session", "evening", "--json")
    assert first.exit_code == 0, first.output
    [summary] = json.loads(first.stdout)["conversations"]
    assert (summary["room"], summary["added"], summary["kept"]) == ("W-001/R-01", 3, 0)
    again = run(home, "mine", str(path), "--wing", "efoil", "--session", "Evening", "--json")
    assert json.loads(again.stdout)["conversations"][0]["kept"] == 3
    shown = run(home, "mine", str(path), "--wing", "Efoil", "--session", "evening")
    assert "W-001/R-01 Efoil / evening: 0 filed, 3 already there" in shown.stdout
    tree = run(home, "palace")
    assert tree.exit_code == 0, tree.output
    assert "W-001 Efoil (topic): 3 drawers" in tree.stdout and "R-01 evening: 3" in tree.stdout
    as_json = json.loads(run(home, "palace", "--wing", "W-001", "--json").stdout)
    assert as_json["wings"][0]["wing"]["code"] == "W-001"
    resolved = run(home, "palace", "resolve", "§ W-001/R-01/D-003")
    assert "Derek: I moved to Lisbon" in resolved.stdout
    cited = run(
        home, "recall", "Lisbon efoil", "--wing", "Efoil", "--room", "1", "--cite", "pointer"
    )
    assert cited.exit_code == 0, cited.output
    assert "(§ W-001/R-01/D-003 @p derek @l lisbon)" in cited.stdout
    assert run(home, "recall", "efoil", "--wing", "nowhere").exit_code == 3
    with reopen(home) as mem:
        assert len(mem.palace.drawers("Efoil", "evening")) == 3
        assert mem.get_all().total == 3


def test_cli_mines_a_messages_object_under_a_scope(tmp_path: Path) -> None:
    home, path = tmp_path / "home", tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": EFOIL}), encoding="utf-8")
    result = run(home, "mine", str(path), "--wing", "Derek", "--kind", "person", "--user", "al")
    assert result.exit_code == 0, result.output
    with reopen(home) as mem:
        [node] = mem.palace.tree(user_id="al")
        assert (node.wing.kind, node.drawers) == ("person", 3)
        assert mem.palace.tree() == []


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["mine", "{file}"], "needs --wing"),
        (["mine", "{bad}", "--wing", "w"], "cannot read"),
        (["palace", "resolve", "W-1"], "not an AAAK pointer"),
        (["palace", "resolve", "§ W-9/R-1/D-1"], "no drawer"),
        (["palace", "--wing", "nobody"], "no wing"),
    ],
)
def test_cli_errors_say_what_is_wrong(tmp_path: Path, args: list[str], says: str) -> None:
    home = tmp_path / "home"
    good, bad = tmp_path / "chat.json", tmp_path / "bad.json"
    good.write_text(json.dumps(EFOIL), encoding="utf-8")
    bad.write_text("{not json", encoding="utf-8")
    assert run(home, "mine", str(good), "--wing", "w").exit_code == 0  # the store exists
    result = run(home, *[a.format(file=good, bad=bad) for a in args])
    assert result.exit_code != 0 and says in result.output


def test_cli_mines_locomo_sessions_as_rooms(tmp_path: Path) -> None:
    home, path = tmp_path / "home", tmp_path / "locomo.json"
    sample = {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "I adopted a puppy."},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "What is the puppy called?"},
            ],
            "session_2_date_time": "2:00 pm on 9 May, 2023",
            "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "She is called Rex."}],
        },
        "qa": [],
    }
    path.write_text(json.dumps([sample]), encoding="utf-8")
    result = run(home, "mine", str(path), "--json")
    assert result.exit_code == 0, result.output
    rooms = json.loads(result.stdout)["conversations"]
    assert [(r["wing"], r["room"], r["added"]) for r in rooms] == [
        ("conv-x", "W-001/R-01", 2),
        ("conv-x", "W-001/R-02", 1),
    ]
    with reopen(home) as mem:
        found = mem.palace.resolve("§ W-001/R-01/D-001")
        assert found.memory.content == "Ann: I adopted a puppy."  # as the benchmark stores it
        assert found.memory.created_at.isoformat().startswith("2023-05-08T13:56")
        assert found.drawer.role == "Ann"


def test_cli_mines_a_beam_chat_directory(tmp_path: Path) -> None:
    home, chat = tmp_path / "home", tmp_path / "7"
    chat.mkdir()
    batches = [
        {
            "batch_number": 1,
            "time_anchor": "March-15-2024",
            "turns": [
                [
                    {"id": 1, "role": "user", "content": "Plan my garden beds."},
                    {"id": 2, "role": "assistant", "content": "Start with raised beds."},
                ]
            ],
        }
    ]
    (chat / "chat.json").write_text(json.dumps(batches), encoding="utf-8")
    (chat / "probing_questions.json").write_text("{}", encoding="utf-8")
    result = run(home, "mine", str(chat), "--wing", "Garden", "--json")
    assert result.exit_code == 0, result.output
    [room] = json.loads(result.stdout)["conversations"]
    assert (room["wing"], room["added"]) == ("Garden", 2)


# -- HTTP ------------------------------------------------------------------------------------
def test_http_mines_lists_and_resolves_in_the_callers_namespace(http_server: HttpServed) -> None:
    url, keys, memory = http_server
    body = {"messages": EFOIL, "wing": "Efoil", "session": "evening", "kind": "project"}
    with client(url, keys["alice"]) as alice, client(url, keys["bob"]) as bob:
        mined = alice.post("/v1/palace/mine", json=body)
        assert mined.status_code == 200, mined.text
        out = mined.json()
        assert [d["pointer"].split(" @")[0] for d in out["added"]] == [
            "§ W-001/R-01/D-001",
            "§ W-001/R-01/D-002",
            "§ W-001/R-01/D-003",
        ]
        assert alice.post("/v1/palace/mine", json=body).json()["kept"] == 3
        tree = alice.get("/v1/palace").json()["wings"]
        assert tree[0]["wing"]["kind"] == "project" and tree[0]["drawers"] == 3
        found = alice.get("/v1/palace/resolve", params={"pointer": "§ W-001/R-01/D-002"})
        assert found.status_code == 200 and found.json()["memory"]["content"] == EFOIL[1]["content"]
        bad = alice.get("/v1/palace/resolve", params={"pointer": "D-2"})
        assert bad.status_code == 422 and "not an AAAK pointer" in bad.text
        # bob's key: his own (empty) palace; alice's namespace is out of reach.
        assert bob.get("/v1/palace").json() == {"wings": []}
        assert bob.get("/v1/palace/resolve", params={"pointer": "§ W-1/R-1/D-1"}).status_code == 404
        assert bob.get("/v1/palace", params={"user_id": "alice"}).status_code == 403
        assert alice.get("/v1/palace", params={"wing": "nobody"}).status_code == 404
        empty = alice.post("/v1/palace/mine", json={"messages": [], "wing": "Efoil"}).json()
        assert empty["room"] is None and empty["added"] == []
        extra = alice.post("/v1/palace/mine", json={**body, "mood": "happy"})
        assert extra.status_code == 422
    assert len(memory.get_all(namespace=ALICE)) == 3 and len(memory.get_all(namespace=BOB)) == 0


# -- MCP -------------------------------------------------------------------------------------
@pytest.mark.anyio
async def test_mcp_tools_mine_list_and_resolve(alice: Client, mem: Memory) -> None:
    mined = await call(alice, "mine_conversation", messages=EFOIL, wing="Efoil", session="s")
    assert mined["room"] == "W-001/R-01" and len(mined["added"]) == 3
    again = await call(alice, "mine_conversation", messages=EFOIL, wing="Efoil", session="s")
    assert again["added"] == [] and again["kept"] == 3
    tree = await call(alice, "palace_tree")
    assert tree["wings"][0]["rooms"][0]["drawers"] == 3
    found = await call(alice, "resolve_pointer", pointer=mined["added"][2])
    assert found["content"] == EFOIL[2]["content"] and found["role"] == "Derek"
    failed = await alice.call_tool("resolve_pointer", {"pointer": "§ W-9/R-1/D-1"})
    assert failed.is_error and "no drawer" in str(failed.content)
    # Another namespace's server sees nothing of alice's palace.
    async with Client(create_mcp_server(mem, namespace=BOB)) as bob:
        assert (await call(bob, "palace_tree"))["wings"] == []
        blocked = await bob.call_tool("resolve_pointer", {"pointer": mined["added"][0]})
        assert blocked.is_error


# -- recall by place and citing by pointer (HTTP and MCP, both backends) -----------------------
GARDEN = [
    {"role": "Derek", "content": "The efoil battery sits next to the garden shed."},
    {"role": "assistant", "content": "Water the tomato beds before the efoil ride."},
]


def _palace(memory: Memory, namespace: str) -> None:
    """Two wings with the word "efoil" in both, and one memory filed in neither."""
    memory.palace.mine_conversation(EFOIL, wing="Efoil", session="evening", namespace=namespace)
    memory.palace.mine_conversation(GARDEN, wing="Garden", session="spring", namespace=namespace)
    memory.add("An unfiled note about the efoil battery.", namespace=namespace)


@pytest.fixture
def placed(mem: Memory) -> Iterator[tuple[str, dict[str, str], Memory]]:
    _palace(mem, ALICE)
    with keyed_server(mem, admin=False, worker=False, mcp=False) as (url, keys):
        yield url, keys, mem


def test_http_recall_and_search_keep_a_place_and_cite_pointers(
    placed: tuple[str, dict[str, str], Memory],
) -> None:
    url, keys, memory = placed
    with client(url, keys["alice"]) as alice, client(url, keys["bob"]) as bob:
        everything = alice.post("/v1/recall", json={"query": "efoil battery", "limit": 10})
        assert everything.status_code == 200, everything.text
        assert len(everything.json()["hits"]) == 6
        garden = alice.post(
            "/v1/recall", json={"query": "efoil battery", "limit": 10, "wing": "garden"}
        ).json()
        assert {h["memory"]["content"] for h in garden["hits"]} == {g["content"] for g in GARDEN}
        by_code = alice.post(
            "/v1/recall", json={"query": "efoil", "limit": 10, "wing": "W-001", "room": 1}
        ).json()
        assert len(by_code["hits"]) == 3
        by_number = alice.post(
            "/v1/search", json={"query": "efoil", "wing": 2, "room": "Spring"}
        ).json()
        assert len(by_number["hits"]) == 2
        cited = alice.post(
            "/v1/recall", json={"query": "Lisbon efoil", "limit": 10, "cite": "pointer"}
        ).json()["context"]
        assert "(§ W-001/R-01/D-003 @p derek @l lisbon)" in cited
        assert "(id: " in cited  # the unfiled note keeps its id
        plain = alice.post("/v1/recall", json={"query": "Lisbon efoil", "limit": 10}).json()
        assert "§" not in plain["context"]
        # Errors say what is wrong.
        unknown = alice.post("/v1/recall", json={"query": "efoil", "wing": "nowhere"})
        assert unknown.status_code == 404 and "no wing 'nowhere'" in unknown.text
        huge = alice.post("/v1/recall", json={"query": "efoil", "wing": "W-99999999999999999999"})
        assert huge.status_code == 404
        no_room = alice.post("/v1/recall", json={"query": "efoil", "wing": "Efoil", "room": 9})
        assert no_room.status_code == 404 and "no room 9" in no_room.text
        lone = alice.post("/v1/search", json={"query": "efoil", "room": "spring"})
        assert lone.status_code == 422 and "needs wing" in lone.text
        for bad in ({"cite": "title"}, {"wing": True}, {"wing": ""}, {"room": 0}):
            refused = alice.post("/v1/recall", json={"query": "efoil", "wing": "Efoil", **bad})
            assert refused.status_code == 422, (bad, refused.text)
        # Bob's namespace has no such wing: his key cannot reach alice's palace.
        assert bob.post("/v1/recall", json={"query": "efoil", "wing": "Efoil"}).status_code == 404
    assert len(memory.get_all(namespace=BOB)) == 0


@pytest.mark.anyio
async def test_mcp_get_context_and_search_memory_keep_a_place(alice: Client, mem: Memory) -> None:
    _palace(mem, ALICE)
    found = await call(alice, "search_memory", query="efoil battery", wing="Garden")
    assert {h["content"] for h in found["hits"]} == {g["content"] for g in GARDEN}
    room = await call(alice, "search_memory", query="efoil", wing="W-001", room=1)
    assert len(room["hits"]) == 3
    by_name = await call(alice, "search_memory", query="efoil", wing="efoil", room="Evening")
    assert {h["id"] for h in by_name["hits"]} == {h["id"] for h in room["hits"]}
    block = await call(
        alice,
        "get_context",
        task="Lisbon efoil",
        wing="Efoil",
        limit=10,
        style="memory_context",
        cite="pointer",
    )
    assert "(§ W-001/R-01/D-003 @p derek @l lisbon)" in block["result"]
    assert "Garden" not in block["result"] and "unfiled" not in block["result"]
    assert "(id: " not in block["result"]
    prior = await call(alice, "get_context", task="tomato beds", wing="Garden")
    assert "tomato" in prior["result"]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("tool", "arguments", "says"),
    [
        ("get_context", {"task": "t", "wing": "nowhere"}, "no wing 'nowhere'"),
        ("search_memory", {"query": "q", "wing": "Efoil", "room": "noon"}, "no room 'noon'"),
        ("search_memory", {"query": "q", "room": "evening"}, "needs wing"),
        ("get_context", {"task": "t", "cite": "pointer"}, 'needs style="memory_context"'),
        ("get_context", {"task": "t", "cite": "title"}, "cite must be one of 'id', 'pointer'"),
        ("search_memory", {"query": "q", "wing": ""}, "wing must be a non-empty string, got ''"),
        ("search_memory", {"query": "q", "wing": "Efoil", "room": 0}, "room must be at least 1"),
    ],
)
async def test_mcp_place_errors_say_what_is_wrong(
    alice: Client, mem: Memory, tool: str, arguments: dict[str, Any], says: str
) -> None:
    _palace(mem, ALICE)
    failed = await alice.call_tool(tool, arguments)
    assert failed.is_error and says in str(failed.content), failed.content
