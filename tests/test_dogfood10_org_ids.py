"""Org fact ids as a new user types them (new-user pass, round ten): a unique prefix of
at least 8 characters names the fact on every surface (the library, HTTP, MCP, the
CLI), as memory ids do; an ambiguous prefix says how many facts it matches and changes
nothing; an unknown one says where the ids are listed; tables show ids short."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from mcp import Client

from conftest import HashEmbedder
from conftest import bearer_client as client
from conftest import run_cli as run
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.errors import InvalidInputError, NotFoundError
from engram.mcp.server import create_mcp_server
from engram.org import human

HANA = human("hana")
#: Three facts written in one millisecond share their first 12 characters (the clock).
SHARED = "0190a1b2c3d4"
ONE, TWO, THREE = (SHARED + c * 20 for c in "abc")


@pytest.fixture
def three(monkeypatch: pytest.MonkeyPatch) -> None:
    """New facts get ``ONE``, ``TWO``, ``THREE`` as their ids, in that order."""
    ids = iter([ONE, TWO, THREE])
    monkeypatch.setattr("engram.org.new_id", lambda: next(ids))


def _write_three(mem: Memory) -> None:
    for text in ("ADR-1: Litestar", "ADR-2: uv", "ADR-3: ruff"):
        mem.org.write(text, category="adr", author=HANA)


@pytest.mark.usefixtures("three")
def test_a_unique_prefix_names_the_fact_in_every_verb(mem: Memory) -> None:
    _write_three(mem)
    short = ONE[:13]
    assert mem.org.resolve(short) == ONE
    assert mem.org.resolve(ONE) == ONE
    assert [v.content for v in mem.org.history(short)] == ["ADR-1: Litestar"]
    second = mem.org.write("ADR-1: Litestar 3", category="adr", author=HANA, fact_id=short)
    assert (second.fact_id, second.version) == (ONE, 2)
    assert [e.fact_id for e in mem.org.audit(fact_id=short)] == [ONE, ONE]
    gone = mem.org.retract(short, author=HANA, reason="old")
    assert (gone.fact_id, gone.retracted) == (ONE, True)
    assert sorted(f.fact_id for f in mem.org.facts(include_retracted=True)) == [ONE, TWO, THREE]


@pytest.mark.usefixtures("three")
def test_an_ambiguous_prefix_says_how_many_match_and_writes_nothing(mem: Memory) -> None:
    _write_three(mem)
    for call in (
        lambda: mem.org.write("x", category="adr", author=HANA, fact_id=SHARED),
        lambda: mem.org.retract(SHARED, author=HANA),
        lambda: mem.org.history(SHARED),
    ):
        with pytest.raises(InvalidInputError) as caught:
            call()
        message = str(caught.value)
        assert f"ambiguous id prefix {SHARED!r}: it matches 3 org facts" in message
        assert "give more characters" in message and "engram org list" in message
    assert [f.version for f in mem.org.facts()] == [1, 1, 1]
    assert len(mem.org.audit()) == 3


def test_an_unknown_or_too_short_id_says_where_the_ids_are(mem: Memory) -> None:
    mem.org.write("ADR-1: Litestar", category="adr", author=HANA)
    with pytest.raises(NotFoundError) as unknown:
        mem.org.history("ffffffffffff")
    assert "(as an id or id prefix)" in str(unknown.value)
    assert "GET /v1/org/facts" in str(unknown.value) and "org_query" in str(unknown.value)
    with pytest.raises(InvalidInputError, match="at least 8 characters of the id"):
        mem.org.retract("0190", author=HANA)


@pytest.mark.usefixtures("three")
def test_http_and_mcp_take_a_short_fact_id(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        _write_three(memory)
        key = memory.keys.create("hana", admin=True)[1]
        app = create_app(memory, worker=False, mcp=False)
        with serve_in_thread(app) as url, client(url, key) as c:
            history = c.get(f"/v1/org/facts/{TWO[:13]}")
            assert history.status_code == 200, history.text
            assert [f["fact_id"] for f in history.json()["items"]] == [TWO]
            ambiguous = c.get(f"/v1/org/facts/{SHARED}")
            assert ambiguous.status_code == 422 and "matches 3" in ambiguous.text
            gone = c.post(f"/v1/org/facts/{TWO[:13]}/retract", json={"reason": "old"})
            assert gone.status_code == 200 and gone.json()["fact_id"] == TWO
            audit = c.get("/v1/org/audit", params={"fact_id": TWO[:13]})
            assert [e["fact_id"] for e in audit.json()["items"]] == [TWO, TWO]

        async def over_mcp() -> None:
            async with Client(create_mcp_server(memory, namespace="default", author=HANA)) as m:
                wrote = await m.call_tool(
                    "org_write", {"content": "ADR-3: ruff 2", "category": "adr",
                                  "fact_id": THREE[:13]},
                )  # fmt: skip
                assert not wrote.is_error, wrote.content
                assert wrote.structured_content["fact_id"] == THREE
                assert wrote.structured_content["version"] == 2

        asyncio.run(over_mcp())


@pytest.mark.usefixtures("three")
def test_cli_shows_short_ids_and_takes_them_back(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for text in ("ADR-1: Litestar", "ADR-2: uv"):
        made = run(home, "org", "write", text, "--category", "adr", "--author", "hana")
        assert made.exit_code == 0, made.output
    table = run(home, "org", "list")
    assert table.exit_code == 0, table.output
    # The shortest unique prefix, whole on one line; never the 32 characters wrapped.
    assert ONE[:13] in table.stdout and TWO[:13] in table.stdout
    assert ONE[:14] not in table.stdout and ONE not in table.stdout
    history = run(home, "org", "history", ONE[:13] + "…", "--json")
    assert history.exit_code == 0, history.output
    assert [f["fact_id"] for f in json.loads(history.stdout)] == [ONE]
    again = run(home, "org", "write", "ADR-2: uv 2", "--category", "adr", "--author", "hana",
                "--fact-id", TWO[:13], "--json")  # fmt: skip
    assert json.loads(again.stdout)["version"] == 2
    gone = run(home, "org", "retract", ONE[:13], "--author", "hana")
    assert gone.exit_code == 0 and ONE in gone.stdout
    audit = run(home, "org", "audit")
    assert audit.exit_code == 0 and TWO[:13] in audit.stdout and TWO not in audit.stdout
    ambiguous = run(home, "org", "history", SHARED)
    assert ambiguous.exit_code == 2 and "matches 2 org facts" in ambiguous.output
