"""A wrong method answers with the methods the path takes (docs/http.md, Errors: a
detail says what to fix). It said only "Method Not Allowed", and its ``Allow`` header
named one route's methods: ``PUT /v1/memories`` got ``Allow: POST`` though the path
lists with GET too (new-user pass, round four)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from engram import Memory


def test_a_wrong_method_names_every_method_of_the_path(api: tuple[TestClient, Memory]) -> None:
    client, _ = api
    response = client.put("/v1/memories", json={"content": "x"})
    assert response.status_code == 405
    body = response.json()
    assert body["error"] == "method_not_allowed"
    assert body["detail"] == "PUT is not allowed on /v1/memories; it takes GET, POST"
    assert response.headers["allow"] == "GET, POST"


def test_a_path_with_a_parameter_lists_its_methods(api: tuple[TestClient, Memory]) -> None:
    client, _ = api
    response = client.post("/v1/memories/01ARZ3NDEKTSV4RRFFQ69G5FAV")
    assert response.status_code == 405
    assert response.json()["detail"].endswith("it takes DELETE, GET, PATCH")
