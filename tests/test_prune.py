"""Prune candidates and bulk prune (FEATURES H4, seed 000's review tab), on SQLite and
PostgreSQL alike: the rule, its order and paging, the dry run, the audit trail."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, InvalidInputError, Memory
from engram.review.prune import MAX_PRUNE_IDS, prune_reason
from engram.store.sql import migrations
from engram.store.sqlite.dialect import SQLITE

#: (content, score, thumbs) -> is it a candidate? seed 000: quality <= -2, or
#: final_score < 6 and quality < 0.
CASES = [
    ("twice downvoted, no score", None, -2, True),
    ("thrice downvoted, high score", 9.5, -3, True),
    ("once downvoted, score 5.9", 5.9, -1, True),
    ("once downvoted, score exactly 6", 6.0, -1, False),
    ("once downvoted, no score", None, -1, False),
    ("neutral with a low score", 2.0, 0, False),
    ("upvoted with a low score", 1.0, 1, False),
    ("twice upvoted", None, 2, False),
]


def _rated(mem: Memory, content: str, score: float | None, thumbs: int, **scope: str) -> str:
    record = mem.add(content, score=score, **scope)
    for _ in range(abs(thumbs)):
        mem.feedback(record.id, "up" if thumbs > 0 else "down", **scope)
    return record.id


@pytest.fixture
def rated(mem: Memory) -> dict[str, str]:
    """content -> id of each case, in user:ann."""
    return {c: _rated(mem, c, s, t, user_id="ann") for c, s, t, _ in CASES}


def test_candidates_follow_seed_000s_rule(mem: Memory, rated: dict[str, str]) -> None:
    page = mem.review.prune_candidates(user_id="ann")
    expected = {rated[c] for c, _, _, candidate in CASES if candidate}
    assert {r.id for r in page} == expected
    assert page.total == 3
    # Worst first: lowest quality, then lowest score.
    assert [r.content for r in page] == [
        "thrice downvoted, high score",
        "twice downvoted, no score",
        "once downvoted, score 5.9",
    ]
    assert [prune_reason(r) for r in page] == [
        "quality -3 <= -2",
        "quality -2 <= -2",
        "score 5.9 < 6 and quality -1 < 0",
    ]


def test_candidates_page_and_count(mem: Memory, rated: dict[str, str]) -> None:
    first = mem.review.prune_candidates(user_id="ann", limit=2)
    second = mem.review.prune_candidates(user_id="ann", limit=2, offset=2)
    assert len(first) == 2 and len(second) == 1
    assert first.total == second.total == 3
    assert {r.id for r in [*first, *second]} == {
        rated[c] for c, _, _, candidate in CASES if candidate
    }


def test_candidates_stay_in_their_namespace(mem: Memory, rated: dict[str, str]) -> None:
    _rated(mem, "bob's bad note", None, -3, user_id="bob")
    assert [r.content for r in mem.review.prune_candidates(user_id="bob")] == ["bob's bad note"]
    assert len(mem.review.prune_candidates(user_id="ann")) == 3
    assert list(mem.review.prune_candidates(namespace="default")) == []


def test_a_dry_run_deletes_nothing(mem: Memory, rated: dict[str, str]) -> None:
    ids = [r.id for r in mem.review.prune_candidates(user_id="ann")]
    report = mem.review.prune(ids, user_id="ann")
    assert report.dry_run and report.deleted == []
    assert report.would_delete == ids
    assert len(mem.review.prune_candidates(user_id="ann")) == 3
    for memory_id in ids:
        assert [e.event for e in mem.history(memory_id, user_id="ann")][-1] == "feedback"


def test_prune_tombstones_and_audits_each_memory(mem: Memory, rated: dict[str, str]) -> None:
    worst = rated["thrice downvoted, high score"]
    fine = rated["twice upvoted"]
    report = mem.review.prune(
        [worst, fine, "no-such-id", worst], dry_run=False, actor="tester", user_id="ann"
    )
    assert [(i.id, i.action) for i in report.items] == [
        (worst, "deleted"),
        (fine, "skipped"),
        ("no-such-id", "not_found"),
    ]
    assert report.deleted == [worst]
    assert worst not in {r.id for r in mem.get_all(user_id="ann")}
    assert fine in {r.id for r in mem.get_all(user_id="ann")}
    history = mem.history(worst, user_id="ann")
    prune_row, delete_row = history[-2:]
    assert (prune_row.event, prune_row.actor) == ("prune", "tester")
    assert prune_row.reason == "quality -3 <= -2"
    assert prune_row.after == {"quality": -3, "score": 9.5, "rule": "quality -3 <= -2"}
    assert (delete_row.event, delete_row.actor) == ("delete", "tester")
    # It leaves recall at once and is no candidate any more.
    hits = mem.search("thrice downvoted high score", user_id="ann")
    assert worst not in {h.id for h in hits}
    assert mem.review.prune_candidates(user_id="ann").total == 2
    # A second prune finds nothing to do.
    again = mem.review.prune([worst], dry_run=False, user_id="ann")
    assert [i.action for i in again.items] == ["not_found"]


def test_hand_picked_ids_need_only_candidates_off(mem: Memory, rated: dict[str, str]) -> None:
    fine = rated["twice upvoted"]
    report = mem.review.prune([fine], dry_run=False, only_candidates=False, user_id="ann")
    assert report.deleted == [fine]
    assert report.items[0].reason == "selected by hand (not a prune candidate)"
    assert mem.history(fine, user_id="ann")[-1].event == "delete"


def test_another_namespace_is_not_reached(mem: Memory, rated: dict[str, str]) -> None:
    worst = rated["thrice downvoted, high score"]
    report = mem.review.prune([worst], dry_run=False, only_candidates=False, user_id="bob")
    assert [i.action for i in report.items] == ["not_found"]
    assert mem.get(worst, user_id="ann").quality == -3


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ("abc", "list of memory ids"),
        (["ok", ""], "non-empty string"),
        (["x"] * (MAX_PRUNE_IDS + 1), "at most"),
    ],
)
def test_bad_input_is_refused_and_nothing_changes(
    mem: Memory, rated: dict[str, str], ids: object, message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        mem.review.prune(ids, dry_run=False, user_id="ann")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="true or false"):
        mem.review.prune(["x"], dry_run="no", user_id="ann")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="offset"):
        mem.review.prune_candidates(user_id="ann", offset=-1)
    assert mem.review.prune_candidates(user_id="ann").total == 3


def test_opening_an_older_sqlite_store_adds_the_prune_index(tmp_path: Path, config: Config) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        migrations.migrate(conn, SQLITE, upto="019_runs")
    finally:
        conn.close()
    with Memory(path, config=config, embedder=HashEmbedder()) as mem:
        _rated(mem, "bad", None, -2)
        assert [r.content for r in mem.review.prune_candidates()] == ["bad"]
    conn = sqlite3.connect(path)
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM schema_migrations")}
        indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        plan = " ".join(
            str(r[-1])
            for r in conn.execute(
                "EXPLAIN QUERY PLAN SELECT id FROM memories WHERE namespace = 'default' "
                "AND deleted_at IS NULL AND quality < 0 AND quality <= -2"
            )
        )
    finally:
        conn.close()
    assert "020_review_prune" in names
    assert {"memories_prune", "memory_feedback_ns"} <= indexes
    assert "memories_prune" in plan
