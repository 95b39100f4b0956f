"""Task queue27: what the chat proxy's mining records from single turns of
src/engram/data/queue27_turns.json, against its labels.

    PYTHONPATH=/path/to/old/src python scripts/queue27_measure.py --fold tune
    PYTHONPATH=src python scripts/queue27_measure.py --fold check --verbose

Each turn goes through the proxy's path in its own user's namespace, as
scripts/x25_proxy_turns.py sends one (``mem.chat.after`` with the turn and a reply, then
the worker), the reply the row's ``reply`` where it has one, else round sixteen's
"Understood. <first sentence>". A fact is **right** when it holds every word of one of the
row's ``expect`` lists; a relation is **accepted** when it matches one of the row's
``relations`` or ``allowed`` labels (scripts/mined_chats.py's match); every other fact or
relation is junk. Offline rules, keyword store, in memory.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from x25_proxy_turns import fact_scores, show  # noqa: E402 - the scripts' own folder

SET = HERE.parent / "src" / "engram" / "data" / "queue27_turns.json"


def run(
    rows: list[dict[str, Any]], read: Callable[[list[dict[str, Any]]], None] | None = None
) -> None:
    """Each row through x25's proxy path (or ``read``, which sets each row's "facts" and
    "rels"), then its relations matched against its wanted and accepted labels (x25's
    own match reads only the wanted ones)."""
    from mined_chats import matches
    from x25_proxy_turns import run as proxy_run

    (read or proxy_run)(rows)
    for row in rows:
        user, labels = f"x25-{row['id']}", row["relations"] + row["allowed"]
        row["ok_rels"] = [x for x in row["rels"] if any(matches(x, lb, user) for lb in labels)]
        row["found_rels"] = sum(
            any(matches(x, lb, user) for x in row["rels"]) for lb in row["relations"]
        )


def measure(
    fold: str,
    verbose: bool,
    read: Callable[[list[dict[str, Any]]], None] | None = None,
    path: Path = SET,
) -> dict[str, Any]:
    rows = [r for r in json.loads(path.read_text())["turns"] if fold in ("both", r["fold"])]
    run(rows, read)
    facts, ok, labels, found = fact_scores(rows)
    n_rel = sum(len(r["rels"]) for r in rows)
    ok_rel = sum(len(r["ok_rels"]) for r in rows)
    if verbose:
        show(rows)
    n = len(rows)
    return {
        "fold": fold,
        "turns": n,
        "facts": len(facts),
        "right_facts": ok,
        "junk_facts": len(facts) - ok,
        "fact_labels_found": f"{found}/{labels}",
        "relations": n_rel,
        "accepted": ok_rel,
        "junk_relations": n_rel - ok_rel,
        "relation_labels_found": f"{sum(r['found_rels'] for r in rows)}/"
        f"{sum(len(r['relations']) for r in rows)}",
        "junk_relations_by_kind": {
            k: sum(len(r["rels"]) - len(r["ok_rels"]) for r in rows if r["kind"] == k)
            for k in sorted({r["kind"] for r in rows})
            if any(len(r["rels"]) > len(r["ok_rels"]) for r in rows if r["kind"] == k)
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fold", choices=("tune", "check", "both"), default="tune")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    print(json.dumps(measure(args.fold, args.verbose), indent=1))


if __name__ == "__main__":
    main()
