"""``engram mcp`` answers a line it cannot read (task err23, issue 26).

``{not json`` on stdin got no answer: the SDK's stdio transport hands the parse error to
the session, which drops it, and a client waiting for the reply hung. JSON-RPC 2.0 wants
``{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, ...}}`` for text that is not
JSON and -32600 for JSON that is not a JSON-RPC message. Checked over the real
subprocess, lines written by hand, each read with a short timeout; the session goes on
working after each bad line.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from test_mcp import KEYWORD_ONLY

#: Seconds to wait for one answer line (the first one waits for the server to start).
ANSWER_TIMEOUT = 30.0


class Stdio:
    """``engram mcp`` as a subprocess, spoken to a line at a time."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.lines: queue.Queue[str] = queue.Queue()
        assert proc.stdout is not None
        self.pump = threading.Thread(target=self._pump, args=(proc.stdout,), daemon=True)
        self.pump.start()

    def _pump(self, out: IO[str]) -> None:
        for line in out:
            self.lines.put(line)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def answer(self) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=ANSWER_TIMEOUT)
        except queue.Empty:
            pytest.fail(f"no answer within {ANSWER_TIMEOUT} s: the client would hang")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def request(self, id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.send(json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
        reply = self.answer()
        assert reply["id"] == id, reply
        return reply


@pytest.fixture
def stdio(tmp_path: Path) -> Iterator[Stdio]:
    engram = Path(sys.executable).with_name("engram")
    env = {**os.environ, **KEYWORD_ONLY}
    proc = subprocess.Popen(
        [str(engram), "--home", str(tmp_path / "home"), "mcp", "--namespace", "t", "--no-worker"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    talk = Stdio(proc)
    try:
        yield talk
    finally:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.close()  # end of input: the server exits
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        talk.pump.join(timeout=5)
        proc.stdout.close()


def error_of(reply: dict[str, Any]) -> tuple[object, int, str]:
    assert reply["jsonrpc"] == "2.0" and "result" not in reply, reply
    return reply["id"], reply["error"]["code"], reply["error"]["message"]


def initialize(stdio: Stdio) -> None:
    reply = stdio.request(
        1,
        "initialize",
        {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "by-hand", "version": "0"},
        },
    )
    assert reply["result"]["serverInfo"]["name"] == "engram", reply
    stdio.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))


def test_a_line_that_is_not_json_is_a_parse_error_and_the_session_goes_on(stdio: Stdio) -> None:
    stdio.send("{not json")
    id, code, message = error_of(stdio.answer())
    assert (id, code) == (None, -32700)
    assert "not valid JSON" in message
    initialize(stdio)
    stdio.send('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {')
    assert error_of(stdio.answer())[:2] == (None, -32700)
    reply = stdio.request(
        3, "tools/call", {"name": "remember", "arguments": {"content": "Ann likes tea"}}
    )
    assert reply["result"]["isError"] is False, reply
    assert reply["result"]["structuredContent"]["id"]


@pytest.mark.parametrize(
    ("line", "id"),
    [
        ("[1, 2]", None),
        ("42", None),
        ('{"hello": "world"}', None),
        ('{"jsonrpc": "2.0", "id": 7, "method": 5}', 7),
        ('{"jsonrpc": "2.0", "id": "req-8"}', "req-8"),
        ('{"jsonrpc": "1.0", "id": 9, "method": "ping"}', 9),
        ('{"id": [1], "method": "ping"}', None),  # an id no reply can carry
    ],
)
def test_json_that_is_not_a_jsonrpc_message_is_an_invalid_request(
    stdio: Stdio, line: str, id: object
) -> None:
    initialize(stdio)
    stdio.send(line)
    got_id, code, message = error_of(stdio.answer())
    assert (got_id, code) == (id, -32600)
    assert "not a JSON-RPC 2.0 message" in message
    assert stdio.request(4, "ping", {})["result"] == {}


@pytest.mark.parametrize(
    ("id", "said"),
    [
        ("true", "got true (a boolean)"),
        ("false", "got false (a boolean)"),
        ("null", "got null"),
        ("1.5", "got 1.5 (a number that is not an integer)"),
        ('{"n": 1}', "got a JSON object"),
    ],
)
def test_a_request_whose_id_no_reply_can_carry_is_answered(
    stdio: Stdio, id: str, said: str
) -> None:
    # New-user pass, round fifteen: the SDK read {"id": true, "method": ...} as a
    # notification (it drops the id it cannot take), so nothing answered and the client
    # waiting on its request hung.
    initialize(stdio)
    stdio.send(f'{{"jsonrpc": "2.0", "id": {id}, "method": "tools/list"}}')
    got_id, code, message = error_of(stdio.answer())
    assert (got_id, code) == (None, -32600)
    assert f"the id must be a string or an integer, {said}" in message, message
    assert stdio.request(4, "ping", {})["result"] == {}


def test_a_notification_is_still_not_answered(stdio: Stdio) -> None:
    initialize(stdio)  # sends notifications/initialized: no answer may come for it
    stdio.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}}))
    stdio.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}))
    assert stdio.request(5, "ping", {})["result"] == {}  # the next line is the ping's answer
    assert stdio.lines.empty()
