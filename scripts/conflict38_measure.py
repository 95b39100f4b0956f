"""Task conflict38: what the review queue and recall do with two statements of one slot.

    PYTHONPATH=src python scripts/conflict38_measure.py --fold tune
    PYTHONPATH=/tmp/base-conflict38/src python scripts/conflict38_measure.py --fold tune
    PYTHONPATH=src python scripts/conflict38_measure.py --fold tune --json new.json
    PYTHONPATH=src python scripts/conflict38_measure.py --fold held --verbose

Each pair of ``scripts/conflict38_cases.json`` is told to a fresh in-memory store
(keyword store, no embedder, offline rules, the default pipeline mode) in ``user:u``:
the old statement by its agent, the new one a day later by its agent, then the worker
(``mem.jobs.process_pending``). Read back:

- **items**: pending review items. A conflict pair is *found* when an item's sides name
  both statements (memory ids or texts); a disagreement item (``proposal["conflict"]``)
  on any other pair is a false one (precision); items of any kind are counted too
  (the base already queues one change proposal: the standup moved);
- **recall**: ``mem.recall(question)``: are both statements among the hits (*both
  shown*), and does anything mark the disagreement (*marked*: a recall warning naming
  a disagreement)?

Chats (``--chats``) are mined as ``engram mine`` files them (``mem.palace.
mine_conversation``, then the worker); every pending item there is junk.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SET = Path(__file__).with_name("conflict38_cases.json")
T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def _names(item: Any, ids: dict[str, str]) -> bool:
    sides = item.sides
    said = {str((sides.get(k) or {}).get("memory_id")) for k in ("old", "new")}
    said.add(str(item.memory_id))
    said.add(str(item.target_id))
    texts = " ".join(str((sides.get(k) or {}).get("text") or "") for k in ("old", "new"))
    return all(i in said or t in texts for t, i in ids.items())


def run_pair(pair: dict[str, Any]) -> dict[str, Any]:
    from engram import Memory

    with Memory(":memory:", embedder=None) as mem:
        old = mem.add(pair["old"], user_id="u", agent_id=pair["old_agent"], created_at=T0)
        new = mem.add(
            pair["new"], user_id="u", agent_id=pair["new_agent"], created_at=T0 + timedelta(days=1)
        )
        mem.jobs.process_pending()
        items = mem.review.list(user_id="u")
        ids = {pair["old"]: old.id, pair["new"]: new.id}
        naming = [it for it in items if _names(it, ids)]
        got = mem.recall(pair["question"], user_id="u")
        hit_ids = {h.memory.id for h in got.hits}
        texts = {h.memory.content for h in got.hits}
        both = (old.id in hit_ids or pair["old"] in texts) and (
            new.id in hit_ids or pair["new"] in texts
        )
        marked = any("disagree" in w for w in got.warnings)
        return {
            "id": pair["id"],
            "kind": pair["kind"],
            "items": len(items),
            "conflict_items": sum(isinstance(it.proposal.get("conflict"), dict) for it in items),
            "naming": len(naming),
            "both_shown": both,
            "marked": marked,
            "reasons": [it.reason for it in items],
        }


def run_chat(chat: dict[str, Any]) -> dict[str, Any]:
    from engram import Memory

    with Memory(":memory:", embedder=None) as mem:
        mem.palace.mine_conversation(chat["messages"], wing=chat["id"], user_id="u")
        mem.jobs.process_pending()
        items = mem.review.list(user_id="u")
        return {"id": chat["id"], "items": len(items), "reasons": [it.reason for it in items]}


def summarise(rows: list[dict[str, Any]], chats: list[dict[str, Any]]) -> dict[str, Any]:
    conflicts = [r for r in rows if r["kind"] == "conflict"]
    others = [r for r in rows if r["kind"] != "conflict"]
    found = sum(r["naming"] > 0 for r in conflicts)
    false = sum(r.get("conflict_items", 0) > 0 for r in others)
    flagged = found + false
    out: dict[str, Any] = {
        "conflicts": len(conflicts),
        "found": found,
        "recall_of_conflicts": round(found / len(conflicts), 3) if conflicts else None,
        "precision": round(found / flagged, 3) if flagged else None,
        "items_on_conflicts": sum(r["items"] for r in conflicts),
        "pairs_with_conflict_items": {
            k: sum(r.get("conflict_items", 0) > 0 for r in others if r["kind"] == k)
            for k in ("change", "coexist", "restate", "unrelated")
        },
        "pairs_with_any_items": {
            k: sum(r["items"] > 0 for r in others if r["kind"] == k)
            for k in ("change", "coexist", "restate", "unrelated")
        },
        "conflict_both_shown": sum(r["both_shown"] for r in conflicts),
        "conflict_marked": sum(r["marked"] for r in conflicts),
        "others_marked": sum(r["marked"] for r in others),
        "chat_items": sum(c["items"] for c in chats),
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fold", choices=("tune", "held"), required=True)
    parser.add_argument("--json", type=Path, help="write rows and summary here")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    data = json.loads(SET.read_text(encoding="utf-8"))
    rows = [run_pair(p) for p in data["pairs"] if p["fold"] == args.fold]
    chats = [run_chat(c) for c in data["chats"] if c["fold"] == args.fold]
    summary = summarise(rows, chats)
    if args.verbose:
        for r in rows + chats:
            print(json.dumps(r))
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(
            json.dumps({"summary": summary, "rows": rows, "chats": chats}, indent=1)
        )


if __name__ == "__main__":
    main()
