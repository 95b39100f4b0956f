"""Shared fixtures: deterministic embedders that plug in through the real Embedder seam."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from engram import Config, Memory
from engram.embed.base import BaseEmbedder, Vectors, normalize_rows

SHARED = Path(__file__).resolve().parents[2] / "shared"


class HashEmbedder(BaseEmbedder):
    """Bag-of-words hashed into a small space: similar wording gives similar vectors.

    Fast and deterministic, so ranking tests do not depend on the real model; the real
    model has its own tests (test_embed_minilm.py) and end-to-end tests.
    """

    name = "test-hash"

    def __init__(self, dimension: int = 64) -> None:
        self.dimension = dimension
        self.calls = 0

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        self.calls += 1
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.lower()):
                digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
                out[row, int.from_bytes(digest, "little") % self.dimension] += 1.0
            if not out[row].any():
                out[row, 0] = 1.0
        return normalize_rows(out)


class FailingEmbedder(HashEmbedder):
    """An embedder whose model is gone: every call raises."""

    name = "test-failing"

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        raise RuntimeError("model server unreachable")


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """A config rooted in a temp dir, isolated from the user's environment."""
    return Config.load(env={}, home=str(tmp_path / "home"))


@pytest.fixture
def mem(config: Config) -> Iterator[Memory]:
    """An in-memory store with the hash embedder."""
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as m:
        yield m


@pytest.fixture
def file_mem(config: Config, tmp_path: Path) -> Iterator[Memory]:
    """A file-backed store with the hash embedder."""
    with Memory(tmp_path / "engram.db", config=config, embedder=HashEmbedder()) as m:
        yield m
