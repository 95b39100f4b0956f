"""Task mine26: what mining a chat puts in the review queue (src/engram/data/review_chats.json).

    PYTHONPATH=/path/to/old/src python scripts/mine26_review.py --fold tune
    PYTHONPATH=src python scripts/mine26_review.py --fold check --path proxy --verbose

Each chat goes into a fresh in-memory store, in its own user's namespace, by one of two
paths: ``mine`` (as ``engram mine`` files it: ``mem.palace.mine_conversation``, then
the worker) or ``proxy`` (the chat proxy's after-turn mining: ``mem.chat.after`` for
each user turn with the conversation so far and the assistant's reply, the worker run
after each). The default mode is controlled, so every proposal the contradiction checks
flag, and every retroactive supersession, waits in ``mem.review``; each pending item is
read back with its sides. An item is **real** when it matches one of the chat's ``want``
labels (its old side holds every old word, its new side every new word, lower case);
every other item is **junk**. ``found`` counts labels some item matches. Offline rules;
``--embed`` uses the configured embedder (the CLI's default), else the keyword store.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

SET = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / "review_chats.json"


def _text(side: Any) -> str:
    if not isinstance(side, dict):
        return ""
    return f"{side.get('text') or ''} {side.get('claim') or ''}".lower()


def matches(item: dict[str, Any], label: dict[str, Any]) -> bool:
    old, new = _text(item.get("old")), _text(item.get("new"))
    return all(w in old for w in label["old"]) and all(w in new for w in label["new"])


def mine_chat(chat: dict[str, Any], path: str, embed: bool) -> list[dict[str, Any]]:
    from engram import Memory

    kwargs: dict[str, Any] = {} if embed else {"embedder": None}
    user = f"m26-{chat['id']}"
    with Memory(":memory:", **kwargs) as mem:
        messages = chat["messages"]
        if path == "mine":
            mem.palace.mine_conversation(messages, wing=chat["id"], user_id=user)
            mem.jobs.process_pending()
            mem.jobs.process_pending()
        else:
            system = {"role": "system", "content": "You are a helpful assistant."}
            for i in range(0, len(messages) - 1, 2):
                sent = [system, *messages[: i + 1]]
                mem.chat.after(
                    sent,
                    messages[i + 1]["content"],
                    user_id=user,
                    agent_id="assistant",
                    conversation_id=chat["id"],
                )
                mem.jobs.process_pending()
                mem.jobs.process_pending()
        out = []
        for item in mem.review.list(user_id=user, limit=1000):
            sides = dict(item.sides or {})
            out.append(
                {
                    "action": item.action,
                    "old": sides.get("old"),
                    "new": sides.get("new"),
                    "reason": sides.get("reason"),
                }
            )
        return out


def measure(fold: str, path: str, embed: bool, verbose: bool) -> dict[str, Any]:
    chats = [c for c in json.loads(SET.read_text())["chats"] if fold in ("both", c["fold"])]
    rows = []
    for chat in chats:
        items = mine_chat(chat, path, embed)
        real = [it for it in items if any(matches(it, lb) for lb in chat["want"])]
        found = sum(any(matches(it, lb) for it in items) for lb in chat["want"])
        rows.append(
            {
                "chat": chat["id"],
                "items": len(items),
                "real": len(real),
                "junk": len(items) - len(real),
                "found": found,
                "wanted": len(chat["want"]),
            }
        )
        if verbose:
            print(f"== {chat['id']} ({chat['fold']}): {len(items)} items")
            for it in items:
                ok = any(matches(it, lb) for lb in chat["want"])
                print(
                    "  ",
                    "REAL" if ok else "JUNK",
                    it["action"],
                    repr(_text(it["old"])[:90]),
                    "=>",
                    repr(_text(it["new"])[:90]),
                    "|",
                    it["reason"],
                )
            for lb in chat["want"]:
                if not any(matches(it, lb) for it in items):
                    print("   MISS", lb["why"])
    total = {k: sum(r[k] for r in rows) for k in ("items", "real", "junk", "found", "wanted")}
    return {
        "fold": fold,
        "path": path,
        "embed": embed,
        "chats": len(rows),
        **total,
        "per_chat": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fold", choices=("tune", "check", "both"), default="tune")
    parser.add_argument("--path", choices=("mine", "proxy"), default="mine")
    parser.add_argument("--embed", action="store_true", help="the configured embedder")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    print(json.dumps(measure(args.fold, args.path, args.embed, args.verbose), indent=1))


if __name__ == "__main__":
    main()
