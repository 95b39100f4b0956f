"""issue 24 (Q1): the re-sort and the fold split that docs/benchmarks.md's "Q1:
questions read as statements" rests on (scripts/qd22_statement.py, qd22_folds.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from conftest import import_script, ranked_hit
from engram.records import Hit
from test_facts_leg_script import QUESTION


def _hit(turn: str, score: float, content: str) -> Hit:
    hit = ranked_hit(turn, score, content=content, session=turn.split(":")[0])
    return replace(hit, memory=replace(hit.memory, metadata={"turn": turn}))


@pytest.fixture(scope="module")
def statement_script() -> Any:
    return import_script("qd22_statement")


def test_reorder_adds_the_statement_legs_rank_and_penalises_questions(
    statement_script: Any,
) -> None:
    row = {
        "question": QUESTION,
        "hits": [
            _hit("D1:1", 0.50, "Caroline: Any more paintings coming up, Melanie?"),
            _hit("D1:2", 0.45, "Melanie: I painted a sunset last weekend."),
            _hit("D3:1", 0.40, "Caroline: I went to a support group."),
        ],
    }
    cos = {"D1:1": 0.2, "D1:2": 0.9, "D3:1": 0.1}
    order = statement_script.reorder(row, [(cos, 1.0, 1)], 1.0)
    # D1:2 gains 1/2, D1:1 1/3, D3:1 1/4; all scaled by 1.5
    assert [h.memory.id for h in order] == ["D1:2", "D1:1", "D3:1"]
    assert order[0].score == pytest.approx((0.45 + 0.5) / 1.5)
    # no leg: the order stands, until questions are marked down for a fact question
    assert [h.memory.id for h in statement_script.reorder(row, [], 1.0)] == [
        "D1:1",
        "D1:2",
        "D3:1",
    ]
    penalised = statement_script.reorder(row, [], 0.7)
    assert [h.memory.id for h in penalised] == ["D1:2", "D3:1", "D1:1"]


def test_folds_split_a_runs_questions_by_conversation(tmp_path: Path) -> None:
    folds = import_script("qd22_folds")

    def question(conv: str, category: str, s5: float) -> dict[str, Any]:
        metrics = {"session_r@5": s5, "session_r@10": 1.0, "turn_r@5": 0.0}
        metrics |= {"turn_r@10": 0.0, "session_ndcg@10": s5}
        return {"conversation": conv, "category": category, "metrics": metrics}

    run = tmp_path / "locomo.json"
    rows = [question("conv-26", "multi-hop", 1.0), question("conv-42", "multi-hop", 0.0)]
    rows.append(question("conv-43", "multi-hop", 1.0))
    run.write_text(json.dumps({"questions": rows}), encoding="utf-8")
    got = folds.summary(str(run))
    assert got["A"]["multi-hop"]["session_r@5"] == 1.0
    assert got["B"]["multi-hop"]["session_r@5"] == 0.5
    assert got["all5"]["all"]["session_r@5"] == pytest.approx(2 / 3)
