"""Task x25: what the chat proxy's mining derives from single user turns.

    PYTHONPATH=/path/to/old/src python scripts/x25_proxy_turns.py --fold tune
    PYTHONPATH=src python scripts/x25_proxy_turns.py --fold check --verbose

Each turn of src/engram/data/proxy_turns.json goes through the proxy's own path, in its
own user's namespace: ``mem.chat.after`` with a system prompt, the user's turn and the
reply round sixteen's fake upstream gave ("Understood. <the first sentence>"), then the
worker (``chat_mine``, then ``extract``). Every pipeline fact and current relation is
read back. A fact is **right** when it holds every word of one of the turn's labels
(lower case); every other fact is **junk**. A relation is **accepted** when it matches
a labelled one as scripts/mined_chats.py matches (same subject, "user" for the user; a
listed type; target words containing the label's or contained in them); every other is
junk. Offline (rules), keyword store (``embedder=None``), in memory.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
SET = HERE.parent / "src" / "engram" / "data" / "proxy_turns.json"


def echo(text: str) -> str:
    """Round sixteen's fake upstream: "Understood. <the first sentence>"."""
    first = re.split(r"(?<=[.!?])\s+", text.strip())[0]
    return f"Understood. {first}"


def right(fact: str, row: dict[str, Any]) -> bool:
    low = fact.lower()
    return any(all(w in low for w in e) for e in row["expect"])


def run(rows: list[dict[str, Any]]) -> None:
    from mined_chats import matches

    from engram import Memory
    from engram.records import PIPELINE_WHO

    with Memory(":memory:", embedder=None) as mem:
        for row in rows:
            user = f"x25-{row['id']}"
            messages = [
                {"role": "system", "content": "You are a helpful assistant."},
                {"role": "user", "content": row["text"]},
            ]
            reply = row.get("reply") or echo(row["text"])  # queue27's rows may carry one
            mem.chat.after(messages, reply, user_id=user, agent_id="assistant")
            mem.jobs.process_pending()
            mem.jobs.process_pending()
            records = mem.get_all(user_id=user, limit=1000)
            row["facts"] = [r.content for r in records if r.who == PIPELINE_WHO]
            rels = mem.graph.relations(None, False, limit=1000, user_id=user)
            row["rels"] = [(r.source, r.relation_type, r.target) for r in rels]
            row["ok_rels"] = [
                x for x in row["rels"] if any(matches(x, lb, user) for lb in row["relations"])
            ]


def show(rows: Iterable[dict[str, Any]]) -> None:
    """Each row's facts and relations, each marked right or accepted."""
    for r in rows:
        marks = [(f, right(f, r)) for f in r["facts"]]
        rels = [(x, x in r["ok_rels"]) for x in r["rels"]]
        print(r["id"], r["kind"], repr(r["text"]), marks or "-", rels or "")


def fact_scores(rows: list[dict[str, Any]]) -> tuple[list[tuple[str, Any]], int, int, int]:
    """The facts read (each with its row), how many are right, the labels, those found."""
    facts = [(f, r) for r in rows for f in r["facts"]]
    found = sum(
        any(all(w in f.lower() for w in e) for f in r["facts"]) for r in rows for e in r["expect"]
    )
    return facts, sum(right(f, r) for f, r in facts), sum(len(r["expect"]) for r in rows), found


def measure(fold: str, verbose: bool) -> dict[str, Any]:
    from mined_chats import matches

    rows = [r for r in json.loads(SET.read_text())["turns"] if fold in ("both", r["fold"])]
    run(rows)
    facts, ok, labels, found = fact_scores(rows)
    n_rel = sum(len(r["rels"]) for r in rows)
    ok_rel = sum(len(r["ok_rels"]) for r in rows)
    rel_labels = sum(len(r["relations"]) for r in rows)
    rel_found = sum(
        any(matches(x, lb, f"x25-{r['id']}") for x in r["rels"])
        for r in rows
        for lb in r["relations"]
    )
    kinds = sorted({r["kind"] for r in rows})
    if verbose:
        show(r for r in rows if r["facts"] or r["expect"] or r["rels"])
    n = len(rows)
    return {
        "fold": fold,
        "turns": n,
        "facts": len(facts),
        "right": ok,
        "junk": len(facts) - ok,
        "precision": round(ok / len(facts), 3) if facts else None,
        "junk_facts_per_100": round(100 * (len(facts) - ok) / n, 1),
        "labels_found": found,
        "labels": labels,
        "recall": round(found / labels, 3) if labels else None,
        "relations": n_rel,
        "accepted": ok_rel,
        "junk_relations_per_100": round(100 * (n_rel - ok_rel) / n, 1),
        "relation_labels_found": f"{rel_found}/{rel_labels}",
        "junk_facts_by_kind": {
            k: sum(1 for r in rows if r["kind"] == k for f in r["facts"] if not right(f, r))
            for k in kinds
        },
    }


def main() -> None:
    global SET
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=SET, help="a set shaped as proxy_turns.json")
    parser.add_argument("--fold", choices=("tune", "check", "both"), default="tune")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    SET = args.set
    print(json.dumps(measure(args.fold, args.verbose), indent=1))


if __name__ == "__main__":
    main()
