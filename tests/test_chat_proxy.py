"""The chat proxy end to end (issue 31): the official ``openai`` client (sync, async,
streaming) talks to ``engram serve``'s ``/v1/proxy/chat/completions``, which talks to a
scripted OpenAI-compatible upstream on 127.0.0.1."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import openai
import pytest

from conftest import HashEmbedder, keyed_server
from engram import Memory
from engram.api import blas
from engram.chat import stages
from engram.config import Config
from engram.records import PIPELINE_WHO
from llmserver import ScriptedLlm

#: The upstream's key: it must reach the upstream and nothing else.
SECRET = "sk-upstream-7f3a9c1e5b2d4680-never-shown"
KEY_ENV = "CHAT_PROXY_TEST_UPSTREAM_KEY"


@dataclass
class Proxy:
    url: str
    keys: dict[str, str]
    memory: Memory
    upstream: ScriptedLlm
    store: Path
    opened: list[openai.OpenAI] = field(default_factory=list)

    def client(self, user: str = "alice") -> openai.OpenAI:
        """The official client with ``user``'s engram key: the two-line change."""
        client = openai.OpenAI(base_url=f"{self.url}/v1/proxy", api_key=self.keys[user])
        self.opened.append(client)
        return client

    def aclient(self, user: str = "alice") -> openai.AsyncOpenAI:
        return openai.AsyncOpenAI(base_url=f"{self.url}/v1/proxy", api_key=self.keys[user])

    def mined(self) -> int:
        """Wait until the turns sent so far were queued (after their replies), then run
        the queue; returns how many chat turns have been mined."""
        deadline = time.monotonic() + 10
        while self.memory.jobs.counts(kind="chat_mine")["pending"] == 0:
            assert time.monotonic() < deadline, "no chat_mine job was queued"
            time.sleep(0.02)
        self.memory.jobs.process_pending()
        return self.memory.jobs.counts(kind="chat_mine")["completed"]

    def system_prompt(self, index: int = -1) -> str:
        """The system prompt of the ``index``-th chat request the upstream received."""
        body = self.upstream.requests_to("/chat/completions")[index].body
        first = body["messages"][0]
        return str(first["content"]) if first["role"] == "system" else ""


def _serve(config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Proxy]:
    monkeypatch.setenv(KEY_ENV, SECRET)
    with ScriptedLlm() as upstream:
        upstream.fallback = lambda request: "Noted."
        cfg = config.with_overrides(
            chat={"upstream_url": upstream.openai_url, "recall_off_agents": "orchestrator"},
            llm={"api_key_env": KEY_ENV},
        )
        store = tmp_path / "chat.db"
        with (
            Memory(store, config=cfg, embedder=HashEmbedder()) as memory,
            keyed_server(memory, worker=False, mcp=False) as (url, keys),
        ):
            proxy = Proxy(url, keys, memory, upstream, store)
            yield proxy
            for client in proxy.opened:
                client.close()


@pytest.fixture
def proxy(config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Proxy]:
    yield from _serve(config, tmp_path, monkeypatch)


SYSTEM = {"role": "system", "content": "You are a helpful assistant."}
FACT = "My sailing boat is called Sea Biscuit."
QUESTION = "What is my sailing boat called?"


def test_a_fact_told_once_reaches_the_next_conversation(proxy: Proxy) -> None:
    client = proxy.client()
    first = client.chat.completions.with_raw_response.create(
        model="m",
        messages=[SYSTEM, {"role": "user", "content": FACT}],
        extra_headers={"X-Engram-Conversation": "boat-1"},
    )
    assert first.parse().choices[0].message.content == "Noted."
    assert first.headers["x-engram-memories"] == ""  # nothing was known yet
    assert proxy.mined() == 1
    # turn 2, a new conversation, streamed: the upstream gets the fact in its prompt.
    stream = client.chat.completions.create(
        model="m",
        messages=[SYSTEM, {"role": "user", "content": QUESTION}],
        stream=True,
        extra_body={"engram": {"conversation_id": "boat-2"}},
    )
    pieces = [c.choices[0].delta.content or "" for c in stream if c.choices]
    assert "".join(pieces) == "Noted."
    prompt = proxy.system_prompt()
    assert prompt.startswith("<memory_context>") and "Sea Biscuit" in prompt
    assert prompt.endswith("You are a helpful assistant.")
    sent = proxy.upstream.requests_to("/chat/completions")[-1].body
    assert "engram" not in sent and sent["stream"] is True
    # S13: the injected memory is recorded against the conversation.
    recorded = proxy.memory.sessions.injected_memories("boat-2", user_id="alice")
    shown = stream.response.headers["x-engram-memories"]
    assert {r.memory_id for r in recorded} == set(shown.split(","))
    assert recorded
    assert "Sea Biscuit" in proxy.memory.get(recorded[0].memory_id, user_id="alice").content
    # a second user never receives it.
    proxy.client("bob").chat.completions.create(
        model="m", messages=[SYSTEM, {"role": "user", "content": QUESTION}]
    )
    assert "Sea Biscuit" not in proxy.system_prompt()


@pytest.mark.anyio
async def test_the_async_client_gets_context_and_the_ids(proxy: Proxy) -> None:
    proxy.memory.add(FACT, user_id="alice")
    client = proxy.aclient()
    raw = await client.chat.completions.with_raw_response.create(
        model="m", messages=[{"role": "user", "content": QUESTION}]
    )
    ids = raw.headers["x-engram-memories"].split(",")
    assert len(ids) == 1 and "Sea Biscuit" in proxy.memory.get(ids[0], user_id="alice").content
    assert raw.headers["x-engram-conversation"].startswith("chat-")
    assert "Sea Biscuit" in proxy.system_prompt()
    await client.close()


def test_a_stream_is_relayed_unchanged_with_a_final_comment(proxy: Proxy) -> None:
    fact = proxy.memory.add(FACT, user_id="alice")
    body = {"model": "m", "stream": True, "messages": [{"role": "user", "content": QUESTION}]}
    headers = {"Authorization": f"Bearer {proxy.keys['alice']}"}
    with httpx.stream(
        "POST", f"{proxy.url}/v1/proxy/chat/completions", json=body, headers=headers
    ) as response:
        raw = b"".join(response.iter_raw())
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.headers["x-engram-memories"] == fact.id
    upstream_bytes = raw.split(b"data: [DONE]\n\n")[0] + b"data: [DONE]\n\n"
    assert raw == upstream_bytes + f": engram-memories {fact.id}\n\n".encode()
    assert raw.count(b"chat.completion.chunk") == 2  # "Noted." is one word, then the finish


def test_auto_mine_off_files_nothing(
    config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    served = _serve(config.with_overrides(chat={"auto_mine": False}), tmp_path, monkeypatch)
    proxy = next(served)
    try:
        proxy.client().chat.completions.create(
            model="m", messages=[{"role": "user", "content": FACT}]
        )
        time.sleep(0.3)  # the background task (after the reply) has had its chance
        assert proxy.memory.jobs.counts(kind="chat_mine") == dict.fromkeys(
            ("pending", "leased", "completed", "dead"), 0
        )
        assert proxy.memory.get_all(user_id="alice").total == 0
    finally:
        served.close()


def test_an_agent_override_adds_no_context(proxy: Proxy) -> None:
    proxy.memory.add(FACT, user_id="alice")
    raw = proxy.client().chat.completions.with_raw_response.create(
        model="m",
        messages=[SYSTEM, {"role": "user", "content": QUESTION}],
        extra_headers={"X-Engram-Agent": "orchestrator"},
    )
    assert raw.headers["x-engram-memories"] == ""
    assert proxy.system_prompt() == "You are a helpful assistant."
    assert proxy.mined() == 1  # seed 003: its turns are still mined


def test_the_response_says_where_the_proxys_time_went(proxy: Proxy) -> None:
    proxy.memory.add(FACT, user_id="alice")
    answer = proxy.client().chat.completions.with_raw_response.create(
        model="m", messages=[SYSTEM, {"role": "user", "content": QUESTION}]
    )
    timed = stages.parse(answer.headers["server-timing"])
    assert list(timed) == [
        "read", "queue", "auth", "parse", "prepare", "recall", "hop", "upstream", "record"
    ]  # fmt: skip
    assert min(timed.values()) >= 0.0 and timed["recall"] > 0.0


def test_keys_are_required_and_users_are_kept_apart(proxy: Proxy) -> None:
    url = f"{proxy.url}/v1/proxy/chat/completions"
    body = {"model": "m", "messages": [{"role": "user", "content": QUESTION}]}
    assert httpx.post(url, json=body).status_code == 401
    # the key is checked first: a bad body without one is refused as such.
    assert httpx.post(url, content=b"{not json").status_code == 401
    bad = httpx.post(url, json=body, headers={"Authorization": "Bearer eg_not_a_key"})
    assert bad.status_code == 401
    other = httpx.post(
        url,
        json=body,
        headers={"Authorization": f"Bearer {proxy.keys['alice']}", "X-Engram-User": "bob"},
    )
    assert other.status_code == 403
    wrong = httpx.post(
        url, json={"model": "m"}, headers={"Authorization": f"Bearer {proxy.keys['alice']}"}
    )
    assert wrong.status_code == 422 and "messages" in wrong.json()["detail"]
    assert proxy.upstream.requests_to("/chat/completions") == []


def test_the_upstream_key_goes_upstream_and_nowhere_else(
    proxy: Proxy, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client = proxy.client()
    reply = client.chat.completions.with_raw_response.create(
        model="m", messages=[{"role": "user", "content": FACT}]
    )
    proxy.mined()
    streamed = httpx.post(
        f"{proxy.url}/v1/proxy/chat/completions",
        json={"model": "m", "stream": True, "messages": [{"role": "user", "content": QUESTION}]},
        headers={"Authorization": f"Bearer {proxy.keys['alice']}"},
    )
    received = proxy.upstream.requests_to("/chat/completions")
    assert {r.headers["authorization"] for r in received} == {f"Bearer {SECRET}"}
    # The engram key stays with engram: the upstream never sees it.
    assert all(proxy.keys["alice"] not in r.raw.decode() for r in received)
    for response in (reply.http_response, streamed):
        assert SECRET not in response.text and SECRET not in str(response.headers)
    assert SECRET not in caplog.text
    proxy.memory.sessions.flush(force=True)
    assert SECRET.encode() not in proxy.store.read_bytes()
    stored = proxy.memory.get_all(user_id="alice")
    # The mined turn is there (two memories), and the worker's fact from its user
    # message, which names no speaker: the user's own (task extract20).
    facts = [r.content for r in stored if r.who == PIPELINE_WHO]
    assert stored.total == 3 and facts == ["User's sailing boat is called Sea Biscuit."]


def test_an_unreachable_upstream_is_a_502(
    config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = config.with_overrides(chat={"upstream_url": "http://127.0.0.1:9/v1"})
    with (
        Memory(":memory:", config=cfg, embedder=HashEmbedder()) as memory,
        keyed_server(memory, worker=False, mcp=False) as (url, keys),
    ):
        response = httpx.post(
            f"{url}/v1/proxy/chat/completions",
            json={"model": "m", "messages": [{"role": "user", "content": "hi"}]},
            headers={"Authorization": f"Bearer {keys['alice']}"},
        )
    assert response.status_code == 502
    assert "chat upstream http://127.0.0.1:9/v1/chat/completions" in response.json()["detail"]


def test_settings_per_user_over_http(proxy: Proxy) -> None:
    url = f"{proxy.url}/v1/chat/settings"
    alice = {"Authorization": f"Bearer {proxy.keys['alice']}"}
    bob = {"Authorization": f"Bearer {proxy.keys['bob']}"}
    got = httpx.get(url, headers=alice).json()
    assert got == {
        "namespace": "user:alice",
        "enabled": True,
        "top_k": 5,
        "rerank": "none",
        "auto_mine": True,
        "recall_off_agents": "orchestrator",
    }
    put = httpx.put(url, json={"auto_mine": False, "top_k": 3}, headers=alice)
    assert put.status_code == 200 and (put.json()["auto_mine"], put.json()["top_k"]) == (False, 3)
    assert httpx.put(url, json={"top_k": 0}, headers=alice).status_code == 422
    assert httpx.put(url, json={"colour": "red"}, headers=alice).status_code == 422
    assert httpx.put(url, params={"user_id": "alice"}, json={}, headers=bob).status_code == 403
    assert httpx.get(url, headers=bob).json()["auto_mine"] is True
    proxy.client().chat.completions.create(model="m", messages=[{"role": "user", "content": FACT}])
    proxy.client("bob").chat.completions.create(
        model="m", messages=[{"role": "user", "content": FACT}]
    )
    assert proxy.mined() == 1  # bob's turn only: alice turned auto_mine off
    assert proxy.memory.get_all(user_id="alice").total == 0
    reset = httpx.delete(url, headers=alice)
    assert reset.status_code == 200 and reset.json()["auto_mine"] is True


def test_http_recall_with_a_session_records_what_it_injected(proxy: Proxy) -> None:
    fact = proxy.memory.add(FACT, user_id="alice")
    body = {"query": QUESTION, "session_id": "http-s1"}
    alice = {"Authorization": f"Bearer {proxy.keys['alice']}"}
    answer = httpx.post(f"{proxy.url}/v1/recall", json=body, headers=alice).json()
    assert answer["shown"] == [fact.id]
    recorded = proxy.memory.sessions.injected_memories("http-s1", user_id="alice")
    assert [r.memory_id for r in recorded] == [fact.id]


def _blas_threads() -> set[int]:
    from threadpoolctl import threadpool_info

    return {int(i["num_threads"]) for i in threadpool_info() if i["user_api"] == "blas"}


def test_the_server_runs_blas_on_one_thread(proxy: Proxy) -> None:
    # numpy's BLAS threads spin after recall's exact scoring and held up the event
    # loop (docs/benchmarks.md, Chat proxy, experiment 6).
    assert _blas_threads() == {1}


def test_one_blas_thread_lasts_as_long_as_the_server() -> None:
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=2, user_api="blas"):
        assert _blas_threads() == {2}
        with blas.one_thread():
            assert _blas_threads() == {1}
        assert _blas_threads() == {2}


def test_a_sliding_window_client_files_every_exchange_once_in_order(proxy: Proxy) -> None:
    """New-user pass, round eight: round seven's windowed mining, end to end. A client
    that sends only its last four messages over eight exchanges; the room holds each
    exchange once, in order (mining matched by position filed nothing new before)."""
    proxy.upstream.fallback = lambda request: "Re: " + str(request.body["messages"][-1]["content"])
    client, history = proxy.client(), list[dict[str, str]]()
    for turn in range(8):
        history.append({"role": "user", "content": f"Question {turn}: about topic {turn}"})
        reply = client.chat.completions.create(
            model="m", messages=history[-4:], extra_headers={"X-Engram-Conversation": "win"}
        )
        history.append({"role": "assistant", "content": reply.choices[0].message.content or ""})
        assert proxy.mined() == turn + 1
    drawers = proxy.memory.palace.drawers("chat", "win", user_id="alice")
    filed = [proxy.memory.get(d.memory_id, user_id="alice").content for d in drawers]
    assert filed == [m["content"] for m in history]
    palace = httpx.get(
        f"{proxy.url}/v1/palace", headers={"Authorization": f"Bearer {proxy.keys['alice']}"}
    ).json()
    assert [w["drawers"] for w in palace["wings"]] == [16]
