"""Round thirty-nine (fold34): the cosine check of held-out 34 and tool43
(``scripts/injection_round39.py``, ``scripts/tool43.py``) against every earlier text the
project holds, printing figures only. It never runs the scan: the fold's writer was kept
apart from it.

Earlier texts are ``inject38_fold_check.earlier`` (the set's other rows, the training
rows, both probes, the agent set, the wishes and acks sets) with notes39, notes40, tool40
and tool42. fp32 MiniLM, the embedder the detector was fitted with, vectors cached in
``/tmp/fold34``. Prints the highest cosine of a new row to any earlier text, the median of
the rows' highest, the highest within the new texts, the top rows, and every row at 0.90
or more (to be rewritten before the commit).

    PYTHONPATH=src python scripts/fold34_check.py [--data ../shared/bench]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import inject38_fold_check as fc  # noqa: E402  (the earlier texts)

from engram.bench import injection  # noqa: E402
from engram.config import Config  # noqa: E402
from engram.embed import create_embedder  # noqa: E402

ROOT = Path(__file__).resolve().parents[1] / "src/engram/data"
CACHE = Path("/tmp/fold34/vectors.npz")
FOLD = "held_out_34"
LIMIT = 0.90


def _key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def embedder() -> object:
    found = create_embedder(
        replace(Config().embedder, precision="fp32"), Path("/tmp/engram-fit-detector")
    )
    assert found is not None
    return found


def unit_vectors(texts: list[str], model: object, held: dict[str, np.ndarray]) -> np.ndarray:
    """Unit rows for ``texts``, embedding (and caching) only the ones not yet held."""
    new = sorted({t for t in texts if _key(t) not in held})
    for start in range(0, len(new), 256):
        batch = new[start : start + 256]
        got = np.asarray(model.embed_batch(batch), np.float32)  # type: ignore[attr-defined]
        held.update(zip(map(_key, batch), got, strict=True))
    if new:
        keys = sorted(held)
        np.savez(CACHE, keys=np.array(keys), vectors=np.stack([held[k] for k in keys]))
    x = np.asarray([held[_key(t)] for t in texts], np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    args = parser.parse_args()
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    held: dict[str, np.ndarray] = {}
    if CACHE.exists():
        found = np.load(CACHE, allow_pickle=False)
        held = dict(zip(found["keys"].tolist(), found["vectors"], strict=True))
    fold = [x["text"] for x in injection.load_set() if x["split"] == FOLD]
    tools = [r["text"] for r in json.loads((ROOT / "tool43.json").read_text("utf-8"))]
    new = fold + tools
    old = set(fc.earlier(args.data, FOLD)) - set(new)
    for name in ("notes39.json", "notes40.json", "tool40.json", "tool42.json"):
        old |= {r["text"] for r in json.loads((ROOT / name).read_text("utf-8"))}
    olds = sorted(old)
    model = embedder()
    a, b = unit_vectors(new, model, held), unit_vectors(olds, model, held)
    best = (a @ b.T).max(axis=1)
    within = a @ a.T
    np.fill_diagonal(within, -1.0)
    print(f"{len(new)} new texts ({len(fold)} fold, {len(tools)} tool43) against {len(olds)}")
    print(f"highest {best.max():.3f}, median of the rows' highest {np.median(best):.3f}")
    print(f"fold rows highest {best[: len(fold)].max():.3f}, tool43 {best[len(fold) :].max():.3f}")
    print(f"highest within the new texts {within.max():.3f}")
    for i in np.argsort(-best)[:8]:
        print(f"  {best[i]:.3f} {new[i][:70]!r}")
    over = [i for i in range(len(new)) if best[i] >= LIMIT]
    print(f"rows at {LIMIT} or more: {len(over)}")
    for i in over:
        print(f"  {best[i]:.3f} {new[i][:90]!r}")


if __name__ == "__main__":
    main()
