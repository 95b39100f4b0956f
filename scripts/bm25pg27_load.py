"""Load a small PostgreSQL database for ``scripts/pg_recall_reads.py`` (bm25pg27):
LoCoMo dev turns composed to N memories (``engram.bench.pg_scale.compose_corpus``) in
namespace ``bench``, with seeded random unit vectors in place of the model's (the
keyword leg is what is measured; both checkouts read the same vectors).

    PYTHONPATH=<checkout>/src python scripts/bm25pg27_load.py URL N

Run under the checkout whose migrations the database should have.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

from engram import Config, Memory
from engram.bench.pg_scale import LookupEmbedder, compose_corpus, load_precomputed
from engram.bench.scale import locomo_turns_and_questions

LOCOMO = Path(__file__).resolve().parents[1].parent / "shared/bench/locomo/locomo10_dev.json"


def main() -> None:
    url, n = sys.argv[1], int(sys.argv[2])
    turns, _ = locomo_turns_and_questions(LOCOMO)
    base = list(dict.fromkeys(turns))
    rng = np.random.default_rng(27)
    vectors = rng.standard_normal((len(base), 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    texts, composed = compose_corpus(base, vectors, n)
    config = Config.load(env={}, home=tempfile.mkdtemp(prefix="bm25pg27-load-"))
    embedder = LookupEmbedder("all-MiniLM-L6-v2", {texts[0]: composed[0]})
    with Memory(url, config=config, embedder=embedder) as mem:
        rate = load_precomputed(mem, texts, composed, namespace="bench")
    print(f"{n} memories at {rate:.0f}/s")


if __name__ == "__main__":
    main()
