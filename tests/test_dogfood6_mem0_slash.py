"""A mem0 id with "/" (new-user pass, round six): ``user_id="alice/x"`` landed in
``user:alice/x``, a sub-namespace of alice's that her API key reaches, where mem0
reads it as another user. It now gets an escaped namespace of its own; memories an
older door stored under the plain name stay where they are and are still found."""

from __future__ import annotations

import httpx

from conftest import keyed_server
from engram import Memory as EngramMemory
from engram.compat.mem0 import Memory
from engram.compat.mem0_ids import name_of
from test_dogfood4_mem0_ids import m, texts

__all__ = ["m"]


def test_an_id_with_a_slash_is_another_user_not_a_sub_namespace(m: Memory) -> None:
    assert name_of("user", "alice/x") == "user::alice+2Fx"
    m.add("note of alice", user_id="alice", infer=False)
    added = m.add("note of alice/x", user_id="alice/x", infer=False)["results"][0]
    assert m.engram.get(added["id"], namespace="user::alice+2Fx").content == "note of alice/x"
    assert texts(m.get_all(filters={"user_id": "alice/x"})) == ["note of alice/x"]
    assert texts(m.get_all(filters={"user_id": "alice"})) == ["note of alice"]
    assert "user:alice/x" not in m.engram.store.memories.namespaces()


def test_memories_an_older_door_stored_under_the_plain_name_stay_reachable(m: Memory) -> None:
    # What the door did before: "alice/x" was a plain namespace name.
    old = m.engram.add("stored before", namespace="user:alice/x", user_id="alice/x")
    assert texts(m.get_all(filters={"user_id": "alice/x"})) == ["stored before"]
    assert m.get(old.id)["memory"] == "stored before"
    m.add("stored after", user_id="alice/x", infer=False)
    assert texts(m.search("stored", filters={"user_id": "alice/x"})) == [
        "stored after",
        "stored before",
    ]
    # Both in the one namespace the id has always had: nothing split, nothing lost.
    assert m.engram.store.memories.namespaces().get("user:alice/x") == 2
    m.delete_all(user_id="alice/x")
    assert m.get_all(filters={"user_id": "alice/x"}) == {"results": []}


def test_alices_key_does_not_reach_the_user_alice_slash_x(mem: EngramMemory) -> None:
    with keyed_server(mem, worker=False, mcp=False) as (url, keys):

        def as_(who: str, method: str, **kw: object) -> httpx.Response:
            bearer = {"Authorization": f"Bearer {keys[who]}"}
            return httpx.request(method, f"{url}/mem0/memories", headers=bearer, **kw)  # type: ignore[arg-type]

        said = [{"role": "user", "content": "I like tea"}]
        made = as_("admin", "POST", json={"messages": said, "infer": False, "user_id": "alice/x"})
        assert made.status_code == 200, made.text
        refused = as_("alice", "GET", params={"user_id": "alice/x"})
        assert refused.status_code == 403 and "user::alice+2Fx" in refused.text
