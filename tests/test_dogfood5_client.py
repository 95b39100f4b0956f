"""engram.client against a slow server and a not-found answer (new-user pass, round
five): a timeout says which limit ran out and how to raise it, not "check that engram
serve is running" when it is; an error answer is the class the server raised."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator

import httpx
import pytest

import engram.compat.mem0  # noqa: F401 - defines a NotFoundError subclass, as a mem0 user's code does
from engram.client import AsyncEngramClient, EngramClient
from engram.client.failures import from_response
from engram.errors import NotFoundError, ServerConnectionError


@pytest.fixture
def silent() -> Iterator[str]:
    """A port that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"


def test_a_read_timeout_says_the_server_is_slow_and_how_to_wait_longer(silent: str) -> None:
    with EngramClient(silent, "k", timeout=0.3, retries=0) as client:
        with pytest.raises(ServerConnectionError) as got:
            client.get_all()
        said = str(got.value)
        assert "ReadTimeout" in said and "no answer within 0.3 s" in said
        assert "longer timeout=" in said and "engram serve is running" not in said
        assert "applied" not in said  # a GET changes nothing
        with pytest.raises(ServerConnectionError, match="the write may still have been"):
            client.add("sent once")


def test_the_async_client_says_the_same(silent: str) -> None:
    async def main() -> str:
        async with AsyncEngramClient(silent, "k", timeout=0.3, retries=0) as client:
            try:
                await client.recall("anything")
            except ServerConnectionError as exc:
                return str(exc)
        return "no error"

    said = asyncio.run(main())
    assert "no answer within 0.3 s" in said and "longer timeout=" in said


def test_a_not_found_answer_is_engrams_not_found_error() -> None:
    answer = httpx.Response(
        404,
        json={"error": "not_found", "detail": "no job 7 in namespace 'user:alice'"},
        request=httpx.Request("GET", "http://127.0.0.1/v1/jobs/7"),
    )
    error = from_response(answer)
    assert type(error) is NotFoundError and str(error) == "no job 7 in namespace 'user:alice'"
