"""Cross-user attempts against every HTTP route and every MCP tool, counted
(docs/reliability.md).

The approach of tests/test_api_isolation.py, tests/test_api_mcp.py and tests/test_mcp.py,
widened and counted: one store with three users (``alice``, ``bob`` and ``ali``, whose
name is a prefix of alice's) and an admin, each user's keys from ``mem.keys.create``,
``create_app`` served on a real socket (no job worker, so every queue stays as the
snapshots saw it). Each victim has a live memory, a tombstoned one, one in a
sub-namespace (``user:<v>/project``), a session transcript, a feedback rating, graph
entities, a processed document, a review item, a dead job and a palace wing, each
carrying a token found nowhere else. Attackers are alice against bob, bob
against alice, and ali against alice.

HTTP: every route, with every way of naming the victim (namespace, user_id, the
sub-namespace, ``user:<victim>/../<attacker>``, ``default``, ``agent:``, a name with the
attacker's name as prefix, ``user:``, a namespace that contradicts the user_id), and by
id from the attacker's own namespace; plus the admin-only routes. (``user:<attacker>/..
/<victim>`` is not tried: it is a sub-namespace of the attacker's own, a plain string,
not a path.) MCP: every tool over ``/mcp`` with the attacker's key (both protocol modes),
every tool asked for the victim's namespace through ``X-Engram-Namespace``, every tool
with a smuggled ``namespace`` argument, and every tool of an in-process server scoped to
the attacker (``create_mcp_server``) against the victim's ids and words.

An attempt leaks if it succeeds where it must be refused (a 2xx response, a tool call
on the victim's id that is not an error), if its response holds one of the victim's
tokens or ids that the attacker did not send, or if anything outside the attacker's own
namespaces changed (checked through the library after every attempt).

    .venv/bin/python scripts/reliability_isolation.py              # JSON
    .venv/bin/python scripts/reliability_isolation.py --markdown   # tables for the docs
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from engram import Config, Memory, NotFoundError
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.mcp.server import TOOL_NAMES, create_mcp_server

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reliability_concurrency import HashEmbedder  # noqa: E402

USERS = ("alice", "bob", "ali")
PAIRS = (("alice", "bob"), ("bob", "alice"), ("ali", "alice"))  # (attacker, victim)
SESSIONS = [f"{u}-session" for u in USERS]


@dataclass
class Victim:
    user: str
    token: str
    live: str = ""
    tombstoned: str = ""
    project: str = ""
    content: str = ""
    document: str = ""
    review: int = 0
    job: int = 0
    pointer: str = ""
    wing: str = ""

    @property
    def ns(self) -> str:
        return f"user:{self.user}"

    @property
    def ids(self) -> list[str]:
        """The victim's memory ids."""
        return [self.live, self.tombstoned, self.project]

    @property
    def secrets(self) -> list[str]:
        """What no response to the attacker may hold unless the attacker sent it."""
        return [self.token, *self.ids, self.document]


@dataclass
class Tally:
    """Attempts and leaks per route or tool."""

    attempts: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    leaks: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    statuses: dict[str, dict[str, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    examples: list[str] = field(default_factory=list)

    def record(self, key: str, status: str, leak: str | None) -> None:
        self.attempts[key] += 1
        self.statuses[key][status] += 1
        if leak:
            self.leaks[key] += 1
            if len(self.examples) < 20:
                self.examples.append(f"{key}: {leak}")


def build(mem: Memory) -> dict[str, Victim]:
    """Each user's data, with a token that appears nowhere else."""
    victims = {}
    for user in USERS:
        v = Victim(user, token=f"zq{user}tok")
        v.content = f"{user}'s vault PIN hint is the dog's name, token {v.token}"
        live = mem.add(v.content, user_id=user, session_id=f"{user}-session", tags=["secret"])
        mem.add_transcript(f"{user}-session", f"{user}: my PIN hint {v.token}", user_id=user)
        mem.feedback(live.id, "up", "keep", user_id=user)
        gone = mem.add(f"{user}'s old address {v.token}old", user_id=user)
        mem.delete(gone.id, user_id=user)
        project = mem.add(f"{user}'s project codename {v.token}proj", namespace=f"{v.ns}/project")
        v.live, v.tombstoned, v.project = live.id, gone.id, project.id
        # Graph entities named with the token, so a leaked name is caught like content.
        owner, dog = f"{user}{v.token}owner", f"{user}{v.token}dog"
        mem.graph.record(live.id, [(owner, "has_dog", dog)], user_id=user)
        mem.graph.record(project.id, [(owner, "leads", dog)], namespace=f"{v.ns}/project")
        document = mem.documents.ingest(
            f"{user}'s launch checklist {v.token}doc", title=f"{v.token}title", user_id=user
        )
        v.document = mem.documents.process(document.id, user_id=user).id
        v.review = mem.store.review.add(
            v.ns,
            live.id,
            target_id=live.id,
            action="DELETE",
            proposal={"action": "DELETE", "content": f"no PIN {v.token}rev", "target_id": live.id},
            reason=f"negates {v.token}why",
            now=live.created_at,
        ).id
        v.job = dead_job(mem, v)
        v.wing, v.pointer = palace(mem, v, USERS.index(user))
        victims[user] = v
    for attacker, victim in PAIRS:  # the victim's pointer names nothing of the attacker's
        try:
            mem.palace.resolve(victims[victim].pointer, user_id=attacker)
        except NotFoundError:
            continue
        raise SystemExit(f"{attacker} has a drawer at {victim}'s pointer: fix palace()")
    return victims


def dead_job(mem: Memory, v: Victim) -> int:
    """A job that failed for good, its payload and error holding the token (what
    ``GET /api/pipeline/status`` reports as the latest failure)."""
    jobs = mem.store.jobs
    job = jobs.enqueue(
        "classify", v.ns, memory_id=v.live, payload={"hint": v.token}, max_attempts=1
    )
    now = job.created_at
    leased = jobs.lease(["classify"], now=now)
    assert leased is not None and leased.id == job.id, "another classify job was pending"
    jobs.fail(job.id, f"RuntimeError: {v.token}err", now=now, retry_at=now + timedelta(hours=1))
    return job.id


def palace(mem: Memory, v: Victim, index: int) -> tuple[str, str]:
    """A wing named with the token, and the pointer of its last drawer. Pointers are
    per namespace (every palace starts at W-001/R-01/D-001), so the shapes differ: the
    first user files two drawers in one room, the others one room each per session
    (the second user two sessions), so that no attacker holds its victim's pointer."""
    wing = f"{v.user}{v.token}wing"
    sessions = [["private"], ["private", "public"], ["private"]][index]
    per_room = 2 if index == 0 else 1
    pointer = ""
    for session in sessions:
        messages = [
            {"role": v.user, "content": f"vault code {n} is in the blue folder {v.token}drawer"}
            for n in range(per_room)
        ]
        mined = mem.palace.mine_conversation(messages, wing=wing, session=session, user_id=v.user)
        pointer = mined.added[-1].pointer
    return wing, pointer


def snapshot(mem: Memory, attacker: str) -> dict[str, Any]:
    """Everything outside the attacker's own namespaces, read through the library."""
    own = f"user:{attacker}"
    out: dict[str, Any] = {}
    for ns in sorted(mem.store.memories.namespaces()):
        if ns == own or ns.startswith(own + "/"):
            continue
        records = mem.get_all(namespace=ns, include_deleted=True, limit=1000)
        loaded = mem.store.vectors.load(ns, HashEmbedder.name)
        out[ns] = {
            "records": [r.to_dict() for r in records],
            "history": {
                r.id: [e.to_dict() for e in mem.history(r.id, namespace=ns)] for r in records
            },
            "feedback": mem.feedback_log(namespace=ns),
            "transcripts": mem.store.transcripts.get(ns, SESSIONS),
            "vectors": (loaded.ids, loaded.matrix.tobytes()),
            "graph": (
                [e.to_dict() for e in mem.graph.entities(1000, namespace=ns)],
                [r.to_dict() for r in mem.graph.relations(None, False, limit=10_000, namespace=ns)],
            ),
            "review": [i.to_dict() for i in mem.review.list(status=None, namespace=ns)],
            "documents": [d.to_dict() for d in mem.documents.list(namespace=ns)],
            "jobs": mem.jobs.list(namespace=ns, limit=1000).to_dict(),
            "palace": [n.to_dict() for n in mem.palace.tree(namespace=ns)],
        }
    return out


def leaked_text(text: str, victim: Victim, sent: str) -> str | None:
    """A victim token or id in ``text`` that the attacker did not send itself."""
    for secret in victim.secrets:
        if secret in text and secret not in sent:
            return f"response holds {secret!r}"
    return None


# -- HTTP -------------------------------------------------------------------------------
def http_attempts(attacker: str, v: Victim) -> list[tuple[str, str, str, Any, Any]]:
    """(route, method, path, params, body) for every route, aimed at ``v``."""
    scopes: list[dict[str, Any]] = [
        {"namespace": v.ns},
        {"user_id": v.user},
        {"namespace": f"{v.ns}/project"},
        {"namespace": f"{v.ns}/../{attacker}"},
        {"namespace": "default"},
        {"namespace": f"agent:{v.user}"},
        {"namespace": f"user:{attacker}x"},
        {"namespace": "user:"},
        {"namespace": v.ns, "user_id": attacker},
    ]
    out = [a for s in scopes for a in scoped_attempts(v, s)]
    # By id from the attacker's own namespace: not found (never "forbidden").
    for mid in v.ids:
        out += [
            ("GET /v1/memories/{id}", "GET", f"/v1/memories/{mid}", None, None),
            ("PATCH /v1/memories/{id}", "PATCH", f"/v1/memories/{mid}", None, {"tags": ["x"]}),
            ("DELETE /v1/memories/{id}", "DELETE", f"/v1/memories/{mid}", None, None),
            ("GET /v1/memories/{id}/history", "GET", f"/v1/memories/{mid}/history", None, None),
            ("POST /api/memories/{id}/feedback", "POST", f"/api/memories/{mid}/feedback", None,
             {"rating": "down"}),
            ("POST /v1/memories/{id}/feedback", "POST", f"/v1/memories/{mid}/feedback", None,
             {"rating": "down"}),
        ]  # fmt: skip
    # The victim's review item, document, job and drawer by id from the attacker's own
    # namespace: 404. Listing and dedupe there are the attacker's own business (200).
    out += by_id_attempts(v, {})
    own = {"GET /v1/graph/entities", "POST /v1/graph/dedupe"}
    out += [a for a in graph_attempts(v, {}) if a[0] not in own]
    out += [
        ("POST /v1/purge", "POST", "/v1/purge", None, {"all_namespaces": True}),
        ("POST /v1/reindex", "POST", "/v1/reindex", None, {"rebuild": True}),
        ("GET /v1/diagnostics", "GET", "/v1/diagnostics", None, None),
    ]
    return out


def scoped_attempts(v: Victim, s: dict[str, Any]) -> list[tuple[str, str, str, Any, Any]]:
    """Every route that takes a scope, with the scope ``s`` naming the victim."""
    mid = v.live
    return [
        ("POST /v1/memories", "POST", "/v1/memories", None, {"content": "planted", **s}),
        ("POST /v1/memories/batch", "POST", "/v1/memories/batch", None,
         {"items": [{"content": "planted"}], **s}),
        ("GET /v1/memories", "GET", "/v1/memories", s, None),
        ("GET /v1/memories/{id}", "GET", f"/v1/memories/{mid}", s, None),
        ("PATCH /v1/memories/{id}", "PATCH", f"/v1/memories/{mid}", s, {"content": "changed"}),
        ("DELETE /v1/memories/{id}", "DELETE", f"/v1/memories/{mid}", s, None),
        ("GET /v1/memories/{id}/history", "GET", f"/v1/memories/{mid}/history", s, None),
        ("POST /api/memories/{id}/feedback", "POST", f"/api/memories/{mid}/feedback", s,
         {"rating": "down"}),
        ("POST /v1/memories/{id}/feedback", "POST", f"/v1/memories/{mid}/feedback", s,
         {"rating": -1}),
        ("GET /v1/feedback", "GET", "/v1/feedback", s, None),
        ("POST /v1/search", "POST", "/v1/search", None, {"query": f"PIN hint {v.token}", **s}),
        ("POST /v1/recall", "POST", "/v1/recall", None,
         {"query": f"PIN hint {v.token}", "expand": True, **s}),
        ("POST /api/memory/recall", "POST", "/api/memory/recall", None,
         {"query": "PIN hint", "expand": True, **s}),
        ("POST /api/memory/remember", "POST", "/api/memory/remember", None,
         {"content": "planted", "session_key": f"{v.user}-session", "transcript": "x", **s}),
        ("POST /v1/transcripts", "POST", "/v1/transcripts", None,
         {"session_key": f"{v.user}-session", "content": "fake", **s}),
        ("POST /v1/purge", "POST", "/v1/purge", None, s),
        ("GET /v1/review", "GET", "/v1/review", {**s, "status": "all"}, None),
        ("POST /v1/documents", "POST", "/v1/documents", None, {"text": "planted", **s}),
        ("GET /v1/documents", "GET", "/v1/documents", s, None),
        ("GET /v1/jobs", "GET", "/v1/jobs", s, None),
        ("GET /api/pipeline/status", "GET", "/api/pipeline/status", s, None),
        ("GET /v1/palace", "GET", "/v1/palace", s, None),
        ("GET /v1/palace", "GET", "/v1/palace", {**s, "wing": v.wing}, None),
        ("POST /v1/palace/mine", "POST", "/v1/palace/mine", None,
         {"messages": [{"content": "planted"}], "wing": v.wing, **s}),
        *by_id_attempts(v, s),
        *graph_attempts(v, s),
    ]  # fmt: skip


def by_id_attempts(v: Victim, s: dict[str, Any]) -> list[tuple[str, str, str, Any, Any]]:
    """The routes naming one of the victim's review items, documents, jobs or drawers."""
    item, job = f"/v1/review/{v.review}", f"/v1/jobs/{v.job}"
    return [
        ("GET /v1/review/{item_id}", "GET", item, s, None),
        ("POST /v1/review/{item_id}/approve", "POST", f"{item}/approve", s, {}),
        ("POST /v1/review/{item_id}/reject", "POST", f"{item}/reject", s, {"note": "x"}),
        ("GET /v1/documents/{document_id}", "GET", f"/v1/documents/{v.document}", s, None),
        ("GET /v1/jobs/{job_id}", "GET", job, s, None),
        ("POST /v1/jobs/{job_id}/retry", "POST", f"{job}/retry", s, None),
        ("GET /v1/palace/resolve", "GET", "/v1/palace/resolve", {**s, "pointer": v.pointer},
         None),
    ]  # fmt: skip


def graph_attempts(v: Victim, s: dict[str, Any]) -> list[tuple[str, str, str, Any, Any]]:
    """The graph routes aimed at the victim's entities; with an empty scope, from the
    attacker's own namespace (where those names are unknown: 404)."""
    owner, dog = f"{v.user}{v.token}owner", f"{v.user}{v.token}dog"
    return [
        ("GET /v1/graph/entities", "GET", "/v1/graph/entities", s, None),
        ("GET /v1/graph/entities/{name}", "GET", f"/v1/graph/entities/{owner}", s, None),
        ("GET /v1/graph/relations", "GET", "/v1/graph/relations",
         {**s, "entity": owner, "current": "false"}, None),
        ("GET /v1/graph/timeline/{name}", "GET", f"/v1/graph/timeline/{dog}", s, None),
        ("GET /v1/graph/neighbors/{name}", "GET", f"/v1/graph/neighbors/{owner}",
         {**s, "hops": 4}, None),
        ("POST /v1/graph/merge", "POST", "/v1/graph/merge", None,
         {"keep": owner, "other": dog, **s}),
        ("POST /v1/graph/split", "POST", "/v1/graph/split", None,
         {"entity": owner, "alias": owner, **s}),
        ("POST /v1/graph/invalidate", "POST", "/v1/graph/invalidate", None,
         {"source": owner, "relation_type": "has_dog", "target": dog, **s}),
        ("POST /v1/graph/dedupe", "POST", "/v1/graph/dedupe", None,
         {"threshold": 0.0, "dry_run": False, **s}),
    ]  # fmt: skip


def run_http(mem: Memory, url: str, keys: dict[str, str], victims: dict[str, Victim]) -> Tally:
    tally = Tally()
    for attacker, victim in PAIRS:
        v = victims[victim]
        headers = {"Authorization": f"Bearer {keys[attacker]}"}
        with httpx.Client(base_url=url, timeout=30, headers=headers) as client:
            for route, method, path, params, body in http_attempts(attacker, v):
                before = snapshot(mem, attacker)
                response = client.request(method, path, params=params, json=body)
                sent = json.dumps([path, params, body])
                leak = None
                if response.is_success:
                    leak = f"{response.status_code} for {method} {path} {params} {body}"
                leak = leak or leaked_text(response.text, v, sent)
                if snapshot(mem, attacker) != before:
                    leak = leak or f"changed another namespace: {method} {path} {params} {body}"
                tally.record(route, str(response.status_code), leak)
    return tally


# -- MCP --------------------------------------------------------------------------------
def tool_attempts(v: Victim) -> list[tuple[str, dict[str, Any], bool]]:
    """(tool, arguments, must fail) aimed at ``v`` from the attacker's own namespace."""
    queries = [v.content, v.token, "vault PIN hint dog", f"project codename {v.token}proj"]
    # Reads first, then writes, so that the control run (run_control), which may reach
    # the victim, still finds the victim's memory to read.
    out: list[tuple[str, dict[str, Any], bool]] = [
        ("recall_memory", {"ids": [mid]}, True) for mid in v.ids
    ]
    for q in queries:
        out += [
            ("search_memory", {"query": q, "limit": 50}, False),
            ("get_context", {"task": q, "limit": 50}, False),
            ("get_context", {"task": q, "limit": 50, "style": "memory_context"}, False),
        ]
    out += [("list_memories", {"limit": 100}, False), ("list_memories", {}, False)]
    owner, dog = f"{v.user}{v.token}owner", f"{v.user}{v.token}dog"
    out += [
        ("kg_query", {"entity": owner}, True),
        ("kg_query", {"entity": dog, "as_of": "2100-01-01", "direction": "incoming"}, True),
        ("kg_timeline", {"entity": owner}, True),
        ("kg_invalidate", {"subject": owner, "predicate": "has_dog", "object": dog}, True),
        ("palace_tree", {}, False),
        ("palace_tree", {"wing": v.wing}, True),
        ("resolve_pointer", {"pointer": v.pointer}, True),
        ("resolve_pointer", {"pointer": f"{v.pointer} @p {v.user}"}, True),
        # Writes in the attacker's own namespace: nothing of the victim's changes, and
        # the answer holds nothing of the victim's.
        ("ingest_document", {"text": f"planted about {v.user}", "title": "planted"}, False),
        ("mine_conversation", {"messages": [{"content": "planted"}], "wing": "planted"}, False),
        ("mine_conversation",
         {"messages": [{"role": v.user, "content": "planted"}], "wing": v.user,
          "session": "private", "kind": "person"}, False),
    ]  # fmt: skip
    for mid in v.ids:
        out += [
            ("feedback", {"id": mid, "rating": "down"}, True),
            ("feedback", {"id": mid, "rating": "up"}, True),
            ("forget", {"id": mid}, True),
        ]
    # Smuggling the victim's namespace in as an argument is refused outright.
    valid: dict[str, dict[str, Any]] = {
        "get_context": {"task": "t"},
        "search_memory": {"query": v.token},
        "recall_memory": {"ids": [v.live]},
        "remember": {"content": "planted"},
        "feedback": {"id": v.live, "rating": "up"},
        "forget": {"id": v.live},
        "list_memories": {},
        "ingest_document": {"text": "planted"},
        "kg_query": {"entity": owner},
        "kg_timeline": {"entity": owner},
        "kg_invalidate": {"subject": owner, "predicate": "has_dog", "object": dog},
        "palace_tree": {"wing": v.wing},
        "mine_conversation": {"messages": [{"content": "planted"}], "wing": v.wing},
        "resolve_pointer": {"pointer": v.pointer},
    }
    for tool in TOOL_NAMES:
        for key in ("namespace", "user_id"):
            value = v.ns if key == "namespace" else v.user
            out.append((tool, {**valid[tool], key: value}, True))
    # The victim's exact words stored by the attacker: a new memory, never a dedup across.
    out.append(("remember", {"content": v.content}, False))
    return out


def _text(result: Any) -> str:
    blocks = " ".join(getattr(b, "text", "") for b in result.content)
    return blocks + json.dumps(result.structured_content, default=str)


async def _attack(
    client: Client,
    mem: Memory,
    attacker: str,
    v: Victim,
    transport: str,
    tally: Tally,
    writes_to: str | None = None,
) -> None:
    """Every tool attempt from a client whose server writes to ``writes_to`` (the
    attacker's ``user:`` namespace unless given)."""
    for tool, args, must_fail in tool_attempts(v):
        before = snapshot(mem, attacker)
        result = await client.call_tool(tool, args)
        text = _text(result)
        leak = None
        if must_fail and not result.is_error:
            leak = f"{tool} {args} succeeded"
        leak = leak or leaked_text(text, v, json.dumps(args))
        if tool == "remember" and not result.is_error:
            made = result.structured_content or {}
            if made.get("id") in v.ids or made.get("created") is not True:
                leak = leak or f"remember deduplicated into the victim's memory: {made}"
            # The harness (not the attacker) tombstones the copy, so the victim's words
            # in the attacker's namespace cannot show up in a later attempt's results.
            mem.delete(str(made["id"]), namespace=writes_to or f"user:{attacker}")
        if snapshot(mem, attacker) != before:
            leak = leak or f"{tool} {args} changed another namespace"
        tally.record(tool, transport, leak)


@asynccontextmanager
async def over_http(url: str, key: str, mode: str) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {key}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http), mode=mode) as client,
    ):
        yield client


async def run_mcp(mem: Memory, url: str, keys: dict[str, str], victims: dict[str, Victim]) -> Tally:
    tally = Tally()
    for attacker, victim in PAIRS:
        v = victims[victim]
        for mode in ("auto", "legacy"):
            async with over_http(url, keys[attacker], mode) as client:
                await _attack(client, mem, attacker, v, f"http-{mode}", tally)
        server = create_mcp_server(mem, namespace=f"user:{attacker}")
        async with Client(server) as client:
            await _attack(client, mem, attacker, v, "in-process", tally)
        # The victim's namespace asked for by header: refused before any tool runs.
        async with httpx.AsyncClient(timeout=30) as http:
            for i, (tool, args, _) in enumerate(tool_attempts(v)):
                for namespace in (v.ns, f"{v.ns}/project"):
                    before = snapshot(mem, attacker)
                    response = await http.post(
                        f"{url}/mcp",
                        json={"jsonrpc": "2.0", "id": i, "method": "tools/call",
                              "params": {"name": tool, "arguments": args}},
                        headers={"Authorization": f"Bearer {keys[attacker]}",
                                 "X-Engram-Namespace": namespace,
                                 "Accept": "application/json, text/event-stream"},
                    )  # fmt: skip
                    leak = None
                    if response.status_code != 403:
                        leak = f"X-Engram-Namespace {namespace}: {response.status_code}"
                    leak = leak or leaked_text(response.text, v, json.dumps(args))
                    if snapshot(mem, attacker) != before:
                        leak = leak or f"{tool} via header changed another namespace"
                    tally.record(tool, "http-header", leak)
    return tally


async def run_control(mem: Memory, url: str, victims: dict[str, Victim]) -> dict[str, int]:
    """The detector's own check, run last (it changes the victim's data): the same
    attempts made by callers that may reach the victim must count as leaks. An MCP
    server scoped to the victim's own namespace, then an admin key over HTTP."""
    v = victims["bob"]
    mcp = Tally()
    async with Client(create_mcp_server(mem, namespace=v.ns)) as client:
        # As "alice", so the snapshot covers bob's namespace.
        await _attack(client, mem, "alice", v, "in-process", mcp, writes_to=v.ns)
    admin = mem.keys.create("root", admin=True)[1]
    http = Tally()
    with httpx.Client(base_url=url, timeout=30, headers={"Authorization": f"Bearer {admin}"}) as c:
        for route, method, path, params, body in scoped_attempts(v, {"namespace": v.ns}):
            response = c.request(method, path, params=params, json=body)
            sent = json.dumps([path, params, body])
            leak = "2xx" if response.is_success else leaked_text(response.text, v, sent)
            http.record(route, str(response.status_code), leak)
    return {"http": sum(http.leaks.values()), "mcp": sum(mcp.leaks.values())}


def report(http: Tally, mcp: Tally, routes: list[str], seconds: float) -> dict[str, Any]:
    return {
        "http": {
            r: {"attempts": http.attempts.get(r, 0), "leaks": http.leaks.get(r, 0),
                "statuses": dict(http.statuses.get(r, {}))}
            for r in routes
        },
        "mcp": {
            t: {"attempts": mcp.attempts.get(t, 0), "leaks": mcp.leaks.get(t, 0),
                "by_transport": dict(mcp.statuses.get(t, {}))}
            for t in TOOL_NAMES
        },
        "http_attempts": sum(http.attempts.values()),
        "http_leaks": sum(http.leaks.values()),
        "mcp_attempts": sum(mcp.attempts.values()),
        "mcp_leaks": sum(mcp.leaks.values()),
        "leak_examples": http.examples + mcp.examples,
        "seconds": round(seconds, 1),
    }  # fmt: skip


def markdown(result: dict[str, Any]) -> str:
    lines = ["| route | cross-user attempts | leaked | responses |", "|---|---|---|---|"]
    for route, row in result["http"].items():
        statuses = ", ".join(f"{n}× {s}" for s, n in sorted(row["statuses"].items()))
        lines.append(f"| `{route}` | {row['attempts']} | {row['leaks']} | {statuses or '—'} |")
    lines += ["", "| MCP tool | cross-user attempts | leaked | by transport |", "|---|---|---|---|"]
    for tool, row in result["mcp"].items():
        by = ", ".join(f"{t} {n}" for t, n in sorted(row["by_transport"].items()))
        lines.append(f"| `{tool}` | {row['attempts']} | {row['leaks']} | {by} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print tables, then the JSON")
    args = parser.parse_args()
    started = time.perf_counter()
    home = tempfile.TemporaryDirectory(prefix="engram-isolation-")
    config = Config.load(env={}, home=home.name)
    with home, Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
        victims = build(mem)
        keys = {user: mem.keys.create(user)[1] for user in USERS}
        # No worker: the victims' queued jobs stay exactly as each snapshot saw them.
        app = create_app(mem, worker=False)
        # Every route the app serves, from its OpenAPI schema; /health is public and
        # holds no user data.
        routes = [
            f"{method.upper()} {path.replace('{memory_id}', '{id}')}"
            for path, ops in app.openapi()["paths"].items()
            for method in ops
            if path != "/health"
        ]
        with serve_in_thread(app) as url:
            http = run_http(mem, url, keys, victims)
            mcp = asyncio.run(run_mcp(mem, url, keys, victims))
            control = asyncio.run(run_control(mem, url, victims))
        result = report(http, mcp, routes, time.perf_counter() - started)
        result["control_leaks_detected"] = control
        unknown = sorted(set(http.attempts) - set(routes))
        if unknown:  # an attempt aimed at a route the app does not have: a stale list
            raise SystemExit(f"attempted routes the app does not serve: {unknown}")
    if args.markdown:
        print(markdown(result))
    print(json.dumps(result))
    untried = [r for r, row in result["http"].items() if not row["attempts"]]
    blind = not all(control.values())
    sys.exit(1 if result["http_leaks"] or result["mcp_leaks"] or untried or blind else 0)


if __name__ == "__main__":
    main()
