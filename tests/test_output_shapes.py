"""One output shape per concept across the library, the CLI's --json, HTTP and MCP:
lists are ``{items, total, limit, offset}``, timestamps end in ``Z``, and a hit's score
breakdown has the same field names everywhere."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from mcp import Client

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.cli.main import cli
from engram.mcp.server import create_mcp_server
from engram.records import Page

ISO_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
LIST_KEYS = {"items", "total", "limit", "offset"}
#: The CLI opens the store itself; without a model it needs no weights (keyword recall).
KEYWORD_ONLY = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}


def fill(mem: Memory) -> None:
    for i in range(5):
        mem.add(f"memory number {i} about kites", user_id="alice", tags=["kites"])
    mem.add("one about gliders", user_id="alice")


def _cli_json(tmp_path: Path, db: Path, *args: str) -> Any:
    """``engram ARGS --json`` on the store ``db`` (keyword-only), its output parsed."""
    home = ["--home", str(tmp_path / "home"), "--db", str(db)]
    run = CliRunner(env=KEYWORD_ONLY).invoke(cli, [*home, *args, "--json"])
    assert run.exit_code == 0, run.output
    return json.loads(run.output)


def test_get_all_is_a_page(mem: Memory) -> None:
    fill(mem)
    page = mem.get_all(user_id="alice", limit=2, offset=1, filters={"tags": ["kites"]})
    assert isinstance(page, Page) and len(page) == 2
    assert (page.total, page.limit, page.offset) == (5, 2, 1)
    assert page.to_dict().keys() == LIST_KEYS
    whole = mem.get_all(user_id="alice")
    assert whole.total == 6 and tuple(whole) == whole.records
    assert mem.get_all(user_id="nobody") == []


def test_http_cli_and_mcp_list_the_same_way(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "shapes.db"
    with Memory(path, config=config, embedder=HashEmbedder()) as mem:
        fill(mem)
        http = TestClient(create_app(mem, auth=False, mcp=False)).get(
            "/v1/memories", params={"user_id": "alice", "limit": 2}
        )
    assert http.status_code == 200
    listed = http.json()
    assert listed.keys() == LIST_KEYS and listed["total"] == 6
    cli_list = _cli_json(tmp_path, path, "list", "--user", "alice", "-k", "2")
    assert cli_list.keys() == LIST_KEYS
    assert [m["id"] for m in cli_list["items"]] == [m["id"] for m in listed["items"]]
    for item in (*listed["items"], *cli_list["items"]):
        assert ISO_Z.match(item["created_at"]) and ISO_Z.match(item["updated_at"])


@pytest.mark.anyio
async def test_mcp_lists_with_the_same_keys(mem: Memory) -> None:
    fill(mem)
    async with Client(create_mcp_server(mem, namespace="user:alice")) as client:
        result = await client.call_tool("list_memories", {"limit": 2})
    data = result.structured_content
    assert data is not None and data.keys() >= LIST_KEYS
    assert (data["total"], data["limit"], data["offset"], data["next_offset"]) == (6, 2, 0, 2)
    assert all(ISO_Z.match(item["created_at"]) for item in data["items"])


def test_breakdown_names_match_between_library_http_and_cli(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "b.db"
    with Memory(path, config=config, embedder=HashEmbedder()) as mem:
        fill(mem)
        names = set(mem.search("kites", user_id="alice")[0].breakdown.to_dict())
        http = TestClient(create_app(mem, auth=False, mcp=False)).post(
            "/v1/search", json={"query": "kites", "user_id": "alice"}
        )
    assert set(http.json()["hits"][0]["breakdown"]) == names
    out = _cli_json(tmp_path, path, "search", "kites", "--user", "alice")
    hits = out["hits"] if isinstance(out, dict) else out
    assert set(hits[0]["breakdown"]) == names


def test_timestamps_end_in_z(mem: Memory) -> None:
    record = mem.add("a timestamped memory")
    data = record.to_dict()
    assert ISO_Z.match(data["created_at"]) and data["deleted_at"] is None
    assert ISO_Z.match(mem.history(record.id)[0].to_dict()["created_at"])
    key, _ = mem.keys.create("alice")
    assert ISO_Z.match(key.to_dict()["created_at"])
