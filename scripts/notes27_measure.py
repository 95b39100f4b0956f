"""Task notes27: what the write pipeline keeps from src/engram/data/notes27.json, against
its labels.

    PYTHONPATH=/path/to/old/src python scripts/notes27_measure.py --fold tune
    PYTHONPATH=src python scripts/notes27_measure.py --fold check --verbose

A "note" row is stored as an agent stores one (``mem.add`` in its own namespace, then the
worker); a "chat" row goes through the proxy's path (scripts/x25_proxy_turns.py). A fact
is **right** when it holds every word of one of the row's ``expect`` lists; a relation is
**accepted** when it matches one of its ``relations`` or ``allowed`` labels
(scripts/mined_chats.py's match); every other fact or relation is junk. Offline rules,
keyword store, in memory.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from x25_proxy_turns import fact_scores, show  # noqa: E402 - the scripts' own folder

SET = HERE.parent / "src" / "engram" / "data" / "notes27.json"


def _notes(rows: list[dict[str, Any]]) -> None:
    """Each note stored with ``mem.add`` in its own namespace, its facts and relations
    read back."""
    from engram import Memory
    from engram.records import PIPELINE_WHO

    with Memory(":memory:", embedder=None) as mem:
        for row in rows:
            user = f"x25-{row['id']}"
            mem.add(row["text"], user_id=user)
            mem.jobs.process_pending()
            records = mem.get_all(user_id=user, limit=1000)
            row["facts"] = [r.content for r in records if r.who == PIPELINE_WHO]
            rels = mem.graph.relations(None, False, limit=1000, user_id=user)
            row["rels"] = [(r.source, r.relation_type, r.target) for r in rels]


def run(rows: list[dict[str, Any]]) -> None:
    from mined_chats import matches
    from x25_proxy_turns import run as proxy_run

    proxy_run([r for r in rows if r["register"] == "chat"])
    _notes([r for r in rows if r["register"] == "note"])
    for row in rows:
        user, labels = f"x25-{row['id']}", row["relations"] + row["allowed"]
        row["ok_rels"] = [x for x in row["rels"] if any(matches(x, lb, user) for lb in labels)]
        row["found_rels"] = sum(
            any(matches(x, lb, user) for x in row["rels"]) for lb in row["relations"]
        )


def measure(fold: str, verbose: bool) -> dict[str, Any]:
    rows = [r for r in json.loads(SET.read_text())["turns"] if fold in ("both", r["fold"])]
    run(rows)
    facts, ok, labels, found = fact_scores(rows)
    n_rel = sum(len(r["rels"]) for r in rows)
    ok_rel = sum(len(r["ok_rels"]) for r in rows)
    if verbose:
        show(rows)
    return {
        "fold": fold,
        "rows": len(rows),
        "facts": len(facts),
        "right_facts": ok,
        "junk_facts": len(facts) - ok,
        "fact_labels_found": f"{found}/{labels}",
        "relations": n_rel,
        "accepted": ok_rel,
        "junk_relations": n_rel - ok_rel,
        "relation_labels_found": f"{sum(r['found_rels'] for r in rows)}/"
        f"{sum(len(r['relations']) for r in rows)}",
        "junk_by_kind": {
            k: [
                sum(1 for r in rows if r["kind"] == k for f in r["facts"] if not _right(f, r)),
                sum(len(r["rels"]) - len(r["ok_rels"]) for r in rows if r["kind"] == k),
            ]
            for k in sorted({r["kind"] for r in rows})
        },
    }


def _right(fact: str, row: dict[str, Any]) -> bool:
    from x25_proxy_turns import right

    return right(fact, row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fold", choices=("tune", "check", "both"), default="tune")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    print(json.dumps(measure(args.fold, args.verbose), indent=1))


if __name__ == "__main__":
    main()
