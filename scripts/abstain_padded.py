"""Issue 24: the paraphrase set asked of stores the size people reach.

``engram bench paraphrase`` asks each store's questions of its eleven memories alone.
A real agent's store holds hundreds or thousands of notes beside the ones a question
is about, and that moves what a cosine means: a bigger store finds something near
every generic topic. This script pads each paraphrase store, in its own namespace of
one store file, with ``--pad`` LoCoMo dev turns (the same seeded sample order for
every run), then asks its answerable questions and the next domain's (its
``cross_target``) with recall's own decision, and counts silent answers and marked
lines per split (docs/benchmarks.md, issue 24, round 5: the lead's check).

    python scripts/abstain_padded.py --db /tmp/padded.db --pad 300 --standing on
    python scripts/abstain_padded.py --db /tmp/padded.db --pad 300 --standing off
    python scripts/abstain_padded.py --db /tmp/cal.db --split calibration --rows rows.json
    python scripts/abstain_padded.py --db /tmp/big.db --pad 2000 --split calibration
    python scripts/abstain_padded.py --db /tmp/notes.db --padding notes --split calibration

``--padding notes`` pads each store with every other domain's memories of the set
instead (about 480 realistic agent notes; the domain whose questions are asked of the
store as cross-domain is left out, so they stay wrong-store questions: round 7). The
first run fills the store, each padding text embedded once (2,000 turns a store take
about a minute for ten stores); a second run on the same ``--db`` only asks.
``--split`` (repeatable) pads and asks only those splits' stores (each store draws
the same padding whatever is chosen), so a round can measure its calibration stores
without reading a held-out one; ``--rows`` also saves what the decision reads for
every question, asked with the decision off (``engram bench abstain``'s rows), so any
rule is scored on them without recalling (round 6).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engram import Config, Memory
from engram.bench import abstain as abstain_bench
from engram.bench import paraphrase
from engram.bench.scale import locomo_turns_and_questions
from engram.cli.bench_options import SHARED_BENCH

LOCOMO_DEV = SHARED_BENCH / "locomo" / "locomo10_dev.json"


def _fill(
    mem: Memory, stores: list[paraphrase.Store], pad: int, chosen: set[str], padding: str
) -> None:
    turns, _ = locomo_turns_and_questions(LOCOMO_DEV)
    rng = random.Random(7)
    _memoize(mem)
    for store in stores:
        drawn = rng.sample(turns, pad)  # drawn for every store: the same per store
        if store.split not in chosen:
            continue
        pads = drawn if padding == "locomo" else _notes(store, stores)
        mem.add_many([{"content": t} for t in pads], namespace=store.id)
        own = store.memories.items()
        rows = [{"content": text, "metadata": {paraphrase.KEY: key}} for key, text in own]
        mem.add_many(rows, namespace=store.id)


def _notes(store: paraphrase.Store, stores: list[paraphrase.Store]) -> list[str]:
    """Every other store's memories (round 7: realistic agent notes from other domains),
    without the domain of the store whose questions are asked of this one as
    cross-domain (so they stay asked of the wrong store) and without its own."""
    by_id = {s.id: s for s in stores}
    away = {store.domain, by_id[store.cross_target].domain}
    return [t for s in stores if s.domain not in away for t in s.memories.values()]


def _memoize(mem: Memory) -> None:
    """Embed each padding text once: every store draws from the same turns."""
    embedder = mem.embedder
    if embedder is None:
        return
    batch = embedder.embed_batch
    seen: dict[str, Any] = {}

    def embed_batch(texts: Sequence[str]) -> Any:
        todo = [t for t in dict.fromkeys(texts) if t not in seen]
        if todo:
            seen.update(zip(todo, batch(todo), strict=True))
        return np.vstack([seen[t] for t in texts]).astype(np.float32)

    embedder.embed_batch = embed_batch  # type: ignore[method-assign]


def _silent_or_marked(mem: Memory, question: str, namespace: str) -> tuple[int, int]:
    found = mem.recall(question, namespace=namespace, limit=paraphrase.TOP)
    if found.abstained or not found.hits:
        return 1, 0
    return 0, int(found.low_confidence)


def _evidence(mem: Memory, stores: list[paraphrase.Store]) -> list[abstain_bench.Row]:
    """Every question of ``stores`` asked with the decision off (the rows
    ``engram bench paraphrase`` records, asked of the padded namespaces)."""
    by_id = {s.id: s for s in paraphrase.load()}
    fold_of = paraphrase.folds(list(by_id.values()))
    out = []
    for store in stores:
        asked = [
            ("answerable", f"{store.id}:a{n}", q.text, q.gold)
            for n, q in enumerate(store.questions)
        ]
        asked += [
            ("unrelated", f"{store.id}:u{n}", t, frozenset()) for n, t in enumerate(store.unrelated)
        ]
        # As the counts above: the next domain's questions asked of this store.
        other = by_id[store.cross_target]
        asked += [
            ("cross", f"{other.id}:a{n}>{store.id}", q.text, frozenset())
            for n, q in enumerate(other.questions)
        ]
        out += [paraphrase.ask(mem, store, fold_of[store.id], store.id, q) for q in asked]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, type=Path)
    parser.add_argument("--pad", type=int, default=300)
    parser.add_argument("--standing", choices=("on", "off"), default="off")
    parser.add_argument(
        "--padding",
        choices=("locomo", "notes"),
        default="locomo",
        help="What pads each store: --pad LoCoMo dev turns, or every other domain's "
        "memories of the set (--pad is then ignored).",
    )
    parser.add_argument("--split", action="append", choices=paraphrase.SPLITS)
    parser.add_argument("--rows", type=Path, help="Also save every question's evidence here.")
    args = parser.parse_args()
    every = paraphrase.load()
    chosen = set(args.split or paraphrase.SPLITS)
    stores = [s for s in every if s.split in chosen]
    home = args.db.parent / "abstain-padded-home"  # the label vectors' cache, not yours
    config = Config.load(env={}, home=str(home), recall={"standing": args.standing == "on"})
    fill = not args.db.exists()
    with Memory(args.db, config=config) as mem:
        if fill:
            _fill(mem, every, args.pad, chosen, args.padding)
        if mem.standings is not None and args.standing == "on":
            for store in stores:  # every namespace's profile, before anything is asked
                mem.recall("warm up", namespace=store.id)
            mem.standings.wait()
            time.sleep(mem.standings.refresh + 0.5)  # the fill's epoch moves, rechecked
            for store in stores:
                mem.recall("warm up", namespace=store.id)
            mem.standings.wait()
        by_id = {s.id: s for s in every}
        print("split | answerable silent / marked / n | cross silent / marked / n")
        totals: dict[str, list[int]] = {}
        for store in stores:
            row = totals.setdefault(store.split, [0] * 6)
            for question in store.questions:
                silent, marked = _silent_or_marked(mem, question.text, store.id)
                row[0] += silent
                row[1] += marked
                row[2] += 1
            for question in by_id[store.cross_target].questions:
                silent, marked = _silent_or_marked(mem, question.text, store.id)
                row[3] += silent
                row[4] += marked
                row[5] += 1
        everything = [sum(r) for r in zip(*totals.values(), strict=True)]
        for split, row in [*totals.items(), ("all", everything)]:
            print(f"{split} | {row[0]} / {row[1]} / {row[2]} | {row[3]} / {row[4]} / {row[5]}")
        if args.rows is not None:
            abstain_bench.save_rows(_evidence(mem, stores), args.rows)


if __name__ == "__main__":
    main()
