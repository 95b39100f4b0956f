"""The year simulation (``engram bench lifecycle``) on a small configuration: the store
stays bounded under consolidation (and retention when set), and recall on the kept
memories does not drop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import HashEmbedder, section_config
from engram import Config
from engram.bench import lifecycle as year
from engram.cli.main import cli

DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo" / "locomo10_dev.json"

pytestmark = pytest.mark.skipif(not DATA.exists(), reason="the LoCoMo dev set is not here")


def _config(tmp_path: Path, **lifecycle: object) -> Config:
    return section_config(tmp_path, {}, "lifecycle", lifecycle)


def test_a_simulated_stretch_stays_under_the_cap_and_keeps_recall(tmp_path: Path) -> None:
    config = _config(tmp_path, max_memories_per_agent=150, group_size=10)
    result = year.run(
        config, str(DATA), days=40, per_day=10, embedder=HashEmbedder(), sample_every=5
    )
    assert result["writes"] == 400
    assert result["consolidations"] > 0 and result["archived"] > 0
    for snap in result["snapshots"]:
        assert snap["live"] <= 150  # consolidation ran every simulated day
    last = result["snapshots"][-1]
    assert last["archived"] == last["rows"]["memory_archive"] > 0
    recall = result["recall"]
    assert recall["questions_kept"] > 0
    assert recall["after"]["turn_r@10"] >= recall["before"]["turn_r@10"]
    assert recall["dropped"] is False


def test_with_retention_the_whole_store_is_bounded(tmp_path: Path) -> None:
    config = _config(
        tmp_path, max_memories_per_agent=150, group_size=10, retention_days=10,
        tombstone_days=1, history_days=5, retention_interval_s=3600,
    )  # fmt: skip
    result = year.run(config, str(DATA), days=40, per_day=10, embedder=None, sample_every=5)
    rows = [s["rows"]["memories"] + s["rows"]["memory_archive"] for s in result["snapshots"]]
    # 10 days of retention plus a day of grace: never more than ~12 days of writes.
    assert max(rows) <= 12 * 10 + 5
    assert rows[-1] <= rows[len(rows) // 2] + 5  # flat, not growing with the days
    # the store stamps history by the simulated clock, so its window elapses here too
    history = [s["rows"]["memory_history"] for s in result["snapshots"]]
    assert history[-1] <= history[len(history) // 2] + 5


def test_with_the_archive_cap_the_whole_store_is_flat_once_the_caps_are_reached(
    tmp_path: Path,
) -> None:
    """Retention forever (the seed default): the live cap, the archive cap and the
    history window bound every table; the total row count stops growing."""
    config = _config(
        tmp_path, max_memories_per_agent=60, group_size=10, archive_max_per_agent=60,
        history_days=10, retention_interval_s=3600,
    )  # fmt: skip
    result = year.run(config, str(DATA), days=40, per_day=10, embedder=None, sample_every=4)
    assert result["compacted"] > 0
    for snap in result["snapshots"]:
        assert snap["live"] <= 60 and snap["archived"] <= 60
        rows = snap["rows"]
        assert snap["total"] >= rows["memories"] + rows["memory_archive"] + rows["memory_history"]
    late = [s for s in result["snapshots"] if s["day"] >= 21]  # caps and window reached
    assert len(late) >= 4
    # The capped tables stop exactly; the graph's rows (entities, relations, mentions)
    # follow which memories are live, so they move both ways but never grow: the total
    # stays within 15% (on main 635-694, with issue 28's fifth extraction pass 635-703).
    for table in ("memories", "memory_archive", "memory_history"):
        assert len({s["rows"][table] for s in late[1:]}) == 1, table
    totals = [s["total"] for s in late]
    assert max(totals) <= 1.15 * min(totals) and totals[-1] <= totals[0] * 1.05
    assert result["recall"]["dropped"] is False


def test_the_command_publishes_json_and_markdown(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {
        "ENGRAM_EMBEDDER_NAME": "none",
        "ENGRAM_CONFIG": "",
        "ENGRAM_LIFECYCLE_MAX_MEMORIES_PER_AGENT": "40",
    }
    args = ["--home", str(tmp_path / "home"), "bench", "lifecycle", "--data", str(DATA)]
    args += ["--days", "8", "--per-day", "8", "--sample-every", "2", "--out", str(out)]
    ran = CliRunner().invoke(cli, args, env=env)
    assert ran.exit_code == 0, ran.output
    result = json.loads((out / "lifecycle.json").read_text(encoding="utf-8"))
    assert result["days"] == 8 and result["snapshots"][-1]["live"] <= 40
    markdown = (out / "lifecycle.md").read_text(encoding="utf-8")
    assert "| day | live | archived |" in markdown and "after a year" in markdown
