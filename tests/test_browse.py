"""``mem.browse`` on both backends, and the dashboard's routes over a real socket: the page
and its bundle without a key, the ``/v1/dashboard/...`` reads and ``/v1/palace/drawers``
with one, each scoped to what the key reaches."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.errors import InvalidInputError, NotFoundError
from engram.keys import Principal


def test_pages_filter_by_type_and_quality_in_the_store(mem: Memory) -> None:
    made = [mem.add(f"note {i}", user_id="alice", type="fact") for i in range(5)]
    decision = mem.add("ship on Fridays", user_id="alice", type="decision")
    mem.add("someone else's", user_id="bob")
    mem.feedback(made[0].id, "up", user_id="alice")
    mem.feedback(made[1].id, "down", user_id="alice")
    mem.feedback(made[1].id, "down", user_id="alice")

    page = mem.browse.memories(user_id="alice", limit=2, offset=2)
    assert page.total == 6 and len(page.records) == 2
    assert [r.id for r in page] == [made[3].id, made[2].id]  # newest first

    assert [r.id for r in mem.browse.memories(user_id="alice", quality="positive")] == [made[0].id]
    negative = mem.browse.memories(user_id="alice", quality="negative")
    assert [(r.id, r.quality) for r in negative] == [(made[1].id, -2)]
    assert mem.browse.memories(user_id="alice", quality="neutral").total == 4
    decisions = mem.browse.memories(user_id="alice", type="decision")
    assert [r.id for r in decisions] == [decision.id]
    facts = mem.browse.memories(user_id="alice", type="fact", quality="neutral", limit=1)
    assert facts.total == 3 and len(facts.records) == 1


def test_bad_filters_say_what_to_use(mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="positive, neutral, negative"):
        mem.browse.memories(user_id="alice", quality="great")
    with pytest.raises(InvalidInputError, match="unknown memory type 'thing'"):
        mem.browse.memories(user_id="alice", type="thing")
    with pytest.raises(InvalidInputError, match="limit"):
        mem.browse.memories(user_id="alice", limit=0)


def test_pages_filter_by_tag_run_and_creation_date(mem: Memory) -> None:
    day = datetime(2024, 6, 1, 12, tzinfo=UTC)
    tagged = mem.add("tagged", user_id="alice", tags=["work"], created_at=day)
    ran = mem.add("from a run", user_id="alice", run_id="run-7", created_at=day + timedelta(days=1))
    mem.add("untagged", user_id="alice", created_at=day + timedelta(days=2))
    assert [r.id for r in mem.browse.memories(user_id="alice", tag="work")] == [tagged.id]
    assert [r.id for r in mem.browse.memories(user_id="alice", from_run="run-7")] == [ran.id]
    # A bare date counts its whole day, on either end.
    one_day = mem.browse.memories(user_id="alice", since="2024-06-01", until="2024-06-01")
    assert [r.id for r in one_day] == [tagged.id]
    later = mem.browse.memories(user_id="alice", since="2024-06-02")
    assert later.total == 2 and tagged.id not in [r.id for r in later]
    with pytest.raises(InvalidInputError, match="before since"):
        mem.browse.memories(user_id="alice", since="2024-06-03", until="2024-06-01")
    with pytest.raises(InvalidInputError, match="ISO 8601"):
        mem.browse.memories(user_id="alice", since="last week")


def test_graph_of_a_memory_lists_its_entities_and_relations(mem: Memory) -> None:
    said = mem.add("Alice works at Acme in Berlin", user_id="alice")
    entities, relations = mem.browse.graph_of(said.id, user_id="alice")
    assert {"Alice", "Acme"} <= {e.name for e in entities}
    assert [(r.source, r.relation_type, r.target) for r in relations] == [
        ("Alice", "works_at", "Acme")
    ]
    assert relations[0].valid_to is None and relations[0].source_memory_id == said.id
    with pytest.raises(NotFoundError):
        mem.browse.graph_of(said.id, user_id="bob")


def test_namespaces_are_those_a_key_reaches(mem: Memory) -> None:
    mem.add("a", user_id="alice")
    mem.add("b", namespace="user:alice/project")
    mem.add("c", user_id="bob")
    alice = Principal(user="alice", admin=False)
    assert mem.browse.namespaces(alice) == [
        {"namespace": "user:alice", "memories": 1},
        {"namespace": "user:alice/project", "memories": 1},
    ]
    carol = Principal(user="carol", admin=False)
    assert mem.browse.namespaces(carol) == [{"namespace": "user:carol", "memories": 0}]
    every = {n["namespace"] for n in mem.browse.namespaces()}
    assert every == {"user:alice", "user:alice/project", "user:bob"}


def test_an_admin_lists_what_exists_and_where_its_writes_go(mem: Memory) -> None:
    # Round fifteen: the admin's picker listed user:admin (0), a namespace nothing writes
    # to, beside the users' namespaces. An admin's writes go to the default namespace.
    admin = Principal(user="admin", admin=True)
    assert mem.browse.namespaces(admin) == [{"namespace": "default", "memories": 0}]
    mem.add("a", user_id="alice")
    mem.add("b", namespace="team")
    listed = mem.browse.namespaces(admin)
    assert listed == [
        {"namespace": "default", "memories": 0},
        {"namespace": "team", "memories": 1},
        {"namespace": "user:alice", "memories": 1},
    ]
    mem.add("c")  # the admin's own unscoped write
    assert {"namespace": "default", "memories": 1} in mem.browse.namespaces(admin)
    # An admin user's memories, written there on purpose, are listed like any others.
    mem.add("d", user_id="admin")
    assert {"namespace": "user:admin", "memories": 1} in mem.browse.namespaces(admin)


def test_settings_report_what_the_server_runs_with(mem: Memory) -> None:
    settings = mem.browse.settings()
    assert settings["recall"]["limit"] == 4  # seed 000: MAX_CONTEXT_OBSERVATIONS
    assert settings["recall"]["rerank"] == "none"
    assert settings["embedder"] == {"configured": "minilm", "name": "test-hash", "dimension": 64}
    assert settings["auto_mine"] is True


@pytest.fixture
def served(config: Config) -> Iterator[tuple[str, Memory, str, str]]:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        _, alice = memory.keys.create("alice")
        _, bob = memory.keys.create("bob")
        with serve_in_thread(create_app(memory, mcp=False, worker=False)) as url:
            yield url, memory, alice, bob


def test_the_page_and_bundle_need_no_key_but_data_does(
    served: tuple[str, Memory, str, str],
) -> None:
    url, _, _, _ = served
    page = httpx.get(url + "/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    # relative, so the page also works under a proxy's path prefix (test_dashboard_browser)
    assert '<script type="module" src="static/app.js">' in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    bundle = httpx.get(url + "/static/app.js")
    assert bundle.status_code == 200 and "javascript" in bundle.headers["content-type"]
    assert httpx.get(url + "/static/app.css").status_code == 200
    assert httpx.get(url + "/static/nothing.js").status_code == 404
    icon = httpx.get(url + "/static/favicon.svg")  # the page's icon: no 404 on each load
    assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
    assert 'rel="icon" href="static/favicon.svg"' in page.text
    for route in ("namespaces", "memories", "settings"):
        assert httpx.get(f"{url}/v1/dashboard/{route}").status_code == 401


def test_an_admin_key_opens_where_its_writes_go(served: tuple[str, Memory, str, str]) -> None:
    # The first admin key `engram serve` makes belongs to user "admin"; the dashboard
    # opened on the empty user:admin while `engram add` and the key's own writes filled
    # the default namespace (found trying engram as a new user).
    url, memory, _, _ = served
    _, admin = memory.keys.create("admin", admin=True)
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {admin}"}) as client:
        written = client.post("/v1/memories", json={"content": "Deploys go through ops/deploy.sh"})
        listed = client.get("/v1/dashboard/namespaces").json()
    assert written.json()["namespace"] == listed["home"] == "default"
    assert {"namespace": "default", "memories": 1} in listed["namespaces"]
    # The picker lists what exists: not the admin key's empty user:admin.
    assert "user:admin" not in [n["namespace"] for n in listed["namespaces"]]


def test_dashboard_routes_are_scoped_to_the_key(served: tuple[str, Memory, str, str]) -> None:
    url, memory, alice, bob = served
    kept = memory.add("Alice likes green tea", user_id="alice", type="preference")
    memory.add("Bob's vault code", user_id="bob")
    memory.feedback(kept.id, "up", user_id="alice")
    memory.palace.mine_conversation(
        [{"role": "user", "content": "The fuse blew at 30A"}], wing="Efoil", user_id="alice"
    )
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {alice}"}) as client:
        listed = client.get("/v1/dashboard/namespaces").json()
        assert listed == {
            "namespaces": [{"namespace": "user:alice", "memories": 2}],
            "home": "user:alice",
        }
        page = client.get("/v1/dashboard/memories", params={"quality": "positive"}).json()
        assert [m["id"] for m in page["items"]] == [kept.id] and page["total"] == 1
        denied = client.get("/v1/dashboard/memories", params={"namespace": "user:bob"})
        assert denied.status_code == 403
        bad = client.get("/v1/dashboard/memories", params={"quality": "great"})
        assert bad.status_code == 422 and "quality" in bad.json()["detail"]
        assert client.get("/v1/dashboard/settings").json()["embedder"]["name"] == "test-hash"
        graph = client.get(f"/v1/dashboard/memories/{kept.id}/graph").json()
        stated = [(r["source"], r["relation_type"], r["valid_to"]) for r in graph["relations"]]
        assert stated == [("Alice", "likes", None)]
        assert "Alice" in [e["name"] for e in graph["entities"]]
        late = client.get("/v1/dashboard/memories", params={"since": "2999-01-01"}).json()
        assert late["total"] == 0
        drawers = client.get("/v1/palace/drawers", params={"wing": "W-001", "room": "1"})
        assert [d["pointer"] for d in drawers.json()["drawers"]] == ["§ W-001/R-01/D-001"]
        missing = client.get("/v1/palace/drawers", params={"wing": "W-009", "room": "1"})
        assert missing.status_code == 404
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {bob}"}) as client:
        assert (
            client.get("/v1/palace/drawers", params={"wing": "W-001", "room": "1"}).status_code
            == 404
        )
        items = client.get("/v1/dashboard/memories").json()["items"]
        assert [m["content"] for m in items] == ["Bob's vault code"]
        assert client.get(f"/v1/dashboard/memories/{kept.id}/graph").status_code == 404


DOC = Path(__file__).resolve().parents[1] / "docs" / "dashboard.md"


def test_the_docs_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_HOME", str(tmp_path))
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1
    exec(compile(blocks[0], str(DOC), "exec"), {"__name__": "docs_dashboard"})


def test_the_docs_show_every_screenshot() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in (
        "login",
        "memories",
        "memory",
        "runs",
        "run",
        "review",
        "graph",
        "palace",
        "settings",
    ):
        for width in ("desktop", "phone"):
            assert f"(img/dashboard-{name}-{width}.png)" in text
