"""mem0's REST shape under /mem0 (issue 27), over a served app on both backends: the
requests are shaped as mem0's open-source server takes them, with engram's keys."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from conftest import keyed_server
from engram import Memory


@pytest.fixture
def served(mem: Memory) -> Iterator[tuple[str, dict[str, str]]]:
    with keyed_server(mem, worker=False, mcp=False) as (url, keys):
        yield url, keys


def client(url: str, key: str | None) -> httpx.Client:
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    return httpx.Client(base_url=f"{url}/mem0", headers=headers, timeout=30)


def memories(body: dict[str, Any]) -> set[str]:
    return {r["memory"] for r in body["results"]}


CHAT = [
    {"role": "system", "content": "You are a cooking assistant."},
    {"role": "user", "content": "I am vegetarian", "name": "Alice"},
    {"role": "assistant", "content": "Noted: no meat in your recipes."},
]


def test_the_mem0_server_flow(served: tuple[str, dict[str, str]]) -> None:
    url, keys = served
    with client(url, keys["alice"]) as alice:
        made = alice.post(
            "/memories",
            json={"messages": CHAT, "user_id": "alice", "agent_id": "chef", "infer": False}
            | {"metadata": {"topic": "diet"}},
        )
        assert made.status_code == 200, made.text
        first, second = made.json()["results"]
        assert (first["memory"], first["role"], first["actor_id"]) == (
            "I am vegetarian",
            "user",
            "Alice",
        )
        assert second["role"] == "assistant" and second["event"] == "ADD"

        listed = alice.get("/memories", params={"user_id": "alice"}).json()
        assert memories(listed) == {"I am vegetarian", "Noted: no meat in your recipes."}
        by_agent = alice.get("/memories", params={"agent_id": "chef"}).json()
        assert memories(by_agent) == memories(listed)

        got = alice.get(f"/memories/{first['id']}").json()
        assert got["score"] is None and got["metadata"] == {"topic": "diet"}
        assert got["agent_id"] == "chef" and got["actor_id"] == "Alice"

        found = alice.post(
            "/search",
            json={"query": "vegetarian", "user_id": "alice", "filters": {"role": "user"}},
        ).json()
        assert [r["memory"] for r in found["results"]] == ["I am vegetarian"]
        assert isinstance(found["results"][0]["score"], float)

        put = alice.put(f"/memories/{first['id']}", json={"text": "I am vegan"})
        assert put.json() == {"message": "Memory updated successfully!"}
        history = alice.get(f"/memories/{first['id']}/history").json()
        assert [(h["event"], h["new_memory"]) for h in history] == [
            ("ADD", "I am vegetarian"),
            ("UPDATE", "I am vegan"),
        ]
        assert alice.get("/memories/no-such-id/history").json() == []
        assert alice.get("/memories/no-such-id").json() is None

        gone = alice.delete(f"/memories/{first['id']}")
        assert gone.json() == {"message": "Memory deleted successfully!"}
        assert alice.delete(f"/memories/{first['id']}").status_code == 404
        assert alice.put("/memories/no-such-id", json={"text": "x"}).status_code == 404

        assert alice.delete("/memories").status_code == 422  # mem0 refuses it too
        wiped = alice.delete("/memories", params={"user_id": "alice"})
        assert wiped.json() == {"message": "Memories deleted successfully!"}
        assert alice.get("/memories", params={"user_id": "alice"}).json() == {"results": []}


def test_keys_confine_the_door(served: tuple[str, dict[str, str]]) -> None:
    url, keys = served
    with client(url, keys["alice"]) as alice, client(url, keys["bob"]) as bob:
        made = alice.post(
            "/memories",
            json={"messages": [{"role": "user", "content": "My PIN is 1234"}], "infer": False}
            | {"agent_id": "bank"},
        ).json()
        [mine] = made["results"]
        # A user key writes in its own namespace: the memory is the key user's.
        assert alice.get(f"/memories/{mine['id']}").json()["user_id"] == "alice"
        assert bob.get(f"/memories/{mine['id']}").json() is None
        assert bob.get("/memories", params={"agent_id": "bank"}).json() == {"results": []}
        assert bob.delete(f"/memories/{mine['id']}").status_code == 404
        assert bob.get(f"/memories/{mine['id']}/history").json() == []
        denied = bob.post("/search", json={"query": "PIN", "user_id": "alice"})
        assert denied.status_code == 403, denied.text
        assert bob.post("/reset").status_code == 403
    with client(url, None) as nobody:
        assert nobody.get("/memories", params={"user_id": "alice"}).status_code == 401
    with client(url, keys["admin"]) as admin:
        assert admin.get("/memories", params={"agent_id": "bank"}).json()["results"] != []
        assert admin.post("/reset").json() == {"message": "Reset all memories"}
        assert admin.get("/memories", params={"agent_id": "bank"}).json() == {"results": []}


def test_bad_requests_are_422(served: tuple[str, dict[str, str]]) -> None:
    url, keys = served
    with client(url, keys["alice"]) as alice:
        assert (
            alice.post("/memories", json={"messages": "hi", "user_id": "alice"}).status_code == 422
        )
        unknown_op = alice.post(
            "/search", json={"query": "x", "filters": {"user_id": "alice", "n": {"between": 1}}}
        )
        assert unknown_op.status_code == 422 and "between" in unknown_op.text
        assert (
            alice.post("/search", json={"query": "x", "user_id": "alice", "top_k": -1}).status_code
            == 422
        )


def test_an_inferred_add_that_keeps_its_conversation_in_view_is_not_a_500(
    served: tuple[str, dict[str, str]],
) -> None:
    # The door tells a library caller with a UserWarning why the conversation stays
    # listed; a server has no caller to warn (and under -W error the warning was a 500),
    # so the route logs it and answers mem0's shape.
    url, keys = served
    with client(url, keys["alice"]) as alice:
        made = alice.post(
            "/memories",
            json={"messages": [{"role": "user", "content": "ok thanks"}], "user_id": "alice"},
        )
        assert made.status_code == 200, made.text
        [item] = made.json()["results"]
        assert (item["memory"], item["event"]) == ("user: ok thanks", "ADD")
