"""engram serve behind a reverse proxy (dogfood19): an operator's nginx forwards
``https://tools.example.test/engram/...`` to engram without the prefix, with
``Host`` and ``X-Forwarded-Proto`` set, as docs/operations.md shows.

Before ``api.root_path`` (``engram serve --root-path``), the URLs engram writes into its
answers left the prefix: the MCP 401 pointed clients at
``https://tools.example.test/.well-known/oauth-protected-resource`` (the proxy's 404),
the metadata named ``.../mcp`` as the resource, and ``/docs`` loaded
``/openapi.json`` from the host's root.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from test_chat_proxy import Proxy, proxy
from test_serve_options import INITIALIZE, MCP_HEADERS

__all__ = ["proxy"]  # the fixture shared with test_chat_proxy.py

#: What nginx sends after it ended TLS: the public host, the scheme the client used.
PROXIED = {"Host": "tools.example.test", "X-Forwarded-Proto": "https"}
PUBLIC = "https://tools.example.test/engram"


@pytest.fixture
def behind_a_prefix(config: Config) -> Iterator[str]:
    quiet = config.with_overrides(pipeline={"enabled": False})
    with (
        Memory(":memory:", config=quiet, embedder=HashEmbedder()) as memory,
        serve_in_thread(create_app(memory, worker=False), root_path="/engram") as url,
    ):
        yield url


def test_mcp_discovery_and_docs_keep_the_proxys_prefix(behind_a_prefix: str) -> None:
    url = behind_a_prefix
    # A hang guard, not a speed check: the first /mcp call builds the MCP app (seconds
    # on a loaded machine).
    with httpx.Client(headers=PROXIED, timeout=60) as proxy:
        # The proxy strips /engram: engram sees /mcp, as nginx forwards it.
        refused = proxy.post(f"{url}/mcp", json={})
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"] == (
            f'Bearer resource_metadata="{PUBLIC}/.well-known/oauth-protected-resource"'
        )
        metadata = proxy.get(f"{url}/.well-known/oauth-protected-resource")
        assert metadata.json()["resource"] == f"{PUBLIC}/mcp"
        docs = proxy.get(f"{url}/docs")
        assert "'/engram/openapi.json'" in docs.text
        # Every route still answers at the path the proxy forwards.
        assert proxy.get(f"{url}/health").json()["status"] == "ok"
        assert proxy.get(f"{url}/openapi.json").status_code == 200


def _serve(home: Path, *args: str) -> Any:
    env = {"ENGRAM_EMBEDDER_NAME": "none"}
    return CliRunner().invoke(cli, ["--home", str(home), "serve", *args], env=env)


def test_serve_passes_root_path_to_the_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}
    monkeypatch.setattr("engram.api.server.run", lambda app, **kw: seen.update(kw))
    result = _serve(tmp_path / "home", "--root-path", "/engram/", "--port", "0", "--no-mcp")
    assert result.exit_code == 0, result.output
    assert seen["root_path"] == "/engram"
    # The setting does the same (ENGRAM_API_ROOT_PATH in a container).
    seen.clear()
    (tmp_path / "home" / "config.toml").write_text('[api]\nroot_path = "/memory"\n')
    assert _serve(tmp_path / "home", "--port", "0", "--no-mcp").exit_code == 0
    assert seen["root_path"] == "/memory"


def test_a_root_path_without_its_slash_is_refused_before_anything_starts(
    tmp_path: Path,
) -> None:
    result = _serve(tmp_path / "home", "--root-path", "engram", "--port", "0")
    assert result.exit_code == 1
    assert "must be the path the proxy serves engram under" in result.output
    assert "/engram" in result.output
    assert not (tmp_path / "home" / "engram.db").exists()


def test_a_streamed_chat_reply_asks_the_proxy_not_to_buffer_it(proxy: Proxy) -> None:
    """Through nginx's defaults, the 15 events of a streamed reply upstream sent over
    5.7 s all reached the client at 5.7 s: nginx buffered the response. engram now
    sends ``X-Accel-Buffering: no`` with a stream (nginx reads it: each event is passed
    on as it comes); a JSON reply is left to the proxy's buffering."""
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": "hi"}]}
    headers = {"Authorization": f"Bearer {proxy.keys['alice']}"}
    address = f"{proxy.url}/v1/proxy/chat/completions"
    with httpx.stream("POST", address, json=body, headers=headers, timeout=60) as response:
        response.read()
    assert response.status_code == 200
    assert response.headers["x-accel-buffering"] == "no"
    whole = httpx.post(address, json={**body, "stream": False}, headers=headers, timeout=60)
    assert whole.status_code == 200 and "x-accel-buffering" not in whole.headers


@pytest.mark.parametrize("allowed", ["", "memory.example.com"])
def test_mcp_says_which_host_it_refused_and_the_setting_to_list_it(
    config: Config, allowed: str
) -> None:
    """Through nginx with ``Host: memory.example.test``, ``/mcp`` on a loopback server
    answered ``421 Invalid Host header``: no value, no setting, not JSON. Unset, the
    SDK accepts loopback names only on a loopback server; set, the names listed."""
    cfg = config.with_overrides(api={"mcp_allowed_hosts": allowed}, pipeline={"enabled": False})
    with Memory(":memory:", config=cfg, embedder=HashEmbedder()) as memory:
        secret = memory.keys.create("ines")[1]
        with (
            serve_in_thread(create_app(memory, worker=False)) as url,
            httpx.Client(timeout=60) as client,
        ):
            headers = {**MCP_HEADERS, "Authorization": f"Bearer {secret}"}
            host = {**headers, "Host": "memory.example.test"}
            refused = client.post(f"{url}/mcp", json=INITIALIZE, headers=host)
            assert refused.status_code == 421
            assert refused.json()["error"] == "host_not_allowed"
            detail = refused.json()["detail"]
            assert "'memory.example.test'" in detail and "api.mcp_allowed_hosts" in detail
            assert "ENGRAM_API_MCP_ALLOWED_HOSTS=memory.example.test" in detail
            assert "beside any listed" in detail  # a list already set is added to
            good = allowed or url.removeprefix("http://")
            origin = {**headers, "Host": good, "Origin": "https://evil.example.net"}
            foreign = client.post(f"{url}/mcp", json=INITIALIZE, headers=origin)
            assert foreign.status_code == 403
            assert foreign.json()["error"] == "origin_not_allowed"
            assert "'https://evil.example.net'" in foreign.json()["detail"]
            # An allowed name still works.
            fine = client.post(f"{url}/mcp", json=INITIALIZE, headers={**headers, "Host": good})
            assert fine.status_code == 200, fine.text
