"""``engram bench entities``: the duplicate-entity judgement and the benchmark run on a
small LoCoMo-shaped file (the dev figures are in docs/graph.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import HashEmbedder
from engram.bench import entities
from engram.cli.main import cli

SESSION = [
    {"speaker": "Caroline", "dia_id": "D1:1", "text": "Mel, I went to the support group."},
    {"speaker": "Melanie", "dia_id": "D1:2", "text": "Caro, that is great! I took my kids."},
    {"speaker": "Caroline", "dia_id": "D1:3", "text": "I am going to the pride parade."},
    {"speaker": "Melanie", "dia_id": "D1:4", "text": "We went to the Pride parades too."},
]
CONVERSATION = {
    "sample_id": "conv-x",
    "conversation": {
        "speaker_a": "Caroline",
        "speaker_b": "Melanie",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": SESSION,
    },
}


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([CONVERSATION, CONVERSATION | {"sample_id": "conv-y"}]))
    return path


def test_the_judgement_groups_spellings_of_one_thing() -> None:
    names = [
        "Caroline",
        "Caro",
        "Caroline Smith",
        "Mel",
        "Melanie",
        "Pride parade",
        "the pride parades",
        "pride",
        "Ca",  # too short to be a nickname
        "woohoo Melanie",  # a wrong entity, not a spelling of Melanie
        "class",  # "ss" is no plural
        "clas",
    ]
    assert entities.judged_groups(names, ["Caroline", "Melanie"]) == [
        ["Caro", "Caroline", "Caroline Smith"],
        ["Mel", "Melanie"],
        ["Pride parade", "the pride parades"],
    ]


def test_the_benchmark_ingests_measures_and_dedupes(locomo_file: Path) -> None:
    result = entities.run(str(locomo_file), embedder=HashEmbedder(), conversations=1)
    assert (result["conversations"], result["turns"]) == (1, 4)
    before, after = result["before"], result["after"]
    assert before["entities"] > 0 and 0 <= before["rate"] <= 1
    # dedupe only ever removes entities, and removes what it merged
    assert after["entities"] == before["entities"] - result["merged"]
    assert after["duplicates"] <= before["duplicates"]
    assert sum(result["merged_by_reason"].values()) == result["merged"]
    assert "| before dedupe |" in entities.markdown(result)


def test_the_cli_writes_the_results(locomo_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "results"
    home = tmp_path / "home"
    runner = CliRunner()
    args = ["bench", "entities", "--data", str(locomo_file), "--out", str(out), "--json"]
    env = {"ENGRAM_HOME": str(home), "ENGRAM_EMBEDDER_NAME": "none"}
    result = runner.invoke(cli, args, env=env)
    assert result.exit_code == 0, result.output
    figures = json.loads((out / "entities.json").read_text())
    assert figures["embedder"] is None and figures["conversations"] == 2
    assert "embedding" not in figures["merged_by_reason"]  # name rules only
    assert (out / "entities.md").read_text().startswith("### duplicate entities")
