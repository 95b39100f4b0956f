"""``[pipeline] contradiction_action`` (issue 28, FEATURES P4/P5) and what the review
queue shows of a proposal: seed 004's example "uses PostgreSQL" -> "migrated to
MongoDB", held for a person or applied with the flag, on both backends."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.pipeline.decisions import decide
from engram.settings import PipelineConfig
from test_pipeline_apply import Fact, fact, holding, run, with_mode

OLD = "The billing service uses PostgreSQL."
NEW = "The billing service migrated to MongoDB."


def _seed_example(mem: Memory) -> tuple[str, str, dict[str, int]]:
    """The old fact (written by the pipeline), a source memory stating the change, and
    the outcome of the decision pass's own proposal for it."""
    src = mem.add(f"Ops: {NEW}", user_id="ops")
    old = fact(mem, src, OLD)
    proposal = decide(Fact(NEW), [old], provider=None, timeout=1, warnings=[])
    assert proposal is not None and (proposal.action, proposal.target_id) == ("UPDATE", old.id)
    return src.id, old.id, run(mem, src, proposal)


def _audit(mem: Memory, source_id: str) -> dict[str, object]:
    rows = [h.after for h in mem.history(source_id, user_id="ops") if h.event == "proposal"]
    assert rows and rows[-1] is not None
    return rows[-1]


def test_the_default_is_apply_flag() -> None:
    assert PipelineConfig().contradiction_action == "apply_flag"


def test_apply_flag_applies_the_seed_example_and_flags_its_audit_row(mem: Memory) -> None:
    with_mode(mem, allow_update_delete=True, contradiction_action="apply_flag")
    source, old, outcomes = _seed_example(mem)
    assert outcomes == {"superseded": 1}
    kept = mem.get(old, user_id="ops")
    assert kept.superseded_by is not None
    assert mem.get(kept.superseded_by, user_id="ops").content == NEW
    audit = _audit(mem, source)
    assert audit["review_needed"] is True and audit["outcome"] == "superseded"
    assert mem.review.count(user_id="ops") == 0  # applied, not held


def test_hold_queues_the_seed_example_with_both_claims_side_by_side(mem: Memory) -> None:
    with_mode(mem, allow_update_delete=True, contradiction_action="hold")
    source, old, outcomes = _seed_example(mem)
    assert outcomes == {"review": 1}
    assert mem.get(old, user_id="ops").superseded_by is None
    [item] = mem.review.list(user_id="ops")
    sides = item.sides
    assert sides["old"] == {"memory_id": old, "text": OLD, "claim": OLD.rstrip(".")}
    assert sides["new"] == {"memory_id": source, "text": NEW, "claim": NEW.rstrip(".")}
    assert "mongodb replaces postgresql" in sides["reason"]
    assert mem.review.get(item.id, user_id="ops").sides == sides
    assert _audit(mem, source)["review_needed"] is True
    approved = mem.review.approve(item.id, user_id="ops")
    assert approved.status == "approved" and approved.sides == sides


def test_controlled_mode_queues_whatever_the_setting(mem: Memory) -> None:
    with_mode(mem, contradiction_action="apply_flag")  # controlled: no destructive writes
    _, old, outcomes = _seed_example(mem)
    assert outcomes == {"review": 1}
    assert mem.get(old, user_id="ops").superseded_by is None


def test_the_setting_is_checked(tmp_path: Path) -> None:
    from engram.errors import ConfigError

    with pytest.raises(ConfigError, match="contradiction_action"):
        Config.load(env={}, home=str(tmp_path), pipeline={"contradiction_action": "maybe"})


def test_http_and_cli_show_both_sides(tmp_path: Path, config: Config) -> None:
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from engram.api import create_app
    from engram.cli.main import cli

    path = tmp_path / "review.db"
    with Memory(path, config=holding(config), embedder=HashEmbedder()) as mem:
        source, old, _ = _seed_example(mem)
        client = TestClient(create_app(mem, auth=False, mcp=False))
        [item] = client.get("/v1/review", params={"user_id": "ops"}).json()["items"]
        assert item["sides"]["old"]["memory_id"] == old
        assert item["sides"]["new"] == {"memory_id": source, "text": NEW, "claim": NEW[:-1]}
        one = client.get(f"/v1/review/{item['id']}", params={"user_id": "ops"}).json()
        assert one["sides"] == item["sides"]
    env = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
    base = ["--home", str(tmp_path / "home"), "--db", str(path), "review", "list"]
    out = CliRunner(env=env).invoke(cli, [*base, "--user", "ops", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["items"][0]["sides"]["old"]["text"] == OLD
    table = CliRunner(env=env).invoke(cli, [*base, "--user", "ops"], terminal_width=300)
    assert table.exit_code == 0
    flat = " ".join(table.output.split())
    assert "old claim" in flat and "PostgreSQL" in flat and "MongoDB" in flat and old[:12] in flat


def test_the_decision_pass_proposes_no_update_for_the_junk_of_issue_28(mem: Memory) -> None:
    from test_contradiction_claims import JUNK

    src = mem.add("Caroline: hi!", user_id="ops")
    for old, new in JUNK:
        target = fact(mem, src, old)
        proposal = decide(Fact(new), [target], provider=None, timeout=1, warnings=[])
        assert proposal is not None and proposal.action == "ADD", (old, new, proposal)
