"""HTTP 422s say what was wrong in words, not in pydantic's (task err23, issue 26).

A misspelt id answered ``String should match pattern '^[A-Za-z0-9_.:@/+-]{1,190}$'``;
every constraint a route's models declare now gets the library's wording, from one
translation (``engram.validation_words``, which MCP's argument errors share since err24)
in the API's error handler, and the body keeps
its ``{error, detail}`` shape.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conftest import import_script
from engram import Config, Memory
from engram.api import create_app
from hashembed import HashEmbedder

fuzz = import_script("err23_fuzz")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    config = Config.load(env={}, home=str(tmp_path_factory.mktemp("home")))
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        app = create_app(memory, auth=False, mcp=False)
        with TestClient(app, raise_server_exceptions=False) as c:
            yield c


def refused(response: Any) -> str:
    assert response.status_code == 422, response.text
    body = response.json()
    assert set(body) == {"error", "detail"} and body["error"] == "invalid_input", body
    assert not fuzz.pydantic_words(body["detail"]), body["detail"]
    detail: str = body["detail"]
    return detail


@pytest.mark.parametrize(
    ("method", "url", "kwargs", "expected"),
    [
        # pattern: the namespace rule's words, naming the field as the route spells it
        (
            "POST",
            "/v1/memories",
            {"json": {"content": "x", "user_id": "alice smith"}},
            "invalid user_id 'alice smith': use 1-190 characters from letters, digits and "
            "_ . : @ / + -",
        ),
        (
            "GET",
            "/v1/memories",
            {"params": {"namespace": "team space"}},
            "invalid namespace 'team space': use 1-200 characters from letters, digits and "
            "_ . : @ / + -",
        ),
        (
            "GET",
            "/v1/blocks/Persona!",
            {},
            "invalid label 'Persona!': use 1-64 characters from lowercase letters, digits and "
            "_ -, starting with a lowercase letter",
        ),
        # length, range, type
        ("POST", "/v1/memories", {"json": {"content": "x", "session_id": "s" * 201}},
         "session_id is 201 characters; at most 200"),
        ("POST", "/v1/memories", {"json": {"content": "x", "importance": 2}},
         "importance must be at most 1.0, got 2"),
        ("POST", "/v1/memories", {"json": {"content": "x", "importance": True}},
         "importance must be a number, got true"),
        ("GET", "/v1/memories", {"params": {"limit": "many"}},
         "limit must be an integer, got 'many'"),
        ("POST", "/v1/memories", {"json": {"content": "x", "metadata": [1]}},
         "metadata must be a JSON object, got a list"),
        ("POST", "/v1/search", {"json": {"query": ""}}, "query must be a non-empty string, got ''"),
        ("POST", "/v1/memories/batch", {"json": {"items": []}},
         "items needs at least 1 item, got 0"),
        # enum / literal
        ("POST", "/v1/memories", {"json": {"content": "x", "type": "note"}},
         "type must be one of 'fact', 'preference', 'decision', 'procedural', 'semantic', "
         "'observation', 'document_chunk', 'message', got 'note'"),
        # missing, and an unknown field or query parameter with the ones the route takes
        ("POST", "/v1/search", {"json": {}}, "query is required and was not given"),
        ("POST", "/api/memories/m1/feedback", {"json": {"rating": 1, "coment": "typo"}},
         "'coment' is not a field of this request body; it takes comment, rating"),
        ("GET", "/v1/memories", {"params": {"limt": "5"}},
         "'limt' is not a query parameter of this route; it takes agent_id, category, "
         "include_deleted, limit"),
        # a union (text or a list of messages): the arm the caller meant, not both arms
        ("POST", "/v1/memories", {"json": {"content": 7}},
         "content must be a string or a list of JSON objects, got 7"),
        ("POST", "/v1/memories", {"json": {"content": [{"role": "user", "content": 5}]}},
         "content[0].content must be a string, got 5"),
        ("POST", "/v1/memories/batch", {"json": {"items": [{"content": [{"role": "r" * 101,
         "content": "x"}]}]}}, "items[0].content[0].role is 101 characters; at most 100"),
    ],
)  # fmt: skip
def test_a_constraint_is_refused_in_words(
    client: TestClient, method: str, url: str, kwargs: dict[str, Any], expected: str
) -> None:
    assert expected in refused(client.request(method, url, **kwargs))


def test_a_rule_that_says_it_itself_is_not_named_twice(client: TestClient) -> None:
    """A model's own check (``rating``'s) already names its field."""
    detail = refused(client.post("/api/memories/m1/feedback", json={"rating": "meh"}))
    assert detail == "rating must be 1, -1, 'up' or 'down', got 'meh'"


def test_no_route_answers_a_broken_constraint_in_pydantic_words(client: TestClient) -> None:
    """Every route in the OpenAPI schema, every constraint its fields declare, broken
    (``scripts/err23_fuzz.py``): not one 422 quotes a pattern, a type name or pydantic's
    phrasing, and each keeps the ``{error, detail}`` shape."""
    rows = fuzz.walk(client)
    unprocessable = [r for r in rows if r["status"] == 422]
    assert len({r["route"] for r in rows}) > 100 and len(unprocessable) > 1000
    offenders = [r for r in unprocessable if fuzz.pydantic_words(r["body"])]
    assert offenders == []
    assert not [r for r in rows if r["status"] >= 500]
