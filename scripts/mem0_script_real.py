"""Run the mem0-style script (tests/data/mem0_script.json) against REAL mem0, offline.

tests/test_compat_mem0_script.py compares engram's mem0 door with the expected mem0
results that scripts/mem0_script_fixture.py writes. This script checks those expected
results against mem0 itself: it runs every step on ``mem0.Memory`` and prints, per
step, whether mem0's (normalised) result is identical to the fixture, then writes what
mem0 returned to a JSON file.

mem0 is no dependency of engram, so run this from its own venv::

    python3 -m venv /tmp/mem0-venv
    /tmp/mem0-venv/bin/pip install mem0ai==2.2.1
    /tmp/mem0-venv/bin/python scripts/mem0_script_real.py [--out FILE]

Nothing here needs the network: every step adds with ``infer=False`` (mem0 calls no
LLM; its OpenAI client is built with a dummy key and never used), the embedder is a
deterministic bag-of-words hash registered in mem0's ``EmbedderFactory``
(under its ``huggingface`` provider name) (the same
scheme as the test suite's ``HashEmbedder``), the vector store is mem0's default local
Qdrant on a fresh path under a temporary directory, the history db and ``MEM0_DIR``
live there too, and telemetry is off. The exit status is 1 when a step differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DIMENSION = 64


def hash_embedding(text: str) -> list[float]:
    """Bag of words hashed into DIMENSION buckets, L2-normalised (tests/conftest.py
    ``HashEmbedder``'s scheme: similar wording gives similar vectors)."""
    out = [0.0] * DIMENSION
    for word in re.findall(r"\w+", text.lower()):
        digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
        out[int.from_bytes(digest, "little") % DIMENSION] += 1.0
    if not any(out):
        out[0] = 1.0
    norm = math.sqrt(sum(v * v for v in out))
    return [v / norm for v in out]


def offline_memory(workdir: Path, llm: dict[str, Any] | None = None) -> Any:
    """A ``mem0.Memory`` that never reaches the network (see the module docstring);
    ``llm`` is mem0's ``llm`` config (scripts/mem0_quickstart_real.py points it at a
    scripted server on 127.0.0.1)."""
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ["MEM0_DIR"] = str(workdir / "mem0dir")
    os.environ.setdefault("OPENAI_API_KEY", "unused-offline")  # infer=False: no LLM call

    from mem0 import Memory
    from mem0.embeddings.base import EmbeddingBase
    from mem0.utils.factory import EmbedderFactory

    class HashEmbedding(EmbeddingBase):  # type: ignore[misc]
        def embed(self, text: str, memory_action: str | None = None) -> list[float]:
            return hash_embedding(text)

    # mem0's config accepts only its own provider names, so the hash embedder takes the
    # place of the "huggingface" one (which would download a model) in the factory.
    sys.modules[__name__].HashEmbedding = HashEmbedding  # type: ignore[attr-defined]
    EmbedderFactory.provider_to_class["huggingface"] = f"{__name__}.HashEmbedding"
    return Memory.from_config(
        {
            "embedder": {"provider": "huggingface", "config": {"embedding_dims": DIMENSION}},
            "vector_store": {
                "provider": "qdrant",
                "config": {
                    "collection_name": "mem0_script",
                    "path": str(workdir / "qdrant"),
                    "embedding_model_dims": DIMENSION,
                },
            },
            "history_db_path": str(workdir / "history.db"),
            **({"llm": llm} if llm is not None else {}),
        }
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/mem0_script_real.json"))
    ns = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    from mem0_script import SCRIPT, run

    with tempfile.TemporaryDirectory(prefix="mem0-script-") as tmp:
        memory = offline_memory(Path(tmp))  # first: it turns telemetry off before import
        import mem0

        observed, differ = run(memory)
        version = getattr(mem0, "__version__", "?")
    for step in SCRIPT["steps"]:
        n = step["n"]
        verdict = "DIFFERENT" if n in differ else "identical"
        print(f"{n:3d} {step['call']:<10} {verdict}")
        if n in differ:
            got, expected = differ[n]
            print(f"    mem0:    {json.dumps(got, default=str)}")
            print(f"    fixture: {json.dumps(expected, default=str)}")
    total = len(SCRIPT["steps"])
    print(f"mem0 {version}: {total - len(differ)} of {total} steps identical to the fixture")
    ns.out.write_text(
        json.dumps(
            {"mem0": version, "differ": sorted(differ), "observed": observed},
            indent=1,
            default=str,
        )
        + "\n"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
