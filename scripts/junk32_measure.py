"""Task junk32: what the graph and the facts get from the fresh fold's mined chats.

Each chat of ``src/engram/data/junk32.json`` (``scripts/junk32_write_set.py``) is mined
as x22's ``scripts/mined_chats.py`` mines one (``mem.palace.mine_conversation``, one
drawer per turn, its own user; the worker run; offline rules, keyword store, in
memory) and every current relation and pipeline fact is read back:

    PYTHONPATH=/path/to/old/src python scripts/junk32_measure.py
    PYTHONPATH=src python scripts/junk32_measure.py --verbose   # each relation and fact

A relation is **right** when it matches a labelled one (``relations`` or ``allowed``;
mined_chats.py's match, the subject may list alternatives) and **junk** otherwise; a
labelled relation no relation matches is **missed**. A fact is **right** when it holds
every word of one of the chat's ``facts`` or ``facts_ok`` and passes mined_chats.py's
junk test (not from the assistant, no pronoun or label subject, agreed, no first person
left); every other fact is **junk**, by cause: that test's, "request" (its turn holds a
``no_fact`` piece) or "unlabelled". ``--set`` reads another file of the same shape.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mined_chats import fact_junk, matches  # noqa: E402 - the scripts' own folder

SET = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / "junk32.json"


def rel_match(rel: tuple[str, str, str], label: dict[str, str], user: str) -> bool:
    return any(matches(rel, {**label, "s": subject}, user) for subject in label["s"].split("|"))


def fact_right(fact: str, labels: list[list[str]]) -> bool:
    low = fact.lower()
    return any(all(word in low for word in label) for label in labels)


def read_chat(mem: Any, chat: dict[str, Any]) -> dict[str, Any]:
    from engram.records import PIPELINE_WHO

    user = f"junk32-{chat['id']}"
    mem.palace.mine_conversation(chat["messages"], wing=chat["id"], user_id=user)
    mem.jobs.process_pending()
    rows = mem.graph.relations(None, False, limit=1000, user_id=user)
    records = mem.get_all(user_id=user, limit=1000)
    by_id = {r.id: r for r in records}
    labels, allowed = chat["relations"], chat["allowed"]
    relations = []
    for r in rows:
        rel = (r.source, r.relation_type, r.target)
        ok = any(rel_match(rel, lb, user) for lb in labels + allowed)
        src = by_id.get(r.source_memory_id or "")
        quiet = src is not None and any(n in src.content for n in chat["no_relation"])
        relations.append((rel, ok, quiet))
    found = [lb for lb in labels if any(rel_match(r, lb, user) for r, _, _ in relations)]
    facts = []
    for r in records:
        if r.who != PIPELINE_WHO:
            continue
        src = by_id.get(r.source_memory_id or "")
        said = bool(src is not None and src.who == "assistant")
        cause = fact_junk(r.content, said)
        if cause is None and not fact_right(r.content, chat["facts"] + chat["facts_ok"]):
            asked = src is not None and any(n in src.content for n in chat["no_fact"])
            cause = "request" if asked else "unlabelled"
        facts.append((r.content, cause))
    facts_found = [
        lb for lb in chat["facts"] if any(c is None and fact_right(f, [lb]) for f, c in facts)
    ]
    return {
        "chat": chat["id"],
        "relations": relations,
        "missed": [lb for lb in labels if lb not in found],
        "labels": len(labels),
        "facts": facts,
        "fact_labels": len(chat["facts"]),
        "facts_missed": [lb for lb in chat["facts"] if lb not in facts_found],
    }


def run(path: Path, verbose: bool) -> dict[str, Any]:
    from engram import Memory

    data = json.loads(path.read_text())
    rows = []
    with Memory(":memory:", embedder=None) as mem:
        for chat in data["chats"]:
            rows.append(read_chat(mem, chat))
    out: dict[str, Any] = {"chats": {}}
    total = dict.fromkeys(
        (
            "relations",
            "right",
            "junk",
            "from_no_relation",
            "labels",
            "labels_found",
            "facts",
            "facts_right",
            "junk_facts",
            "fact_labels",
            "fact_labels_found",
        ),
        0,
    )
    for row in rows:
        rels, facts = row["relations"], row["facts"]
        part = {
            "relations": len(rels),
            "right": sum(ok for _, ok, _ in rels),
            "junk": sum(not ok for _, ok, _ in rels),
            "from_no_relation": sum(q for _, _, q in rels),
            "labels": row["labels"],
            "labels_found": row["labels"] - len(row["missed"]),
            "facts": len(facts),
            "facts_right": sum(c is None for _, c in facts),
            "junk_facts": sum(c is not None for _, c in facts),
            "fact_labels": row["fact_labels"],
            "fact_labels_found": row["fact_labels"] - len(row["facts_missed"]),
        }
        out["chats"][row["chat"]] = part
        for k in total:
            total[k] += part[k]
        if verbose:
            print(f"== {row['chat']}")
            for rel, ok, quiet in rels:
                print("  ", "OK  " if ok else "JUNK", rel, "(no-relation turn)" if quiet else "")
            for lb in row["missed"]:
                print("   MISS", (lb["s"], lb["r"], lb["o"]))
            for fact, cause in facts:
                print("   fact", cause or "ok", repr(fact))
            for lb in row["facts_missed"]:
                print("   fact MISS", lb)
    total["relation_precision"] = round(total["right"] / max(total["relations"], 1), 3)
    total["fact_precision"] = round(total["facts_right"] / max(total["facts"], 1), 3)
    out["total"] = total
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default=str(SET))
    parser.add_argument("--verbose", action="store_true", help="list each relation and fact")
    parser.add_argument("--out")
    args = parser.parse_args()
    result = run(Path(args.set), args.verbose)
    text = json.dumps(result, indent=1)
    if args.out:
        Path(args.out).write_text(text)
    print(json.dumps(result["total"], indent=1))


if __name__ == "__main__":
    main()
