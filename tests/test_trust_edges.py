"""Issue 26 ("Trust at the edges, round two"): bad input at every surface is answered
clearly, never with a 500 or a bare Python error.

- item 7: integer ids past the store's 64-bit INTEGER, on every HTTP route with an
  integer parameter (found in the OpenAPI document, so a new route is covered) with a
  user and an admin key, and in the library's ``review``/``jobs`` verbs;
- item 8: JSON nested past the recursion limit sent to ``/mcp``;
- item 10: the guides' examples call the library as it is (every ``mem.<verb>(...)`` in
  a guide's Python blocks binds to the verb's signature), and a JSON body that is not
  UTF-8 is a 422, as docs/http.md says;
- item 19: blank content over HTTP says "content is empty"; deleting a memory twice
  means the same on every surface (the second delete succeeds and changes nothing).
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder, Served
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.errors import InvalidInputError, NotFoundError

DOCS = Path(__file__).resolve().parents[1] / "docs"

#: The largest id both engines' signed 64-bit INTEGER holds.
MAX_ROW_ID = 2**63 - 1


@pytest.fixture
def served(config: Config) -> Iterator[Served]:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        keys = {"alice": memory.keys.create("alice")[1]}
        keys["admin"] = memory.keys.create("root", admin=True)[1]
        with serve_in_thread(create_app(memory)) as url:
            yield Served(url, memory, keys)


def integer_parameters(spec: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """``(method, path, where, name)`` of every integer path or query parameter."""
    found = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            for p in operation.get("parameters", []):
                if '"integer"' in json.dumps(p["schema"]) and p["in"] in ("path", "query"):
                    found.append((method.upper(), path, p["in"], p["name"]))
    return found


# -- item 7 ----------------------------------------------------------------------------
@pytest.mark.parametrize("who", ["alice", "admin"])
def test_integers_past_64_bits_are_422_on_every_route(served: Served, who: str) -> None:
    with served.client(who) as http:
        parameters = integer_parameters(http.get("/openapi.json").json())
        id_routes = {(m, p) for m, p, where, _ in parameters if where == "path"}
        # the review and job routes of issue 26's report, at least
        assert ("POST", "/v1/review/{item_id}/approve") in id_routes
        assert ("POST", "/v1/jobs/{job_id}/retry") in id_routes
        for method, path, where, name in parameters:
            for big in (MAX_ROW_ID + 1, 10**30):
                if where == "path":
                    url, params = path.replace("{" + name + "}", str(big)), {}
                else:
                    url, params = path, {name: big}
                url = re.sub(r"\{[^}]+\}", "x", url)  # any other path parameter
                r = http.request(method, url, params=params, json={})
                assert r.status_code < 500, (method, path, name, r.status_code, r.text)
                if where == "path":
                    assert r.status_code == 422, (method, path, r.text)
                    assert r.json()["error"] == "invalid_input"


def test_the_largest_row_id_is_a_plain_404(served: Served) -> None:
    with served.client("alice") as http:
        for url in (f"/v1/review/{MAX_ROW_ID}", f"/v1/jobs/{MAX_ROW_ID}"):
            r = http.get(url)
            assert r.status_code == 404 and r.json()["error"] == "not_found", r.text


@pytest.mark.parametrize(
    "big",
    [MAX_ROW_ID + 1, 2**64, 10**5000, -(2**63) - 1],
    ids=["2^63", "2^64", "10^5000", "-2^63-1"],
)
def test_library_row_ids_past_64_bits_are_invalid_input(mem: Memory, big: int) -> None:
    for verb in (
        mem.review.get,
        mem.review.approve,
        mem.review.reject,
        mem.jobs.get,
        mem.jobs.retry,
    ):
        with pytest.raises(InvalidInputError, match="must be an integer from 1 to"):
            verb(big)


def test_library_offsets_past_the_cap_are_invalid_input(mem: Memory) -> None:
    for verb in (
        mem.review.list,
        mem.jobs.list,
        mem.lifecycle.archived,
        mem.sessions.list,
        mem.maintenance.runs,
        mem.agents.list_levels,
        mem.review.prune_candidates,
    ):
        with pytest.raises(InvalidInputError, match="offset must be an integer in"):
            verb(offset=2**63)


# -- item 8 ----------------------------------------------------------------------------
@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_mcp_json_nested_past_the_recursion_limit_is_a_parse_error(
    served: Served, depth: int
) -> None:
    headers = {
        "Accept": "application/json, text/event-stream",
        "Content-Type": "application/json",
    }
    deep = "[" * depth + "]" * depth
    call = (
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": '
        f'"search_memory", "arguments": {{"query": {deep}}}}}}}'
    )
    with served.client("alice") as http:
        for body in (deep, call):
            r = http.post("/mcp", content=body, headers=headers)
            # the MCP transport's own answer to unreadable JSON: JSON-RPC -32700
            assert r.status_code == 400, r.text
            assert r.json()["error"]["code"] == -32700
        # and REST answers the same nesting with its 422
        r = http.post("/v1/search", content=f'{{"query": {deep}}}', headers=headers)
        assert r.status_code == 422 and r.json()["error"] == "invalid_json", r.text


# -- item 10 ---------------------------------------------------------------------------
#: Guides whose ``mem`` is a ``Memory`` (client.md's is an ``engram.client`` client).
LIBRARY_GUIDES = sorted(p for p in DOCS.glob("*.md") if p.name != "client.md")


def documented_calls(text: str) -> Iterator[tuple[list[str], ast.Call]]:
    """``(["add_many"], call)`` for every ``mem.<verb>(...)`` in the Python blocks."""
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        try:
            tree = ast.parse(block)
        except SyntaxError:  # a sketch with "..." lines, not a program
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                chain, target = [], node.func
                while isinstance(target, ast.Attribute):
                    chain.insert(0, target.attr)
                    target = target.value
                if isinstance(target, ast.Name) and target.id == "mem":
                    yield chain, node


def test_the_guides_call_the_library_as_it_is(mem: Memory) -> None:
    checked = 0
    for guide in LIBRARY_GUIDES:
        for chain, call in documented_calls(guide.read_text()):
            verb: Any = mem
            for name in chain:
                verb = getattr(verb, name, None)
                assert verb is not None, f"{guide.name}: mem.{'.'.join(chain)} does not exist"
            if not callable(verb):
                continue
            keywords = {k.arg: None for k in call.keywords if k.arg is not None}
            try:
                inspect.signature(verb).bind(*[None] * len(call.args), **keywords)
            except TypeError as exc:
                pytest.fail(f"{guide.name}: {ast.unparse(call)}: {exc}")
            checked += 1
    assert checked > 100  # library.md alone shows about 40


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1"])
def test_a_json_body_that_is_not_utf8_is_422_and_stores_nothing(
    served: Served, encoding: str
) -> None:
    body = json.dumps({"content": "Alice prefers green tea (café)"}, ensure_ascii=False)
    with served.client("alice") as http:
        r = http.post(
            "/v1/memories",
            content=body.encode(encoding),
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code == 422, r.text
        assert r.json()["error"] == "invalid_json" and "UTF-8" in r.json()["detail"]
        assert served.memory.get_all(user_id="alice") == []
        # the same body in UTF-8, with or without a byte-order mark, is stored
        for raw in (body.encode("utf-8"), b"\xef\xbb\xbf" + body.encode("utf-8")):
            r = http.post("/v1/memories", content=raw, headers={"Content-Type": "application/json"})
            assert r.status_code in (200, 201), r.text


# -- item 19 ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "content",
    ["", "   ", "\n\t", [{"role": "user", "content": "  "}], []],
    ids=["empty", "spaces", "whitespace", "blank-messages", "no-messages"],
)
def test_blank_content_over_http_says_content_is_empty(served: Served, content: Any) -> None:
    with served.client("alice") as http:
        for url, body in (
            ("/v1/memories", {"content": content}),
            ("/v1/memories/batch", {"items": [{"content": content}]}),
        ):
            r = http.post(url, json=body)
            assert r.status_code == 422, r.text
            assert r.json() == {
                "error": "empty_content",
                "detail": "content is empty; pass the text to remember",
            }
    assert served.memory.get_all(user_id="alice") == []


def test_deleting_twice_succeeds_in_the_library_and_over_http(served: Served) -> None:
    mem = served.memory
    with served.client("alice") as http:
        first = http.post("/v1/memories", json={"content": "Deploys freeze on Fridays"}).json()
        gone = http.delete(f"/v1/memories/{first['id']}")
        again = http.delete(f"/v1/memories/{first['id']}")
        assert gone.status_code == again.status_code == 200, again.text
        assert again.json()["deleted_at"] == gone.json()["deleted_at"]
        assert http.delete("/v1/memories/no-such-memory").status_code == 404
    history = mem.history(first["id"], user_id="alice")
    record = mem.delete(first["id"], user_id="alice")  # the library: the same tombstone
    assert record.deleted and mem.history(first["id"], user_id="alice") == history
    with pytest.raises(NotFoundError):
        mem.delete("no-such-memory", user_id="alice")
