"""Feedback (FEATURES H3, seed 000): quality clamps to [-3, +3], every rating is logged
with its comment and time, and the log exports as a preference data set (JSONL)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import HashEmbedder
from engram import Config, InvalidInputError, Memory
from engram.cli.main import cli
from engram.review import export


def test_quality_clamps_at_plus_and_minus_three_and_every_rating_is_logged(mem: Memory) -> None:
    record = mem.add("The staging database is db-staging-2", user_id="ann")
    qualities = [mem.feedback(record.id, "up", f"up {i}", user_id="ann").quality for i in range(5)]
    assert qualities == [1, 2, 3, 3, 3]
    qualities = [mem.feedback(record.id, -1, user_id="ann").quality for _ in range(8)]
    assert qualities == [2, 1, 0, -1, -2, -3, -3, -3]
    log = mem.admin.feedback_log(namespace="user:ann")
    assert [row["rating"] for row in log] == [1] * 5 + [-1] * 8  # clamped quality, full log
    assert [row["comment"] for row in log[:5]] == [f"up {i}" for i in range(5)]
    assert all(datetime.fromisoformat(row["created_at"]) for row in log)
    assert [e.event for e in mem.history(record.id, user_id="ann")].count("feedback") == 13


def test_export_lines_carry_the_memory_and_the_rating(mem: Memory) -> None:
    a = mem.add("Deploys are frozen on Fridays", title="Deploy freeze", user_id="ann")
    b = mem.add("Alice likes green tea", user_id="ann")
    mem.feedback(a.id, "up", "useful", user_id="ann")
    mem.feedback(b.id, "down", "wrong person", user_id="ann")
    mem.feedback(a.id, "up", user_id="ann")
    lines = list(mem.review.export_feedback(user_id="ann"))
    assert [list(line) for line in lines] == [list(export.FIELDS)] * 3
    assert [(x["memory_id"], x["rating"], x["comment"]) for x in lines] == [
        (a.id, 1, "useful"),
        (b.id, -1, "wrong person"),
        (a.id, 1, None),
    ]
    assert lines[0]["content"] == "Deploys are frozen on Fridays"
    assert lines[0]["title"] == "Deploy freeze" and lines[1]["title"] is None
    # quality is the memory's quality now, after every rating.
    assert [x["quality"] for x in lines] == [2, -1, 2]
    log = mem.feedback_log(namespace="user:ann")
    assert [datetime.fromisoformat(x["at"]) for x in lines] == [
        datetime.fromisoformat(row["created_at"]) for row in log
    ]
    assert lines[0]["at"].endswith("Z")


def test_export_keeps_pruned_memories_and_drops_purged_ones(mem: Memory) -> None:
    bad = mem.add("The moon is made of cheese", user_id="ann")
    for _ in range(2):
        mem.feedback(bad.id, "down", "false", user_id="ann")
    mem.review.prune([bad.id], dry_run=False, user_id="ann")
    lines = list(mem.review.export_feedback(user_id="ann"))
    assert [x["content"] for x in lines] == ["The moon is made of cheese"] * 2
    mem.admin.purge(namespace="user:ann")
    assert list(mem.review.export_feedback(user_id="ann")) == []


def test_export_stays_in_its_namespace(mem: Memory) -> None:
    ann = mem.add("ann's note", user_id="ann")
    bob = mem.add("bob's note", user_id="bob")
    mem.feedback(ann.id, "up", user_id="ann")
    mem.feedback(bob.id, "down", user_id="bob")
    assert [x["memory_id"] for x in mem.review.export_feedback(user_id="ann")] == [ann.id]
    assert [x["memory_id"] for x in mem.review.export_feedback(user_id="bob")] == [bob.id]
    assert list(mem.review.export_feedback()) == []


def test_export_streams_page_by_page(mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    record = mem.add("a much-rated memory", user_id="ann")
    for i in range(7):
        mem.feedback(record.id, "up" if i % 2 else "down", str(i), user_id="ann")
    monkeypatch.setattr(export, "PAGE", 3)
    lines = list(mem.review.export_feedback(user_id="ann"))
    assert [x["comment"] for x in lines] == [str(i) for i in range(7)]
    page = mem.review.feedback_rows(user_id="ann", limit=3)
    assert [x["comment"] for x in page] == ["0", "1", "2"]
    rest = mem.review.feedback_rows(user_id="ann", after=page[-1]["id"], limit=100)
    assert [x["comment"] for x in rest] == ["3", "4", "5", "6"]
    with pytest.raises(InvalidInputError, match="after"):
        mem.review.feedback_rows(user_id="ann", after=-1)
    with pytest.raises(InvalidInputError, match="limit"):
        mem.review.feedback_rows(user_id="ann", limit=0)


def test_cli_export_writes_jsonl_that_reads_back(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {"ENGRAM_HOME": str(home), "ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
    runner = CliRunner()
    added = runner.invoke(
        cli, ["add", "Bob deploys on Tuesdays", "--user", "ann", "--json"], env=env
    )
    assert added.exit_code == 0, added.output
    memory_id = json.loads(added.output)["id"]
    # `engram feedback ID up` is `engram feedback rate ID up`.
    for args in (["feedback", memory_id[:10], "up", "-m", "good"],
                 ["feedback", "rate", memory_id, "down"]):  # fmt: skip
        result = runner.invoke(cli, [*args, "--user", "ann"], env=env)
        assert result.exit_code == 0, result.output
    out = tmp_path / "prefs.jsonl"
    result = runner.invoke(
        cli, ["feedback", "export", "--out", str(out), "--user", "ann", "--json"], env=env
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"path": str(out), "rows": 2}
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert not out.with_name("prefs.jsonl.partial").exists()
    config = Config.load(env={}, home=str(home), embedder={"name": "none"})
    with Memory(config=config, embedder=None) as mem:
        assert written == list(mem.review.export_feedback(user_id="ann"))
    assert [(x["rating"], x["comment"]) for x in written] == [(1, "good"), (-1, None)]
    to_stdout = runner.invoke(cli, ["feedback", "export", "--user", "ann"], env=env)
    assert [json.loads(line) for line in to_stdout.output.splitlines()] == written


def test_export_through_the_async_front_door(config: Config) -> None:
    import asyncio

    from engram import AsyncMemory

    async def run() -> list[dict[str, object]]:
        amem = AsyncMemory(":memory:", config=config, embedder=HashEmbedder())
        try:
            record = await amem.add("async note", user_id="ann")
            await amem.feedback(record.id, "up", user_id="ann")
            return await amem.review.feedback_rows(user_id="ann")
        finally:
            await amem.close()

    [row] = asyncio.run(run())
    assert (row["content"], row["rating"], row["quality"]) == ("async note", 1, 1)
