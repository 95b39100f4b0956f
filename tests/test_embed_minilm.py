"""The local MiniLM embedder against sentence-transformers' own vectors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engram import EmbeddingError
from engram.config import EmbedderConfig
from engram.embed import create_embedder
from engram.embed.minilm import PACKAGED_NAME, MiniLMEmbedder

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "minilm_reference.json"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("embed-home")


@pytest.fixture(scope="module")
def embedder(home: Path) -> MiniLMEmbedder:
    return MiniLMEmbedder(None, home, precision="fp32")


@pytest.fixture(scope="module")
def int8(home: Path) -> MiniLMEmbedder:
    return MiniLMEmbedder(None, home, precision="int8")


def _reference() -> tuple[list[str], np.ndarray]:
    reference = json.loads(REFERENCE.read_text())
    texts = [item["text"] for item in reference["items"]]
    vectors = np.array([item["embedding"] for item in reference["items"]], np.float32)
    return texts, vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_matches_sentence_transformers_reference(embedder: MiniLMEmbedder) -> None:
    reference = json.loads(REFERENCE.read_text())
    assert reference["max_seq_length"] == embedder.max_seq_length == 256
    texts = [item["text"] for item in reference["items"]]
    # The fixture holds an over-long text (truncation) and non-ASCII text; check both
    # are really there so this test keeps covering them.
    assert any(len(t.split()) > 300 for t in texts)
    assert any(not t.isascii() for t in texts)
    vectors = embedder.embed_batch(texts)
    assert vectors.shape == (len(texts), 384)
    assert vectors.dtype == np.float32
    for row, item in zip(vectors, reference["items"], strict=True):
        expected = np.asarray(item["embedding"], dtype=np.float32)
        cosine = float(row @ expected / (np.linalg.norm(row) * np.linalg.norm(expected)))
        assert cosine >= 0.9999, item["text"][:60]
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_batch_order_and_single_agree(embedder: MiniLMEmbedder) -> None:
    texts = ["short", "a much longer sentence about deployment scripts and on-call", "mid size"]
    together = embedder.embed_batch(texts)
    for text, row in zip(texts, together, strict=True):
        np.testing.assert_allclose(embedder.embed(text), row, atol=1e-5)
    assert embedder.embed_batch([]).shape == (0, 384)


class _Recording:
    """A tokenizer that records which of its encoders ran."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[str] = []

    def encode(self, text: str) -> object:
        self.calls.append("encode")
        return self.inner.encode(text)

    def encode_batch(self, texts: list[str]) -> object:
        self.calls.append("encode_batch")
        return self.inner.encode_batch(texts)


def test_one_text_is_tokenized_on_the_calling_thread(embedder: MiniLMEmbedder) -> None:
    # A query is encoded in place: encode_batch lets go of the GIL and hands even one
    # text to the tokenizer's pool, and inside a recall the keyword worker then took
    # the GIL before the model could start (docs/benchmarks.md, "The model inside a
    # recall"). Both encoders give the same ids, truncation and non-ASCII included.
    texts = _reference()[0]
    batch = embedder.embed_batch(texts)
    tokenizer = embedder._tokenizer
    recording = _Recording(tokenizer)
    embedder._tokenizer = recording
    try:
        for text, row in zip(texts, batch, strict=True):
            np.testing.assert_allclose(embedder.embed_batch([text])[0], row, atol=1e-5)
            assert tokenizer.encode(text).ids == tokenizer.encode_batch([text])[0].ids
        assert recording.calls == ["encode"] * len(texts)
        embedder.embed_batch(texts[:2])
        assert recording.calls[-1] == "encode_batch"
    finally:
        embedder._tokenizer = tokenizer


def test_related_pairs_are_sane(embedder: MiniLMEmbedder) -> None:
    a, b, c = embedder.embed_batch(
        ["How do I reset my password?", "steps to recover account login", "sunny in Paris"]
    )
    assert float(a @ b) > float(a @ c) + 0.3


def test_graph_is_built_once_and_cached(home: Path, embedder: MiniLMEmbedder) -> None:
    embedder.embed("warm up")
    graphs = [g for g in (home / "models").glob("*.onnx") if "int8" not in g.name]
    assert len(graphs) == 1
    mtime = graphs[0].stat().st_mtime_ns
    again = MiniLMEmbedder(None, home, precision="fp32")
    again.embed("load from the cache")
    assert graphs[0].stat().st_mtime_ns == mtime
    assert again.info()["onnx_graph"] == str(graphs[0])


def test_loads_lazily(tmp_path: Path) -> None:
    fresh = MiniLMEmbedder(None, tmp_path)
    assert fresh.name == PACKAGED_NAME and fresh.dimension == 384
    assert fresh.info()["loaded"] is False
    assert not (tmp_path / "models").exists()


def test_registry_builds_minilm(tmp_path: Path) -> None:
    built = create_embedder(EmbedderConfig(), tmp_path)
    assert isinstance(built, MiniLMEmbedder)
    assert create_embedder(EmbedderConfig(name="none"), tmp_path) is None


def test_model_dir_without_weights_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingError, match="model.safetensors"):
        MiniLMEmbedder(tmp_path, tmp_path)


def test_int8_stays_within_cosine_0_99_of_the_reference(
    int8: MiniLMEmbedder, embedder: MiniLMEmbedder
) -> None:
    texts, expected = _reference()
    vectors = int8.embed_batch(texts)
    assert int8.info()["precision"] == "int8"
    cosines = (vectors * expected).sum(axis=1)
    assert cosines.min() >= 0.99, texts[int(cosines.argmin())][:60]
    # ... and agrees with fp32 as closely (the fp32 graph is the reference's own maths).
    assert (vectors * embedder.embed_batch(texts)).sum(axis=1).min() >= 0.99
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_int8_vectors_do_not_depend_on_the_batch(int8: MiniLMEmbedder) -> None:
    # Static activation scales: a text's vector is a function of that text alone.
    texts = [*_reference()[0], "short", "a much longer sentence about on-call rotations"]
    together = int8.embed_batch(texts)
    for text, row in zip(texts, together, strict=True):
        assert float(int8.embed(text) @ row) >= 0.99999


def test_the_shipped_int8_plan_is_what_calibration_computes(
    int8: MiniLMEmbedder, tmp_path: Path
) -> None:
    from importlib import resources

    from safetensors.numpy import load_file

    from engram.embed.minilm import shipped_plan_name
    from engram.embed.onnx_bert import build_graph
    from engram.embed.quantize import calibration_texts, load_plans, plan_quantization

    int8.embed("build the graph")
    shipped = resources.files("engram") / "data" / shipped_plan_name(int8._digest)
    with resources.as_file(shipped) as path:
        plans = load_plans(path)
    graph = build_graph(load_file(str(int8.model_dir / "model.safetensors")), int8.shape)
    computed = plan_quantization(graph, calibration_texts(), int8.model_dir / "tokenizer.json")
    assert plans.keys() == computed.keys()
    for name, plan in plans.items():
        other = computed[name]
        # float32 sums land on a neighbouring float on another instruction set or
        # thread count (AVX2 against AVX-512: a relative 5e-8 in a scale seen); the
        # plan is the same.
        assert plan.zero_point == other.zero_point, name
        assert plan.scale == pytest.approx(other.scale, rel=1e-6), name
        assert (plan.smooth is None) == (other.smooth is None), name
        if plan.smooth is not None:
            np.testing.assert_allclose(plan.smooth, other.smooth, rtol=1e-5, atol=0)


def test_precision_is_checked_and_auto_follows_the_cpu(tmp_path: Path) -> None:
    from engram.embed.quantize import fast_int8

    with pytest.raises(EmbeddingError, match="precision"):
        MiniLMEmbedder(None, tmp_path, precision="fp16")
    auto = MiniLMEmbedder(None, tmp_path)
    assert auto.precision == ("int8" if fast_int8() else "fp32")
    built = create_embedder(EmbedderConfig(precision="fp32"), tmp_path)
    assert isinstance(built, MiniLMEmbedder) and built.precision == "fp32"
