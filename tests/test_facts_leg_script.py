"""issue 24 (F1, dropped): scripts/facts_leg.py's extraction, leg and re-sort, which the
measurements in docs/benchmarks.md ("Evidence spread over sessions", F1) rest on."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from conftest import import_script, ranked_hit
from engram.bench import locomo
from engram.bench.dataset import Conversation, Dataset, Question, Turn
from engram.records import Hit


@pytest.fixture(scope="module")
def script() -> Any:
    """The script as a module."""
    return import_script("facts_leg")


TURNS = [
    Turn("D1:1", "D1", "Caroline: Have you been painting lately, Melanie?"),
    Turn("D1:2", "D1", "Melanie: Yes! I painted a sunset last weekend with the kids."),
    Turn("D2:1", "D2", "Melanie: Work was busy. Just signed up for a pottery class!"),
    Turn("D3:1", "D3", "Caroline: I went to a support group yesterday."),
]
QUESTION = Question(
    "q1",
    "What activities does Melanie partake in?",
    "multi-hop",
    frozenset({"D1:2", "D2:1"}),
    frozenset({"D1", "D2"}),
)


def one_conversation(turns: list[Turn], question: Question) -> Dataset:
    """A LoCoMo-shaped dataset of one conversation and one question."""
    return Dataset(
        name="locomo",
        conversations=[Conversation("conv-26", turns, [question])],
        scorer=locomo.score,
        depth=100,
        headline=("session_r@5",),
    )


DATASET = one_conversation(TURNS, QUESTION)


def _hit(turn: str, session: str, score: float) -> Hit:
    hit = ranked_hit(turn, score, session=session)
    metadata = {"session": session, "turn": turn}  # as `engram bench` ingests a turn
    return replace(hit, memory=replace(hit.memory, metadata=metadata))


def test_extract_reads_a_passing_mention_as_the_speakers_fact(script: Any) -> None:
    convs, turns, texts, conf = script.extract(DATASET)
    assert set(convs) == {"conv-26"}
    pottery = [t for t, text in zip(turns, texts, strict=True) if "pottery" in text]
    assert pottery == ["D2:1"]
    [fact] = [text for text in texts if "pottery" in text]
    assert fact.startswith("Melanie")  # first person resolved to the speaker
    assert all(0 < c <= 1 for c in conf)


def test_leg_scores_by_best_fact_by_votes_and_as_a_max(script: Any) -> None:
    cos = np.array([0.9, 0.8, 0.7, 0.2], dtype=np.float32)
    turns = ["D2:1", "D2:1", "D1:2", "D3:1"]
    rrf = script.leg_scores(script.Leg(1.0, 10, "rrf", depth=2), cos, turns)
    # memories ranked by their best fact: D2:1 first, D1:2 second; depth 2 stops there
    assert rrf == pytest.approx({"D2:1": 1 / 11, "D1:2": 1 / 12})
    votes = script.leg_scores(script.Leg(1.0, 10, "votes", depth=3), cos, turns)
    assert votes == pytest.approx({"D2:1": 1 / 11 + 1 / 12, "D1:2": 1 / 13})
    top = script.leg_scores(script.Leg(0.5, 10, "max", depth=5), cos, turns)
    assert top == pytest.approx({"D2:1": 0.45, "D1:2": 0.35, "D3:1": 0.1})


def test_rerank_adds_the_gain_and_lets_a_new_memory_join(script: Any) -> None:
    hits = [("D1:1", "D1", 0.50), ("D3:1", "D3", 0.40), ("D1:2", "D1", 0.30)]
    session_of = {"D1:1": "D1", "D1:2": "D1", "D2:1": "D2", "D3:1": "D3"}
    assert script.rerank(hits, None, {}, session_of) == hits
    leg = script.Leg(1.0, 10)
    out = script.rerank(hits, leg, {"D2:1": 0.45, "D1:2": 0.05}, session_of)
    assert [t for t, _, _ in out] == ["D1:1", "D2:1", "D3:1", "D1:2"]
    assert out[1] == ("D2:1", "D2", pytest.approx(0.45))
    most = script.rerank(hits, script.Leg(1.0, 10, "max"), {"D3:1": 0.6}, session_of)
    assert [t for t, _, _ in most] == ["D3:1", "D1:1", "D1:2"]


def test_score_lifts_a_gold_session_the_facts_find(script: Any) -> None:
    # The cached ranking: the question-like turn first, the passing mention absent.
    rows = [
        {
            "conv": "conv-26",
            "question": QUESTION,
            "hits": [_hit("D1:1", "D1", 0.5), _hit("D3:1", "D3", 0.4)],
        }
    ]
    # Two facts: the pottery one nearest the question.
    facts = script.Facts(
        ["conv-26", "conv-26"],
        ["D2:1", "D3:1"],
        ["Melanie signed up for a pottery class", "Caroline went to a support group"],
        np.array([0.8, 0.8]),
        np.array([[1.0, 0.0], [0.0, 1.0]], dtype=np.float32),
    )
    questions = np.array([[0.9, 0.1]], dtype=np.float32)
    base = script.score(DATASET, rows, facts, questions, None)
    assert base["A"]["multi-hop"][0]["session_r@5"] == pytest.approx(0.5)  # D1 only
    assert base["A"]["multi-hop"][0]["turn_r@5"] == pytest.approx(0.0)
    # Only the best memory votes (depth 1), enough to pass the cached second hit: the
    # list keeps the cached length, so D3 (no gain) drops out as D2 joins.
    leg = script.Leg(10.0, 10, depth=1)
    new = script.score(DATASET, rows, facts, questions, leg)
    assert new["A"]["multi-hop"][0]["session_r@5"] == pytest.approx(1.0)  # D2 joined
    assert new["A"]["multi-hop"][0]["turn_r@5"] == pytest.approx(0.5)
    # Gated out (confidence below the gate), the fact votes for nothing.
    gated = script.score(DATASET, rows, facts, questions, script.Leg(10.0, 10, depth=1, gate=0.9))
    assert gated["A"]["multi-hop"][0]["session_r@5"] == pytest.approx(0.5)
    d = script.deltas(base, new, "locomo")
    assert d["A"]["multi-hop"] == pytest.approx(0.5) and d["A"]["worst"] == pytest.approx(0.5)
    assert "B" not in d  # no fold-B question here


def test_without_speakers_drops_names_and_possessives(script: Any) -> None:
    speakers = {"Melanie", "Caroline"}
    assert script.without_speakers("What has Melanie painted?", speakers) == "What has painted?"
    assert (
        script.without_speakers("Where is Caroline's family from?", speakers)
        == "Where is family from?"
    )
