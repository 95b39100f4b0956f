"""``engram bench contradictions``' mining measure on a small LoCoMo-format file: the
chat lines that filled the queue in issue 28 queue nothing, a stated change does."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from click.testing import CliRunner

from engram.bench import contradictions as contra
from engram.config import Config

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bench"

TURNS_1 = [
    ("Caroline", "I live in Boston with my roommate."),
    ("Melanie", "Thanks so much, Caroline! Your kind words mean a lot."),
    ("Caroline", "I felt so proud and grateful - the vibes were amazing."),
    ("Melanie", "I'm not sure yet, but pottery is a huge part of my life."),
]
TURNS_2 = [
    ("Caroline", "I moved to Denver last month."),
    ("Melanie", "I felt so proud of my kids, not just happy."),
    ("Caroline", "Thanks, Melanie! It's not easy, but I'm so grateful."),
]


def _locomo(path: Path) -> Path:
    def session(turns: list[tuple[str, str]], n: int) -> list[dict[str, str]]:
        return [
            {"speaker": s, "dia_id": f"D{n}:{i}", "text": t} for i, (s, t) in enumerate(turns, 1)
        ]

    sample = {
        "sample_id": "conv-t",
        "conversation": {
            "speaker_a": "Caroline",
            "speaker_b": "Melanie",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": session(TURNS_1, 1),
            "session_2_date_time": "2:00 pm on 20 June, 2023",
            "session_2": session(TURNS_2, 2),
        },
        "qa": [],
    }
    path.write_text(json.dumps([sample]), encoding="utf-8")
    return path


def test_mining_queues_the_change_and_none_of_the_filler(tmp_path: Path, config: Config) -> None:
    data = _locomo(tmp_path / "locomo.json")
    offline = replace(config, pipeline=replace(config.pipeline, extractor="offline"))
    got = contra.mined(offline, data, conversations=None)
    assert got["turns"] == len(TURNS_1) + len(TURNS_2)
    texts = [(p["old"] or "") + " / " + (p["new"] or "") for p in got["proposals"]]
    assert not any("proud" in t or "Thanks" in t or "grateful" in t for t in texts), texts
    # The decision pass's UPDATE of the extracted fact, and retroactive supersession's
    # of the same pair (the turn itself is the newer sibling): both the one real change.
    assert got["queued"] >= 1, texts
    for p in got["proposals"]:
        assert "Boston" in p["old"] and "Denver" in p["new"] and "residence" in p["reason"]
    assert got["false_per_500_turns"] == round(got["queued"] * 500 / 7, 2)


def test_the_cli_writes_json_and_markdown(tmp_path: Path) -> None:
    from engram.cli.main import cli

    out = tmp_path / "out"
    env = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
    args = ["--home", str(tmp_path / "home"), "bench", "contradictions", "--no-mine"]
    args += ["--data", str(SHARED)]
    run = CliRunner(env=env).invoke(cli, [*args, "--out", str(out), "--json"])
    assert run.exit_code == 0, run.output
    result = json.loads(run.output)
    assert result["set"]["pairs"] >= 300 and "mining" not in result
    assert result["set"]["left_out"] == 0
    assert result["labelled"]["syntactic"]["folds"]["B"]["precision"] >= 0.9
    table = (out / "contradictions.md").read_text(encoding="utf-8")
    assert "| syntactic | A |" in table and "| lexical | B |" in table
    assert json.loads((out / "contradictions.json").read_text())["set"] == result["set"]
