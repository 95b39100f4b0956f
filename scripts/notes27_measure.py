"""Task notes27: what the write pipeline keeps from src/engram/data/notes27.json, against
its labels.

    PYTHONPATH=/path/to/old/src python scripts/notes27_measure.py --fold tune
    PYTHONPATH=src python scripts/notes27_measure.py --fold check --verbose

A "note" row is stored as an agent stores one (``mem.add`` in its own namespace, then the
worker); a "chat" row goes through the proxy's path (scripts/x25_proxy_turns.py). A fact
is **right** when it holds every word of one of the row's ``expect`` lists; a relation is
**accepted** when it matches one of its ``relations`` or ``allowed`` labels
(scripts/mined_chats.py's match); every other fact or relation is junk
(scripts/queue27_measure.py scores them). Offline rules, keyword store, in memory.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import queue27_measure  # noqa: E402 - the scripts' own folder

SET = HERE.parent / "src" / "engram" / "data" / "notes27.json"


def read(rows: list[dict[str, Any]]) -> None:
    """Chat rows through the proxy's path; each note stored with ``mem.add`` in its own
    namespace, its facts and relations read back."""
    from x25_proxy_turns import run as proxy_run

    from engram import Memory
    from engram.records import PIPELINE_WHO

    proxy_run([r for r in rows if r["register"] == "chat"])
    with Memory(":memory:", embedder=None) as mem:
        for row in (r for r in rows if r["register"] == "note"):
            user = f"x25-{row['id']}"
            mem.add(row["text"], user_id=user)
            mem.jobs.process_pending()
            records = mem.get_all(user_id=user, limit=1000)
            row["facts"] = [r.content for r in records if r.who == PIPELINE_WHO]
            rels = mem.graph.relations(None, False, limit=1000, user_id=user)
            row["rels"] = [(r.source, r.relation_type, r.target) for r in rels]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fold", choices=("tune", "check", "both"), default="tune")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    print(json.dumps(queue27_measure.measure(args.fold, args.verbose, read, SET), indent=1))


if __name__ == "__main__":
    main()
