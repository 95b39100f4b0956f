"""The knowledge graph through its surfaces (FEATURES G1, G2): ``engram graph``, the
``/v1/graph`` routes over a real socket, and the ``kg_*`` MCP tools, on both backends,
each checked against ``mem.graph`` after.

The story is issue 12's: Derek owns an efoil whose 12V20Ah battery is swapped for a 48V
one on June 1. Memories carry ``created_at`` so every window below is exact; their text
names nothing, so the write-time linker adds no entity of its own.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result
from mcp import Client

from conftest import Served, record_battery, user_keys
from engram import AsyncMemory, Config, InvalidInputError, Memory, NotFoundError
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from engram.mcp.server import create_mcp_server

ALICE, BOB = "user:alice", "user:bob"
JAN = datetime(2024, 1, 10, 9, 0, tzinfo=UTC)
JUN = datetime(2024, 6, 1, 12, 0, tzinfo=UTC)
KEYWORD_ONLY = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": "", "ENGRAM_PIPELINE_ENABLED": "0"}


def story(mem: Memory, namespace: str = ALICE) -> tuple[str, str]:
    """The battery story in ``namespace``; the two memories' ids."""
    first = mem.add("memo one", created_at=JAN, namespace=namespace)
    later = mem.add("memo two", created_at=JUN, namespace=namespace)
    record_battery(mem, first.id, later.id, namespace=namespace)
    return first.id, later.id


def doubles(mem: Memory, namespace: str = ALICE) -> None:
    """Entities that are one under two names: "D. Smith" is Derek (merge him in by
    hand), and "Caroline Smith" the only longer "Caroline" (dedupe finds her)."""
    memo = mem.add("memo three", created_at=JUN, namespace=namespace)
    people = {"D. Smith": "person", "Caroline": "person", "Caroline Smith": "person"}
    mem.graph.record(
        memo.id,
        [("D. Smith", "lives_in", "Lisbon"), ("Caroline", "likes", "tea"),
         ("Caroline Smith", "likes", "jazz")],
        entity_types=people,
        namespace=namespace,
    )  # fmt: skip


def graph_of(mem: Memory, namespace: str) -> dict[str, Any]:
    """Everything of a namespace's graph the library shows, for before/after checks."""
    return {
        "entities": [e.to_dict() for e in mem.graph.entities(1000, namespace=namespace)],
        "relations": [
            r.to_dict() for r in mem.graph.relations(None, False, limit=10_000, namespace=namespace)
        ],
    }


@pytest.mark.parametrize("query", [None, "e", "SMITH", "caroline smith", "%", "_", "zz"])
def test_entity_count_is_the_listing_over_every_page(mem: Memory, query: str | None) -> None:
    """``count_entities`` (what the CLI and HTTP report as ``total``) counts under the
    listing's own filter, LIKE wildcards in ``query`` taken literally, and stays in
    its namespace."""
    story(mem)
    doubles(mem)
    story(mem, BOB)
    listed = mem.graph.entities(1000, query=query, namespace=ALICE)
    assert mem.graph.count_entities(query, namespace=ALICE) == len(listed)
    pages = [mem.graph.entities(3, offset, query, namespace=ALICE) for offset in (0, 3, 6, 9)]
    assert sum(len(page) for page in pages) == len(listed)
    assert mem.graph.count_entities(namespace=ALICE) == 10  # 4 of the story, 6 doubles
    assert mem.graph.count_entities(namespace=BOB) == 4
    assert mem.graph.count_entities(namespace="user:carol") == 0


def test_relation_count_is_the_listing_now_all_and_at_a_time(mem: Memory) -> None:
    story(mem)
    doubles(mem)
    story(mem, BOB)
    count = mem.graph.count_relations
    # Six relations; the 12V battery was closed in June; in March only the story's two.
    assert (count(namespace=ALICE), count(current_only=False, namespace=ALICE)) == (5, 6)
    assert count(at="2024-03-01", namespace=ALICE) == 2
    assert count("efoil", current_only=False, namespace=ALICE) == 3
    for entity in (None, "EFOIL", "Derek", "Lisbon"):
        for at in (None, "2024-01-01", "2024-03-01", JUN, "2030-01-01"):
            if at is not None:
                listed = mem.graph.as_of(at, entity=entity, namespace=ALICE)
                assert count(entity, at=at, namespace=ALICE) == len(listed), (entity, at)
                continue
            for current in (True, False):
                listed = mem.graph.relations(entity, current, namespace=ALICE)
                assert count(entity, current_only=current, namespace=ALICE) == len(listed)
    assert count(current_only=False, namespace="user:carol") == 0
    with pytest.raises(NotFoundError, match="no entity 'Lisbon'"):
        count("Lisbon", namespace=BOB)
    with pytest.raises(InvalidInputError):
        count(at="not a date", namespace=ALICE)


@pytest.mark.anyio
async def test_counts_have_async_twins(config: Config, store_location: str) -> None:
    async_mem = AsyncMemory(store_location, config=config, embedder=None)
    try:
        story(async_mem.sync)
        assert await async_mem.graph.count_entities("battery", namespace=ALICE) == 2
        assert await async_mem.graph.count_relations("efoil", namespace=ALICE) == 2
    finally:
        async_mem.sync.close()


# -- the CLI ---------------------------------------------------------------------------------
@pytest.fixture
def cli_store(config: Config, reopenable: str, tmp_path: Path) -> tuple[Path, str]:
    """A store on each backend holding alice's story, and a home for the CLI."""
    with Memory(reopenable, config=config, embedder=None) as mem:
        story(mem)
    return tmp_path / "cli-home", reopenable


def graph(where: tuple[Path, str], *args: str) -> Result:
    home, db = where
    return CliRunner().invoke(
        cli, ["--home", str(home), "--db", db, "graph", *args], env=KEYWORD_ONLY
    )


def ok_json(where: tuple[Path, str], *args: str) -> Any:
    result = graph(where, *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_cli_lists_entities_with_a_total(cli_store: tuple[Path, str]) -> None:
    page = ok_json(cli_store, "entities", "--user", "alice")
    assert page.keys() == {"items", "total", "limit", "offset"}
    assert [e["name"] for e in page["items"]][0] == "efoil"  # most mentioned first
    assert page["total"] == 4 and len(page["items"]) == 4
    second = ok_json(cli_store, "entities", "--user", "alice", "-k", "1", "--offset", "1")
    assert (len(second["items"]), second["total"], second["offset"]) == (1, 4, 1)
    assert second["items"][0]["name"] == page["items"][1]["name"]
    batteries = ok_json(cli_store, "entities", "-n", ALICE, "--query", "battery")
    assert sorted(e["name"] for e in batteries["items"]) == ["12V20Ah battery", "48V battery"]
    assert batteries["total"] == 2
    table = graph(cli_store, "entities", "--user", "alice", "-k", "2")
    assert table.exit_code == 0 and "efoil" in table.stdout and "2 of 4 shown" in table.stdout


def test_cli_relations_now_all_and_at_a_date(cli_store: tuple[Path, str]) -> None:
    now = ok_json(cli_store, "relations", "--user", "alice", "--entity", "efoil")
    assert [r["target"] for r in now["items"]] == ["efoil", "48V battery"]
    assert now["total"] == 2 and all(r["valid_to"] is None for r in now["items"])
    everything = ok_json(cli_store, "relations", "--user", "alice", "--all")
    assert everything["total"] == 3
    march = ok_json(cli_store, "relations", "--user", "alice", "--at", "2024-03-01")
    assert [r["target"] for r in march["items"]] == ["efoil", "12V20Ah battery"]
    table = graph(cli_store, "relations", "--user", "alice", "--all")
    assert table.exit_code == 0, table.output
    assert "2024-01-10 09:00 → 2024-06-01 12:00" in table.stdout
    assert "2024-06-01 12:00 → now" in table.stdout


def test_cli_timeline_neighbors_and_one_entity(cli_store: tuple[Path, str]) -> None:
    timeline = ok_json(cli_store, "timeline", "EFOIL", "--user", "alice")
    assert timeline["entity"]["name"] == "efoil"
    assert [(r["target"], r["valid_to"]) for r in timeline["items"]] == [
        ("efoil", None),
        ("12V20Ah battery", "2024-06-01T12:00:00Z"),
        ("48V battery", None),
    ]
    assert "→ now" in graph(cli_store, "timeline", "efoil", "--user", "alice").stdout
    near = ok_json(cli_store, "neighbors", "Derek", "--hops", "2", "--user", "alice")
    assert [(n["entity"]["name"], n["hops"]) for n in near["items"]] == [
        ("efoil", 1),
        ("48V battery", 2),
    ]
    back_then = ok_json(cli_store, "neighbors", "Derek", "--hops", "2", "--at", "2024-03-01",
                        "--user", "alice")  # fmt: skip
    assert [n["entity"]["name"] for n in back_then["items"]] == ["efoil", "12V20Ah battery"]
    derek = ok_json(cli_store, "entity", "derek", "--user", "alice")
    assert (derek["entity_type"], derek["mentions"], len(derek["memory_ids"])) == ("person", 1, 1)
    shown = graph(cli_store, "entity", "Derek", "--user", "alice")
    assert "Derek [person]: mentioned by 1 memory" in shown.stdout


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("timeline", "Nobody"), 3, "no entity 'Nobody' in namespace 'user:alice'"),
        (("neighbors", "Nobody"), 3, "no entity 'Nobody'"),
        (("entity", "Nobody"), 3, "no entity 'Nobody'"),
        (("relations", "--entity", "Nobody"), 3, "no entity 'Nobody'"),
        (("relations", "--at", "last tuesday"), 2, "ISO 8601"),
        (("relations", "--at", "2024-13-45"), 2, "ISO 8601"),
        (("neighbors", "efoil", "--at", "soon"), 2, "ISO 8601"),
        (("neighbors", "efoil", "--hops", "9"), 2, "hops"),
        (("relations", "--all", "--at", "2024-01-01"), 2, "--all and --at"),
    ],
)
def test_cli_bad_input_is_one_line_and_an_exit_code(
    cli_store: tuple[Path, str], args: tuple[str, ...], code: int, message: str
) -> None:
    result = graph(cli_store, *args, "--user", "alice")
    assert result.exit_code == code, result.output
    assert result.stdout == "" and message in result.stderr
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    as_json = graph(cli_store, *args, "--user", "alice", "--json")
    assert as_json.exit_code == code and message in json.loads(as_json.stderr)["detail"]


def test_cli_scope_keeps_namespaces_apart(cli_store: tuple[Path, str]) -> None:
    assert ok_json(cli_store, "entities", "--user", "bob")["items"] == []
    assert ok_json(cli_store, "relations", "--user", "bob", "--all")["total"] == 0
    assert graph(cli_store, "timeline", "efoil", "--user", "bob").exit_code == 3
    assert "no entities" in graph(cli_store, "entities", "--user", "bob").stdout


def test_cli_merge_split_invalidate_and_dedupe(cli_store: tuple[Path, str], config: Config) -> None:
    home, db = cli_store
    with Memory(db, config=config, embedder=None) as mem:
        doubles(mem)
    merged = ok_json(cli_store, "merge", "Derek", "D. Smith", "--user", "alice")
    assert merged["name"] == "Derek" and "d. smith" in merged["aliases"]
    with Memory(db, config=config, embedder=None) as mem:
        assert mem.graph.entity("D. Smith", user_id="alice").name == "Derek"
        assert "Lisbon" in [r.target for r in mem.graph.timeline("Derek", user_id="alice")]
    split = graph(cli_store, "split", "Derek", "d. smith", "--user", "alice")
    assert split.exit_code == 0 and "split 'D. Smith' off 'Derek'" in split.stdout
    with Memory(db, config=config, embedder=None) as mem:
        assert mem.graph.entity("D. Smith", user_id="alice").name == "D. Smith"
        assert "Lisbon" not in [r.target for r in mem.graph.timeline("Derek", user_id="alice")]

    closed = graph(cli_store, "invalidate", "efoil", "has battery", "48V battery",
                   "--at", "2024-09-01T08:00:00Z", "--user", "alice")  # fmt: skip
    assert closed.exit_code == 0, closed.output
    assert "efoil has_battery 48V battery: 2024-06-01 12:00 → 2024-09-01 08:00" in closed.stdout
    again = graph(cli_store, "invalidate", "efoil", "has_battery", "48V battery", "--user", "alice")
    assert again.exit_code == 3 and "no current 'has_battery' relation" in again.stderr
    with Memory(db, config=config, embedder=None) as mem:
        now = mem.graph.relations("efoil", user_id="alice")
        assert [r.target for r in now] == ["efoil"]

    listed = graph(cli_store, "dedupe", "--user", "alice")
    assert listed.exit_code == 0, listed.output
    assert "caroline smith" in listed.stdout and "nothing merged" in listed.stdout
    applied = ok_json(cli_store, "dedupe", "--apply", "--user", "alice", "--type", "person")
    assert applied["merged"] == 1 and applied["dry_run"] is False
    assert [(p["keep"], p["other"]) for p in applied["pairs"]] == [("caroline", "caroline smith")]
    assert "no duplicates" in graph(cli_store, "dedupe", "--user", "alice").stdout
    bad = graph(cli_store, "dedupe", "--threshold", "2", "--user", "alice")
    assert bad.exit_code == 2 and "threshold" in bad.output
    same = graph(cli_store, "merge", "Derek", "derek", "--user", "alice")
    assert same.exit_code == 2 and "nothing to merge" in same.stderr


# -- HTTP ------------------------------------------------------------------------------------
def serving(mem: Memory) -> Iterator[Served]:
    """The story in ``mem``, served with keys. These tests speak HTTP only (the MCP
    tools are tested in-process below); without /mcp the app builds in half the time."""
    story(mem)
    keys = user_keys(mem)
    with serve_in_thread(create_app(mem, worker=False, mcp=False)) as url:
        yield Served(url, mem, keys)


def alice_on(server: Served) -> Iterator[httpx.Client]:
    with server.client("alice") as client:
        yield client


@pytest.fixture
def served(mem: Memory) -> Iterator[Served]:
    yield from serving(mem)


@pytest.fixture
def alice(served: Served) -> Iterator[httpx.Client]:
    yield from alice_on(served)


@pytest.fixture(scope="module")
def story_served(module_mem: Memory) -> Iterator[Served]:
    """``served`` built once per backend for the tests that only read the story (a
    fresh server per test cost each of them a second of app building)."""
    yield from serving(module_mem)


@pytest.fixture
def reader(story_served: Served) -> Iterator[httpx.Client]:
    """``alice`` on ``story_served``."""
    yield from alice_on(story_served)


def test_http_lists_entities_a_page_at_a_time(reader: httpx.Client) -> None:
    page = reader.get("/v1/graph/entities").json()
    assert page.keys() == {"items", "total", "limit", "offset"}
    assert (page["total"], page["limit"], page["offset"]) == (4, 50, 0)
    assert page["items"][0]["name"] == "efoil" and page["items"][0]["mentions"] == 2
    rest = reader.get("/v1/graph/entities", params={"limit": 3, "offset": 3}).json()
    assert [e["name"] for e in rest["items"]] == [page["items"][3]["name"]] and rest["total"] == 4
    past = reader.get("/v1/graph/entities", params={"offset": 10}).json()
    assert (past["items"], past["total"]) == ([], 4)
    found = reader.get("/v1/graph/entities", params={"query": "48v"}).json()
    assert [e["name"] for e in found["items"]] == ["48V battery"] and found["total"] == 1


def test_http_entity_has_aliases_aspects_attributes_and_mentions(
    served: Served, alice: httpx.Client
) -> None:
    mem = served.memory
    first = mem.graph.memories_of("Derek", namespace=ALICE)[0]
    mem.graph.add_alias("Derek", "D. Smith", namespace=ALICE)
    mem.graph.add_attribute(
        "Derek", "rides before work", memory_id=first, aspect="habits", namespace=ALICE
    )
    got = alice.get("/v1/graph/entities/d. smith")
    assert got.status_code == 200, got.text
    body = got.json()
    assert (body["name"], body["entity_type"], body["mentions"]) == ("Derek", "person", 1)
    assert body["aliases"] == ["d. smith"] and body["memory_ids"] == [first]
    assert [a["name"] for a in body["aspects"]] == ["habits"]
    assert [a["content"] for a in body["attributes"]] == ["rides before work"]
    assert body == {**mem.graph.entity("Derek", namespace=ALICE).to_dict(), **body}


def test_http_relations_now_all_and_as_of(reader: httpx.Client) -> None:
    now = reader.get("/v1/graph/relations", params={"entity": "efoil"}).json()
    assert [r["target"] for r in now["items"]] == ["efoil", "48V battery"] and now["total"] == 2
    every = reader.get("/v1/graph/relations", params={"current": "false", "limit": 1}).json()
    assert (len(every["items"]), every["total"]) == (1, 3)
    march = reader.get("/v1/graph/relations", params={"at": "2024-03-01", "entity": "efoil"})
    assert [r["target"] for r in march.json()["items"]] == ["efoil", "12V20Ah battery"]
    swap = reader.get("/v1/graph/relations", params={"at": "2024-06-01T12:00:00Z"}).json()
    assert swap["items"][-1]["target"] == "48V battery"  # valid_to is exclusive


def test_http_timeline_and_neighbors(story_served: Served, reader: httpx.Client) -> None:
    timeline = reader.get("/v1/graph/timeline/efoil").json()
    assert timeline["entity"]["name"] == "efoil"
    expected = [r.to_dict() for r in story_served.memory.graph.timeline("efoil", namespace=ALICE)]
    assert timeline["items"] == expected
    assert [r["valid_to"] for r in timeline["items"]] == [None, "2024-06-01T12:00:00Z", None]
    near = reader.get("/v1/graph/neighbors/derek", params={"hops": 2}).json()
    assert near["entity"]["name"] == "Derek" and (near["hops"], near["at"]) == (2, None)
    assert [(n["entity"]["name"], n["hops"]) for n in near["items"]] == [
        ("efoil", 1),
        ("48V battery", 2),
    ]
    then = reader.get("/v1/graph/neighbors/Derek", params={"hops": 2, "at": "2024-03-01"}).json()
    assert [n["entity"]["name"] for n in then["items"]] == ["efoil", "12V20Ah battery"]


def test_http_names_may_hold_a_slash(served: Served, alice: httpx.Client) -> None:
    memo = served.memory.add("memo three", created_at=JUN, namespace=ALICE)
    served.memory.graph.record(memo.id, [("Derek", "likes", "AC/DC")], namespace=ALICE)
    assert alice.get("/v1/graph/entities/AC/DC").json()["name"] == "AC/DC"
    timeline = alice.get("/v1/graph/timeline/ac/dc").json()
    assert [(r["source"], r["target"]) for r in timeline["items"]] == [("Derek", "AC/DC")]


@pytest.mark.parametrize(
    ("path", "params", "status", "message"),
    [
        ("/v1/graph/entities/Nobody", None, 404, "no entity 'Nobody' in namespace 'user:alice'"),
        ("/v1/graph/timeline/Nobody", None, 404, "no entity 'Nobody'"),
        ("/v1/graph/neighbors/Nobody", None, 404, "no entity 'Nobody'"),
        ("/v1/graph/relations", {"entity": "Nobody"}, 404, "no entity 'Nobody'"),
        ("/v1/graph/relations", {"at": "last tuesday"}, 422, "ISO 8601"),
        ("/v1/graph/relations", {"at": "2024-02-30"}, 422, "ISO 8601"),
        ("/v1/graph/neighbors/efoil", {"at": "soon"}, 422, "ISO 8601"),
        ("/v1/graph/neighbors/efoil", {"hops": 5}, 422, "hops must be at most 4, got '5'"),
        ("/v1/graph/entities", {"limit": 0}, 422, "limit"),
        ("/v1/graph/entities", {"colour": "red"}, 422, "colour"),
        ("/v1/graph/relations", {"current": "maybe"}, 422, "current"),
    ],
)
def test_http_bad_input_says_what_is_wrong(
    reader: httpx.Client, path: str, params: dict[str, Any] | None, status: int, message: str
) -> None:
    response = reader.get(path, params=params)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == ("not_found" if status == 404 else "invalid_input")
    assert message in body["detail"]


def test_http_graph_needs_a_key_and_stays_in_its_namespace(story_served: Served) -> None:
    assert httpx.get(f"{story_served.url}/v1/graph/entities").status_code == 401
    with story_served.client("bob") as bob:
        assert bob.get("/v1/graph/entities").json()["total"] == 0
        assert bob.get("/v1/graph/timeline/efoil").status_code == 404
        refused = bob.get("/v1/graph/entities", params={"namespace": ALICE})
        assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    with story_served.client("admin") as admin:
        listed = admin.get("/v1/graph/entities", params={"user_id": "alice"}).json()
        assert listed["total"] == 4


def test_http_merge_split_invalidate_and_dedupe(served: Served, alice: httpx.Client) -> None:
    mem = served.memory
    doubles(mem)
    merged = alice.post("/v1/graph/merge", json={"keep": "Derek", "other": "D. Smith"})
    assert merged.status_code == 200, merged.text
    assert merged.json() == mem.graph.entity("Derek", namespace=ALICE).to_dict()
    assert "d. smith" in merged.json()["aliases"]
    split = alice.post("/v1/graph/split", json={"entity": "Derek", "alias": "D. Smith"}).json()
    assert split == mem.graph.entity("D. Smith", namespace=ALICE).to_dict()
    assert split["name"] == "D. Smith" and split["id"] != merged.json()["id"]

    closed = alice.post(
        "/v1/graph/invalidate",
        json={"source": "Derek", "relation_type": "owns", "target": "efoil", "at": "2024-09-01"},
    )
    assert closed.status_code == 200, closed.text
    assert closed.json()["valid_to"].startswith("2024-09-01T23:59:59")  # a date: its end
    assert mem.graph.relations("Derek", namespace=ALICE) == []
    assert [r.current for r in mem.graph.timeline("Derek", namespace=ALICE)] == [False]

    dry = alice.post("/v1/graph/dedupe", json={}).json()
    assert dry["dry_run"] is True and dry["merged"] == 0
    assert [(p["keep"], p["other"], p["reason"]) for p in dry["pairs"]] == [
        ("caroline", "caroline smith", "first name")
    ]
    assert mem.graph.entity("Caroline Smith", namespace=ALICE).name == "Caroline Smith"
    done = alice.post("/v1/graph/dedupe", json={"dry_run": False, "entity_type": "person"})
    assert done.json()["merged"] == 1
    assert mem.graph.entity("Caroline Smith", namespace=ALICE).name == "Caroline"


@pytest.mark.parametrize(
    ("path", "body", "status", "message"),
    [
        ("/v1/graph/merge", {"keep": "Derek", "other": "Nobody"}, 404, "no entity 'Nobody'"),
        ("/v1/graph/merge", {"keep": "Derek", "other": "DEREK"}, 422, "nothing to merge"),
        ("/v1/graph/merge", {"keep": "Derek"}, 422, "other is required and was not given"),
        ("/v1/graph/split", {"entity": "Derek", "alias": "Nobody"}, 404, "nobody"),
        (
            "/v1/graph/invalidate",
            {"source": "Derek", "relation_type": "owns", "target": "48V battery"},
            404,
            "no current 'owns' relation",
        ),
        (
            "/v1/graph/invalidate",
            {"source": "Derek", "relation_type": "owns", "target": "efoil", "at": "someday"},
            422,
            "ISO 8601",
        ),
        ("/v1/graph/dedupe", {"threshold": 1.5}, 422, "threshold"),
        ("/v1/graph/dedupe", {"threshold": "high"}, 422, "threshold"),
        ("/v1/graph/dedupe", {"apply": True}, 422, "apply"),
    ],
)
def test_http_repairs_refuse_bad_input_and_change_nothing(
    story_served: Served,
    reader: httpx.Client,
    path: str,
    body: dict[str, Any],
    status: int,
    message: str,
) -> None:
    before = graph_of(story_served.memory, ALICE)
    response = reader.post(path, json=body)
    assert response.status_code == status, response.text
    assert message in response.json()["detail"]
    assert graph_of(story_served.memory, ALICE) == before


# -- MCP -------------------------------------------------------------------------------------
@pytest.fixture
async def kg(mem: Memory) -> AsyncIterator[Client]:
    story(mem)
    async with Client(create_mcp_server(mem, namespace=ALICE)) as client:
        yield client


async def tool(client: Client, name: str, **arguments: Any) -> Any:
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content
    return result.structured_content


async def tool_error(client: Client, name: str, **arguments: Any) -> str:
    result = await client.call_tool(name, arguments)
    assert result.is_error, result.structured_content
    return " ".join(getattr(block, "text", "") for block in result.content)


@pytest.mark.anyio
async def test_kg_query_now_as_of_and_by_direction(kg: Client) -> None:
    now = await tool(kg, "kg_query", entity="EFOIL")
    assert now["entity"] == "efoil" and now["as_of"] is None and now["total"] == 2
    assert [
        (r["subject"], r["predicate"], r["object"], r["current"]) for r in now["relations"]
    ] == [
        ("Derek", "owns", "efoil", True),
        ("efoil", "has_battery", "48V battery", True),
    ]
    march = await tool(kg, "kg_query", entity="efoil", as_of="2024-03-01")
    assert [r["object"] for r in march["relations"]] == ["efoil", "12V20Ah battery"]
    assert march["relations"][1]["valid_to"] == "2024-06-01T12:00:00Z"
    out = await tool(kg, "kg_query", entity="efoil", direction="outgoing")
    assert [r["object"] for r in out["relations"]] == ["48V battery"] and out["total"] == 1
    into = await tool(kg, "kg_query", entity="efoil", direction="incoming")
    assert [r["subject"] for r in into["relations"]] == ["Derek"]


@pytest.mark.anyio
async def test_kg_timeline_is_the_whole_history(kg: Client, mem: Memory) -> None:
    timeline = await tool(kg, "kg_timeline", entity="efoil")
    assert timeline["total"] == 3
    assert [(r["object"], r["valid_from"], r["valid_to"]) for r in timeline["relations"]] == [
        (r.target, r.to_dict()["valid_from"], r.to_dict()["valid_to"])
        for r in mem.graph.timeline("efoil", namespace=ALICE)
    ]


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("name", "arguments", "message"),
    [
        ("kg_query", {"entity": "Nobody"}, "no entity 'Nobody'"),
        ("kg_timeline", {"entity": "Nobody"}, "no entity 'Nobody'"),
        ("kg_query", {"entity": "efoil", "as_of": "last tuesday"}, "ISO 8601"),
        ("kg_query", {"entity": "efoil", "direction": "sideways"}, "direction must be one of"),
        ("kg_query", {"entity": ""}, "entity must be a non-empty string, got ''"),
        ("kg_query", {"entity": "efoil", "namespace": BOB}, "'namespace' is not an argument of"),
    ],
)
async def test_kg_bad_input_is_a_tool_error(
    kg: Client, mem: Memory, name: str, arguments: dict[str, Any], message: str
) -> None:
    before = graph_of(mem, ALICE)
    assert message in await tool_error(kg, name, **arguments)
    assert graph_of(mem, ALICE) == before


@pytest.mark.anyio
async def test_kg_tools_see_only_their_namespace(mem: Memory) -> None:
    story(mem, BOB)
    bob_graph = graph_of(mem, BOB)
    async with Client(create_mcp_server(mem, namespace=ALICE)) as alice:
        assert "no entity" in await tool_error(alice, "kg_query", entity="efoil")
        assert "no entity" in await tool_error(alice, "kg_timeline", entity="efoil")
    assert graph_of(mem, BOB) == bob_graph


@pytest.mark.anyio
async def test_kg_invalidate_closes_the_fact_and_keeps_its_history(kg: Client, mem: Memory) -> None:
    closed = await tool(kg, "kg_invalidate", subject="Derek", predicate="owns", object="EFOIL",
                        ended="2024-09-01T08:00:00Z")  # fmt: skip
    assert (closed["subject"], closed["predicate"], closed["object"]) == ("Derek", "owns", "efoil")
    assert (closed["valid_to"], closed["current"]) == ("2024-09-01T08:00:00Z", False)
    assert [r.valid_to for r in mem.graph.timeline("Derek", namespace=ALICE)] == [
        datetime(2024, 9, 1, 8, 0, tzinfo=UTC)
    ]
    now = await tool(kg, "kg_query", entity="Derek")
    assert now["relations"] == [] and now["total"] == 0
    august = await tool(kg, "kg_query", entity="Derek", as_of="2024-08-31")
    assert [r["object"] for r in august["relations"]] == ["efoil"]
    history = await tool(kg, "kg_timeline", entity="Derek")
    assert history["relations"] == [closed]
    before = graph_of(mem, ALICE)
    again = await tool_error(kg, "kg_invalidate", subject="Derek", predicate="owns", object="efoil")
    assert "no current 'owns' relation" in again
    bad = await tool_error(kg, "kg_invalidate", subject="efoil", predicate="has_battery",
                           object="48V battery", ended="yesterday-ish")  # fmt: skip
    assert "ISO 8601" in bad
    assert graph_of(mem, ALICE) == before
