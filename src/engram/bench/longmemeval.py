"""LongMemEval (xiaowu0162/LongMemEval, MIT) as a retrieval benchmark.

The data file is a JSON list of questions; each carries its own haystack:
``haystack_session_ids``, ``haystack_dates`` and ``haystack_sessions`` (lists of
``{role, content, has_answer?}``), plus ``answer_session_ids``. Each question is
therefore ingested into its own namespace. Every message becomes one memory with the
turn id ``<session_id>_<n>`` (n counts from 1 within the session, as upstream does).

Metrics, as upstream's retrieval evaluation: recall_any@k, recall_all@k and
ndcg_any@k for k = 5 and 10, at session level (gold: ``answer_session_ids``) and at
turn level (gold: messages with ``has_answer``). Abstention questions (ids ending in
``_abs``) have no evidence and are skipped, as upstream skips them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from engram.bench.dataset import Conversation, Dataset, Found, Question, Turn, read_date, read_json
from engram.bench.metrics import ndcg_at_k, recall_all_at_k, recall_any_at_k
from engram.errors import InvalidInputError

KS = (5, 10)
DATE_FORMAT = "%Y/%m/%d (%a) %H:%M"


def parse_date(text: object) -> datetime | None:
    """A LongMemEval date such as ``"2023/05/20 (Sat) 02:21"``, or None if absent."""
    if not isinstance(text, str) or not text.strip():
        return None
    return read_date(text, DATE_FORMAT, "LongMemEval date")


def score(found: Found) -> dict[str, float]:
    """recall_any, recall_all and ndcg_any at k = 5, 10, for sessions and turns."""
    out: dict[str, float] = {}
    levels = (
        ("session", found.sessions, found.gold_sessions),
        ("turn", found.turns, found.gold_turns),
    )
    for level, ranked, gold in levels:
        if not gold:
            continue
        for k in KS:
            out[f"{level}_recall_any@{k}"] = recall_any_at_k(ranked, gold, k)
            out[f"{level}_recall_all@{k}"] = recall_all_at_k(ranked, gold, k)
            out[f"{level}_ndcg_any@{k}"] = ndcg_at_k(ranked, gold, k)
    return out


def _question(index: int, item: Any) -> Conversation | None:
    try:
        qid = str(item["question_id"])
        session_ids = [str(s) for s in item["haystack_session_ids"]]
        sessions = item["haystack_sessions"]
        dates = item.get("haystack_dates") or [None] * len(session_ids)
        text = str(item["question"])
        answer_sessions = frozenset(str(s) for s in item.get("answer_session_ids", []))
    except (KeyError, TypeError) as exc:
        raise InvalidInputError(
            f"LongMemEval entry {index} lacks a required field ({exc}); each needs "
            "question_id, question, haystack_session_ids and haystack_sessions"
        ) from exc
    if qid.endswith("_abs"):
        return None
    if not (len(session_ids) == len(sessions) == len(dates)):
        raise InvalidInputError(
            f"LongMemEval entry {qid}: haystack_session_ids, haystack_sessions and "
            "haystack_dates must have the same length"
        )
    turns: list[Turn] = []
    gold_turns: set[str] = set()
    for session_id, session, date in zip(session_ids, sessions, dates, strict=True):
        when = parse_date(date)
        for n, message in enumerate(session, start=1):
            turn_id = f"{session_id}_{n}"
            if message.get("has_answer"):
                gold_turns.add(turn_id)
            turns.append(
                Turn(
                    id=turn_id,
                    session=session_id,
                    text=f"{message['role']}: {message['content']}",
                    created_at=when,
                    metadata={"session": session_id, "turn": turn_id},
                )
            )
    question = Question(
        id=qid,
        text=text,
        category=str(item.get("question_type", "unknown")),
        gold_turns=frozenset(gold_turns),
        gold_sessions=answer_sessions,
        asked_at=parse_date(item.get("question_date")),
    )
    return Conversation(f"lme-{qid}", turns, [question])


def load(path: str) -> Dataset:
    """Load a LongMemEval file (``longmemeval_s_cleaned.json`` and its siblings)."""
    data = read_json(path, "LongMemEval")
    if not isinstance(data, list):
        raise InvalidInputError(f"LongMemEval file {path} must hold a JSON list of questions")
    conversations = [c for i, item in enumerate(data) if (c := _question(i, item)) is not None]
    return Dataset(
        name="longmemeval",
        conversations=conversations,
        scorer=score,
        depth=100,
        headline=(
            "session_recall_any@5",
            "session_recall_any@10",
            "session_ndcg_any@10",
            "turn_recall_any@10",
        ),
    )
