"""Round 11 (silent36): recall's defaults on questions written a new way, at three sizes.

Every store of ``engram/data/paraphrase36.json`` (the ``--split`` asked: ``tune-36``
to study, ``held-out-10`` read only to report) is loaded into its own namespace of one
in-memory ``Memory`` three ways:

- ``alone``: its eleven memories;
- ``mix3``: with the memories of the two stores after it in the split that are not its
  cross-domain partner (33 memories, three domains);
- ``locomo500``: with 500 LoCoMo dev turns (the same seeded sample for every store).

Each store is asked its answerable questions (gold: its own memory), its four
unanswerable ones, and its cross-domain partner's answerable questions, through
``Memory.recall`` with the defaults (the decision on) and once more with
``abstain=False`` (ranking alone). Per size and kind it counts silent / marked
("possibly related") / confident, the gold in the context, the gold first shown,
the gold first and in the top 4 by ranking alone, and the lines shown.

    python scripts/silent36_measure.py --split tune-36 --out /tmp/tune.json
    python scripts/silent36_measure.py --split held-out-10 --out /tmp/held.json
    python scripts/silent36_measure.py --rows /tmp/tune.json   # the table again

``--sizes alone`` (repeatable) limits the sizes; ``--set alpha=1.0`` (repeatable) passes
a recall setting to every call (a variant); ``--out`` keeps every row (hits, cosines)
to study misses without recalling again.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engram import Memory
from engram.bench import paraphrase
from engram.bench.scale import locomo_turns_and_questions
from engram.cli.bench_options import SHARED_BENCH

sys.path.insert(0, str(Path(__file__).resolve().parent))
from abstain_padded import _memoize  # noqa: E402 - the scripts' own folder: one text, one embedding

LOCOMO_DEV = SHARED_BENCH / "locomo" / "locomo10_dev.json"
KEY = "p36"
SIZES = ("alone", "mix3", "locomo500")
PAD = 500


def _companions(store: paraphrase.Store, part: list[paraphrase.Store]) -> list[paraphrase.Store]:
    """The two stores after ``store`` in its split that are not its cross partners."""
    at = part.index(store)
    ring = part[at + 1 :] + part[:at]
    away = {store.cross_target} | {s.id for s in part if s.cross_target == store.id}
    return [s for s in ring if s.id not in away][:2]


def _rows(store: paraphrase.Store) -> list[dict[str, Any]]:
    return [
        {"content": text, "metadata": {KEY: f"{store.id}:{key}"}}
        for key, text in store.memories.items()
    ]


#: Recall settings for every call (``--set key=value``: an experiment's variant).
OVERRIDES: dict[str, Any] = {}


def _ask(mem: Memory, text: str, namespace: str, gold: set[str]) -> dict[str, Any]:
    r = mem.recall(text, namespace=namespace, **OVERRIDES)
    shown = [h for h in r.hits if h.memory.id in set(r.shown)]
    marks = [str(h.memory.metadata.get(KEY)) for h in shown]
    plain = mem.recall(text, namespace=namespace, **{**OVERRIDES, "abstain": False})
    ranked = [str(h.memory.metadata.get(KEY)) for h in plain.hits]
    verdict = "silent" if not r.shown else ("marked" if r.low_confidence else "confident")
    return {
        "q": text,
        "verdict": verdict,
        "reason": r.abstain_reason,
        "lines": len(shown),
        "gold_in_context": any(m in gold for m in marks),
        "gold_first": bool(marks) and marks[0] in gold,
        "rank_first": bool(ranked) and ranked[0] in gold,
        "rank_top4": any(m in gold for m in ranked[:4]),
        "shown": [
            {"key": m, "sim": h.breakdown.sim, "text": h.memory.content[:200]}
            for h, m in zip(shown, marks, strict=True)
        ],
        "ranked": [
            {"key": m, "sim": h.breakdown.sim, "text": h.memory.content[:200]}
            for h, m in zip(plain.hits[:4], ranked[:4], strict=True)
        ],
    }


def collect(split: str, sizes: Sequence[str]) -> list[dict[str, Any]]:
    stores = paraphrase.load(paraphrase.round11_path())
    part = [s for s in stores if s.split == split]
    by_id = {s.id: s for s in stores}
    turns, _ = locomo_turns_and_questions(LOCOMO_DEV)
    pads = random.Random(7).sample(turns, PAD)
    out: list[dict[str, Any]] = []
    for size in sizes:
        with Memory(":memory:") as mem:
            _memoize(mem)
            for store in part:
                rows = _rows(store)
                if size == "mix3":
                    rows += [r for s in _companions(store, part) for r in _rows(s)]
                elif size == "locomo500":
                    rows += [{"content": t} for t in pads]
                mem.add_many(rows, namespace=store.id)
                other = next(s for s in part if s.cross_target == store.id)
                plan = [
                    ("answerable", q.text, {f"{store.id}:{g}" for g in q.gold})
                    for q in store.questions
                ]
                plan += [("unrelated", t, set()) for t in store.unrelated]
                plan += [("cross", q.text, set()) for q in by_id[other.id].questions]
                for kind, text, gold in plan:
                    row = _ask(mem, text, store.id, gold)
                    out.append({"size": size, "store": store.id, "kind": kind, **row})
    return out


def table(rows: Sequence[dict[str, Any]]) -> str:
    """Per size and kind: silent / marked / confident and the gold's places."""
    lines = [
        "| size | kind | n | silent / marked / confident | gold in context | gold first shown"
        " | gold first (ranking) | gold in top 4 (ranking) | lines shown (mean) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for size in dict.fromkeys(r["size"] for r in rows):
        for kind in ("answerable", "unrelated", "cross"):
            part = [r for r in rows if r["size"] == size and r["kind"] == kind]
            if not part:
                continue
            count = {v: sum(1 for r in part if r["verdict"] == v) for v in SILENT_MARKED}
            gold = kind == "answerable"

            def n(key: str, part: list[dict[str, Any]] = part, gold: bool = gold) -> str:
                return str(sum(1 for r in part if r[key])) if gold else "–"

            lines.append(
                f"| {size} | {kind} | {len(part)} | "
                f"{count['silent']} / {count['marked']} / {count['confident']} | "
                f"{n('gold_in_context')} | {n('gold_first')} | {n('rank_first')} | "
                f"{n('rank_top4')} | {sum(r['lines'] for r in part) / len(part):.2f} |"
            )
    return "\n".join(lines)


SILENT_MARKED = ("silent", "marked", "confident")
KINDS = ("answerable", "unrelated", "cross")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=(paraphrase.TUNE_36, paraphrase.HELD_OUT_10))
    parser.add_argument("--sizes", action="append", choices=SIZES)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--rows", type=Path, help="Print the table of an earlier --out.")
    parser.add_argument("--set", action="append", default=[], help="A recall setting, key=value.")
    args = parser.parse_args()
    for pair in args.set:
        key, _, value = pair.partition("=")
        OVERRIDES[key] = json.loads(value) if value[:1] in "0123456789-tfn[{" else value
    if args.rows is not None:
        rows = json.loads(args.rows.read_text(encoding="utf-8"))
    else:
        if args.split is None:
            parser.error("--split or --rows")
        rows = collect(args.split, args.sizes or SIZES)
        if args.out is not None:
            args.out.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(table(rows))


if __name__ == "__main__":
    main()
