"""Issue 24, round 10: stores that mix an agent's notes with chat sessions.

A real agent's store holds both kinds of memory: notes written one by one
(``mem.add("...")``, outside any session) and chat turns mined or ingested in sessions
(``engram mine``, ``add_many`` with a ``session_id``). Round 9's keyword spread scales
the keyword leg of the notes alone, read over every keyword match. This script builds
both mixes and asks them with the spread at its default and off (``--ranks``), each
question asked with every variant in turn on the same store:

- ``notes``: each paraphrase store's eleven notes beside ``--turns`` LoCoMo dev turns
  (or BEAM dev messages, ``--chats beam``),
  whole sessions in a seeded order (the last one cut), ingested as ``engram bench``
  does (``session_id``, type message, their own dates); the notes are dated among the
  turns (uniformly over the drawn turns' span), so recency favours neither kind. Asked:
  each store's answerable questions (gold in the top 4 and 12 with the decision off;
  silent / marked / confident and gold in the context with it), its unrelated ones and
  the cross target's questions (silent / marked / confident).
- ``locomo`` (or ``beam``): the LoCoMo (BEAM) dev conversations as ``engram bench``
  stores them, each namespace padded with ``--notes`` sessionless paraphrase notes (any
  split but ``--exclude``), dated among its turns; every question asked as ``engram
  bench locomo --mode best`` does, session R@5 (BEAM: R@10) per fold (A = conv-26, 30,
  41; B = conv-42, 43; BEAM chats 1-5 and 6-10) and category. Each note counts as a
  session of its own in the score, so a note in the top 5 takes a session's place.
  ``--notes 0`` is the plain benchmark store.

    python scripts/mixed_store.py notes --db /tmp/m300.db --turns 300 --split calibration
    python scripts/mixed_store.py locomo --db /tmp/loc.db --notes 300 --exclude held-out-9

The first run on a ``--db`` fills it; a second one only asks. ``--json`` saves every
question's outcome per variant; ``--set key=value`` adds a recall setting to every
variant (a variant of the spread under test, for instance).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from abstain_padded import _memoize  # this script's directory: each turn embedded once

from engram import Config, Memory
from engram.bench import beam, locomo, paraphrase, runner
from engram.bench.dataset import Dataset, Turn
from engram.cli.bench_options import BEAM_DEV, SHARED_BENCH

LOCOMO_DEV = SHARED_BENCH / "locomo" / "locomo10_dev.json"
FOLDS = {
    "locomo": {"A": ("conv-26", "conv-30", "conv-41"), "B": ("conv-42", "conv-43")},
    "beam": {
        "A": tuple(f"beam-{n}" for n in range(1, 6)),
        "B": tuple(f"beam-{n}" for n in range(6, 11)),
    },
}
METRIC = {"locomo": "session_r@5", "beam": "msg_r@10"}


def _sessions(data: Dataset) -> list[tuple[str, list[Turn]]]:
    """Every conversation's sessions, each as its turns in order, keyed conv:session."""
    out: dict[str, list[Turn]] = {}
    for conv in data.conversations:
        for turn in conv.turns:
            out.setdefault(f"{conv.id}:{turn.session}", []).append(turn)
    return list(out.items())


def _dated(rng: random.Random, turns: Sequence[Turn]) -> list[datetime | None]:
    """A date among ``turns``' (uniform over their span), for a note written then."""
    dates = sorted(t.created_at for t in turns if t.created_at is not None)
    if not dates:
        return [None]
    lo, hi = dates[0].timestamp(), dates[-1].timestamp()
    return [datetime.fromtimestamp(rng.uniform(lo, hi), tz=dates[0].tzinfo)]


def _turn_rows(key: str, turns: Sequence[Turn]) -> list[dict[str, Any]]:
    return [
        {
            "content": t.text,
            "type": "message",
            "session_id": key,
            "created_at": t.created_at,
            "metadata": {"session": key, "turn": t.id},
        }
        for t in turns
    ]


def fill_notes(
    mem: Memory, every: list[paraphrase.Store], chosen: set[str], size: int, chats: str
) -> None:
    """Each chosen store's notes beside ``size`` turns of whole LoCoMo (or BEAM) sessions."""
    data = locomo.load(str(LOCOMO_DEV)) if chats == "locomo" else beam.load(BEAM_DEV)
    sessions = _sessions(data)
    _memoize(mem)
    rng = random.Random(7)
    for store in every:  # drawn for every store, so a store's mix is the same whatever is chosen
        order = rng.sample(sessions, len(sessions))
        drawn: list[tuple[str, list[Turn]]] = []
        left = size
        for key, turns in order:
            if left <= 0:
                break
            drawn.append((key, turns[:left]))
            left -= len(turns[:left])
        seed = rng.random()
        if store.split not in chosen:
            continue
        rows = [row for key, turns in drawn for row in _turn_rows(key, turns)]
        if rows:  # --turns 0: the notes alone
            mem.add_many(rows, namespace=store.id)
        dates = random.Random(seed)
        flat = [t for _, turns in drawn for t in turns]
        notes = [
            {
                "content": text,
                "metadata": {paraphrase.KEY: key},
                "created_at": _dated(dates, flat)[0],
            }
            for key, text in store.memories.items()
        ]
        mem.add_many(notes, namespace=store.id)


def _variants(ranks: Sequence[int], extra: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f"k={k}": {"keyword_spread_rank": k, **extra} for k in ranks}


def ask_notes(
    mem: Memory, stores: list[paraphrase.Store], every: list[paraphrase.Store], variants: Any
) -> list[dict[str, Any]]:
    """Every answerable, unrelated and cross question of ``stores``, in every variant."""
    by_id = {s.id: s for s in every}
    out = []
    for store in stores:
        asked = [("answerable", q.text, q.gold) for q in store.questions]
        asked += [("unrelated", t, frozenset()) for t in store.unrelated]
        asked += [("cross", q.text, frozenset()) for q in by_id[store.cross_target].questions]
        for kind, text, gold in asked:
            row: dict[str, Any] = {"store": store.id, "split": store.split, "kind": kind}
            for name, settings in variants.items():
                off = mem.recall(text, namespace=store.id, limit=12, abstain=False, **settings)
                marks = [h.memory.metadata.get(paraphrase.KEY) for h in off.hits]
                rank = next((n for n, m in enumerate(marks) if m in gold), None)
                on = mem.recall(text, namespace=store.id, limit=paraphrase.TOP, **settings)
                shown = set(on.shown)
                in_context = any(
                    h.memory.id in shown and h.memory.metadata.get(paraphrase.KEY) in gold
                    for h in on.hits
                )
                verdict = (
                    "silent"
                    if on.abstained or not on.hits
                    else ("marked" if on.low_confidence else "confident")
                )
                row[name] = {
                    "gold_rank": rank,
                    "top4_notes": sum(1 for m in marks[: paraphrase.TOP] if m is not None),
                    "verdict": verdict,
                    "gold_in_context": in_context,
                    "lines": len(shown),
                }
            out.append(row)
    return out


def _smc(rows: list[dict[str, Any]], name: str, kind: str) -> str:
    """Silent / marked / confident answers of ``kind`` in variant ``name``."""
    v = [r[name]["verdict"] for r in rows if r["kind"] == kind]
    return "/".join(str(v.count(x)) for x in ("silent", "marked", "confident"))


def report_notes(rows: list[dict[str, Any]], variants: Sequence[str]) -> None:
    for split in sorted({r["split"] for r in rows}):
        part = [r for r in rows if r["split"] == split]
        ans = [r for r in part if r["kind"] == "answerable"]
        print(f"\n{split}: {len(ans)} answerable")
        print(
            "variant | top 4 | top 12 | in context | answerable s/m/c | cross s/m/c | "
            "unrelated s/m/c | notes in top 4 (answerable)"
        )
        for name in variants:
            top4 = sum(
                1 for r in ans if r[name]["gold_rank"] is not None and r[name]["gold_rank"] < 4
            )
            top12 = sum(1 for r in ans if r[name]["gold_rank"] is not None)
            ctx = sum(1 for r in ans if r[name]["gold_in_context"])
            notes4 = sum(r[name]["top4_notes"] for r in ans)
            print(
                f"{name} | {top4} | {top12} | {ctx} | "
                + " | ".join(_smc(part, name, k) for k in ("answerable", "cross", "unrelated"))
                + f" | {notes4}"
            )
        per_store = defaultdict(list)
        for r in ans:
            per_store[r["store"]].append(r)
        for store, items in per_store.items():
            counts = [
                sum(1 for r in items if r[n]["gold_rank"] is not None and r[n]["gold_rank"] < 4)
                for n in variants
            ]
            print(f"  {store}: top 4 " + " / ".join(map(str, counts)))


def fill_chats(mem: Memory, data: Dataset, pads: int, exclude: set[str]) -> None:
    """The dev conversations as ``engram bench`` stores them, each padded with notes."""
    runner.ingest(mem, data)
    if not pads:
        return
    texts = [t for s in paraphrase.load() if s.split not in exclude for t in s.memories.values()]
    rng = random.Random(11)
    for conv in data.conversations:
        drawn = rng.sample(texts, min(pads, len(texts)))
        notes = [
            {
                "content": text,
                "created_at": _dated(rng, conv.turns)[0],
                "metadata": {"session": f"note-{n}", "turn": f"note-{n}"},
            }
            for n, text in enumerate(drawn)
        ]
        mem.add_many(notes, namespace=runner.namespace_for(data.name, conv.id))


def ask_chats(mem: Memory, data: Dataset, variants: Any) -> dict[str, Any]:
    """Every question of ``data`` in every variant, as ``engram bench --mode best`` asks."""
    metric = METRIC[data.name]
    out: dict[str, Any] = {}
    for name, settings in variants.items():
        results = runner.ask(mem, data, ["best"], settings=settings)
        out[name] = [
            {
                "id": q.question_id,
                "conversation": q.conversation,
                "category": q.category,
                metric: q.metrics.get(metric),
                "top": q.top_turns[:5],
            }
            for q in results
        ]
    names = list(variants)
    print(f"\n{data.name} dev, {metric}: " + " / ".join(names))
    for fold, convs in FOLDS[data.name].items():
        rows = {
            n: [q for q in out[n] if q["conversation"] in convs and q[metric] is not None]
            for n in names
        }
        cats = ["all", *sorted({q["category"] for q in rows[names[0]]})]
        for cat in cats:
            vals = []
            for n in names:
                part = [q[metric] for q in rows[n] if cat == "all" or q["category"] == cat]
                vals.append(f"{sum(part) / len(part):.4f}")
            count = sum(1 for q in rows[names[0]] if cat == "all" or q["category"] == cat)
            print(f"fold {fold} {cat} ({count}): " + " / ".join(vals))
        notes5 = {
            n: sum(1 for q in rows[n] for t in q["top"] if str(t).startswith("note-"))
            for n in names
        }
        print(f"fold {fold} notes among the top 5 turns: {notes5}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("side", choices=("notes", "locomo", "beam"))
    parser.add_argument("--db", required=True, type=Path)
    parser.add_argument("--turns", type=int, default=300)
    parser.add_argument("--chats", choices=("locomo", "beam"), default="locomo")
    parser.add_argument("--notes", type=int, default=300)
    parser.add_argument("--split", action="append", choices=paraphrase.SPLITS)
    parser.add_argument("--exclude", action="append", default=[], choices=paraphrase.SPLITS)
    parser.add_argument("--ranks", default="4,0", help="keyword_spread_rank values compared")
    parser.add_argument("--set", action="append", default=[], help="key=value (JSON value)")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--fill-only",
        action="store_true",
        help="Fill a new --db and ask nothing (copies per side).",
    )
    args = parser.parse_args()
    extra = {k: json.loads(v) for k, v in (s.split("=", 1) for s in args.set)}
    variants = _variants([int(k) for k in args.ranks.split(",")], extra)
    home = args.db.parent / "mixed-store-home"
    config = Config.load(env={}, home=str(home))
    fill = not args.db.exists()
    with Memory(args.db, config=config) as mem:
        if args.side == "notes":
            every = paraphrase.load()
            chosen = set(args.split or [paraphrase.CALIBRATION])
            if fill:
                fill_notes(mem, every, chosen, args.turns, args.chats)
            if args.fill_only:
                return
            stores = [s for s in every if s.split in chosen]
            result: Any = ask_notes(mem, stores, every, variants)
            report_notes(result, list(variants))
        else:
            data = locomo.load(str(LOCOMO_DEV)) if args.side == "locomo" else beam.load(BEAM_DEV)
            if fill:
                fill_chats(mem, data, args.notes, set(args.exclude))
            if args.fill_only:
                return
            result = ask_chats(mem, data, variants)
    if args.json is not None:
        args.json.write_text(json.dumps(result, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
