"""Task x23: what the write pipeline derives from an agent's own notes.

    # the 208 labelled notes (src/engram/data/agent_notes.json), each added to its own
    # namespace with mem.add and the worker run: facts, right, junk per fold
    PYTHONPATH=/path/to/old/src python scripts/x23_agent_notes.py --fold tune
    PYTHONPATH=src python scripts/x23_agent_notes.py --fold check --verbose

A fact is right when it holds every word of one of the note's expectations (lower case)
and names the user only where the note does ("I", "my", "me", "user"); every other fact
is junk. Offline (no model), the keyword store (``embedder=None``), in memory.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

SET = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / "agent_notes.json"
_OWNER = re.compile(r"\b(?:i|i'm|i'd|i've|my|me|user)\b", re.IGNORECASE)
_USER = re.compile(r"\buser(?:'s)?\b", re.IGNORECASE)


def right(fact: str, row: dict[str, Any]) -> bool:
    """Whether a careful reader accepts ``fact`` as derived from ``row``'s note."""
    if _USER.search(fact) and not _OWNER.search(row["text"]):
        return False  # a "User" the note never named
    low = fact.lower()
    return any(all(w in low for w in e) for e in row["expect"])


def measure(fold: str, verbose: bool) -> dict[str, Any]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from plain_statements import add_each

    rows = [r for r in json.loads(SET.read_text())["notes"] if fold in ("both", r["fold"])]
    add_each(rows)
    facts = [(f, r) for r in rows for f in r["facts"]]
    ok = sum(right(f, r) for f, r in facts)
    expected = sum(len(r["expect"]) for r in rows)
    found = sum(any(right(f, r) for f in r["facts"]) for r in rows if r["expect"])
    if verbose:
        for r in rows:
            if r["facts"] or r["expect"]:
                marks = [(f, right(f, r)) for f in r["facts"]]
                print(r["id"], r["kind"], repr(r["text"]), marks or "-")
    return {
        "fold": fold,
        "notes": len(rows),
        "facts": len(facts),
        "right": ok,
        "junk": len(facts) - ok,
        "precision": round(ok / len(facts), 3) if facts else None,
        "junk_per_100_notes": round(100 * (len(facts) - ok) / len(rows), 1),
        "labels_found": found,
        "labels": expected,
        "facts_from_no_fact_notes": sum(len(r["facts"]) for r in rows if not r["expect"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fold", choices=("tune", "check", "both"), default="tune")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    print(json.dumps(measure(args.fold, args.verbose), indent=1))


if __name__ == "__main__":
    main()
