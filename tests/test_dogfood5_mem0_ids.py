"""mem0 ids with characters engram's namespace names do not take (new-user pass, round
five): mem0 stores ``user_id="a#1"``; the door refused it. Each id now gets a
namespace of its own, escaped (``engram.compat.mem0_ids``), and no two ids share one."""

from __future__ import annotations

import httpx
import pytest

from conftest import keyed_server
from engram import Memory as EngramMemory
from engram.compat.mem0 import Memory
from engram.compat.mem0_ids import name_of
from engram.errors import InvalidInputError
from test_dogfood4_mem0_ids import m, texts

__all__ = ["m"]  # the door fixture, shared with test_dogfood4_mem0_ids.py


#: Ids mem0 takes that engram's namespace names do not, and plain ids an escaping
#: could be confused with.
IDS = ["a#1", "a+231", ":a#1", "josé", "org,42", "ユーザー", "a", "+23"]


def test_ids_outside_the_namespace_characters_work_and_stay_apart(m: Memory) -> None:
    for who in IDS:
        m.add(f"note of {who}", user_id=who, agent_id="bot#7", infer=False)
    for who in IDS:
        listed = m.get_all(filters={"user_id": who})
        assert texts(listed) == [f"note of {who}"]
        assert listed["results"][0]["user_id"] == who
        assert texts(m.search("note", filters={"user_id": who})) == [f"note of {who}"]
    # An agent-only read looks through every user's namespace, as before.
    assert len(m.get_all(filters={"agent_id": "bot#7"})["results"]) == len(IDS)
    m.delete_all(user_id="a#1")
    assert m.get_all(filters={"user_id": "a#1"}) == {"results": []}
    assert texts(m.get_all(filters={"user_id": "a+231"})) == ["note of a+231"]


def test_an_agent_or_run_id_alone_gets_an_escaped_namespace_too(m: Memory) -> None:
    added = m.add("agent note", agent_id="bot#7", infer=False)["results"][0]
    m.add("run note", run_id="r#1", infer=False)
    assert texts(m.get_all(filters={"agent_id": "bot#7"})) == ["agent note"]
    assert texts(m.get_all(filters={"run_id": "r#1"})) == ["run note"]
    assert m.get(added["id"])["memory"] == "agent note"
    assert m.engram.get(added["id"], namespace="agent::bot+237").content == "agent note"


def test_names_are_one_to_one() -> None:
    names = [name_of("user", who) for who in IDS]
    assert len(set(names)) == len(IDS)
    assert name_of("user", "alice@example.com") == "user:alice@example.com"  # unchanged
    assert name_of("user", "a#1") == "user::a+231"


def test_an_id_too_long_to_escape_is_refused_by_name(m: Memory) -> None:
    with pytest.raises(InvalidInputError, match="user_id 'éééé.*too long"):
        m.add("x", user_id="é" * 70, infer=False)


def test_the_mem0_server_takes_such_an_id_and_keeps_other_keys_out(mem: EngramMemory) -> None:
    with keyed_server(mem, worker=False, mcp=False) as (url, keys):
        base = f"{url}/mem0"
        admin = {"Authorization": f"Bearer {keys['admin']}"}
        alice = {"Authorization": f"Bearer {keys['alice']}"}
        body = {"messages": [{"role": "user", "content": "I like tea"}], "infer": False}
        made = httpx.post(f"{base}/memories", json=body | {"user_id": "a#1"}, headers=admin)
        assert made.status_code == 200, made.text
        listed = httpx.get(f"{base}/memories", params={"user_id": "a#1"}, headers=admin)
        assert [r["memory"] for r in listed.json()["results"]] == ["I like tea"]
        refused = httpx.get(f"{base}/memories", params={"user_id": "a#1"}, headers=alice)
        assert refused.status_code == 403 and "user::a+231" in refused.text
