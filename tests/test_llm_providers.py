"""The Ollama and OpenAI-compatible providers against a real HTTP server on 127.0.0.1
(tests/llmserver.py) that speaks their protocols and answers from a script."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from engram import Config
from engram.errors import ConfigError, LlmError
from engram.llm import (
    CliProvider,
    LlmProvider,
    OllamaProvider,
    OpenAICompatProvider,
    create_provider,
    parse_json,
)
from engram.settings import LlmConfig
from llmserver import Reply, ScriptedLlm, fenced, thinking, truncated

SCHEMA = {
    "title": "contradiction verdict",
    "type": "object",
    "properties": {"contradicts": {"type": "boolean"}, "confidence": {"type": "number"}},
    "required": ["contradicts", "confidence"],
}
VERDICT = {"contradicts": True, "confidence": 0.8}
#: What an Ollama server older than structured outputs says about a schema in ``format``.
OLD_OLLAMA_400 = (
    '{"error":"json: cannot unmarshal object into Go struct field '
    'GenerateRequest.format of type string"}'
)


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


def closed_port_url() -> str:
    """A URL on 127.0.0.1 where nothing listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


# -- Ollama ---------------------------------------------------------------------------


def test_ollama_posts_a_non_streaming_generate_with_the_schema(llm: ScriptedLlm) -> None:
    llm.script(fenced(VERDICT))
    provider = OllamaProvider(base_url=llm.url, model="qwen3:4b")
    answer = provider.generate("Do they contradict?", schema=SCHEMA)
    assert parse_json(answer) == VERDICT
    (sent,) = llm.requests
    assert sent.method == "POST" and sent.path == "/api/generate"
    assert sent.body == {
        "model": "qwen3:4b",
        "prompt": "Do they contradict?",
        "stream": False,
        "format": SCHEMA,
    }


def test_ollama_sends_no_format_without_a_schema_or_with_structured_output_off(
    llm: ScriptedLlm,
) -> None:
    llm.script("plain", "plain")
    OllamaProvider(base_url=llm.url).generate("hi")
    OllamaProvider(base_url=llm.url, structured_output=False).generate("hi", schema=SCHEMA)
    assert all("format" not in r.body for r in llm.requests)


def test_ollama_falls_back_to_json_mode_on_an_old_server(llm: ScriptedLlm) -> None:
    llm.script(Reply(status=400, body=OLD_OLLAMA_400), thinking(VERDICT), thinking(VERDICT))
    provider = OllamaProvider(base_url=llm.url)
    assert parse_json(provider.generate("q", schema=SCHEMA)) == VERDICT
    # the next call goes straight to "json": the server has shown what it takes
    assert parse_json(provider.generate("q", schema=SCHEMA)) == VERDICT
    assert [r.body["format"] for r in llm.requests] == [SCHEMA, "json", "json"]


def test_ollama_does_not_retry_a_400_about_something_else(llm: ScriptedLlm) -> None:
    llm.script(Reply(status=400, body='{"error":"prompt is required"}'))
    with pytest.raises(LlmError, match=r"HTTP 400 .*prompt is required"):
        OllamaProvider(base_url=llm.url).generate("", schema=SCHEMA)
    assert len(llm.requests) == 1


def test_ollama_http_error_names_provider_model_status_and_body(llm: ScriptedLlm) -> None:
    body = "model runner crashed: " + "x" * 500
    llm.script(Reply(status=500, body=body))
    with pytest.raises(LlmError) as caught:
        OllamaProvider(base_url=llm.url, model="qwen3:4b").generate("q")
    message = str(caught.value)
    assert message.startswith("ollama model 'qwen3:4b': HTTP 500 from ")
    # seed 004: the first 200 characters of the body, no more
    assert message.endswith(f"/api/generate: {body[:200]}...")


def test_ollama_timeout_is_descriptive_and_prompt(llm: ScriptedLlm) -> None:
    llm.script(Reply(text="too late", delay=5.0))
    provider = OllamaProvider(base_url=llm.url, timeout=45.0)
    started = time.monotonic()
    with pytest.raises(LlmError, match=r"ollama model 'qwen3:4b': .* timed out after 0\.3 s"):
        provider.generate("q", timeout=0.3)
    # Hang guard: 0.3 s quiet (10x margin); an ignored timeout waits the 5 s delay.
    assert time.monotonic() - started < 3.0


def test_ollama_envelope_without_response_is_an_error(llm: ScriptedLlm) -> None:
    llm.script(Reply(body='{"done": true}'), Reply(body="<html>proxy error</html>"))
    provider = OllamaProvider(base_url=llm.url)
    with pytest.raises(LlmError, match="without a 'response' text"):
        provider.generate("q")
    with pytest.raises(LlmError, match="not JSON: <html>proxy error</html>"):
        provider.generate("q")


def test_ollama_unreachable_server_is_an_llm_error() -> None:
    provider = OllamaProvider(base_url=closed_port_url())
    with pytest.raises(LlmError, match="cannot reach"):
        provider.generate("q", timeout=2.0)
    assert provider.available() is False


def test_ollama_available_asks_api_tags(llm: ScriptedLlm) -> None:
    provider = OllamaProvider(base_url=llm.url)
    assert provider.available() is True
    llm.healthy = False
    assert provider.available() is False
    assert [r.path for r in llm.requests] == ["/api/tags", "/api/tags"]


def test_truncated_and_wrong_type_answers_reach_the_caller(llm: ScriptedLlm) -> None:
    llm.script(truncated(VERDICT), fenced({"contradicts": "yes"}))
    provider = OllamaProvider(base_url=llm.url)
    with pytest.raises(LlmError, match="truncated"):
        parse_json(provider.generate("q", schema=SCHEMA))
    assert parse_json(provider.generate("q", schema=SCHEMA)) == {"contradicts": "yes"}


# -- OpenAI-compatible ----------------------------------------------------------------


def test_openai_posts_chat_completions_with_a_strict_json_schema(
    llm: ScriptedLlm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test-123")
    llm.script(fenced(VERDICT))
    provider = OpenAICompatProvider(
        base_url=llm.openai_url, model="gpt-test", api_key_env="TEST_LLM_KEY"
    )
    assert parse_json(provider.generate("Judge.", schema=SCHEMA)) == VERDICT
    (sent,) = llm.requests
    assert sent.path == "/v1/chat/completions"
    assert sent.headers["authorization"] == "Bearer sk-test-123"
    assert sent.body["model"] == "gpt-test"
    assert sent.body["messages"] == [{"role": "user", "content": "Judge."}]
    assert sent.body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "contradiction_verdict", "schema": SCHEMA, "strict": True},
    }


def test_openai_sends_no_key_when_the_variable_is_unset(
    llm: ScriptedLlm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TEST_LLM_KEY", raising=False)
    llm.script("hello")
    provider = OpenAICompatProvider(base_url=llm.openai_url, api_key_env="TEST_LLM_KEY")
    assert provider.generate("hi") == "hello"
    assert "authorization" not in llm.requests[0].headers
    assert "response_format" not in llm.requests[0].body


def test_openai_steps_down_response_format_and_remembers(llm: ScriptedLlm) -> None:
    llm.script(
        Reply(status=400, body='{"error":{"message":"response_format json_schema unsupported"}}'),
        Reply(status=400, body='{"error":{"message":"Unknown response_format type"}}'),
        fenced(VERDICT),
        fenced(VERDICT),
    )
    provider = OpenAICompatProvider(base_url=llm.openai_url)
    assert parse_json(provider.generate("q", schema=SCHEMA)) == VERDICT
    assert parse_json(provider.generate("q", schema=SCHEMA)) == VERDICT
    formats = [r.body.get("response_format", {}).get("type") for r in llm.requests]
    assert formats == ["json_schema", "json_object", None, None]


def test_openai_remembers_the_step_down_per_schema(llm: ScriptedLlm) -> None:
    other = {"type": "object", "properties": {"hints": {"type": "array"}}}
    llm.script(Reply(status=400, body="Invalid schema for response_format 'x'"), "{}", "{}")
    provider = OpenAICompatProvider(base_url=llm.openai_url)
    provider.generate("q", schema=SCHEMA)
    provider.generate("q", schema=other)
    formats = [r.body["response_format"]["type"] for r in llm.requests]
    assert formats == ["json_schema", "json_object", "json_schema"]
    assert llm.requests[2].body["response_format"]["json_schema"]["name"] == "response"


def test_openai_errors_and_timeouts_are_descriptive(llm: ScriptedLlm) -> None:
    llm.script(
        Reply(status=500, body='{"error":"upstream overloaded"}'),
        Reply(status=401, body='{"error":"invalid api key"}'),
        Reply(text="{}", delay=5.0),
        Reply(body='{"choices": []}'),
    )
    provider = OpenAICompatProvider(base_url=llm.openai_url, model="m")
    with pytest.raises(LlmError, match=r"^openai model 'm': HTTP 500 .*upstream overloaded"):
        provider.generate("q", schema=SCHEMA)
    with pytest.raises(LlmError, match="HTTP 401 .*invalid api key"):
        provider.generate("q")
    with pytest.raises(LlmError, match=r"timed out after 0\.25 s"):
        provider.generate("q", timeout=0.25)
    with pytest.raises(LlmError, match="without a message content"):
        provider.generate("q")


def test_openai_joins_content_parts(llm: ScriptedLlm) -> None:
    parts = (
        '{"choices":[{"message":{"content":[{"type":"text","text":"{\\"a\\":"},{"text":"1}"}]}}]}'
    )
    llm.script(Reply(body=parts))
    assert parse_json(OpenAICompatProvider(base_url=llm.openai_url).generate("q")) == {"a": 1}


def test_openai_available_asks_models_with_the_key(
    llm: ScriptedLlm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "k")
    provider = OpenAICompatProvider(base_url=llm.openai_url, api_key_env="TEST_LLM_KEY")
    assert provider.available() is True
    assert llm.requests[0].path == "/v1/models"
    assert llm.requests[0].headers["authorization"] == "Bearer k"
    llm.healthy = False
    assert provider.available() is False
    assert OpenAICompatProvider(base_url=closed_port_url()).available() is False


def test_a_slow_server_does_not_hold_the_scripted_server_open(llm: ScriptedLlm) -> None:
    # The server answers the next request while an abandoned slow one still waits.
    llm.script(Reply(text="late", delay=10.0), "on time")
    provider = OllamaProvider(base_url=llm.url)
    with pytest.raises(LlmError, match="timed out"):
        provider.generate("q", timeout=0.2)
    assert provider.generate("q", timeout=5.0) == "on time"


def test_an_unscripted_request_fails_loudly(llm: ScriptedLlm) -> None:
    with pytest.raises(LlmError, match="the script is empty"):
        OllamaProvider(base_url=llm.url).generate("q")


def test_the_fallback_answers_by_prompt(llm: ScriptedLlm) -> None:
    llm.fallback = lambda request: fenced({"echo": request.prompt})
    assert parse_json(OllamaProvider(base_url=llm.url).generate("one")) == {"echo": "one"}
    chat = OpenAICompatProvider(base_url=llm.openai_url)
    assert parse_json(chat.generate("two")) == {"echo": "two"}


# -- the factory ----------------------------------------------------------------------


def test_create_provider_is_none_offline_by_default() -> None:
    assert create_provider(Config.load(env={}).llm) is None


def test_create_provider_builds_each_kind_from_config(llm: ScriptedLlm) -> None:
    env = {
        "ENGRAM_LLM_PROVIDER": "ollama",
        "ENGRAM_LLM_BASE_URL": llm.url,
        "ENGRAM_LLM_TIMEOUT_S": "7",
        "ENGRAM_LLM_STRUCTURED_OUTPUT": "false",
    }
    provider = create_provider(Config.load(env=env).llm)
    assert isinstance(provider, OllamaProvider) and isinstance(provider, LlmProvider)
    assert (provider.model, provider.base_url, provider.timeout) == ("qwen3:4b", llm.url, 7.0)
    assert provider.structured_output is False

    openai = create_provider(LlmConfig(provider="openai", model="gpt-x", api_key_env="K"))
    assert isinstance(openai, OpenAICompatProvider)
    assert (openai.base_url, openai.model, openai.api_key_env) == (
        "https://api.openai.com/v1",
        "gpt-x",
        "K",
    )

    cli = create_provider(LlmConfig(provider="cli"))
    assert isinstance(cli, CliProvider) and cli.model == "haiku"
    assert cli.template[:2] == ["claude", "-p"]


def test_create_provider_rejects_an_unknown_name() -> None:
    with pytest.raises(ConfigError, match="unknown LLM provider 'gpt'"):
        create_provider(LlmConfig(provider="gpt"))
    with pytest.raises(ConfigError, match="llm.provider must be one of"):
        Config.load(env={"ENGRAM_LLM_PROVIDER": "gpt"})


def test_a_configured_provider_round_trips_through_the_real_server(llm: ScriptedLlm) -> None:
    config = Config.load(env={}, llm={"provider": "openai", "base_url": llm.openai_url})
    provider = create_provider(config.llm)
    assert provider is not None
    llm.script(thinking(VERDICT))
    assert parse_json(provider.generate("q", schema=SCHEMA)) == VERDICT
    assert llm.pending == 0


def test_a_server_that_trickles_its_answer_is_cut_off_at_the_deadline(llm: ScriptedLlm) -> None:
    # Each byte arrives well within httpx's per-read timeout; only the overall deadline
    # stops the call (the whole body would take about 13 s).
    llm.script(Reply(body='{"response": "' + "x" * 240 + '"}', trickle=0.05))
    started = time.monotonic()
    with pytest.raises(LlmError, match=r"timed out after 0\.5 s"):
        OllamaProvider(base_url=llm.url).generate("q", timeout=0.5)
    # Hang guard: 0.5 s quiet; 5 s (10x) survives load 15, and reading the whole body
    # (no overall deadline) takes 13 s and fails.
    assert time.monotonic() - started < 5.0


def test_the_scripted_server_speaks_ollama_chat(llm: ScriptedLlm) -> None:
    llm.script("hello")
    reply = httpx.post(
        llm.url + "/api/chat",
        json={"model": "qwen3:4b", "messages": [{"role": "user", "content": "hi"}]},
        timeout=5,
    )
    assert reply.json()["message"] == {"role": "assistant", "content": "hello"}
    assert llm.requests[0].prompt == "hi"


def test_providers_serve_concurrent_callers(llm: ScriptedLlm) -> None:
    llm.fallback = lambda request: fenced({"echo": request.prompt})
    ollama = OllamaProvider(base_url=llm.url)
    openai = OpenAICompatProvider(base_url=llm.openai_url)
    prompts = [f"prompt {i}" for i in range(24)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(
            pool.map(
                lambda i: parse_json((ollama if i % 2 else openai).generate(prompts[i]))["echo"],
                range(len(prompts)),
            )
        )
    assert answers == prompts
    assert len(llm.requests) == len(prompts)
