"""API keys (library and CLI), session transcripts, and `engram serve` as a process."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result

from conftest import HashEmbedder
from engram import AsyncMemory, Config, Memory
from engram.cli.main import cli
from engram.errors import (
    AuthenticationError,
    InvalidInputError,
    NotFoundError,
    PermissionDeniedError,
)
from engram.keys import LOCAL, PREFIX, Principal, hash_key
from engram.records import utcnow

KEYWORD_ONLY = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}


# -- keys in the library ---------------------------------------------------------------
def test_create_verify_revoke(file_mem: Memory, tmp_path: Path) -> None:
    key, plaintext = file_mem.keys.create("alice", name="ci")
    assert plaintext.startswith(PREFIX) and len(plaintext) > 40
    assert (key.user, key.admin, key.name) == ("alice", False, "ci")
    assert file_mem.keys.verify(plaintext).id == key.id
    # Only the hash is stored: the secret is nowhere in the database file.
    raw = (tmp_path / "engram.db").read_bytes() + (tmp_path / "engram.db-wal").read_bytes()
    assert plaintext.encode() not in raw and hash_key(plaintext).encode() in raw

    with pytest.raises(AuthenticationError):
        file_mem.keys.verify(plaintext + "x")
    with pytest.raises(AuthenticationError):
        file_mem.keys.verify(None)
    revoked = file_mem.keys.revoke(key.id)
    assert revoked.revoked_at is not None
    with pytest.raises(AuthenticationError):
        file_mem.keys.verify(plaintext)
    assert file_mem.keys.revoke(key.id).revoked_at == revoked.revoked_at  # idempotent
    with pytest.raises(NotFoundError):
        file_mem.keys.revoke("no-such-key")


def test_keys_are_random_and_listed_without_secrets(mem: Memory) -> None:
    secrets_ = {mem.keys.create("u")[1] for _ in range(5)}
    assert len(secrets_) == 5
    listed = mem.keys.list()
    assert len(listed) == 5
    dumped = json.dumps([k.to_dict() for k in listed])
    assert not any(s in dumped for s in secrets_)


def test_last_used_is_written_at_most_once_a_minute(mem: Memory) -> None:
    key, plaintext = mem.keys.create("alice")
    first = mem.keys.verify(plaintext)
    assert first.last_used_at is None  # the record as it was before this use
    used = mem.keys.list()[0].last_used_at
    assert used is not None
    mem.keys.verify(plaintext)
    assert mem.keys.list()[0].last_used_at == used
    mem.store.keys.touch(key.id, utcnow() - timedelta(minutes=5))
    mem.keys.verify(plaintext)
    assert mem.keys.list()[0].last_used_at > used - timedelta(minutes=1)


@pytest.mark.parametrize("user", ["", "a/b", "a:b", "has space", "x" * 101, None])
def test_user_names_cannot_escape_their_namespace(mem: Memory, user: object) -> None:
    with pytest.raises(InvalidInputError):
        mem.keys.create(user)  # type: ignore[arg-type]


def test_ensure_admin_key_only_when_none_is_live(mem: Memory) -> None:
    mem.keys.create("alice")
    first = mem.keys.ensure_admin()
    assert first is not None and first[0].admin
    assert mem.keys.ensure_admin() is None
    mem.keys.revoke(first[0].id)
    again = mem.keys.ensure_admin()
    assert again is not None and again[1] != first[1]


def test_the_namespace_rule(mem: Memory) -> None:
    alice = Principal(user="alice", admin=False)
    assert alice.may_reach("user:alice") and alice.may_reach("user:alice/notes")
    for other in ("user:alicex", "user:bob", "default", "user:", "agent:alice", "user:ali"):
        assert not alice.may_reach(other), other
    assert Principal(user="root", admin=True).may_reach("anything")
    assert LOCAL.may_reach("user:bob")

    assert alice.scope(mem).namespace == "user:alice"
    narrowed = alice.scope(mem, agent_id="planner")
    assert (narrowed.namespace, narrowed.user_id, narrowed.agent_id) == (
        "user:alice",
        "alice",
        "planner",
    )
    assert alice.scope(mem, namespace="user:alice/p").namespace == "user:alice/p"
    with pytest.raises(PermissionDeniedError):
        alice.scope(mem, user_id="bob")
    with pytest.raises(PermissionDeniedError):
        alice.scope(mem, namespace="default")
    with pytest.raises(PermissionDeniedError):
        alice.require_admin("diagnostics")
    assert LOCAL.scope(mem).namespace == "default"


# -- transcripts -----------------------------------------------------------------------
def test_transcripts_are_kept_once_and_joined_by_expand(mem: Memory) -> None:
    mem.add("We chose Postgres for billing", user_id="alice", session_id="s1")
    mem.add("Unrelated note without a session", user_id="alice")
    assert mem.add_transcript("s1", "user: which db?\nbot: Postgres", user_id="alice")
    assert not mem.add_transcript("s1", "a rewrite", user_id="alice")
    plain = mem.recall("billing database", user_id="alice")
    assert plain.transcripts == {} and plain.to_dict()["transcripts"] == {}
    expanded = mem.recall("billing database Postgres", user_id="alice", expand=True)
    assert expanded.transcripts == {"s1": "user: which db?\nbot: Postgres"}
    assert expanded.to_dict()["transcripts"] == expanded.transcripts
    # Another namespace's session with the same key is a different transcript.
    mem.add("Bob also chose Postgres", user_id="bob", session_id="s1")
    assert mem.recall("Postgres", user_id="bob", expand=True).transcripts == {}


@pytest.mark.parametrize("key,content", [("", "x"), ("s", ""), ("s", "   "), ("k" * 201, "x")])
def test_bad_transcripts_are_refused(mem: Memory, key: str, content: str) -> None:
    with pytest.raises(InvalidInputError):
        mem.add_transcript(key, content)
    assert mem.store.transcripts.get("default", [key]) == {}


def test_async_add_transcript(config: Config) -> None:
    async def go() -> dict[str, str]:
        async with AsyncMemory(":memory:", config=config, embedder=HashEmbedder()) as amem:
            await amem.add("async fact", session_id="a1")
            assert await amem.add_transcript("a1", "the whole chat")
            return (await amem.recall("async fact", expand=True)).transcripts

    assert asyncio.run(go()) == {"a1": "the whole chat"}


# -- CLI -------------------------------------------------------------------------------
def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(
        cli, ["--home", str(home), *args], env=KEYWORD_ONLY, catch_exceptions=False
    )


def reopen(home: Path) -> Memory:
    return Memory(config=Config.load(env={}, home=str(home), embedder={"name": "none"}))


def test_cli_keys_create_list_revoke(tmp_path: Path) -> None:
    home = tmp_path / "home"
    made = run(home, "keys", "create", "--user", "alice", "--name", "laptop", "--json")
    assert made.exit_code == 0, made.output
    data = json.loads(made.output)
    assert data["key"].startswith(PREFIX) and data["user"] == "alice" and not data["admin"]
    admin = run(home, "keys", "create", "--user", "root", "--admin")
    assert admin.exit_code == 0 and PREFIX in admin.output
    with reopen(home) as mem:
        assert mem.keys.verify(data["key"]).name == "laptop"
        assert [k.admin for k in mem.keys.list()] == [False, True]

    listed = json.loads(run(home, "keys", "list", "--json").output)
    assert [k["user"] for k in listed] == ["alice", "root"]
    assert data["key"] not in run(home, "keys", "list").output

    revoked = run(home, "keys", "revoke", data["id"], "--json")
    assert revoked.exit_code == 0 and json.loads(revoked.output)["revoked_at"]
    with reopen(home) as mem, pytest.raises(AuthenticationError):
        mem.keys.verify(data["key"])

    missing = run(home, "keys", "revoke", "ffffffffffff")
    assert missing.exit_code == 3 and "no API key" in missing.output
    bad = run(home, "keys", "create", "--user", "a/b")
    assert bad.exit_code == 2


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_engram_serve_prints_the_first_admin_key(tmp_path: Path) -> None:
    """The real command in a subprocess; that a second start prints no key is tested on
    ``engram.api.server.prepare`` (test_api.py), which is what the command calls."""
    home = tmp_path / "home"
    env = {**os.environ, **KEYWORD_ONLY, "ENGRAM_HOME": str(home)}
    command = [
        sys.executable,
        "-m",
        "engram.cli.main",
        "serve",
        "--no-mcp",
        "--json",
        "--log-level",
        "warning",
    ]

    @contextmanager
    def serving() -> Iterator[dict[str, object]]:
        port = _free_port()
        with subprocess.Popen(
            [*command, "--port", str(port)],
            env=env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        ) as proc:
            assert proc.stdout is not None
            try:
                yield json.loads(proc.stdout.readline())
            finally:
                proc.terminate()
                proc.wait(timeout=30)

    with serving() as first:
        assert str(first["admin_key"]).startswith(PREFIX)
        url = str(first["api"])
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/health").status_code == 200:
                    break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        auth = {"Authorization": f"Bearer {first['admin_key']}"}
        made = httpx.post(f"{url}/v1/memories", json={"content": "served"}, headers=auth)
        assert made.status_code == 201
        assert httpx.get(f"{url}/v1/memories").status_code == 401
    with reopen(home) as mem:
        assert [r.content for r in mem.get_all()] == ["served"]
        assert len(mem.keys.list()) == 1
