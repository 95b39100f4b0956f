"""The sessions part of both store backends (``store.sessions``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engram.store.protocols import NewCheckpoint, SessionScore, SessionStore, Store

T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def _cp(key: str = "s1", trigger: str = "periodic", n: int = 1) -> NewCheckpoint:
    return NewCheckpoint(
        session_key=key,
        trigger=trigger,
        digest=f"digest {n}",
        prompt_count=n,
        memory_queries=("q1", "q2"),
        recent_remembers=("r1",),
        harness="claude-code",
        project="/Work/Engram/",
        project_normalized="/work/engram",
    )


def test_the_part_implements_its_protocol(any_store: Store) -> None:
    assert isinstance(any_store.sessions, SessionStore)


def test_checkpoints_round_trip_newest_first_and_capped(any_store: Store) -> None:
    sessions = any_store.sessions
    for n in range(1, 6):
        sessions.add_checkpoint("ns", _cp(n=n), cap=3, now=T0 + timedelta(minutes=n))
    rows = sessions.checkpoints("ns", "s1", limit=10)
    assert [r.prompt_count for r in rows] == [5, 4, 3]  # the two oldest deleted
    first = rows[0]
    assert first.digest == "digest 5" and first.trigger == "periodic"
    assert first.memory_queries == ("q1", "q2") and first.recent_remembers == ("r1",)
    assert first.harness == "claude-code" and first.project_normalized == "/work/engram"
    assert first.created_at == T0 + timedelta(minutes=5)
    assert sessions.checkpoints("ns", "s1", limit=1) == rows[:1]
    assert sessions.checkpoints("other", "s1", limit=10) == []
    sessions.add_checkpoint(
        "ns", _cp(trigger="session_end", n=9), cap=3, now=T0 + timedelta(hours=1)
    )
    ended = sessions.checkpoints("ns", "s1", limit=10, trigger="session_end")
    assert [r.prompt_count for r in ended] == [9]


def test_sessions_listed_by_recency_per_namespace(any_store: Store) -> None:
    sessions = any_store.sessions
    sessions.add_checkpoint("ns", _cp("a"), cap=50, now=T0)
    sessions.add_checkpoint("ns", _cp("b"), cap=50, now=T0 + timedelta(minutes=1))
    sessions.add_checkpoint("ns", _cp("a", n=2), cap=50, now=T0 + timedelta(minutes=2))
    sessions.add_checkpoint("elsewhere", _cp("c"), cap=50, now=T0)
    listed = sessions.sessions("ns", limit=10, offset=0)
    assert [(k, n) for k, n, _ in listed] == [("a", 2), ("b", 1)]
    assert listed[0][2] == T0 + timedelta(minutes=2)
    assert [k for k, _, _ in sessions.sessions("ns", limit=1, offset=1)] == ["b"]


def test_pruning_is_strict_and_store_wide(any_store: Store) -> None:
    sessions = any_store.sessions
    sessions.add_checkpoint("ns", _cp("old"), cap=50, now=T0)
    sessions.add_checkpoint("x", _cp("old"), cap=50, now=T0 + timedelta(days=1))
    sessions.add_checkpoint("ns", _cp("new"), cap=50, now=T0 + timedelta(days=8))
    assert sessions.prune_checkpoints(T0 + timedelta(days=2)) == 2
    assert sessions.checkpoints("ns", "old", limit=10) == []
    assert len(sessions.checkpoints("ns", "new", limit=10)) == 1


def test_injected_memories_keep_their_first_rank(any_store: Store) -> None:
    sessions = any_store.sessions
    assert sessions.log_injected("ns", "s", ["m1", "m2", "m1"], now=T0) == 2
    assert sessions.log_injected("ns", "s", ["m2", "m3"], now=T0 + timedelta(minutes=1)) == 1
    rows = sessions.injected("ns", "s")
    assert [(r.memory_id, r.rank) for r in rows] == [("m1", 1), ("m2", 2), ("m3", 3)]
    assert rows[2].injected_at == T0 + timedelta(minutes=1)
    assert all(r.relevance is None for r in rows)
    assert sessions.injected("other", "s") == []


def test_a_score_replaces_the_last_and_sets_relevance(any_store: Store) -> None:
    sessions = any_store.sessions
    sessions.log_injected("ns", "s", ["m1", "m2"], now=T0)
    assert sessions.score("ns", "s") is None
    first = SessionScore("ns", "s", 0.4, 0.3, 2, 1, 0, "first", "offline", T0, {"m1": 0.8})
    sessions.save_score(first, {"m1": 0.8})
    second = SessionScore(
        "ns",
        "s",
        0.9,
        0.8,
        2,
        2,
        1,
        "second",
        "llm",
        T0 + timedelta(hours=1),
        {"m1": 0.7, "m2": 1.0},
    )
    sessions.save_score(second, {"m1": 0.7, "m2": 1.0})
    assert sessions.score("ns", "s") == second
    assert [r.relevance for r in sessions.injected("ns", "s")] == [0.7, 1.0]
    assert sessions.score("other", "s") is None
