"""BEAM (mohammadtavakoli78/BEAM) chats as a retrieval benchmark.

Each chat directory holds ``chat.json`` (batches of turns of messages with integer ids)
and ``probing_questions.json`` (questions per ability, most with ``source_chat_ids``).
Scoring follows ``shared/bench/README.md``: message recall@5/10/20 (and 50) per ability and
overall over questions with source ids; abstention questions have no evidence and are
reported as the top hit's score.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engram.bench.dataset import Conversation, Dataset, Found, Question, Turn, read_json
from engram.bench.metrics import ndcg_at_k, recall_at_k
from engram.errors import InvalidInputError

KS = (5, 10, 20, 50)
ABSTENTION = "abstention"
_ANCHOR = re.compile(r"^([A-Za-z]+)-(\d{1,2})-(\d{4})$")


def parse_anchor(text: object) -> datetime | None:
    """A BEAM time anchor such as ``"March-15-2024"``, or None."""
    if not isinstance(text, str) or not (m := _ANCHOR.match(text.strip())):
        return None
    try:
        return datetime.strptime(" ".join(m.groups()), "%B %d %Y").replace(tzinfo=UTC)
    except ValueError:
        return None


def source_ids(value: Any) -> frozenset[str]:
    """Message ids from ``source_chat_ids``: a list, or a dict of lists (by role)."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, int) and not isinstance(item, bool):
            found.add(str(item))
        elif isinstance(item, str) and item.strip().isdigit():
            found.add(str(int(item)))
    return frozenset(found)


def score(found: Found) -> dict[str, float]:
    """Message recall@5/10/20/50, NDCG@10 and recall of the top 10 with the standing block;
    abstention questions get the top score."""
    if found.question.category == ABSTENTION or not found.gold_turns:
        return {"abstention_top_score": found.top_score or 0.0}
    out = {f"msg_r@{k}": recall_at_k(found.turns, found.gold_turns, k) for k in KS}
    out["msg_ndcg@10"] = ndcg_at_k(found.turns, found.gold_turns, 10)
    # The top 10 and the standing block beside it (not a ranking: docs/recall.md).
    block = set(found.turns[:10]) | set(found.standing)
    out["msg_r@10+standing"] = len(block & found.gold_turns) / len(found.gold_turns)
    return out


def _chat_turns(chat: Any, where: Path) -> list[Turn]:
    if not isinstance(chat, list):
        raise InvalidInputError(f"{where} must hold a list of batches")
    turns: list[Turn] = []
    for batch in chat:
        try:
            number = int(batch["batch_number"])
            groups = batch["turns"]
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidInputError(f"{where}: a batch lacks batch_number or turns") from exc
        when = parse_anchor(batch.get("time_anchor"))
        for group in groups:
            for message in group:
                anchor = parse_anchor(message.get("time_anchor")) or when
                when = anchor or when
                turns.append(
                    Turn(
                        id=str(int(message["id"])),
                        session=str(number),
                        text=f"{message['role']}: {message['content']}",
                        created_at=anchor,
                        metadata={"session": number, "message_id": int(message["id"])},
                    )
                )
    return turns


def load(path: str) -> Dataset:
    """Load every chat directory under ``path`` (or ``path`` itself if it is one)."""
    root = Path(path).expanduser()
    if not root.is_dir():
        raise InvalidInputError(f"BEAM data {root} is not a directory; pass it with --data")
    if (root / "chat.json").is_file():
        chat_dirs = [root]
    else:
        chat_dirs = sorted(
            (p for p in root.iterdir() if (p / "chat.json").is_file()),
            key=lambda p: (not p.name.isdigit(), int(p.name) if p.name.isdigit() else 0, p.name),
        )
    if not chat_dirs:
        raise InvalidInputError(f"no BEAM chat directories (with chat.json) under {root}")
    conversations: list[Conversation] = []
    for chat_dir in chat_dirs:
        turns = _chat_turns(read_json(str(chat_dir / "chat.json"), "BEAM chat"), chat_dir)
        session_of = {t.id: t.session for t in turns}
        probing = read_json(str(chat_dir / "probing_questions.json"), "BEAM questions")
        if not isinstance(probing, dict):
            raise InvalidInputError(f"{chat_dir}/probing_questions.json must hold an object")
        questions: list[Question] = []
        for ability, items in probing.items():
            for n, item in enumerate(items):
                gold = source_ids(item.get("source_chat_ids"))
                questions.append(
                    Question(
                        id=f"beam_{chat_dir.name}_{ability}_{n}",
                        text=str(item["question"]),
                        category=str(ability),
                        gold_turns=gold,
                        gold_sessions=frozenset(session_of[g] for g in gold if g in session_of),
                    )
                )
        conversations.append(Conversation(f"beam-{chat_dir.name}", turns, questions))
    return Dataset(
        name="beam",
        conversations=conversations,
        scorer=score,
        depth=max(KS),
        headline=("msg_r@5", "msg_r@10", "msg_r@20", "msg_ndcg@10"),
    )
