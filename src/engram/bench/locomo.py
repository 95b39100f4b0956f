"""LoCoMo (snap-research/LoCoMo) as a retrieval benchmark.

Scoring follows ``shared/bench/README.md``: every turn is one memory
(``"<speaker>: <text>"`` plus ``" [image: <caption>]"``), timestamped with its session's
date; session recall@k walks the ranked turns listing each session the first time it
appears; turn recall@k compares dia_ids; NDCG@10 is at session level.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from engram.bench.dataset import Conversation, Dataset, Found, Question, Turn, read_date, read_json
from engram.bench.metrics import ndcg_at_k, recall_at_k
from engram.errors import InvalidInputError

# README: read evidence ids with D:?(\d+):(\d+), every match in the string.
EVIDENCE = re.compile(r"D:?(\d+):(\d+)")
SESSION_KEY = re.compile(r"^session_(\d+)$")
DATE_FORMAT = "%I:%M %p on %d %B, %Y"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
KS = (1, 3, 5, 10)


def parse_date(text: str) -> datetime:
    """A LoCoMo session date such as ``"1:56 pm on 8 May, 2023"`` (as UTC)."""
    return read_date(text, DATE_FORMAT, "LoCoMo session date")


def evidence_ids(evidence: Sequence[Any]) -> frozenset[str]:
    """Normalised ``D<session>:<turn>`` ids from possibly malformed evidence strings."""
    found: set[str] = set()
    for item in evidence:
        for session, turn in EVIDENCE.findall(str(item)):
            found.add(f"D{int(session)}:{int(turn)}")
    return frozenset(found)


def sessions_of(turn_ids: frozenset[str]) -> frozenset[str]:
    """The session numbers (as strings) of ``D<session>:<turn>`` ids."""
    return frozenset(t[1:].split(":")[0] for t in turn_ids)


def turn_text(turn: Mapping[str, Any]) -> str:
    """``"<speaker>: <text>"`` plus ``" [image: <caption>]"`` where a caption exists."""
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [image: {turn['blip_caption']}]"
    return text


def score(found: Found) -> dict[str, float]:
    """Session and turn recall@1/3/5/10 and session NDCG@10."""
    out: dict[str, float] = {}
    for k in KS:
        out[f"session_r@{k}"] = recall_at_k(found.sessions, found.gold_sessions, k)
    for k in KS:
        out[f"turn_r@{k}"] = recall_at_k(found.turns, found.gold_turns, k)
    out["session_ndcg@10"] = ndcg_at_k(found.sessions, found.gold_sessions, 10)
    return out


def _errata(path: str | None) -> dict[str, frozenset[str]]:
    if path is None:
        return {}
    rows = read_json(path, "LoCoMo errata")
    if not isinstance(rows, list):
        raise InvalidInputError(f"LoCoMo errata file {path} must hold a JSON list")
    fixes: dict[str, frozenset[str]] = {}
    for row in rows:
        try:
            fixes[str(row["question_id"])] = evidence_ids(row["correct_evidence"])
        except (KeyError, TypeError) as exc:
            raise InvalidInputError(
                f"LoCoMo errata entry {row!r} lacks question_id or correct_evidence"
            ) from exc
    return fixes


def load(path: str, *, errata: str | None = None) -> Dataset:
    """Load ``locomo10*.json``; with ``errata``, also score against corrected evidence."""
    data = read_json(path, "LoCoMo")
    if not isinstance(data, list):
        raise InvalidInputError(f"LoCoMo file {path} must hold a JSON list of samples")
    fixes = _errata(errata)
    conversations: list[Conversation] = []
    for index, sample in enumerate(data):
        try:
            conv = sample["conversation"]
            sample_id = str(sample.get("sample_id", f"conv-{index}"))
            qa = sample["qa"]
        except (KeyError, TypeError) as exc:
            raise InvalidInputError(f"LoCoMo sample {index} lacks 'conversation' or 'qa'") from exc
        turns: list[Turn] = []
        numbers = sorted(int(m.group(1)) for k in conv if (m := SESSION_KEY.match(k)))
        for n in numbers:
            when = parse_date(conv[f"session_{n}_date_time"])
            for turn in conv[f"session_{n}"]:
                turns.append(
                    Turn(
                        id=str(turn["dia_id"]),
                        session=str(n),
                        text=turn_text(turn),
                        created_at=when,
                        metadata={"session": n, "dia_id": str(turn["dia_id"])},
                    )
                )
        questions: list[Question] = []
        for n, item in enumerate(qa):
            gold = evidence_ids(item.get("evidence", []))
            if not gold:
                continue  # README: skip questions with no evidence match
            qid = f"locomo_{index}_qa{n}"
            alternatives = {}
            if errata is not None:
                fixed = fixes.get(qid, gold)
                alternatives["errata"] = (fixed, sessions_of(fixed))
            category = int(item.get("category", 0))
            questions.append(
                Question(
                    id=qid,
                    text=str(item["question"]),
                    category=CATEGORIES.get(category, str(category)),
                    gold_turns=gold,
                    gold_sessions=sessions_of(gold),
                    alternatives=alternatives,
                )
            )
        conversations.append(Conversation(sample_id, turns, questions))
    return Dataset(
        name="locomo",
        conversations=conversations,
        scorer=score,
        # Enough turns to reach 10 distinct sessions in nearly every ranking.
        depth=100,
        headline=("session_r@5", "session_r@10", "turn_r@10", "session_ndcg@10"),
    )
