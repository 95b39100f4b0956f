"""Task conflict38: the review queue on the project's mined-chat sets (junk checks).

    PYTHONPATH=src python scripts/conflict38_chat_queue.py
    PYTHONPATH=/tmp/base-conflict38/src python scripts/conflict38_chat_queue.py

Every chat of ``src/engram/data/mined_chats.json`` (x22), the junk32 set and
mine26's ``review_chats.json`` is mined as ``engram mine`` files it (one drawer per
turn, its own user, keyword store, offline rules, the default mode), the worker run,
and the pending review items counted: all, and the disagreement items
(``proposal["conflict"]``, task conflict38). None of these chats states one slot twice
with two values and no change word, so every disagreement item here is junk.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "src" / "engram" / "data"
SETS = ("mined_chats.json", "junk32.json", "review_chats.json")


def main() -> None:
    from engram import Memory

    for name in SETS:
        path = DATA / name
        if not path.exists():
            print(f"{name}: missing")
            continue
        chats = json.loads(path.read_text(encoding="utf-8"))["chats"]
        items = conflicts = 0
        with Memory(":memory:", embedder=None) as mem:
            for chat in chats:
                user = f"c38-{chat['id']}"
                mem.palace.mine_conversation(chat["messages"], wing=chat["id"], user_id=user)
                mem.jobs.process_pending()
                got = mem.review.list(user_id=user, limit=1000)
                items += len(got)
                conflicts += sum(isinstance(i.proposal.get("conflict"), dict) for i in got)
        row = {"set": name, "chats": len(chats), "items": items, "conflicts": conflicts}
        print(json.dumps(row))


if __name__ == "__main__":
    main()
