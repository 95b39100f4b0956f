"""Round thirty-eight (inject42; docs/safety.md, "Round thirty-eight"): held-out 33's and
tool42's checks (``scripts/injection_round38.py``, ``scripts/inject42_tool42.py``),
printing figures only.

``--cosine``: held-out 33 and tool42 against every earlier text the project holds
(``inject38_fold_check.earlier`` with notes39, notes40 and tool40), fp32 MiniLM: the
highest cosine, the median of the rows' highest, the highest within the new texts, the
top five.

``--read``: held-out 33 with the scan of the tree on ``PYTHONPATH`` as a write meets it
(``inject38_fold_check.read``), counts only. ``--tool``: tool40's fold A and tool42's fold
A flagged (with ``--final`` both B folds too; ``--show`` prints the tune folds' flagged
texts and their reasons).

    PYTHONPATH=src python scripts/inject42_check.py --cosine
    PYTHONPATH=src python scripts/inject42_check.py --read
    PYTHONPATH=src python scripts/inject42_check.py --tool [--final] [--show]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round30 as r30  # noqa: E402  (the embedder)
import inject38_fold_check as fc  # noqa: E402

from engram import injection_detector, safety  # noqa: E402
from engram.bench import injection  # noqa: E402

ROOT = Path(__file__).resolve().parents[1] / "src/engram/data"
CACHE = Path("/tmp/inject42/vectors.npz")
FOLD = "held_out_33"
TOOLS = ("tool40", "tool42")


def tool_rows(name: str) -> list[dict[str, str]]:
    return list(json.loads((ROOT / f"{name}.json").read_text("utf-8")))


def cosine(bench: str) -> None:
    embed = r30.fp32_embed(CACHE)
    new = [x["text"] for x in injection.load_set() if x["split"] == FOLD]
    new += [r["text"] for r in tool_rows("tool42")]
    old = set(fc.earlier(bench, FOLD)) - set(new)
    for name in ("notes39.json", "notes40.json", "tool40.json"):
        old |= {r["text"] for r in json.loads((ROOT / name).read_text("utf-8"))}
    olds = sorted(old)
    a, b = embed(new), embed(olds)
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    best = (a @ b.T).max(axis=1)
    within = a @ a.T
    np.fill_diagonal(within, -1.0)
    print(f"{len(new)} new texts against {len(olds)} distinct earlier texts")
    print(f"highest {best.max():.3f}, median of the rows' highest {np.median(best):.3f}")
    print(f"highest within the new texts {within.max():.3f}")
    for i in np.argsort(-best)[:8]:
        print(f"  {best[i]:.3f} {new[i][:70]!r}")


def tool(final: bool, show: bool) -> None:
    found = injection_detector.shipped()
    assert found is not None
    embed = r30.fp32_embed(CACHE)
    for name in TOOLS:
        rows = tool_rows(name)
        verdict = fc.flagged(found, [r["text"] for r in rows])
        for fold in ("A", "B") if final else ("A",):
            got = [r["text"] for r in rows if r["fold"] == fold]
            print(f"{name} {fold}: {sum(verdict[t] for t in got)} of {len(got)}")
        if show:
            texts = [r["text"] for r in rows if r["fold"] == "A" and verdict[r["text"]]]
            for t, r in zip(texts, found.reasons(embed(texts), texts, embed), strict=True):
                print(f"  rules={safety.scan(t)} detector={r} {t[:90]!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--cosine", action="store_true")
    parser.add_argument("--read", action="store_true")
    parser.add_argument("--tool", action="store_true")
    parser.add_argument("--final", action="store_true")
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    fc.CACHE = CACHE
    if args.cosine:
        cosine(args.data)
    if args.read:
        fc.read(FOLD)
    if args.tool:
        tool(args.final, args.show)


if __name__ == "__main__":
    main()
