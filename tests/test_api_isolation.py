"""Isolation over HTTP: alice's key tries every route against bob's ids and namespaces.

Every attempt must get 403 (a namespace outside the key's reach) or 404 (an id that is
not in the caller's namespace), and afterwards bob's data, read back through the
library, must be exactly what it was. An admin key reaches both users.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from conftest import HashEmbedder, user_keys
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread

BOB = "user:bob"
BOB_PROJECT = "user:bob/project"
#: Bob's run, into which his PIN memory was injected.
BOB_RUN = "bob-run"
#: Bob's one palace drawer.
POINTER = "§ W-001/R-01/D-001"
#: The failure bob's one stored procedure was proposed from (offline template).
BOB_FAILURE = {"task": "Unlock the vault", "error": "wrong PIN", "steps": ["typed 1234"]}


@dataclass
class World:
    url: str
    memory: Memory
    keys: dict[str, str]
    bob_id: str
    bob_project_id: str
    bob_review_id: int
    bob_document_id: str
    bob_job_id: int


@dataclass(frozen=True)
class Owner:
    """Whose data a walk aims at: the namespaces, how the library calls name them, and
    the agent that publishes in the project namespace (reused by tests/test_keys38_*)."""

    home: str
    project: str
    who: dict[str, str]
    agent: str = "bobbot"
    run: str = BOB_RUN


BOB_OWNER = Owner(BOB, BOB_PROJECT, {"user_id": "bob"})


@dataclass
class Planted:
    """The ids of an owner's planted data."""

    memory_id: str
    project_id: str
    review_id: int
    document_id: str
    job_id: int


def plant(memory: Memory, o: Owner) -> Planted:
    """One of everything in ``o``'s namespaces: memories, transcript, feedback, a
    tombstone, graph, review item, document, job, palace drawer, run, core block,
    procedure, a publication and a session-level memory of ``o.agent``."""
    who = o.who
    bob = memory.add(
        "Bob's bank PIN hint is the dog's name", **who, session_id="bob-session", tags=["secret"]
    )
    memory.add_transcript("bob-session", "bob: my PIN hint is the dog", **who)
    memory.feedback(bob.id, "up", "keep", **who)
    deleted = memory.add("Bob's old address", **who)
    memory.delete(deleted.id, **who)
    project = memory.add("Bob's project codename is Falcon", namespace=o.project)
    memory.graph.record(bob.id, [("Bob", "has_dog", "Rex"), ("Bob", "uses", "vault")], **who)
    memory.graph.record(project.id, [("Bob", "leads", "Rex")], namespace=o.project)
    review = memory.store.review.add(
        o.home,
        bob.id,
        target_id=bob.id,
        action="DELETE",
        proposal={"action": "DELETE", "content": "Bob has no PIN", "target_id": bob.id},
        reason="one negates the other",
        now=bob.created_at,
    )
    document = memory.documents.ingest("Bob's Falcon launch checklist", namespace=o.project)
    memory.documents.process(document.id, namespace=o.project)  # before the server's worker
    job = memory.store.jobs.enqueue("extract", o.home, memory_id=bob.id)
    memory.palace.mine_conversation(
        [{"role": "Bob", "content": "The vault code is in the blue folder"}],
        wing="Bob",
        session="private",
        **who,
    )
    memory.runs.log_memory_hits(o.run, [bob.id], task="Bob's PIN audit", **who)
    memory.inject.blocks.set("human", "Bob keeps his PIN hint in core memory", **who)
    memory.procedures.propose(BOB_FAILURE, **who)
    # Bob's agents share in a namespace of his, and one of them is session-level.
    memory.shared.publish(o.agent, "Bob's team ships on Thursdays", namespace=o.project)
    memory.agents.set_level(o.agent, "session")
    memory.add("Bob's session note", agent_id=o.agent, session_id="s1", namespace=o.project)
    return Planted(bob.id, project.id, review.id, document.id, job.id)


@pytest.fixture
def world(config: Config) -> Iterator[World]:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        keys = user_keys(memory, ("alice", "bob", "ali"))
        p = plant(memory, BOB_OWNER)
        memory.add("Alice's own note about the dog", user_id="alice")
        # No worker: bob's queued jobs must stay exactly as the snapshot saw them.
        with serve_in_thread(create_app(memory, worker=False)) as url:
            yield World(
                url, memory, keys, p.memory_id, p.project_id, p.review_id, p.document_id, p.job_id
            )


def snapshot(memory: Memory, o: Owner = BOB_OWNER) -> dict[str, Any]:
    """Everything of ``o``'s (bob's) the library can see, for before/after comparison."""
    out: dict[str, Any] = {}
    for ns in (o.home, o.project):
        records = memory.get_all(namespace=ns, include_deleted=True, limit=1000)
        out[ns] = {
            "records": [r.to_dict() for r in records],
            "history": {
                r.id: [e.to_dict() for e in memory.history(r.id, namespace=ns)] for r in records
            },
            "feedback": memory.feedback_log(namespace=ns),
            "review": [i.to_dict() for i in memory.review.list(namespace=ns, status=None)],
            "documents": [d.to_dict() for d in memory.documents.list(namespace=ns)],
            "jobs": memory.jobs.list(namespace=ns).to_dict(),
            "transcripts": memory.store.transcripts.get(ns, ["bob-session", "alice-session"]),
            "vectors": _vectors(memory, ns),
            "graph": _graph(memory, ns),
            "palace": [n.to_dict() for n in memory.palace.tree(namespace=ns)],
            "runs": [
                memory.runs.get(r.run_id, namespace=ns).to_dict()
                for r in memory.runs.list(namespace=ns)
            ],
            "erasures": [r.to_dict() for r in memory.erasure.audit(namespace=ns)],
            "blocks": memory.inject.blocks.list(namespace=ns),
            "block_history": memory.inject.blocks.history("human", namespace=ns),
            "levels": memory.agents.list_levels(),
        }
    return out


def _graph(memory: Memory, namespace: str) -> dict[str, Any]:
    return {
        "entities": [e.to_dict() for e in memory.graph.entities(1000, namespace=namespace)],
        "relations": [
            r.to_dict()
            for r in memory.graph.relations(None, False, limit=10_000, namespace=namespace)
        ],
    }


def _vectors(memory: Memory, namespace: str) -> tuple[list[str], bytes]:
    loaded = memory.store.vectors.load(namespace, HashEmbedder.name)
    return loaded.ids, loaded.matrix.tobytes()


Attempt = tuple[str, str, dict[str, Any] | None, dict[str, Any] | None]


def attempts(w: World) -> list[Attempt]:
    """(method, path, query params, JSON body) for every route, aimed at bob."""
    bid, pid = w.bob_id, w.bob_project_id
    scopes: list[dict[str, Any]] = [
        {"namespace": BOB},
        {"user_id": "bob"},
        {"namespace": BOB_PROJECT},
        {"namespace": "user:bob/../alice"},
        {"namespace": "default"},
        {"namespace": "agent:bob"},
        {"namespace": "user:alicex"},
        {"namespace": "user:"},
    ]
    planted = Planted(bid, pid, w.bob_review_id, w.bob_document_id, w.bob_job_id)
    out = scoped_attempts(w.memory, BOB_OWNER, planted, scopes)
    # By id from alice's own namespace: not found, never "forbidden" (no existence leak).
    out += by_id_attempts(w.memory, BOB_OWNER, planted)
    out += [
        ("GET", "/v1/erasures", {"all_namespaces": "true"}, None),
        ("POST", "/v1/purge", None, {"all_namespaces": True}),
        ("POST", "/v1/reindex", None, {"rebuild": True}),
        ("GET", "/v1/diagnostics", None, None),
        # Org memory is the organisation's: reading its audit and minting agent keys
        # (which could outrank the caller) need an admin key.
        ("GET", "/v1/org/audit", None, None),
        ("POST", "/v1/org/agent-keys", None, {"agent": "alice2", "seniority": "c_suite"}),
    ]
    return out


def scoped_attempts(
    memory: Memory, o: Owner, p: Planted, scopes: list[dict[str, Any]]
) -> list[Attempt]:
    """Every route with each of ``scopes``, aimed at ``o``'s planted data ``p``."""
    bid = p.memory_id
    procedure = _bob_procedure(memory, o)
    publication = _bob_publication(memory, o)
    out: list[Attempt] = []
    for scope in scopes:
        out += [
            ("POST", "/v1/memories", None, {"content": "planted by alice", **scope}),
            ("POST", "/v1/memories/batch", None, {"items": [{"content": "planted"}], **scope}),
            ("GET", "/v1/memories", scope, None),
            ("GET", f"/v1/memories/{bid}", scope, None),
            ("PATCH", f"/v1/memories/{bid}", scope, {"content": "changed by alice"}),
            ("DELETE", f"/v1/memories/{bid}", scope, None),
            ("GET", f"/v1/memories/{bid}/history", scope, None),
            ("POST", f"/api/memories/{bid}/feedback", scope, {"rating": "down"}),
            ("POST", f"/v1/memories/{bid}/feedback", scope, {"rating": -1}),
            ("GET", "/v1/feedback", scope, None),
            ("POST", "/v1/search", None, {"query": "PIN hint", **scope}),
            ("POST", "/v1/recall", None, {"query": "PIN hint", "expand": True, **scope}),
            ("POST", "/api/memory/recall", None, {"query": "PIN", "expand": True, **scope}),
            (
                "POST",
                "/api/memory/remember",
                None,
                {"content": "planted", "session_key": "bob-session", "transcript": "fake", **scope},
            ),
            (
                "POST",
                "/v1/transcripts",
                None,
                {"session_key": "bob-session", "content": "fake", **scope},
            ),
            ("POST", "/v1/purge", None, scope),
            ("POST", "/v1/memories/erase", None, scope),
            ("POST", "/v1/memories/erase", None, {"dry_run": True, **scope}),
            ("GET", "/v1/erasures", scope, None),
            ("GET", "/v1/review", scope, None),
            ("GET", f"/v1/review/{p.review_id}", scope, None),
            ("POST", f"/v1/review/{p.review_id}/approve", scope, {}),
            ("POST", f"/v1/review/{p.review_id}/reject", scope, {}),
            ("GET", "/v1/review/prune-candidates", scope, None),
            ("POST", "/v1/review/prune", None, {"ids": [bid], "dry_run": False, **scope}),
            ("GET", "/v1/review/graph", scope, None),
            ("POST", "/v1/review/novelty", None, {"results": ["PIN hint"], **scope}),
            ("GET", "/v1/feedback/export", scope, None),
            ("POST", "/v1/documents", None, {"text": "planted", **scope}),
            ("GET", "/v1/documents", scope, None),
            ("GET", f"/v1/documents/{p.document_id}", scope, None),
            ("GET", "/v1/jobs", scope, None),
            ("GET", f"/v1/jobs/{p.job_id}", scope, None),
            ("POST", f"/v1/jobs/{p.job_id}/retry", scope, None),
            ("GET", "/api/pipeline/status", scope, None),
            ("GET", "/v1/palace", scope, None),
            ("GET", "/v1/palace/resolve", {"pointer": POINTER, **scope}, None),
            (
                "POST",
                "/v1/palace/mine",
                None,
                {"messages": [{"content": "planted"}], "wing": "Bob", **scope},
            ),
            *graph_attempts(scope),
            *runs_attempts(scope, bid, o.run),
            *lifecycle_attempts(scope, bid),
            *maintenance_attempts(scope),
            *inject_attempts(scope, procedure),
            *shared_attempts(scope, publication, o.agent),
        ]
    return out


def by_id_attempts(memory: Memory, o: Owner, p: Planted) -> list[Attempt]:
    """The routes that name ``o``'s entities by id alone, from the caller's own
    namespace: not found there (404), never "forbidden" (no existence leak)."""
    out: list[Attempt] = []
    for mid in (p.memory_id, p.project_id):
        out += [
            ("GET", f"/v1/memories/{mid}", None, None),
            ("PATCH", f"/v1/memories/{mid}", None, {"tags": ["x"]}),
            ("DELETE", f"/v1/memories/{mid}", None, None),
            ("GET", f"/v1/memories/{mid}/history", None, None),
            ("POST", f"/api/memories/{mid}/feedback", None, {"rating": "down"}),
            ("POST", f"/v1/memories/{mid}/feedback", None, {"rating": "down"}),
            ("POST", f"/v1/lifecycle/restore/{mid}", None, None),
        ]
    procedure = _bob_procedure(memory, o)
    publication = _bob_publication(memory, o)
    return out + [
        ("GET", f"/v1/review/{p.review_id}", None, None),
        ("POST", f"/v1/review/{p.review_id}/approve", None, {}),
        ("POST", f"/v1/review/{p.review_id}/reject", None, {}),
        ("GET", f"/v1/documents/{p.document_id}", None, None),
        ("GET", f"/v1/jobs/{p.job_id}", None, None),
        ("POST", f"/v1/jobs/{p.job_id}/retry", None, None),
        ("GET", "/v1/palace/resolve", {"pointer": POINTER}, None),
        *[
            a
            for a in runs_attempts({}, p.memory_id, o.run)
            if a[1].startswith(("/v1/runs/", "/v1/memories/"))
        ],
        # The routes that name no entity answer from alice's own namespace (200).
        *[a for a in graph_attempts({}) if a[1].startswith(NAMED_GRAPH_ROUTES)],
        *[a for a in inject_attempts({}, procedure) if a[1].startswith("/v1/procedures/")],
        ("GET", "/v1/blocks/human", None, None),
        ("POST", "/v1/blocks/human/append", None, {"content": "planted"}),
        # From alice's own shared space bob's publication is unknown; levels need admin.
        ("POST", f"/v1/shared/{publication}/retract", None, {"agent_id": o.agent}),
        ("PUT", f"/v1/agents/{o.agent}/level", None, {"level": "none"}),
        ("DELETE", f"/v1/agents/{o.agent}/level", None, None),
    ]


def _bob_publication(memory: Memory, o: Owner) -> str:
    [publication] = memory.shared.publications(namespace=o.project)
    return publication.id


def shared_attempts(scope: dict[str, Any], publication_id: str, agent: str) -> list[Attempt]:
    """The shared-knowledge and session-end routes (S2, S3) aimed at ``agent``'s
    (bob's) namespaces; shared spaces are named by namespace only."""
    out: list[Attempt] = [
        ("POST", f"/v1/agents/{agent}/sessions/s1/end", scope, None),
    ]
    if "namespace" in scope:
        out += [
            ("POST", "/v1/shared", scope, {"agent_id": "alicebot", "content": "planted"}),
            ("GET", "/v1/shared/search", {"q": "ships Thursdays", **scope}, None),
            ("GET", "/v1/shared", scope, None),
            ("POST", f"/v1/shared/{publication_id}/retract", scope, {"agent_id": agent}),
        ]
    return out


def _bob_procedure(memory: Memory, o: Owner) -> str:
    [procedure] = memory.procedures.list(namespace=o.home)
    return procedure.memory_id or ""


def inject_attempts(
    scope: dict[str, Any], procedure_id: str
) -> list[tuple[str, str, dict[str, Any] | None, dict[str, Any] | None]]:
    """The core-block, injection and procedure routes (S5, S7) aimed at bob; with an
    empty scope, from alice's own namespace, where bob's procedure is unknown (404)."""
    turn = {"messages": [{"role": "user", "content": "PIN hint"}], "budget_tokens": 500}
    return [
        ("GET", "/v1/blocks", scope, None),
        ("GET", "/v1/blocks/human", scope, None),
        ("PUT", "/v1/blocks/human", scope, {"value": "planted by alice"}),
        ("POST", "/v1/blocks/human/append", scope, {"content": "planted"}),
        ("POST", "/v1/blocks/human/replace", scope, {"old_content": "PIN", "new_content": "x"}),
        ("DELETE", "/v1/blocks/human", scope, None),
        ("GET", "/v1/blocks/human/history", scope, None),
        ("POST", "/v1/inject/context", scope, turn),
        ("POST", "/v1/inject/tools/search_memory", scope, {"arguments": {"query": "PIN"}}),
        ("POST", "/v1/inject/tools/recall_memory", scope, {"arguments": {"ids": ["x"]}}),
        (
            "POST",
            "/v1/inject/tools/core_memory_append",
            scope,
            {"arguments": {"label": "human", "content": "planted"}},
        ),
        ("POST", "/v1/procedures", scope, {**BOB_FAILURE, "task": "planted"}),
        ("GET", "/v1/procedures", scope, None),
        ("GET", f"/v1/procedures/{procedure_id}", scope, None),
        ("GET", f"/v1/procedures/{procedure_id}/skill", scope, None),
    ]


def runs_attempts(scope: dict[str, Any], memory_id: str, run: str = BOB_RUN) -> list[Attempt]:
    """Every run route aimed at bob's run; with an empty scope, from alice's own
    namespace, where bob's run and memory are unknown (404)."""
    hits = {"hits": [{"memory_id": memory_id}], **scope}
    return [
        ("GET", "/v1/runs", scope, None),
        ("GET", f"/v1/runs/{run}", scope, None),
        ("GET", f"/v1/memories/{memory_id}/run", scope, None),
        ("POST", f"/v1/runs/{run}/hits", None, hits),
        ("POST", "/v1/runs", None, {"run_id": run, "status": "failed", **scope}),
        ("POST", "/v1/observations", None, {"task": "t", "output": "planted", **scope}),
        ("POST", "/v1/context", None, {"task": "PIN hint", "run_id": BOB_RUN, **scope}),
    ]


def maintenance_attempts(
    scope: dict[str, Any],
) -> list[tuple[str, str, dict[str, Any] | None, dict[str, Any] | None]]:
    """Dedup reaches only one's own namespace (merging needs an admin key), and the
    store-wide maintenance routes need an admin key."""
    return [
        ("POST", "/v1/maintenance/dedup", scope, {"threshold": 0.1}),
        ("POST", "/v1/maintenance/dedup", scope, {"threshold": 0.1, "execute": True}),
        ("POST", "/v1/maintenance/dedup", None, {"threshold": 0.1, "execute": True}),
        ("GET", "/v1/maintenance/diagnostics", None, None),
        ("POST", "/v1/maintenance/run", None, {"execute": True}),
        ("POST", "/v1/maintenance/run", None, {}),
        ("GET", "/v1/maintenance/runs", None, None),
        ("GET", "/v1/maintenance/status", None, None),
        ("POST", "/v1/maintenance/resume", None, {}),
        ("POST", "/v1/maintenance/track", None, None),
    ]


def lifecycle_attempts(
    scope: dict[str, Any], memory_id: str
) -> list[tuple[str, str, dict[str, Any] | None, dict[str, Any] | None]]:
    """The lifecycle routes aimed at bob's namespace (S8, S9); consolidation, sweeps
    and retention overrides need an admin key even in one's own namespace."""
    return [
        ("GET", "/v1/lifecycle/status", scope, None),
        ("GET", "/v1/lifecycle/archive", scope, None),
        ("GET", "/v1/lifecycle/rules", scope, None),
        ("POST", f"/v1/lifecycle/restore/{memory_id}", scope, None),
        ("POST", "/v1/lifecycle/consolidate", None, scope),
        ("POST", "/v1/lifecycle/consolidate", None, {"all_namespaces": True}),
        ("POST", "/v1/lifecycle/retention", None, None),
        ("PUT", "/v1/lifecycle/rules", scope, {"days": 1}),
        ("PUT", "/v1/lifecycle/rules", None, {"days": 1}),
    ]


#: Graph routes that name an entity or relation: bob's names are unknown to alice (404).
NAMED_GRAPH_ROUTES = (
    "/v1/graph/entities/",
    "/v1/graph/relations",
    "/v1/graph/timeline",
    "/v1/graph/neighbors",
    "/v1/graph/merge",
    "/v1/graph/split",
    "/v1/graph/invalidate",
)


def graph_attempts(
    scope: dict[str, Any],
) -> list[tuple[str, str, dict[str, Any] | None, dict[str, Any] | None]]:
    """Every graph route aimed at bob's entities; with an empty scope, from alice's own
    namespace, where bob's names are unknown (404). Bob's names are not secrets: the
    404 message repeats the name asked for."""
    return [
        ("GET", "/v1/graph/entities", scope, None),
        ("GET", "/v1/graph/entities/Rex", scope, None),
        ("GET", "/v1/graph/relations", {**scope, "entity": "Rex", "current": "false"}, None),
        ("GET", "/v1/graph/relations", {**scope, "entity": "Bob", "at": "2030-01-01"}, None),
        ("GET", "/v1/graph/timeline/Rex", scope, None),
        ("GET", "/v1/graph/neighbors/Bob", {**scope, "hops": 4}, None),
        ("POST", "/v1/graph/merge", None, {"keep": "Bob", "other": "Rex", **scope}),
        ("POST", "/v1/graph/split", None, {"entity": "Bob", "alias": "bob", **scope}),
        (
            "POST",
            "/v1/graph/invalidate",
            None,
            {"source": "Bob", "relation_type": "has_dog", "target": "Rex", **scope},
        ),
        ("POST", "/v1/graph/dedupe", None, {"threshold": 0.1, "dry_run": False, **scope}),
        ("POST", "/v1/graph/aspects/decay", None, {**scope}),
    ]


def test_alice_cannot_reach_bob_through_any_route(world: World) -> None:
    before = snapshot(world.memory)
    tried = attempts(world)
    with httpx.Client(
        base_url=world.url, timeout=10, headers={"Authorization": f"Bearer {world.keys['alice']}"}
    ) as alice:
        for method, path, params, body in tried:
            response = alice.request(method, path, params=params, json=body)
            assert response.status_code in (403, 404), (
                method,
                path,
                params,
                body,
                response.status_code,
                response.text,
            )
            assert response.json()["error"] in ("forbidden", "not_found")
            assert "Falcon" not in response.text and "PIN hint is" not in response.text
        # Ids alone give 404 (no leak), never 403.
        assert alice.get(f"/v1/memories/{world.bob_id}").status_code == 404
        # Inside her own namespace alice never sees bob's memory or transcript, even
        # naming bob's session key.
        alice.post(
            "/api/memory/remember",
            json={"content": "Alice's dog is called Rex", "session_key": "bob-session"},
        )
        own = alice.post("/v1/recall", json={"query": "dog PIN hint", "expand": True}).json()
        assert own["hits"] and all(h["memory"]["namespace"] == "user:alice" for h in own["hits"])
        assert own["transcripts"] == {}
    assert len(tried) > 130
    assert snapshot(world.memory) == before
    assert world.memory.get_all(namespace="default") == []


def test_a_user_name_prefix_is_not_a_namespace_prefix(world: World) -> None:
    """'ali' reaches user:ali and user:ali/..., not user:alice."""
    with httpx.Client(
        base_url=world.url, timeout=10, headers={"Authorization": f"Bearer {world.keys['ali']}"}
    ) as ali:
        assert ali.get("/v1/memories", params={"namespace": "user:alice"}).status_code == 403
        assert ali.get("/v1/memories", params={"namespace": "user:ali"}).status_code == 200
        made = ali.post("/v1/memories", json={"content": "sub", "namespace": "user:ali/notes"})
        assert made.status_code == 201 and made.json()["namespace"] == "user:ali/notes"


def test_bob_and_admin_reach_bobs_data(world: World) -> None:
    for who in ("bob", "admin"):
        with httpx.Client(
            base_url=world.url, timeout=10, headers={"Authorization": f"Bearer {world.keys[who]}"}
        ) as client:
            got = client.get(f"/v1/memories/{world.bob_id}", params={"namespace": BOB})
            assert got.status_code == 200 and got.json()["tags"] == ["secret"]
            project = client.get(
                f"/v1/memories/{world.bob_project_id}", params={"namespace": BOB_PROJECT}
            )
            assert project.status_code == 200
            recalled = client.post(
                "/v1/recall", json={"query": "PIN hint", "expand": True, "namespace": BOB}
            ).json()
            assert recalled["transcripts"] == {"bob-session": "bob: my PIN hint is the dog"}
    with httpx.Client(
        base_url=world.url, timeout=10, headers={"Authorization": f"Bearer {world.keys['admin']}"}
    ) as admin:
        alice_notes = admin.get("/v1/memories", params={"user_id": "alice"}).json()
        assert [m["content"] for m in alice_notes["items"]] == ["Alice's own note about the dog"]
        # The PIN hint, bob's one palace drawer and his procedure (the tombstone is not
        # counted).
        assert admin.get("/v1/diagnostics").json()["namespaces"][BOB] == 3
    with httpx.Client(
        base_url=world.url, timeout=10, headers={"Authorization": f"Bearer {world.keys['bob']}"}
    ) as bob:
        assert bob.get("/v1/memories", params={"user_id": "alice"}).status_code == 403
        assert bob.get("/v1/diagnostics").status_code == 403


async def _kg_calls(url: str, key: str, namespace: str | None) -> list[Any]:
    headers = {"Authorization": f"Bearer {key}"}
    if namespace:
        headers["X-Engram-Namespace"] = namespace
    calls: list[tuple[str, dict[str, Any]]] = [
        ("kg_query", {"entity": "Rex"}),
        ("kg_query", {"entity": "Bob", "as_of": "2030-01-01", "direction": "outgoing"}),
        ("kg_timeline", {"entity": "Bob"}),
        ("kg_invalidate", {"subject": "Bob", "predicate": "has_dog", "object": "Rex"}),
    ]
    async with (
        httpx2.AsyncClient(headers=headers) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client,
    ):
        return [await client.call_tool(name, args) for name, args in calls]


def test_alice_cannot_reach_bobs_graph_through_the_kg_tools(world: World) -> None:
    """The kg_* MCP tools over /mcp with alice's key work in user:alice, where bob's
    entities are unknown; asking for bob's namespace is refused before any tool runs."""
    before = snapshot(world.memory)
    results = asyncio.run(_kg_calls(world.url, world.keys["alice"], None))
    for result in results:
        assert result.is_error and "no entity" in str(result.content), result.content
        assert "has_dog" not in str(result.content)
    for namespace in (BOB, BOB_PROJECT):
        refused = httpx.post(
            f"{world.url}/mcp",
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                  "params": {"name": "kg_query", "arguments": {"entity": "Rex"}}},
            headers={"Authorization": f"Bearer {world.keys['alice']}",
                     "X-Engram-Namespace": namespace,
                     "Accept": "application/json, text/event-stream"},
        )  # fmt: skip
        assert refused.status_code == 403 and "Rex" not in refused.text
    assert snapshot(world.memory) == before
    # The control: bob's own key reaches his graph through the same tools.
    [query, *_] = asyncio.run(_kg_calls(world.url, world.keys["bob"], None))
    assert not query.is_error
    assert [r["predicate"] for r in query.structured_content["relations"]] == ["has_dog"]
