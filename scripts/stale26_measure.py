"""stale26: where the fact derived from a closed statement ranks, and whether it is
marked (docs/benchmarks.md, "2026-12-01, derived facts of a closed statement (session
twenty-four, stale26)").

dogfood17's 12 changes as people say them, each told to its own user through two
paths: ``mem.add`` (then the worker's jobs) and the chat proxy's path in process
(``chat.before`` / ``chat.after``, a fake reply "Understood. <first sentence>"). For
each change whose old relation closed: the question about now's top 4 (recall) and
block (proxy), the rank of the new value against the old statement's derived fact,
and what marks that fact (superseded_by, a history event, a review item).

    PYTHONPATH=src python scripts/stale26_measure.py [--mode controlled|full] [--out r.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

from engram import Memory
from engram.store.protocols import ListQuery

CHANGES = [
    ("I live in Rotterdam, near the Erasmus bridge.",
     "We've just moved to Haarlem, the new place is much quieter.", "Rotterdam", "Haarlem"),
    ("I work at Philips as a product designer.", "Started my new job at ASML this week!",
     "Philips", "ASML"),
    ("My phone is a Pixel 7.", "Dropped my Pixel in the canal, so I'm on an iPhone 15 now.",
     "Pixel", "iPhone"),
    ("Our team tracks tickets in Jira.",
     "We ditched Jira, everything is in Linear these days.", "Jira", "Linear"),
    ("My dentist is Dr. Bakker in the city centre.",
     "I switched dentists, I go to Dr. Okafor now.", "Bakker", "Okafor"),
    ("My gym is SportCity on the Weena.",
     "I gave up SportCity; these days I climb at Klimhal Noord.", "SportCity", "Klimhal"),
    ("The production database is MySQL 5.7.",
     "Prod finally runs on Postgres 16 after last weekend's migration.", "MySQL", "Postgres"),
    ("My manager is Pieter.", "Pieter moved to another team, so I report to Fatima now.",
     "Pieter", "Fatima"),
    ("I drive to the office every day.",
     "These days I cycle to the office, the car is sold.", "drive", "cycle"),
    ("My daughter Lotte goes to De Regenboog primary school.",
     "Lotte changed schools; she's at the Montessori school on the Laan now.",
     "Regenboog", "Montessori"),
    ("Our internet provider is KPN.",
     "We're with Odido for internet since the KPN contract ran out.", "KPN", "Odido"),
    ("My favourite editor is Sublime Text.", "Honestly I use Zed for everything now.",
     "Sublime", "Zed"),
]  # fmt: skip
QUESTIONS = [
    "Which town do I live in now?", "Where do I work these days?",
    "What phone do I have at the moment?", "Which tool does our team use for tickets now?",
    "Who is my dentist now?", "Where do I work out nowadays?",
    "What database does production run on now?", "Who is my manager now?",
    "How do I get to the office these days?", "Which school does Lotte go to now?",
    "Who is our internet provider now?", "Which editor do I use now?",
]  # fmt: skip
SYSTEM = "You are a helpful personal assistant."


def reply_to(text: str) -> str:
    return "Understood. " + re.split(r"(?<=[.!?])\s", text.strip())[0]


def tell(mem: Memory, user: str, texts: list[str], proxy: bool) -> str | None:
    """Tell ``texts`` (one after another, the jobs run between) and ask the last one
    (when ``proxy``): the question's block."""
    context = None
    for n, text in enumerate(texts):
        if not proxy:
            mem.add(text, user_id=user)
            mem.jobs.process_pending()
            continue
        msgs = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}]
        conv = f"{user}-t{n}"
        turn = mem.chat.before(msgs, user_id=user, agent_id="assistant", conversation_id=conv)
        context = turn.context
        mem.chat.after(msgs, reply_to(text), user_id=user, agent_id="assistant",
                       conversation_id=conv)  # fmt: skip
        mem.jobs.process_pending()
    return context


def first(lines: list[str], word: str, but: str) -> int | None:
    return next((i for i, ln in enumerate(lines) if has(ln, word) and not has(ln, but)), None)


def has(text: str, word: str) -> bool:
    """Whether ``text`` names ``word`` as a word ("ING" is not in "learning")."""
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE) is not None


def one(mem: Memory, case: dict[str, Any], proxy: bool) -> dict[str, Any]:
    ow, nw = case["old"], case["new"]
    user = f"{'p' if proxy else 'a'}-{case['id']}"
    tell(mem, user, case["turns"], proxy)
    page = list(mem.get_all(user_id=user, limit=500))
    ns = page[0].namespace
    store = mem._core.store
    every = store.memories.select(ns, ListQuery(limit=500))
    by_id = {m.id: m for m in every}
    # The facts the pipeline wrote from a statement of the old value alone.
    derived_old = [
        m for m in every
        if (s := by_id.get(m.source_memory_id or "")) is not None
        and has(s.content, ow) and not has(s.content, nw)
        and has(m.content, ow) and not has(m.content, nw)
        and (s.metadata or {}).get("role") != "assistant"
    ]  # fmt: skip
    rels = mem.graph.relations(current_only=False, user_id=user, limit=500)
    closed = any(r.valid_to is not None and has(r.source + " " + r.target, ow)
                 for r in rels)  # fmt: skip
    stale = store.graph_counts.stale_memories(ns, [m.id for m in every])
    marks = []
    for m in derived_old:
        events = sorted({h.event for h in store.memories.history(ns, m.id)} - {"created"})
        marks.append({"content": m.content, "superseded_by": m.superseded_by,
                      "stale": m.id in stale, "events": events})  # fmt: skip
    queued = [
        (by_id[i.target_id].content if i.target_id in by_id else i.target_id,
         i.proposal.get("content"))
        for i in mem.review.list(user_id=user)
    ]  # fmt: skip
    result = mem.recall(case["question"], user_id=user, limit=4)
    top = [h.memory.content for h in result.hits]
    out: dict[str, Any] = {
        "user": user, "closed": closed, "derived_old": marks,
        "review": mem.review.count(user_id=user), "queued": queued, "top4": top,
        "new_first_top4": _new_first(top, ow, nw),
        "old_derived_in_top4": any(m.content in top for m in derived_old
                                   if m.superseded_by is None),
    }  # fmt: skip
    if proxy:
        block = tell(mem, user, [case["question"]], True) or ""
        lines = [ln for ln in block.splitlines() if ln.lstrip().startswith("- ")]
        out["block"] = lines
        out["new_first_block"] = _new_first(lines, ow, nw)
    return out


def _new_first(lines: list[str], ow: str, nw: str) -> bool:
    pn, po = first(lines, nw, "\0"), first(lines, ow, nw)
    return pn is not None and pn < 4 and (po is None or pn < po)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["controlled", "full"], default="controlled")
    ap.add_argument("--out", default=None)
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--stories", default=None, help="now26's stories (proxy path only)")
    ap.add_argument("--fold", default=None)
    args = ap.parse_args(argv)
    if args.stories:
        cases = json.loads(Path(args.stories).read_text())
        if args.fold:
            cases = [c for c in cases if c["fold"] == args.fold]
        paths: tuple[bool, ...] = (True,)
    else:
        cases = [
            {"id": f"{k:02d}", "turns": [old, new], "question": QUESTIONS[k], "old": ow, "new": nw}
            for k, (old, new, ow, nw) in enumerate(CHANGES)
        ]
        paths = (False, True)
    rows = []
    with tempfile.TemporaryDirectory() as home:
        mem = Memory(str(Path(home) / "engram.db"))
        if args.mode == "full":
            core = mem._core
            core.config = replace(
                core.config, pipeline=replace(core.config.pipeline, allow_update_delete=True)
            )
        try:
            for proxy in paths:
                for case in cases:
                    rows.append(one(mem, case, proxy))
        finally:
            mem.close()
    for proxy in paths:
        part = [r for r in rows if r["user"].startswith("p" if proxy else "a")]
        closed = [r for r in part if r["closed"]]
        der = [m for r in closed for m in r["derived_old"]]
        current = sum(m["superseded_by"] is None for m in der)
        demoted = sum(m["stale"] for m in der)
        in_top = sum(r["old_derived_in_top4"] for r in closed)
        block = f", in the block {sum(r.get('new_first_block', 0) for r in closed)}/{len(closed)}"
        print(
            f"{'proxy' if proxy else 'add'}: closed {len(closed)}/{len(part)}; new first in "
            f"top 4 {sum(r['new_first_top4'] for r in closed)}/{len(closed)}"
            + (block if proxy else "")
            + f"; old derived facts {len(der)}: current {current}, demoted {demoted}, in top 4 "
            f"{in_top}; review items {sum(r['review'] for r in part)} "
            f"(closed {sum(r['review'] for r in closed)})"
        )
        if args.show:
            for r in part:
                print(json.dumps({k: v for k, v in r.items() if k != "block"}))
                for ln in r.get("block", [])[:5]:
                    print("     ", ln[:110])
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
