"""The chat proxy's 502 says what to check (docs/chat.md: "An unreachable upstream is
a 502 naming the URL"): it said only the exception's class, "failed: ConnectError"
(new-user pass, round four)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from engram import Config
from engram.chat.upstream import open_completion
from engram.errors import LlmError
from llmserver import Reply, ScriptedLlm

BODY = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


def test_a_refused_connection_says_what_to_check(config: Config) -> None:
    cfg = config.with_overrides(chat={"upstream_url": "http://127.0.0.1:9/v1"})
    with pytest.raises(LlmError) as raised:
        asyncio.run(open_completion(cfg, BODY))
    detail = str(raised.value)
    assert "http://127.0.0.1:9/v1/chat/completions" in detail
    assert "could not connect" in detail and "[chat] upstream_url" in detail


def test_a_slow_upstream_names_the_timeout(config: Config, llm: ScriptedLlm) -> None:
    llm.script(Reply(text="late", delay=3))
    cfg = config.with_overrides(chat={"upstream_url": llm.openai_url, "upstream_timeout_s": 1})
    with pytest.raises(LlmError, match=r"no answer within \[chat\] upstream_timeout_s \(1 s\)"):
        asyncio.run(open_completion(cfg, BODY))
