"""Agent keys, the rest (left39, after keys38).

- mem0's REST shape (``POST /mem0/memories``) and ``POST /v1/procedures`` with an
  agent's key write as the key's agent, as ``POST /v1/memories`` does; naming another
  agent is 403 there too;
- ``POST /v1/keys``: an admin creates a key over HTTP, the same as ``engram keys create
  --user U --agent A``; the secret is answered once and works; a user's key is 403.

The crew of ``tests/test_keys38_agent_keys.py`` (dana's planner, coder and reviewer).
"""

from __future__ import annotations

import httpx

import test_keys38_agent_keys as keys38
from test_keys38_agent_keys import TEAM, Crew

crew = keys38.crew  # the crew's server and keys, one fixture for both rounds

FAILURE = {
    "task": "Run the database migrations for the billing service",
    "error": "psycopg.OperationalError: connection refused (port 5433)",
    "steps": ["alembic upgrade head", "alembic upgrade head --sql"],
    "trace": "File migrate.py, line 12, in connect",
}


def _as(crew: Crew, key: str) -> httpx.Client:
    return httpx.Client(base_url=crew.url, timeout=10, headers={"Authorization": f"Bearer {key}"})


def test_mem0_adds_with_an_agents_key_are_the_agents(crew: Crew) -> None:
    with _as(crew, crew.keys["coder"]) as coder:
        made = coder.post(
            "/mem0/memories",
            json={
                "messages": [{"role": "user", "content": "The limiter bucket holds 40"}],
                "user_id": "dana",
                "infer": False,
            },
        )
        assert made.status_code == 200, made.text
        [result] = made.json()["results"]
        stored = crew.memory.get(result["id"], namespace=TEAM)
        assert stored.agent_id == "coder"
        other = coder.post(
            "/mem0/memories",
            json={
                "messages": [{"role": "user", "content": "as the planner"}],
                "user_id": "dana",
                "agent_id": "planner",
                "infer": False,
            },
        )
        assert other.status_code == 403, other.text
    # A key of no agent writes what it names, as before.
    with _as(crew, crew.keys["dana"]) as dana:
        made = dana.post(
            "/mem0/memories",
            json={
                "messages": [{"role": "user", "content": "Dana's own note"}],
                "user_id": "dana",
                "infer": False,
            },
        )
        [result] = made.json()["results"]
        assert crew.memory.get(result["id"], namespace=TEAM).agent_id is None


def test_a_procedure_written_with_an_agents_key_is_the_agents(crew: Crew) -> None:
    with _as(crew, crew.keys["coder"]) as coder:
        made = coder.post("/v1/procedures", json=FAILURE)
        assert made.status_code == 200, made.text
        memory_id = made.json()["memory_id"]
        assert memory_id is not None
        assert crew.memory.get(memory_id, namespace=TEAM).agent_id == "coder"
        other = coder.post("/v1/procedures", params={"agent_id": "planner"}, json=FAILURE)
        assert other.status_code == 403, other.text


def test_an_admin_creates_an_agents_key_over_http(crew: Crew) -> None:
    admin = crew.memory.keys.create("ops", admin=True)[1]
    with _as(crew, admin) as ops:
        made = ops.post("/v1/keys", json={"user": "dana", "agent": "tester", "name": "ci"})
        assert made.status_code == 201, made.text
        body = made.json()
        assert (body["user"], body["agent"], body["admin"], body["name"]) == (
            "dana",
            "tester",
            False,
            "ci",
        )
        assert body["key"].startswith("engram_")
        listed = {k.id: k for k in crew.memory.keys.list()}
        assert listed[body["id"]].agent == "tester"
        # the admin and agent rules of ``keys create``
        both = ops.post("/v1/keys", json={"user": "dana", "agent": "x", "admin": True})
        assert both.status_code == 422, both.text
        assert ops.post("/v1/keys", json={"user": "dana/x"}).status_code == 422
    # the secret works, as the tester of dana: its writes are the tester's
    with _as(crew, body["key"]) as tester:
        wrote = tester.post("/v1/memories", json={"content": "Tester ran the suite"})
        assert wrote.status_code == 201 and wrote.json()["agent_id"] == "tester"
        assert tester.post("/v1/keys", json={"user": "dana"}).status_code == 403
    with _as(crew, crew.keys["dana"]) as dana:
        refused = dana.post("/v1/keys", json={"user": "dana", "agent": "coder"})
        assert refused.status_code == 403, refused.text
