"""Task x24: what the write pipeline derives from an agent's notes, on either set.

    # x23's 208 notes (tune = even rows, check = odd rows) or x24's fresh 142 (all check)
    PYTHONPATH=/path/to/old/src python scripts/x24_agent_notes.py --fold tune
    PYTHONPATH=src python scripts/x24_agent_notes.py --set src/engram/data/agent_notes2.json \
        --fold check [--verbose]

The facts are scored as scripts/x23_agent_notes.py scores them (a fact is right when it
holds every word of one of the note's expectations and names the user only where the
note does); ``--relations`` also lists the graph relations each note left and counts
those whose subject or target is not a thing (a verb, a pronoun, a label word) by
``relation_ends.not_a_thing``.

    # x22's six labelled chats mined with graph=True (the palace's own graph path)
    PYTHONPATH=src python scripts/x24_agent_notes.py --mined-graph [--verbose]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import x23_agent_notes  # noqa: E402


def relations(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Every current relation the notes leave, one namespace a note, and how many
    have an end ``relation_ends.not_a_thing`` refuses."""
    from engram import Memory
    from engram.pipeline import relation_ends

    found: list[tuple[str, str, str, str]] = []
    with Memory(":memory:", embedder=None) as mem:
        for row in rows:
            mem.add(row["text"], user_id=row["id"])
            mem.jobs.process_pending()
            for rel in mem.graph.relations(user_id=row["id"]):
                found.append((row["id"], rel.source, rel.relation_type, rel.target))
    junk = [
        r
        for r in found
        if relation_ends.not_a_thing(r[1], r[2], r[3])
        or not relation_ends.names_entity(r[1])
        or not relation_ends.names_entity(r[3])
    ]
    return {"relations": len(found), "junk_ends": len(junk), "listed": found}


def mined_graph(verbose: bool) -> dict[str, Any]:
    """scripts/mined_chats.py's figures with every chat mined with ``graph=True``."""
    import functools

    import mined_chats

    from engram.palace import Palace

    plain = Palace.mine_conversation
    Palace.mine_conversation = functools.partialmethod(plain, graph=True)  # type: ignore[assignment]
    try:
        result = mined_chats.run("tune" if verbose else None)
        if verbose:
            mined_chats.run("check")
        return {k: result[k] for k in ("tune", "check")}
    finally:
        Palace.mine_conversation = plain  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=x23_agent_notes.SET)
    parser.add_argument("--fold", choices=("tune", "check", "both"), default="tune")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--relations", action="store_true")
    parser.add_argument("--mined-graph", action="store_true")
    args = parser.parse_args()
    if args.mined_graph:
        print(json.dumps(mined_graph(args.verbose), indent=1))
        return
    x23_agent_notes.SET = args.set
    out = x23_agent_notes.measure(args.fold, args.verbose)
    if args.relations:
        rows = [
            r for r in json.loads(args.set.read_text())["notes"] if args.fold in ("both", r["fold"])
        ]
        rel = relations(rows)
        if args.verbose:
            for item in rel["listed"]:
                print(*item, sep=" | ")
        out["relations"] = rel["relations"]
        out["relations_with_a_junk_end"] = rel["junk_ends"]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
