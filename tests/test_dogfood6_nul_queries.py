"""Round six of the new-user pass: a query holding a NUL (or a lone surrogate) is
refused on every read surface, in the words a write refuses it with; it was searched."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from mcp import Client

from engram import Memory
from engram.errors import InvalidInputError

REFUSED = "query contains a NUL character (U+0000), which no store can hold"


@pytest.mark.parametrize(
    "read",
    [
        lambda m: m.search("Ber\x00lin"),
        lambda m: m.recall("Ber\x00lin"),
        lambda m: m.recall("Ber\x00lin", budget_tokens=200),
        lambda m: m.graph.entities(query="Ber\x00lin"),
    ],
    ids=["search", "recall", "recall-budget", "graph-entities"],
)
def test_the_library_refuses_a_nul_in_a_query(
    mem: Memory, read: Callable[[Memory], object]
) -> None:
    mem.add("I live in Berlin")
    with pytest.raises(InvalidInputError, match=r"query contains a NUL .*remove it and send"):
        read(mem)
    with pytest.raises(InvalidInputError, match="content contains a NUL"):  # the write's shape
        mem.add("Ber\x00lin")


def test_a_lone_surrogate_in_a_query_is_refused_not_searched_by_keywords(mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="lone surrogate"):
        mem.search("Ber\udfff")


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/search", {"query": "Ber\x00lin"}),
        ("/v1/recall", {"query": "Ber\x00lin"}),
        ("/api/memory/recall", {"query": "Ber\x00lin"}),
        ("/mem0/search", {"query": "Ber\x00lin", "user_id": "ann"}),
    ],
)
def test_http_refuses_a_nul_in_a_query_as_it_refuses_one_in_a_write(
    api: tuple[TestClient, Memory], path: str, body: dict[str, str]
) -> None:
    client, memory = api
    memory.add("I live in Berlin")
    refused = client.post(path, json=body)
    assert refused.status_code == 422, refused.text
    assert REFUSED in refused.text
    written = client.post("/v1/memories", json={"content": "Ber\x00lin"})
    assert written.status_code == 422 and "contains a NUL character (U+0000)" in written.text


@pytest.mark.anyio
@pytest.mark.parametrize("tool", ["search_memory", "get_context", "archival_memory_search"])
async def test_mcp_refuses_a_nul_in_a_query(alice: Client, tool: str) -> None:
    arg = "task" if tool == "get_context" else "query"
    refused = await alice.call_tool(tool, {arg: "Ber\x00lin"})
    text = " ".join(getattr(part, "text", "") for part in refused.content)
    assert refused.is_error and "NUL character (U+0000)" in text, text
