"""The Ollama and OpenAI-compatible embedders against a real HTTP server on 127.0.0.1
(tests/llmserver.py), and a Memory that recalls through one."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from engram import Config, Memory
from engram.embed import Embedder, create_embedder, normalize_rows
from engram.embed.base import Vectors
from engram.embed.ollama import OllamaEmbedder
from engram.embed.openai_compat import OpenAICompatEmbedder
from engram.errors import ConfigError, EmbeddingError
from llmserver import Reply, ScriptedLlm, vector_for


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm(embed_dimension=16) as server:
        yield server


def _unit(rows: list[list[float]]) -> Vectors:
    return normalize_rows(np.asarray(rows, dtype=np.float32))


def test_ollama_embeds_in_batches_and_normalises(llm: ScriptedLlm) -> None:
    embedder = OllamaEmbedder(base_url=llm.url, model="nomic-embed-text", batch_size=2)
    texts = ["alpha", "beta", "gamma"]
    vectors = embedder.embed_batch(texts)
    assert vectors.shape == (3, 16) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    np.testing.assert_allclose(vectors, _unit([vector_for(t, 16) for t in texts]), rtol=1e-5)
    sent = llm.requests_to("/api/embed")
    assert [r.body for r in sent] == [
        {"model": "nomic-embed-text", "input": ["alpha", "beta"]},
        {"model": "nomic-embed-text", "input": ["gamma"]},
    ]
    assert embedder.name == "ollama:nomic-embed-text" and embedder.dimension == 16


def test_ollama_falls_back_to_the_old_endpoint(llm: ScriptedLlm) -> None:
    llm.script_embeddings(Reply(status=404, body="404 page not found"))
    embedder = OllamaEmbedder(base_url=llm.url)
    first = embedder.embed_batch(["a", "b"])
    second = embedder.embed_batch(["c"])
    assert first.shape == (2, 16) and second.shape == (1, 16)
    assert [r.path for r in llm.requests] == ["/api/embed"] + ["/api/embeddings"] * 3
    assert [r.body["prompt"] for r in llm.requests[1:]] == ["a", "b", "c"]


def test_ollama_model_not_pulled_is_an_error_not_a_fallback(llm: ScriptedLlm) -> None:
    missing = '{"error":"model \\"nomic-embed-text\\" not found, try pulling it first"}'
    llm.script_embeddings(Reply(status=404, body=missing))
    with pytest.raises(EmbeddingError, match=r"HTTP 404 .*try pulling it first"):
        OllamaEmbedder(base_url=llm.url).embed_batch(["a"])
    assert len(llm.requests) == 1


def test_the_dimension_is_learnt_with_one_probe_when_not_configured(llm: ScriptedLlm) -> None:
    embedder = OllamaEmbedder(base_url=llm.url)
    assert embedder.info()["dimension"] is None  # nothing asked yet
    assert embedder.dimension == 16
    assert embedder.dimension == 16
    assert len(llm.requests) == 1  # learnt once


def test_a_configured_dimension_needs_no_probe_and_is_checked(llm: ScriptedLlm) -> None:
    embedder = OllamaEmbedder(base_url=llm.url, dimension=768)
    assert embedder.dimension == 768 and llm.requests == []
    with pytest.raises(EmbeddingError, match="16-dimension vectors but embedder.dimension is 768"):
        embedder.embed_batch(["a"])


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (Reply(status=500, body="out of memory"), r"HTTP 500 from .*/api/embed: out of memory"),
        (Reply(vectors=[[1.0, 0.0]]), "returned 1 vectors for 2 texts"),
        (Reply(vectors=[[1.0, 0.0], [1.0]]), "not lists of numbers of one length"),
        (Reply(body='{"embeddings": [[1.0, "x"], [1.0, 2.0]]}'), "not lists of numbers"),
        (Reply(vectors=[[], []]), "empty or non-finite"),
        (Reply(body='{"embeddings": null}'), "answered without 'embeddings'"),
        (Reply(body="not json at all"), "not JSON: not json at all"),
    ],
)
def test_bad_answers_are_embedding_errors(llm: ScriptedLlm, reply: Reply, message: str) -> None:
    llm.script_embeddings(reply)
    with pytest.raises(EmbeddingError, match=message) as caught:
        OllamaEmbedder(base_url=llm.url, model="m").embed_batch(["a", "b"])
    assert str(caught.value).startswith("ollama embedder 'm': ")


def test_a_slow_embedding_server_times_out(llm: ScriptedLlm) -> None:
    llm.script_embeddings(Reply(delay=5.0))
    embedder = OpenAICompatEmbedder(base_url=llm.openai_url, timeout=0.3)
    with pytest.raises(EmbeddingError, match=r"timed out after 0\.3 s"):
        embedder.embed_batch(["a"])


def test_openai_embeds_in_index_order_with_the_key(
    llm: ScriptedLlm, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_EMBED_KEY", "sk-embed")
    shuffled = (
        '{"object":"list","data":['
        '{"index":1,"embedding":[0.0,2.0]},{"index":0,"embedding":[3.0,0.0]}]}'
    )
    llm.script_embeddings(Reply(body=shuffled))
    embedder = OpenAICompatEmbedder(
        base_url=llm.openai_url, model="text-embedding-3-small", api_key_env="TEST_EMBED_KEY"
    )
    vectors = embedder.embed_batch(["first", "second"])
    np.testing.assert_allclose(vectors, [[1.0, 0.0], [0.0, 1.0]])
    (sent,) = llm.requests
    assert sent.path == "/v1/embeddings"
    assert sent.body == {"model": "text-embedding-3-small", "input": ["first", "second"]}
    assert sent.headers["authorization"] == "Bearer sk-embed"
    assert embedder.name == "openai:text-embedding-3-small"


def test_openai_envelope_without_data_is_an_error(llm: ScriptedLlm) -> None:
    llm.script_embeddings(Reply(body='{"error": "nope"}'))
    with pytest.raises(EmbeddingError, match="without 'data' embeddings"):
        OpenAICompatEmbedder(base_url=llm.openai_url).embed_batch(["a"])


def test_available_checks_the_health_endpoints(llm: ScriptedLlm) -> None:
    ollama = OllamaEmbedder(base_url=llm.url)
    openai = OpenAICompatEmbedder(base_url=llm.openai_url)
    assert ollama.available() and openai.available()
    llm.healthy = False
    assert not ollama.available() and not openai.available()
    assert [r.path for r in llm.requests] == ["/api/tags", "/v1/models"] * 2


def test_the_registry_builds_them_from_config(llm: ScriptedLlm, tmp_path: Path) -> None:
    env = {
        "ENGRAM_EMBEDDER_NAME": "openai",
        "ENGRAM_EMBEDDER_BASE_URL": llm.openai_url,
        "ENGRAM_EMBEDDER_MODEL": "bge-small",
        "ENGRAM_EMBEDDER_API_KEY_ENV": "MY_KEY",
        "ENGRAM_EMBEDDER_DIMENSION": "16",
        "ENGRAM_EMBEDDER_TIMEOUT_S": "9",
    }
    built = create_embedder(Config.load(env=env).embedder, tmp_path)
    assert isinstance(built, OpenAICompatEmbedder) and isinstance(built, Embedder)
    assert (built.base_url, built.model, built.api_key_env) == (
        llm.openai_url,
        "bge-small",
        "MY_KEY",
    )
    assert (built.dimension, built.timeout) == (16, 9.0)
    ollama = create_embedder(Config.load(env={}, embedder={"name": "ollama"}).embedder, tmp_path)
    assert isinstance(ollama, OllamaEmbedder)
    assert (ollama.base_url, ollama.model) == ("http://localhost:11434", "nomic-embed-text")
    assert llm.requests == []  # building contacts nothing


def test_an_unknown_embedder_name_is_refused() -> None:
    with pytest.raises(ConfigError, match="embedder.name must be one of minilm, ollama, openai"):
        Config.load(env={"ENGRAM_EMBEDDER_NAME": "cohere"})


def test_memory_recalls_through_an_ollama_embedder(llm: ScriptedLlm, tmp_path: Path) -> None:
    config = Config.load(
        env={},
        home=str(tmp_path / "home"),
        embedder={"name": "ollama", "base_url": llm.url, "model": "nomic-embed-text"},
    )
    with Memory(tmp_path / "engram.db", config=config) as mem:
        mem.add("The deploy runs on Fridays", namespace="team")
        mem.add("Ana prefers tea over coffee", namespace="team")
        recall = mem.recall("deploy day", namespace="team")
    assert recall.mode == "hybrid" and recall.hits
    assert llm.requests_to("/api/embed")  # the memories and the query were embedded
    with Memory(tmp_path / "engram.db", config=config) as again:
        assert again.embedder is not None and again.embedder.dimension == 16


def test_memory_degrades_to_keywords_when_the_embedding_server_is_down(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port where nothing listens
        sock.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{sock.getsockname()[1]}"
    config = Config.load(
        env={},
        home=str(tmp_path / "home"),
        embedder={"name": "ollama", "base_url": down, "dimension": 16},
    )
    with Memory(tmp_path / "engram.db", config=config) as mem:
        mem.add("The deploy runs on Fridays", namespace="team")  # raw first: still stored
        recall = mem.recall("deploy", namespace="team")
    assert recall.mode == "keyword" and len(recall.hits) == 1
    assert any("cannot reach" in warning for warning in recall.warnings)
