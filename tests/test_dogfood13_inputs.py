"""Round twelve's loose ends on input (new-user pass, round thirteen): a namespace that
ends with a separator (``-n "user:"``, the label that starts a chat turn's line) was
stored as a namespace; a too-short id given to a whole-id surface (MCP ``forget``) only
said "not found"; and an id of raw bytes was refused as "a lone surrogate", which says
nothing to someone who typed or pasted it."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from mcp import Client

from conftest import HashEmbedder, HttpServed, run_cli
from engram import Config, Memory
from engram.compat.mem0 import Memory as Mem0Door
from engram.errors import InvalidInputError, NotFoundError
from engram.mcp.server import create_mcp_server

#: What every refusal of an open-ended namespace says: the rule, by its separators.
RULE = "may not start or end with ':' or '/'"


# -- a namespace that starts or ends with a separator ------------------------------------
@pytest.mark.parametrize("name", ["user:", "agent:", ":alice", "user:alice/", "user:alice:"])
def test_a_namespace_open_at_either_end_is_refused_naming_the_rule(mem: Memory, name: str) -> None:
    with pytest.raises(InvalidInputError, match=RULE) as caught:
        mem.add("The boiler was serviced in March.", namespace=name)
    assert repr(name) in str(caught.value)
    with pytest.raises(InvalidInputError, match=RULE):
        mem.recall("when was the boiler serviced?", namespace=name)
    assert mem.browse.namespaces() == []  # nothing stored anywhere


@pytest.mark.parametrize(("who", "value"), [("user_id", "alice:"), ("agent_id", "bot/")])
def test_an_id_that_makes_such_a_namespace_is_named(mem: Memory, who: str, value: str) -> None:
    with pytest.raises(InvalidInputError, match=f"invalid {who} {value!r}") as caught:
        mem.add("Standup is at 9:30.", **{who: value})  # type: ignore[arg-type]
    assert RULE in str(caught.value) and "drop the" in str(caught.value)
    assert mem.browse.namespaces() == []


def test_names_with_inner_separators_are_still_namespaces(mem: Memory) -> None:
    # sub-namespaces, kinds, and the mem0 door's escaped names (``user::<escaped>``)
    for name in ("user:alice/project", "agent:planner", "user::a+231", "team-x", "a:b:c"):
        assert mem.add("The boiler was serviced in March.", namespace=name).namespace == name


def test_the_mem0_door_escapes_an_id_that_ends_with_a_colon(
    config: Config, store_location: str
) -> None:
    with Mem0Door(store_location, config=config, embedder=HashEmbedder()) as door:
        door.add("I am allergic to penicillin.", user_id="alice:", infer=False)
        door.add("I like penicillin-free soap.", user_id="alice", infer=False)
        mine = door.get_all(filters={"user_id": "alice:"})["results"]
        assert [r["memory"] for r in mine] == ["I am allergic to penicillin."]
        assert mine[0]["user_id"] == "alice:"


def test_the_cli_refuses_it_and_creates_no_store(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for args in (("add", "hello", "-n", "user:"), ("recall", "hello", "-n", "user:")):
        said = run_cli(home, *args)
        assert said.exit_code == 2, said.output
        assert RULE in said.output
    said = run_cli(home, "mcp", "--namespace", "user:", "--json")
    assert said.exit_code == 2 and RULE in said.output


def test_http_refuses_it_for_an_admin_and_still_forbids_it_to_a_user(
    http_server: HttpServed,
) -> None:
    url, keys, memory = http_server
    body = {"content": "planted", "namespace": "user:"}
    admin = httpx.post(
        f"{url}/v1/memories", headers={"Authorization": f"Bearer {keys['admin']}"}, json=body
    )
    assert admin.status_code == 422 and RULE in admin.text, admin.text
    # a user's key never reaches it, so the key check answers first (test_api_isolation)
    alice = httpx.post(
        f"{url}/v1/memories", headers={"Authorization": f"Bearer {keys['alice']}"}, json=body
    )
    assert alice.status_code == 403, alice.text
    assert memory.browse.namespaces() == []


# -- a too-short id where only whole ids are taken -------------------------------------
def test_a_too_short_id_is_named_too_short_not_only_not_found(mem: Memory) -> None:
    kept = mem.add("The boiler was serviced in March.", user_id="ann")
    for verb in (
        lambda: mem.delete("abc", user_id="ann"),
        lambda: mem.get("01a2", user_id="ann"),
        lambda: mem.history("abc", user_id="ann"),
        lambda: mem.update("abc", "changed", user_id="ann"),
    ):
        with pytest.raises(NotFoundError, match="'abc' is too short|'01a2' is too short") as c:
            verb()
        assert "give the whole id (32 characters" in str(c.value)
    assert mem.get(kept.id, user_id="ann").content == kept.content


@pytest.mark.anyio
async def test_mcp_forget_of_a_too_short_id_says_so(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        kept = memory.add("The boiler was serviced in March.", user_id="ann")
        async with Client(create_mcp_server(memory, namespace="user:ann")) as client:
            result = await client.call_tool("forget", {"id": "abc"})
        assert result.is_error
        said = result.content[0].text  # type: ignore[union-attr]
        assert "too short to be a memory id" in said and "whole id" in said, said
        assert memory.get(kept.id, user_id="ann").deleted_at is None


def test_http_delete_of_a_too_short_id_says_so(http_server: HttpServed) -> None:
    url, keys, _ = http_server
    auth = {"Authorization": f"Bearer {keys['alice']}"}
    gone = httpx.delete(f"{url}/v1/memories/abc", headers=auth)
    assert gone.status_code == 404 and "too short to be a memory id" in gone.text, gone.text


# -- an id of raw bytes, or half a character -----------------------------------------
def test_an_id_of_raw_bytes_names_the_byte_in_plain_words(mem: Memory) -> None:
    with pytest.raises(InvalidInputError) as caught:
        mem.delete("\udcff\udcfe", user_id="ann")  # what Python makes of bytes ff fe
    said = str(caught.value)
    assert said.startswith("memory id holds the byte 0xff, which is not UTF-8 text"), said
    assert "send it as UTF-8 text" in said


def test_half_a_character_is_named_as_such(mem: Memory) -> None:
    with pytest.raises(InvalidInputError) as caught:
        mem.add("boiler \ud83d", user_id="ann")
    said = str(caught.value)
    assert "half of a character" in said and "\\ud83d" in said, said
    assert mem.browse.namespaces() == []


def test_the_cli_names_the_byte_of_a_forgotten_id(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run_cli(home, "add", "hello", "--user", "ann").exit_code == 0
    said = run_cli(home, "forget", "\udcff\udcfe", "--user", "ann")
    assert said.exit_code == 2
    assert "memory id holds the byte 0xff" in said.output, said.output
    assert "lone surrogate, U+DCFF" in said.output  # the technical name, last


def test_http_names_half_a_character_in_a_body(http_server: HttpServed) -> None:
    url, keys, memory = http_server
    raw = '{"content": "boiler \\ud83d"}'
    made = httpx.post(
        f"{url}/v1/memories",
        headers={"Authorization": f"Bearer {keys['alice']}", "Content-Type": "application/json"},
        content=raw.encode(),
    )
    assert made.status_code == 422 and "half of a character" in json.dumps(made.json())
    assert memory.browse.namespaces() == []


# -- a namespace written before the rule -----------------------------------------------
def test_a_store_that_already_holds_such_a_namespace_keeps_it_working(
    mem: Memory, config: Config, tmp_path: Path
) -> None:
    # round twelve's engram stored `-n "user:"`; its backup must restore and its
    # memories stay readable, exportable and erasable, while no new such name is made
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as source:
        source.add("The boiler was serviced in March.", namespace="user:old")
        with (tmp_path / "backup.jsonl").open("w", encoding="utf-8") as out:
            source.admin.export_jsonl(out)
    backup = tmp_path / "backup.jsonl"
    backup.write_text(backup.read_text("utf-8").replace('"user:old"', '"user:"'), "utf-8")
    assert mem.admin.import_jsonl(backup).memories == 1
    [kept] = mem.get_all(namespace="user:")
    assert kept.content == "The boiler was serviced in March."
    assert mem.recall("when was the boiler serviced?", namespace="user:").hits
    mem.add("The gas meter was read in April.", namespace="user:")
    assert len(mem.get_all(namespace="user:")) == 2
    with pytest.raises(InvalidInputError, match=RULE):  # a new one is still refused
        mem.add("planted", namespace="agent:")
    mem.delete(kept.id, namespace="user:")
