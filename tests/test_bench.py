"""Benchmark loaders, scorers and the runner, on small hand-made files."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder, locomo_sample, locomo_turn, run_cli
from engram import Config, InvalidInputError, Memory
from engram.bench import beam, locomo, longmemeval, report, runner
from engram.bench.dataset import Found
from engram.bench.metrics import (
    distinct,
    ndcg_at_k,
    percentile,
    recall_all_at_k,
    recall_any_at_k,
    recall_at_k,
)

LOCOMO = [
    locomo_sample(
        "conv-x",
        ("Alice", "Bob"),
        [
            (
                "1:56 pm on 8 May, 2023",
                [
                    locomo_turn("Alice", "D1:1", "I adopted a puppy named Rex"),
                    locomo_turn("Bob", "D1:2", "That's great", blip_caption="a dog on a sofa"),
                ],
            ),
            (
                "10:00 am on 9 June, 2023",
                [
                    locomo_turn("Alice", "D2:1", "Rex learned to sit"),
                    locomo_turn("Bob", "D2:2", "I started painting landscapes"),
                ],
            ),
        ],
        qa=[
            {
                "question": "What did Bob start painting?",
                "answer": "landscapes",
                "evidence": ["D2:2"],
                "category": 4,
            },
            {
                "question": "What is the puppy's name?",
                "answer": "Rex",
                "evidence": ["D1:1; D2:1"],
                "category": 1,
            },
            {"question": "Unanswerable?", "answer": "-", "evidence": [], "category": 3},
            {
                "question": "When did Bob start painting?",
                "answer": "June 2023",
                "evidence": ["D:2:2"],
                "category": 2,
            },
        ],
    )
]
ERRATA = [{"question_id": "locomo_0_qa0", "correct_evidence": ["D1:2"]}]


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(LOCOMO))
    (tmp_path / "errata_dev.json").write_text(json.dumps(ERRATA))
    return path


def test_metrics_by_hand() -> None:
    ranked = ["a", "b", "c", "d"]
    assert recall_at_k(ranked, {"b", "z"}, 1) == 0.0
    assert recall_at_k(ranked, {"b", "z"}, 2) == 0.5
    assert recall_at_k(ranked, set(), 5) == 0.0
    assert recall_any_at_k(ranked, {"c", "z"}, 3) == 1.0
    assert recall_all_at_k(ranked, {"c", "z"}, 4) == 0.0
    assert recall_all_at_k(ranked, {"a", "c"}, 3) == 1.0
    # One relevant item at rank 2 of 1 gold: (1/log2 3) / (1/log2 2).
    assert math.isclose(ndcg_at_k(ranked, {"b"}, 10), 1 / math.log2(3))
    # Two gold at ranks 1 and 3: (1 + 1/2) / (1 + 1/log2 3).
    assert math.isclose(ndcg_at_k(ranked, {"a", "c"}, 10), 1.5 / (1 + 1 / math.log2(3)))
    assert distinct(["1", "2", "1", "3", "2"]) == ["1", "2", "3"]
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([], 95) == 0.0


def test_locomo_loader(locomo_file: Path) -> None:
    data = locomo.load(str(locomo_file), errata=str(locomo_file.parent / "errata_dev.json"))
    (conv,) = data.conversations
    assert [t.id for t in conv.turns] == ["D1:1", "D1:2", "D2:1", "D2:2"]
    assert conv.turns[1].text == "Bob: That's great [image: a dog on a sofa]"
    assert conv.turns[2].created_at == datetime(2023, 6, 9, 10, 0, tzinfo=UTC)
    assert conv.turns[2].session == "2"
    # The question without evidence is skipped; malformed ids are read.
    assert [q.id for q in conv.questions] == ["locomo_0_qa0", "locomo_0_qa1", "locomo_0_qa3"]
    assert conv.questions[1].gold_turns == {"D1:1", "D2:1"}
    assert conv.questions[1].gold_sessions == {"1", "2"}
    assert conv.questions[2].gold_turns == {"D2:2"}
    assert conv.questions[0].category == "single-hop"
    assert conv.questions[0].alternatives["errata"] == (frozenset({"D1:2"}), frozenset({"1"}))
    assert conv.questions[1].alternatives["errata"][0] == {"D1:1", "D2:1"}


def test_locomo_scorer_by_hand(locomo_file: Path) -> None:
    question = locomo.load(str(locomo_file)).conversations[0].questions[0]
    ranked = (["D1:1", "D2:2", "D2:1"], ["1", "2"])
    got = locomo.score(Found(question, frozenset({"D2:2"}), frozenset({"2"}), *ranked, 0.9))
    assert got["session_r@1"] == 0.0 and got["session_r@3"] == 1.0
    assert got["turn_r@1"] == 0.0 and got["turn_r@3"] == 1.0
    assert math.isclose(got["session_ndcg@10"], 1 / math.log2(3))


def test_locomo_bad_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="does not exist"):
        locomo.load(str(tmp_path / "missing.json"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InvalidInputError, match="cannot read"):
        locomo.load(str(bad))
    bad.write_text(json.dumps([{"conversation": {}}]))
    with pytest.raises(InvalidInputError, match="lacks 'conversation' or 'qa'"):
        locomo.load(str(bad))


def test_runner_end_to_end(locomo_file: Path, config: Config) -> None:
    data = locomo.load(str(locomo_file), errata=str(locomo_file.parent / "errata_dev.json"))
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
        result = runner.run(mem, data, ["bm25", "best"])
        assert result.ingest["ingested"] == 4
        ns = runner.namespace_for("locomo", "conv-x")
        stored = mem.get_all(namespace=ns)
        assert {m.metadata["dia_id"] for m in stored} == {"D1:1", "D1:2", "D2:1", "D2:2"}
        assert {m.session_id for m in stored} == {"1", "2"}
        again = runner.run(mem, data, ["bm25"])
        assert again.ingest["ingested"] == 0  # already stored: reused, not duplicated
    assert len(result.questions) == 6
    first = next(q for q in result.questions if q.mode == "bm25" and q.question_id.endswith("qa0"))
    assert first.top_turns[0] == "D2:2"
    assert first.metrics["turn_r@1"] == 1.0
    # The errata move qa0's evidence to D1:2, which BM25 does not rank first.
    assert first.alternatives["errata"]["turn_r@1"] == 0.0
    summary = result.summary("bm25")
    assert summary["questions"] == 3
    assert set(summary["per_category"]) == {"single-hop", "multi-hop", "temporal"}
    text = report.markdown(result)
    assert "| bm25 (errata) |" in text and "session_r@5" in text


def test_runner_rejects_unknown_mode(locomo_file: Path, config: Config) -> None:
    with (
        Memory(":memory:", config=config, embedder=HashEmbedder()) as mem,
        pytest.raises(InvalidInputError, match="unknown mode"),
    ):
        runner.run(mem, locomo.load(str(locomo_file)), ["magic"])


def _beam_dir(tmp_path: Path) -> Path:
    chat = tmp_path / "beam" / "1"
    chat.mkdir(parents=True)
    (chat / "chat.json").write_text(
        json.dumps(
            [
                {
                    "batch_number": 1,
                    "time_anchor": "March-15-2024",
                    "turns": [
                        [
                            {"role": "user", "id": 0, "content": "My first sprint ends March 29"},
                            {"role": "assistant", "id": 1, "content": "Noted, sprint one."},
                        ]
                    ],
                },
                {
                    "batch_number": 2,
                    "turns": [[{"role": "user", "id": 2, "content": "API latency is now 250ms"}]],
                },
            ]
        )
    )
    (chat / "probing_questions.json").write_text(
        json.dumps(
            {
                "information_extraction": [
                    {"question": "When does my first sprint end?", "source_chat_ids": [0]}
                ],
                "knowledge_update": [
                    {
                        "question": "What is the API latency?",
                        "source_chat_ids": {"original_info": [1], "updated_info": [2]},
                    }
                ],
                "abstention": [{"question": "What is my dog called?"}],
            }
        )
    )
    return tmp_path / "beam"


def test_beam_loader_and_scorer(tmp_path: Path) -> None:
    data = beam.load(str(_beam_dir(tmp_path)))
    (conv,) = data.conversations
    assert [t.id for t in conv.turns] == ["0", "1", "2"]
    assert conv.turns[0].text == "user: My first sprint ends March 29"
    assert conv.turns[0].created_at == datetime(2024, 3, 15, tzinfo=UTC)
    assert [q.gold_turns for q in conv.questions] == [{"0"}, {"1", "2"}, set()]
    update = conv.questions[1]
    found = Found(update, update.gold_turns, update.gold_sessions, ["2", "0", "1"], [], 0.4)
    got = beam.score(found)
    assert got["msg_r@5"] == 1.0
    assert math.isclose(got["msg_ndcg@10"], (1 + 1 / 2) / (1 + 1 / math.log2(3)))
    abstain = conv.questions[2]
    assert beam.score(Found(abstain, frozenset(), frozenset(), ["0"], [], 0.37)) == {
        "abstention_top_score": 0.37
    }
    with pytest.raises(InvalidInputError, match="no BEAM chat directories"):
        beam.load(str(tmp_path))


LONGMEMEVAL = [
    {
        "question_id": "q1",
        "question_type": "single-session-user",
        "question": "Which city did I move to?",
        "answer": "Lisbon",
        "question_date": "2023/06/01 (Thu) 10:00",
        "haystack_session_ids": ["s_a", "answer_s_b"],
        "haystack_dates": ["2023/05/01 (Mon) 09:00", "2023/05/20 (Sat) 02:21"],
        "haystack_sessions": [
            [{"role": "user", "content": "I like tea"}, {"role": "assistant", "content": "ok"}],
            [
                {"role": "user", "content": "I moved to Lisbon last week", "has_answer": True},
                {"role": "assistant", "content": "Lisbon is lovely"},
            ],
        ],
        "answer_session_ids": ["answer_s_b"],
    },
    {
        "question_id": "q2_abs",
        "question_type": "single-session-user",
        "question": "What is my cat's name?",
        "answer": "not mentioned",
        "haystack_session_ids": ["s_c"],
        "haystack_dates": ["2023/05/01 (Mon) 09:00"],
        "haystack_sessions": [[{"role": "user", "content": "hello"}]],
        "answer_session_ids": [],
    },
]


def test_longmemeval_loader_and_scorer(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "lme.json"
    path.write_text(json.dumps(LONGMEMEVAL))
    data = longmemeval.load(str(path))
    (conv,) = data.conversations  # the abstention question is skipped
    assert [t.id for t in conv.turns] == ["s_a_1", "s_a_2", "answer_s_b_1", "answer_s_b_2"]
    (question,) = conv.questions
    assert question.gold_turns == {"answer_s_b_1"}
    assert question.gold_sessions == {"answer_s_b"}
    assert conv.turns[2].created_at == datetime(2023, 5, 20, 2, 21, tzinfo=UTC)
    got = longmemeval.score(
        Found(
            question,
            question.gold_turns,
            question.gold_sessions,
            ["s_a_1", "answer_s_b_1"],
            ["s_a", "answer_s_b"],
            None,
        )
    )
    assert got["session_recall_any@5"] == 1.0 and got["session_recall_all@5"] == 1.0
    assert math.isclose(got["session_ndcg_any@5"], 1 / math.log2(3))
    assert got["turn_recall_any@10"] == 1.0
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
        result = runner.run(mem, data, ["bm25"])
    assert result.questions[0].metrics["turn_recall_any@5"] == 1.0
    path.write_text(json.dumps([{"question_id": "x"}]))
    with pytest.raises(InvalidInputError, match="lacks a required field"):
        longmemeval.load(str(path))


def test_cli_bench_writes_json_and_table(locomo_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "results"
    home = tmp_path / "home"
    result = run_cli(
        home, "bench", "locomo", "--data", str(locomo_file), "--errata", "--mode", "bm25",
        "--out", str(out), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["bm25"]["questions"] == 3
    saved = json.loads((out / "locomo.json").read_text())
    assert len(saved["questions"]) == 3
    assert "bm25+errata" in saved["summary"]
    assert "| bm25 |" in (out / "locomo.md").read_text()
    bad = run_cli(home, "bench", "beam", "--data", str(tmp_path / "no"))
    assert bad.exit_code == 2 and "not a directory" in bad.output


@pytest.mark.parametrize(
    ("parse", "text", "named"),
    [
        (locomo.parse_date, "8 May 2023", "LoCoMo session date '8 May 2023'"),
        (longmemeval.parse_date, "2023-05-20 02:21", "LongMemEval date '2023-05-20 02:21'"),
    ],
)
def test_a_date_not_in_the_datasets_format_names_the_date_and_the_format(
    parse: Any, text: str, named: str
) -> None:
    with pytest.raises(InvalidInputError, match="does not match") as caught:
        parse(text)
    assert named in str(caught.value) and "%" in str(caught.value)
