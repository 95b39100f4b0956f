"""issue 24 (L1, dropped): scripts/learned_rank.py's features, order and fit, which the
measurements in docs/benchmarks.md ("Evidence spread over sessions", L1) rest on."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import ranked_hit
from engram.records import Hit


@pytest.fixture(scope="module")
def script() -> Any:
    path = Path(__file__).resolve().parents[1] / "scripts" / "learned_rank.py"
    spec = importlib.util.spec_from_file_location("learned_rank_script", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _hit(memory_id: str, text: str, session: str, score: float, sim: float, turn: str) -> Hit:
    hit = ranked_hit(memory_id, score, content=text, session=session)
    metadata = {"session": session, "turn": turn}
    breakdown = replace(hit.breakdown, sim=sim, bm25=0.5, dense=sim + 0.1, keyword=0.5)
    return replace(hit, memory=replace(hit.memory, metadata=metadata), breakdown=breakdown)


HITS = [
    _hit("a", "Caroline: Melanie, have you painted lately?", "1", 0.9, 0.7, "D1:1"),
    _hit("b", "Caroline: Any more paintings coming up?", "1", 0.8, 0.6, "D1:2"),
    _hit("c", "Melanie: I painted a sunset last weekend with the kids.", "2", 0.7, 0.8, "D2:5"),
    _hit("d", "Melanie: off to the beach", "3", 0.1, 0.2, "D3:1"),
]
QUESTION = "What has Melanie painted?"


def test_features_read_each_hit_and_its_head(script: Any) -> None:
    x = script.features(QUESTION, HITS[:3], {"c": 0.9})
    col = {name: x[:, i] for i, name in enumerate(script.FEATURES)}
    assert x.shape == (3, len(script.FEATURES))
    assert list(col["question"]) == [1.0, 1.0, 0.0]
    assert list(col["speaker_named"]) == [0.0, 0.0, 1.0]  # Melanie opens "c" only
    assert list(col["session_first"]) == [1.0, 0.0, 1.0]
    assert col["session_above"][1] == pytest.approx(np.log(2))
    assert col["sim_gap"] == pytest.approx([0.1, 0.2, 0.0])
    # No R1 cosine for a hit: its own cosine stands in; "c" has the nearest.
    assert list(col["residual"]) == pytest.approx([0.7, 0.6, 0.9])
    assert col["residual_rank"][2] == 0.0
    assert col["z_sim"].mean() == pytest.approx(0.0) and col["z_sim"][2] > 0
    assert script.features(QUESTION, []).shape == (0, len(script.FEATURES))


def test_reorder_moves_the_head_only_and_keeps_scores_falling(script: Any) -> None:
    model = script.Model(
        features=("question",), mean=(0.5,), scale=(0.5,), coef=(-3.0,), intercept=0.0,
        depth=3, embedder="m",
    )  # fmt: skip
    out = script.reorder(QUESTION, HITS, model)
    assert [h.memory.id for h in out] == ["c", "a", "b", "d"]  # ties keep their order
    assert [h.score for h in out] == [0.9, 0.8, 0.7, 0.1]
    assert out[0].breakdown.rerank is not None and out[0].breakdown.rerank > 0.9
    assert out[0].breakdown.final == 0.7 and out[3] is HITS[3]


def test_a_malformed_model_is_refused(script: Any) -> None:
    good = {
        "features": ["sim"], "mean": [0.0], "scale": [1.0], "coef": [1.0], "intercept": 0.0,
        "depth": 5, "embedder": "m",
    }  # fmt: skip
    assert script.Model.from_mapping(good).to_mapping() == good
    for broken in ({"features": ["nope"]}, {"scale": [0.0]}, {"depth": 1}, {"coef": []}):
        with pytest.raises(ValueError, match="malformed"):
            script.Model.from_mapping({**good, **broken})
    with pytest.raises(ValueError, match="malformed"):
        script.Model.from_mapping({"features": ["sim"]})


def test_fit_learns_what_marks_the_gold_turns(script: Any) -> None:
    class Question:
        text = QUESTION
        gold_turns = frozenset({"D2:5"})
        gold_sessions = frozenset({"2"})

    rows = [{"question": Question(), "hits": HITS, "residual": {}}] * 5
    model = script.fit_model(
        rows, 4, ("question", "speaker_named"), l2=0.1, session_weight=0.0, embedder="m"
    )
    weights = dict(zip(model.features, model.coef, strict=True))
    assert weights["speaker_named"] > 0 and weights["question"] < 0
    assert script.reorder(QUESTION, HITS, model)[0].memory.id == "c"
    pairwise = script.fit_model(
        rows, 4, ("question",), l2=0.1, session_weight=0.0, embedder="m", pairwise=True
    )
    assert pairwise.coef[0] < 0
