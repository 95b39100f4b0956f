"""``engram bench extraction``: recall against gold observations, the echo baseline,
precision from hand labels, and the labels file itself. Unit tests use the hashed
bag-of-words embedder, never MiniLM."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import HashEmbedder, locomo_sample, locomo_turn
from engram.bench import extraction
from engram.bench.extraction import TurnFact
from engram.cli.main import cli
from engram.errors import InvalidInputError

LABELS = Path(__file__).parent / "data" / "extraction_labels.json"

CONVERSATION: dict[str, Any] = locomo_sample(
    "conv-x",
    ("Alice", "Bob"),
    [
        (
            "1:56 pm on 8 May, 2023",
            [
                locomo_turn("Alice", "D1:1", "I adopted a puppy named Rex last week."),
                locomo_turn("Bob", "D1:2", "Wow, what breed is he?"),
                locomo_turn("Alice", "D1:3", "He is a beagle!"),
            ],
        ),
        (
            "10:00 am on 9 June, 2023",
            [locomo_turn("Bob", "D2:1", "I started painting landscapes in May.")],
        ),
    ],
    observation={
        "session_1_observation": {
            "Alice": [
                ["Alice adopted a puppy named Rex last week.", "D1:1"],
                ["Alice's puppy Rex is a beagle.", "D1:3"],
            ],
            "Bob": [["Bob started painting landscapes in May.", "D1:2"]],
        },
        "session_2_observation": {
            "Bob": [["Bob started painting landscapes in May.", ["D2:1"]]],
        },
    },
    qa=[],
)


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([CONVERSATION, CONVERSATION | {"sample_id": "conv-y"}]))
    return path


def test_the_benchmark_on_one_conversation(locomo_file: Path) -> None:
    result = extraction.run(str(locomo_file), embedder=HashEmbedder(), conversations=1)
    assert (result["conversations"], result["turns"], result["gold_facts"]) == (1, 4, 4)
    # Alice's adoption (D1:1) and Bob's painting (cited at D2:1) are extracted from the
    # turns the gold cites; the beagle turn yields no standalone fact ("He is ..."), and
    # the painting fact cited at D1:2 (a question) has nothing from its own turn.
    assert result["recall"] == 0.5
    assert result["facts"] == 2 and result["facts_per_turn"] == 0.5
    assert result["facts_by_rule"] == {"first_person": 2}
    # the echo baseline: whole turns; "He is a beagle!" shares enough words at 0.6
    assert result["echo_recall"] == 0.75
    assert result["recall_sweep"]["0.8"] == {"offline": 0.5, "echo": 0.5}
    assert result["turns_per_second"] > 0
    assert set(result["recall_sweep"]) == {"0.5", "0.55", "0.6", "0.65", "0.7", "0.8"}
    assert "precision" not in result
    with_pairs = extraction.run(str(locomo_file), embedder=HashEmbedder(), examples=1)
    (pair,) = with_pairs["examples"]
    assert set(pair) == {"cosine", "gold", "extracted"}
    markdown = extraction.markdown(result)
    assert "fact recall at cosine >= 0.6: **0.500**" in markdown


def test_a_gold_fact_is_matched_only_from_the_turns_it_cites(locomo_file: Path) -> None:
    turns, gold = extraction.load(str(locomo_file), conversations=1)
    painting = [g for g in gold if g.text.startswith("Bob started")]
    from_d21 = [("conv-x", "D2:1", "Bob started painting landscapes in May.")]
    matches = extraction.best_matches(painting, from_d21, HashEmbedder())
    # the same sentence matches where the gold cites D2:1, not where it cites D1:2
    assert [round(score, 3) if index is not None else None for score, index in matches] == [
        None,
        1.0,
    ]
    assert extraction.recall_at(matches, 0.6) == 0.5
    assert len(turns) == 4


def test_precision_from_labels_overall_and_per_rule() -> None:
    facts = [
        TurnFact("c", "D1:1", "Alice adopted a puppy named Rex.", "first_person"),
        TurnFact("c", "D1:2", "Bob thinks puppies are great.", "opinion"),
        TurnFact("c", "D1:3", "Alice loves long walks.", "preference"),
    ]
    labels = {facts[0].key: True, facts[1].key: False, "gone-fact-key": True}
    got = extraction.precision(facts, labels)
    assert got == {
        "precision": 0.5,
        "n": 2,
        "labels_no_longer_produced": 1,
        "per_rule": {
            "first_person": {"precision": 1.0, "n": 1},
            "opinion": {"precision": 0.0, "n": 1},
        },
    }
    assert extraction.precision(facts, {})["precision"] is None


def test_the_sample_keeps_its_facts_when_others_change() -> None:
    facts = [
        TurnFact("c", f"D1:{i}", f"Fact number {i} about Alice.", "first_person")
        for i in range(400)
    ]
    sample = extraction.draw_sample(facts, size=150)
    assert len(sample) == 150 == len(set(sample))
    changed = [f for f in facts if f not in sample[:10]]  # ten sampled facts disappear
    changed += [TurnFact("c", "D9:9", "A new fact about Bob.", "opinion")]
    again = extraction.draw_sample(changed, size=150)
    assert set(sample[10:]) <= set(again)


def test_the_labels_file_is_complete() -> None:
    data = json.loads(LABELS.read_text())
    labels = data["labels"]
    assert data["seed"] == extraction.SAMPLE_SEED
    # The first 150 labels are the sample as first drawn; relabelling after a change
    # of the rules appends the facts that change put in the sample (docs/pipeline.md).
    assert len(labels) >= extraction.SAMPLE_SIZE == 150
    assert len({row["key"] for row in labels}) == len(labels)
    assert all(isinstance(row["correct"], bool) for row in labels)
    assert len(data["criteria"]) >= 3
    # only keys, never benchmark text
    assert all(set(row) == {"key", "conversation", "dia_id", "rule", "correct"} for row in labels)
    read = extraction.read_labels(LABELS)
    assert len(read) == len(labels) and 0 < sum(read.values()) < len(labels)


def test_bad_inputs_are_clear_errors(tmp_path: Path) -> None:
    no_gold = tmp_path / "no_gold.json"
    no_gold.write_text(json.dumps([{k: v for k, v in CONVERSATION.items() if k != "observation"}]))
    with pytest.raises(InvalidInputError, match="no 'observation' facts"):
        extraction.load(str(no_gold))
    with pytest.raises(InvalidInputError, match="threshold"):
        extraction.run(str(no_gold), embedder=HashEmbedder(), threshold=0)
    bad_labels = tmp_path / "labels.json"
    bad_labels.write_text(json.dumps({"rows": []}))
    with pytest.raises(InvalidInputError, match="labels"):
        extraction.read_labels(bad_labels)


def test_cli_writes_the_sheet_to_label(locomo_file: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.jsonl"
    result = CliRunner().invoke(
        cli,
        ["--home", str(tmp_path / "home"), "bench", "extraction", "--data", str(locomo_file)]
        + ["--sheet", str(sheet)],
        env={"ENGRAM_CONFIG": ""},
    )
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in sheet.read_text().splitlines()]
    assert len(rows) == 4  # two facts in each of the two conversations
    assert {r["fact"] for r in rows} == {
        "Alice adopted a puppy named Rex last week.",
        "Bob started painting landscapes in May.",
    }
    assert all(r["correct"] is None and r["turn"] for r in rows)


def test_cli_needs_an_embedder(locomo_file: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli,
        ["--home", str(tmp_path / "home"), "bench", "extraction", "--data", str(locomo_file)],
        env={"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""},
    )
    assert result.exit_code != 0
    assert "needs an embedder" in result.output


def test_recall_and_precision_by_confidence(locomo_file: Path, tmp_path: Path) -> None:
    result = extraction.run(str(locomo_file), embedder=HashEmbedder(), conversations=1)
    curve = result["by_confidence"]
    assert set(curve) == {"0", "0.5", "0.6", "0.7", "0.8"}
    # Every fact at 0, the write gate's facts at 0.7: the same figures as reported above.
    assert (curve["0"]["recall"], curve["0"]["facts"]) == (result["recall"], result["facts"])
    assert curve["0.7"]["recall"] == result["written"]["recall"]
    # Both first-person facts are 0.8 or more sure (a date or a name), none above 0.9.
    assert curve["0.8"]["facts"] == 2 and "precision" not in curve["0.8"]
    (key,) = [
        f.key
        for f in extraction.extract_turns(extraction.load_turns(str(locomo_file), conversations=1))[
            0
        ]
        if f.dia_id == "D1:1"
    ]
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({"labels": [{"key": key, "correct": False}]}))
    judged = extraction.run(
        str(locomo_file), embedder=HashEmbedder(), conversations=1, labels=labels
    )["by_confidence"]
    assert (judged["0.5"]["precision"], judged["0.5"]["n"]) == (0.0, 1)
    assert "| confidence >= | facts | recall | precision (n) |" in extraction.markdown(result)
