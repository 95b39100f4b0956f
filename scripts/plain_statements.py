"""Task extract20: what the write pipeline makes of plain statements, and of change
stories when the extract job runs (measured old against new, one run per source tree).

    # the 72 labelled plain statements (tests/data/plain_statements.json), each added
    # to its own namespace with mem.add and the worker run: facts written, right, per fold
    PYTHONPATH=/path/to/old/src python scripts/plain_statements.py statements
    PYTHONPATH=src python scripts/plain_statements.py statements --verbose
    # engram bench changes' stories with the pipeline on (the bench itself turns it
    # off, so only the inline linker reads them): closes per fold
    PYTHONPATH=src python scripts/plain_statements.py changes --out /tmp/changes-new.json

Offline (no model), the hash-free keyword store (``embedder=None``), in memory.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

SET = Path(__file__).resolve().parents[1] / "tests" / "data" / "plain_statements.json"
KINDS = ("first_person", "third_person", "question", "command", "small_talk")


def _right(fact: str, row: dict[str, Any]) -> bool:
    low = fact.lower()
    if row["kind"] == "third_person" and "user" in low.replace("'s", "").split():
        return False  # the user's own fact read into another's statement
    return any(all(w in low for w in e) for e in row["expect"])


def add_each(rows: list[dict[str, Any]]) -> None:
    """``mem.add`` each row's ``text`` to its own namespace (its ``id``), run the worker
    and put the pipeline facts written in ``row["facts"]`` (also scripts/x23_agent_notes.py)."""
    from engram import Memory
    from engram.records import PIPELINE_WHO

    with Memory(":memory:", embedder=None) as mem:
        for row in rows:
            mem.add(row["text"], user_id=row["id"])
            mem.jobs.process_pending()
            row["facts"] = [
                r.content for r in mem.get_all(user_id=row["id"]) if r.who == PIPELINE_WHO
            ]


def statements(verbose: bool) -> dict[str, Any]:
    rows = json.loads(SET.read_text())["statements"]
    add_each(rows)
    out: dict[str, Any] = {}
    for fold in ("tune", "check"):
        part = [r for r in rows if r["fold"] == fold]
        written = [(f, r) for r in part for f in r["facts"]]
        own = [r for r in part if r["kind"] == "first_person"]
        out[fold] = {
            "statements": len(part),
            "facts_written": len(written),
            "right": sum(_right(f, r) for f, r in written),
            "first_person_found": sum(
                any(all(w in f.lower() for w in e) for f in r["facts"])
                for r in own
                for e in r["expect"]
            ),
            "first_person_expected": sum(len(r["expect"]) for r in own),
            "facts_by_kind": {
                k: sum(len(r["facts"]) for r in part if r["kind"] == k) for k in KINDS
            },
        }
    if verbose:
        for r in rows:
            print(r["fold"], r["kind"], repr(r["text"]), [(f, _right(f, r)) for f in r["facts"]])
    return out


def changes(out_path: str | None) -> dict[str, Any]:
    from engram.bench import changes as bench
    from engram.config import Config
    from engram.memory import Memory

    stories = bench.load_set(None)
    cfg = Config.load().with_overrides(pipeline={"enabled": True, "graph": True})
    rows = []
    with Memory(":memory:", config=cfg, embedder=None) as mem:
        for story in stories:
            namespace = f"story-{story['id']}"
            for n, text in enumerate(story["statements"]):
                mem.add(text, namespace=namespace, created_at=bench.START + n * bench.STEP)
                mem.jobs.process_pending()
            found = mem.graph.relations(current_only=False, limit=1000, namespace=namespace)
            row = bench.judge(story, [r for r in found if r.relation_type != "talks_about"])
            row["now_first"] = row["now_first_off"] = False  # not measured here
            rows.append(row)
    folds = dict.fromkeys(str(s["fold"]) for s in stories)
    result = {"folds": {f: bench._score(rows, f) for f in folds}, "stories": rows}
    if out_path:
        Path(out_path).write_text(json.dumps(result, indent=1))
    keys = ("changes", "closed_correctly", "changes_closing_something_else")
    keys += ("non_changes", "closed_wrongly")
    return {f: {k: s[k] for k in keys} for f, s in result["folds"].items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("statements", "changes"))
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--out")
    args = parser.parse_args()
    os.environ.setdefault("ENGRAM_HOME", tempfile.mkdtemp(prefix="engram-plain-"))
    result = statements(args.verbose) if args.what == "statements" else changes(args.out)
    json.dump(result, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
