"""Review beyond the queue through every surface: the HTTP routes over a real socket with
two users' keys (prune candidates, prune, graph, novelty, the JSONL export), the CLI
(then the store is reopened), and the Python example of docs/review.md."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from conftest import HashEmbedder, user_keys
from conftest import run_cli as run
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.cli.main import cli

DOCS = Path(__file__).resolve().parents[1] / "docs" / "review.md"
BOB = "user:bob"
NODE_KEYS = {
    "id", "x", "y", "cluster", "title", "task_type", "quality", "score", "type", "created_at",
}  # fmt: skip


@pytest.fixture(autouse=True)
def no_umap(monkeypatch: pytest.MonkeyPatch) -> None:
    """PCA keeps these tests fast; tests/test_graph_view.py runs UMAP itself."""
    monkeypatch.setitem(sys.modules, "umap", None)


@dataclass
class World:
    url: str
    memory: Memory
    keys: dict[str, str]
    bad: str
    """Bob's memory downvoted twice: a prune candidate."""
    good: str


@pytest.fixture
def world(config: Config) -> Iterator[World]:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        keys = user_keys(memory)
        good = memory.add("Bob's vault code is in the blue folder", user_id="bob", score=9.0)
        bad = memory.add("Bob's dog is called Max", user_id="bob", score=3.0)
        for i in range(6):
            memory.add(f"Bob's note {i} about kites and tea", user_id="bob")
        memory.feedback(good.id, "up", "right", user_id="bob")
        memory.feedback(bad.id, "down", "the dog is Rex", user_id="bob")
        memory.feedback(bad.id, "down", user_id="bob")
        memory.add("Alice's own note", user_id="alice")
        with serve_in_thread(create_app(memory, worker=False)) as url:
            yield World(url, memory, keys, bad.id, good.id)


def client(world: World, who: str) -> httpx.Client:
    headers = {"Authorization": f"Bearer {world.keys[who]}"}
    return httpx.Client(base_url=world.url, timeout=30, headers=headers)


def test_http_prune_candidates_then_a_dry_run_then_the_prune(world: World) -> None:
    with client(world, "bob") as bob:
        page = bob.get("/v1/review/prune-candidates").json()
        assert (page["total"], page["limit"], page["offset"]) == (1, 50, 0)
        [item] = page["items"]
        assert (item["id"], item["quality"], item["reason"]) == (world.bad, -2, "quality -2 <= -2")
        dry = bob.post("/v1/review/prune", json={"ids": [world.bad, world.good]})
        assert dry.status_code == 200
        assert dry.json()["dry_run"] is True and dry.json()["would_delete"] == [world.bad]
        assert [i["action"] for i in dry.json()["items"]] == ["would_delete", "skipped"]
        assert world.memory.get(world.bad, user_id="bob").quality == -2  # still there
        done = bob.post("/v1/review/prune", json={"ids": [world.bad], "dry_run": False}).json()
        assert done["deleted"] == [world.bad]
        assert bob.get("/v1/review/prune-candidates").json()["total"] == 0
        bad_input = bob.post("/v1/review/prune", json={"ids": [], "dry_run": False})
        assert bad_input.status_code == 422 and bad_input.json()["error"] == "invalid_input"
    prune_row = world.memory.history(world.bad, user_id="bob")[-2]
    assert prune_row.event == "prune" and prune_row.actor is not None
    assert prune_row.actor.startswith("key:")


def test_http_graph_has_exactly_the_dashboards_shape(world: World) -> None:
    with client(world, "bob") as bob:
        response = bob.get("/v1/review/graph", params={"limit": 5})
        assert response.status_code == 200, response.text
        body = response.json()
        assert set(body) == {"nodes", "clusters", "method", "note", "total"}
        assert (body["method"], body["total"], len(body["nodes"])) == ("pca", 8, 5)
        assert "umap-learn is not installed" in body["note"]
        assert all(set(node) == NODE_KEYS for node in body["nodes"])
        assert body["clusters"] == [{"id": 0, "size": 5}]  # k = max(1, 5 // 3) = 1
        assert body == world.memory.review.graph(user_id="bob", limit=5).to_dict()
        everything = bob.get("/v1/review/graph").json()
        assert len(everything["nodes"]) == 8 and len(everything["clusters"]) == 2
        assert bob.get("/v1/review/graph", params={"type": "gossip"}).status_code == 422
        assert bob.get("/v1/review/graph", params={"limit": 0}).status_code == 422
        # The queue's own routes still answer next to these.
        assert bob.get("/v1/review").status_code == 200
        assert bob.get("/v1/review/7").status_code == 404


def test_http_novelty(world: World) -> None:
    with client(world, "bob") as bob:
        body = {
            "results": ["Bob's vault code is in the blue folder", {"title": "Kites in China"}],
            "context": "Nothing known yet.",
        }
        report = bob.post("/v1/review/novelty", json=body).json()
    assert report["method"] == "embedding"
    first, second = report["results"]
    assert (first["novelty"], first["closest"]) == (0.0, f"memory:{world.good}")
    assert second["novelty"] > first["novelty"]


def test_http_export_streams_jsonl(world: World) -> None:
    with client(world, "bob") as bob, bob.stream("GET", "/v1/feedback/export") as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in response.iter_lines() if line]
    assert lines == list(world.memory.review.export_feedback(user_id="bob"))
    assert [(x["memory_id"], x["rating"], x["comment"]) for x in lines] == [
        (world.good, 1, "right"),
        (world.bad, -1, "the dog is Rex"),
        (world.bad, -1, None),
    ]


def _bobs(memory: Memory) -> dict[str, Any]:
    records = memory.get_all(namespace=BOB, include_deleted=True, limit=1000)
    return {
        "records": [r.to_dict() for r in records],
        "history": {r.id: len(memory.history(r.id, namespace=BOB)) for r in records},
        "feedback": memory.feedback_log(namespace=BOB),
    }


def test_alice_cannot_reach_bob_through_these_routes(world: World) -> None:
    before = _bobs(world.memory)
    attempts: list[tuple[str, str, dict[str, Any] | None, dict[str, Any] | None]] = []
    for scope in ({"namespace": BOB}, {"user_id": "bob"}, {"namespace": "user:bob/x"}):
        attempts += [
            ("GET", "/v1/review/prune-candidates", scope, None),
            ("POST", "/v1/review/prune", None, {"ids": [world.bad], "dry_run": False, **scope}),
            ("GET", "/v1/review/graph", scope, None),
            ("POST", "/v1/review/novelty", None, {"results": ["dog"], **scope}),
            ("GET", "/v1/feedback/export", scope, None),
        ]
    with client(world, "alice") as alice:
        for method, path, params, body in attempts:
            response = alice.request(method, path, params=params, json=body)
            assert response.status_code == 403, (method, path, params, response.text)
            assert "Max" not in response.text and "vault" not in response.text
        # In her own namespace, bob's ids are simply not found, and nothing of his shows.
        pruned = alice.post(
            "/v1/review/prune",
            json={"ids": [world.bad], "dry_run": False, "only_candidates": False},
        ).json()
        assert [i["action"] for i in pruned["items"]] == ["not_found"]
        graph = alice.get("/v1/review/graph").json()
        assert [n["title"] for n in graph["nodes"]] == ["Alice's own note"]
        assert alice.get("/v1/review/prune-candidates").json()["items"] == []
        assert alice.get("/v1/feedback/export").text == ""
        novelty = alice.post("/v1/review/novelty", json={"results": ["Bob's dog is called Max"]})
        assert novelty.status_code == 200 and world.bad not in novelty.text
    assert _bobs(world.memory) == before
    with client(world, "admin") as admin:
        assert admin.get("/v1/review/prune-candidates", params={"user_id": "bob"}).json()[
            "total"
        ] == 1  # fmt: skip


# -- the CLI -------------------------------------------------------------------------------


def test_cli_review_prune_dry_run_then_yes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ids = [json.loads(run(home, "add", f"note {i}", "--json").output)["id"] for i in range(3)]
    for _ in range(2):
        assert run(home, "feedback", ids[0], "down").exit_code == 0
    dry = run(home, "review", "prune")
    assert dry.exit_code == 0, dry.output
    assert "would delete 1 memories (run again with --yes to delete)" in dry.output
    as_json = json.loads(run(home, "review", "prune", "--json").output)
    assert as_json["would_delete"] == [ids[0]] and as_json["deleted"] == []
    picked = json.loads(run(home, "review", "prune", ids[1] + "…", "--json").output)
    assert [i["action"] for i in picked["items"]] == ["skipped"]
    done = run(home, "review", "prune", "--yes")
    assert done.exit_code == 0 and "deleted 1 memories" in done.output
    forced = json.loads(run(home, "review", "prune", ids[1], "--any", "--yes", "--json").output)
    assert forced["deleted"] == [ids[1]]
    assert "no prune candidates" in run(home, "review", "prune").output
    config = Config.load(env={}, home=str(home), embedder={"name": "none"})
    with Memory(config=config, embedder=None) as mem:
        assert [r.id for r in mem.get_all()] == [ids[2]]
        assert [e.event for e in mem.history(ids[0])][-2:] == ["prune", "delete"]
        assert mem.history(ids[0])[-1].actor == "cli"


def test_cli_review_graph(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run(home, "add", "a note").exit_code == 0
    failed = run(home, "review", "graph", "--json")
    assert failed.exit_code != 0 and "no embedder is configured" in failed.output
    # With the default embedder (all-MiniLM-L6-v2, installed with engram).
    other = tmp_path / "other"
    with_model = {"ENGRAM_CONFIG": ""}
    runner = CliRunner()
    for topic in ("kites in the wind", "green tea brewing", "friday deploy freeze", "kite lines"):
        added = runner.invoke(cli, ["--home", str(other), "add", topic], env=with_model)
        assert added.exit_code == 0, added.output
    shown = runner.invoke(
        cli, ["--home", str(other), "review", "graph", "--method", "pca", "--json"], env=with_model
    )
    assert shown.exit_code == 0, shown.output
    view = json.loads(shown.output)
    assert (view["method"], view["total"], len(view["nodes"])) == ("pca", 4, 4)
    assert {n["title"] for n in view["nodes"]} == {
        "kites in the wind", "green tea brewing", "friday deploy freeze", "kite lines",
    }  # fmt: skip
    table = runner.invoke(cli, ["--home", str(other), "review", "graph"], env=with_model)
    assert table.exit_code == 0 and "4 of 4 memories, projected by pca" in table.output
    assert "note: umap-learn is not installed" in table.output  # this test hides umap


def test_docs_python_example_runs() -> None:
    text = DOCS.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "docs/review.md has no Python example"
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, str(DOCS), "exec"), namespace)  # noqa: S102 - our own docs
