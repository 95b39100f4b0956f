"""The run log's store part (``store.runs``) on both backends: save and replace, list and
count with filters, hits logged and re-logged, the reverse lookup, namespaces kept
apart, delete cascading to hits, and the migrations' names (FEATURES H1, H2)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram.store import Store, protocols
from engram.store.postgres.dialect import POSTGRES
from engram.store.protocols.runs import Run, RunHit
from engram.store.sql import migrations
from engram.store.sqlite.dialect import SQLITE

T0 = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)


def _run(run_id: str, namespace: str = "ns", **fields: object) -> Run:
    return Run(run_id=run_id, namespace=namespace, **fields)  # type: ignore[arg-type]


def test_the_part_implements_its_protocol(any_store: Store) -> None:
    assert isinstance(any_store.runs, protocols.RunStore)


def test_migrations_have_the_names_the_issue_gives() -> None:
    assert "019_runs" in dict(migrations.named(SQLITE))
    assert "015_runs" in dict(migrations.named(POSTGRES))


def test_save_then_get_round_trips_every_field(any_store: Store) -> None:
    run = _run(
        "run-1",
        task="Top 5 context engineering techniques",
        task_type="research",
        status="completed",
        score=8.7,
        tokens_in=1200,
        tokens_out=3400,
        output="RAG wins. Überprüft ✓",
        output_path="/tmp/out.md",
        issues=("claim 3 lacks a source", "table is empty"),
        metadata={"queries": ["rag vs fine-tuning"], "n": 1},
        started_at=T0,
        finished_at=T0 + timedelta(minutes=3),
    )
    saved = any_store.runs.save(run, now=T0 + timedelta(minutes=4))
    got = any_store.runs.get("ns", "run-1")
    assert got == saved
    assert got is not None
    assert (got.task, got.task_type, got.status, got.score) == (
        "Top 5 context engineering techniques",
        "research",
        "completed",
        8.7,
    )
    assert (got.tokens_in, got.tokens_out, got.output_chars) == (1200, 3400, 21)
    assert got.output == "RAG wins. Überprüft ✓" and got.output_path == "/tmp/out.md"
    assert got.issues == ("claim 3 lacks a source", "table is empty")
    assert got.metadata == {"queries": ["rag vs fine-tuning"], "n": 1}
    assert got.started_at == T0 and got.finished_at == T0 + timedelta(minutes=3)
    assert got.created_at == got.updated_at == T0 + timedelta(minutes=4)
    assert any_store.runs.get("ns", "nope") is None
    assert any_store.runs.get("other", "run-1") is None


def test_save_replaces_but_keeps_created_at(any_store: Store) -> None:
    any_store.runs.save(_run("r", status="running", task="t"), now=T0)
    later = any_store.runs.save(
        _run("r", status="completed", task="t", score=9.0), now=T0 + timedelta(hours=1)
    )
    assert (later.status, later.score) == ("completed", 9.0)
    assert later.created_at == T0 and later.updated_at == T0 + timedelta(hours=1)
    assert any_store.runs.count("ns") == 1


def test_select_is_newest_first_without_output_and_filters(any_store: Store) -> None:
    for i, (status, kind) in enumerate(
        [("completed", "research"), ("failed", "research"), ("completed", "enumerated")]
    ):
        any_store.runs.save(
            _run(f"r{i}", status=status, task_type=kind, output="x" * (i + 1)),
            now=T0 + timedelta(minutes=i),
        )
    any_store.runs.save(_run("elsewhere", namespace="other"), now=T0)
    listed = any_store.runs.select("ns")
    assert [r.run_id for r in listed] == ["r2", "r1", "r0"]
    assert all(r.output is None for r in listed)
    assert [r.output_chars for r in listed] == [3, 2, 1]
    assert [r.run_id for r in any_store.runs.select("ns", status="completed")] == ["r2", "r0"]
    assert [r.run_id for r in any_store.runs.select("ns", task_type="research")] == ["r1", "r0"]
    assert [r.run_id for r in any_store.runs.select("ns", limit=1, offset=1)] == ["r1"]
    assert any_store.runs.count("ns") == 3
    assert any_store.runs.count("ns", status="completed", task_type="research") == 1
    assert any_store.runs.count("other") == 1


def _hit(memory_id: str, rank: int, score: float | None = None, at: datetime = T0) -> RunHit:
    return RunHit("r", "ns", memory_id, rank, score, f"title of {memory_id}", at)


def test_hits_are_logged_by_rank_and_relogging_updates(any_store: Store) -> None:
    any_store.runs.save(_run("r"), now=T0)
    assert any_store.runs.log_hits("ns", "r", []) == 0
    logged = any_store.runs.log_hits("ns", "r", [_hit("m2", 2, 0.5), _hit("m1", 1, 0.9)])
    assert logged == 2
    hits = any_store.runs.hits("ns", "r")
    assert [(h.memory_id, h.rank, h.score, h.title) for h in hits] == [
        ("m1", 1, 0.9, "title of m1"),
        ("m2", 2, 0.5, "title of m2"),
    ]
    later = T0 + timedelta(days=1)
    any_store.runs.log_hits("ns", "r", [_hit("m2", 1, 0.7, at=later)])
    again = any_store.runs.hits("ns", "r")
    assert [(h.memory_id, h.rank) for h in again] == [("m1", 1), ("m2", 1)]
    assert again[1].at == later and again[1].score == 0.7
    assert any_store.runs.hits("other", "r") == []


def test_delete_removes_the_run_and_its_hits(any_store: Store) -> None:
    any_store.runs.save(_run("r"), now=T0)
    any_store.runs.log_hits("ns", "r", [_hit("m1", 1)])
    assert any_store.runs.delete("other", "r") is False
    assert any_store.runs.delete("ns", "r") is True
    assert any_store.runs.get("ns", "r") is None
    assert any_store.runs.hits("ns", "r") == []
    assert any_store.runs.delete("ns", "r") is False


def test_a_hit_needs_its_run(any_store: Store) -> None:
    from engram.errors import EngramError

    with pytest.raises(EngramError):
        any_store.runs.log_hits("ns", "never-recorded", [_hit("m1", 1)])
    assert any_store.runs.hits("ns", "never-recorded") == []


def test_a_save_inside_a_transaction_rolls_back_with_it(any_store: Store) -> None:
    class Boom(Exception):
        pass

    with pytest.raises(Boom), any_store.transaction():
        any_store.runs.save(_run("r"), now=T0)
        raise Boom
    assert any_store.runs.get("ns", "r") is None
