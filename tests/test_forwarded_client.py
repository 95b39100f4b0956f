"""The access line names the client: the connection's address, or the one a reverse
proxy forwarded, only when that proxy is trusted (``api.forwarded_allow_ips``,
``engram serve --forwarded-allow-ips``); a forwarded header from anyone else is not
believed (docs/operations.md, "Behind a reverse proxy")."""

from __future__ import annotations

import io
import json
from pathlib import Path

import httpx
import pytest

from engram import Config, Memory
from engram.api import create_app
from engram.api.logs import TextFormatter
from engram.api.server import UVICORN_FORWARDED, serve_in_thread, trusted_proxies
from engram.config import ApiConfig

FORWARDED = {"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}


def _client_logged(memory: Memory, proxies: str, lines: io.StringIO) -> dict[str, object]:
    app = create_app(memory, auth=False, mcp=False, worker=False, schedules=False)
    with serve_in_thread(app, forwarded_allow_ips=proxies) as url:
        answer = httpx.get(f"{url}/health", headers={**FORWARDED, "X-Request-ID": "fwd-1"})
    assert answer.status_code == 200
    records = [json.loads(line) for line in lines.getvalue().splitlines()]
    [line] = [r for r in records if r.get("request_id") == "fwd-1" and "client" in r]
    return line


@pytest.mark.parametrize(
    ("proxies", "client"),
    [
        ("127.0.0.1", "203.0.113.7"),  # the default: a proxy on this machine
        ("127.0.0.0/8", "203.0.113.7"),
        ("10.9.9.9", "127.0.0.1"),  # the peer is not the trusted proxy: its header ignored
        ("", "127.0.0.1"),  # none trusted
    ],
)
def test_the_access_line_carries_the_forwarded_address_only_from_a_trusted_proxy(
    tmp_path: Path, config: Config, access_lines: io.StringIO, proxies: str, client: str
) -> None:
    with Memory(tmp_path / "m.db", config=config) as memory:
        line = _client_logged(memory, proxies, access_lines)
    assert line["client"] == client
    assert str(line["message"]).startswith(f"{client} GET /health 200 ")


def test_the_text_line_names_the_client_first() -> None:
    import logging

    record = logging.LogRecord(
        "engram.access",
        logging.INFO,
        __file__,
        1,
        "%s %s %s %d %.1fms",
        ("203.0.113.7", "GET", "/health", 200, 1.5),
        None,
    )
    assert (
        TextFormatter().format(record).endswith("engram.access 203.0.113.7 GET /health 200 1.5ms")
    )


def test_the_trusted_proxies_come_from_the_flag_the_setting_or_uvicorn_s_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    default = ApiConfig().forwarded_allow_ips
    assert default == "127.0.0.1"  # never a peer on the network by default
    monkeypatch.delenv(UVICORN_FORWARDED, raising=False)
    assert trusted_proxies(default, None) == "127.0.0.1"
    assert trusted_proxies("10.0.0.2", None) == "10.0.0.2"
    assert trusted_proxies("10.0.0.2", "") == ""  # the flag wins, even empty
    monkeypatch.setenv(UVICORN_FORWARDED, "172.17.0.1")
    assert trusted_proxies(default, None) == "172.17.0.1"  # a deployment set up with it
    assert trusted_proxies("10.0.0.2", None) == "10.0.0.2"  # the setting, once given, wins
