"""The two dialects under the shared store modules: one SQL text, the same values back.

Each test takes ``any_store`` (SQLite and a real PostgreSQL) and runs SQL written once
with ``?`` through the store's ``Sql``, as every concern in ``engram.store.sql`` does.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from engram import InvalidInputError, StoreError
from engram.store import Store
from engram.store.postgres.dialect import to_pyformat
from engram.store.sql.session import Sql


def sql_of(store: Store) -> Sql:
    sql: Sql = store._sql  # type: ignore[attr-defined]  # the shared modules' handle
    return sql


def test_placeholders_become_psycopg_style_and_literal_percent_is_kept() -> None:
    assert to_pyformat("SELECT ? WHERE a LIKE 'x%' AND b = ?") == (
        "SELECT %s WHERE a LIKE 'x%%' AND b = %s"
    )


def test_a_time_round_trips_as_aware_utc_and_sorts_as_times_do(any_store: Store) -> None:
    sql = sql_of(any_store)
    d = sql.d
    paris = timezone(timedelta(hours=1))
    early = datetime(2026, 3, 1, 12, 0, 0, 123456, tzinfo=paris)
    late = datetime(2026, 3, 1, 11, 30, 0, tzinfo=UTC)  # later in real time
    with sql.tx("test") as conn:
        conn.execute(
            "INSERT INTO agent_profiles(agent_id, level, project, updated_at) VALUES (?, ?, ?, ?)",
            ("a", "persistent", None, d.ts(early)),
        )
        conn.execute(
            "INSERT INTO agent_profiles(agent_id, level, project, updated_at) VALUES (?, ?, ?, ?)",
            ("b", "persistent", None, d.ts(late)),
        )
    with sql.read("test") as conn:
        rows = conn.execute(
            "SELECT agent_id, updated_at FROM agent_profiles ORDER BY updated_at"
        ).fetchall()
    assert [r[0] for r in rows] == ["a", "b"]
    back = d.time(rows[0][1])
    assert back == early and back.tzinfo is not None and back.utcoffset() == timedelta(0)
    assert d.time_or_none(None) is None


def test_json_written_with_the_json_placeholder_reads_back_as_values(any_store: Store) -> None:
    sql = sql_of(any_store)
    d = sql.d
    payload = {"text": "café ☕", "n": 3, "list": [1, "two"]}
    with sql.tx("test") as conn:
        row = conn.execute(
            "INSERT INTO memory_jobs(kind, namespace, status, attempts, max_attempts, payload, "
            f"created_at, run_after) VALUES ('extract', 'ns', 'completed', 0, 1, {d.json}, ?, ?) "
            "RETURNING id",
            (d.dumps(payload), d.ts(datetime.now(UTC)), d.ts(datetime.now(UTC))),
        ).fetchone()
    with sql.read("test") as conn:
        stored = conn.execute("SELECT payload FROM memory_jobs WHERE id = ?", (row[0],)).fetchone()
    assert d.loads(stored[0]) == payload
    assert d.loads(None) is None


def test_text_with_nul_is_refused_where_the_engine_cannot_store_it(any_store: Store) -> None:
    d = sql_of(any_store).d
    if d.name == "postgres":
        with pytest.raises(InvalidInputError, match="NUL"):
            d.text("a\x00b", "comment")
    else:
        assert d.text("a\x00b", "comment") == "a\x00b"
    assert d.text(None, "comment") is None


def test_driver_errors_become_engram_errors_and_roll_back(any_store: Store) -> None:
    sql = sql_of(any_store)
    with sql.tx("test") as conn:
        conn.execute(
            "INSERT INTO agent_profiles(agent_id, level, updated_at) VALUES ('x', 'none', ?)",
            (sql.d.ts(datetime.now(UTC)),),
        )
    # A duplicate primary key is the caller's bad input ...
    refused = pytest.raises(InvalidInputError, match="adding twice rejected by the database")
    with refused, sql.tx("adding twice") as conn:
        conn.execute(
            "INSERT INTO agent_profiles(agent_id, level, updated_at) VALUES ('y', 'none', ?)",
            (sql.d.ts(datetime.now(UTC)),),
        )
        conn.execute(
            "INSERT INTO agent_profiles(agent_id, level, updated_at) VALUES ('x', 'none', ?)",
            (sql.d.ts(datetime.now(UTC)),),
        )
    # ... and the whole transaction rolled back: 'y' was not kept.
    with sql.read("test") as conn:
        ids = [r[0] for r in conn.execute("SELECT agent_id FROM agent_profiles").fetchall()]
    assert ids == ["x"]
    # Anything else the engine refuses is a store error naming the operation.
    failed = pytest.raises(StoreError, match="reading nothing failed")
    with failed, sql.read("reading nothing") as conn:
        conn.execute("SELECT * FROM no_such_table").fetchall()


def test_in_lists_are_chunked_to_what_the_engine_takes(any_store: Store) -> None:
    d = sql_of(any_store).d
    values = list(range(d.chunk * 2 + 3))
    pieces = list(d.chunks(values))
    assert [len(p) for p in pieces] == [d.chunk, d.chunk, 3]
    assert [v for p in pieces for v in p] == values
    assert d.marks(3) == "?, ?, ?"


def test_executemany_takes_question_marks_on_both_engines(any_store: Store) -> None:
    sql = sql_of(any_store)
    now = sql.d.ts(datetime.now(UTC))
    with sql.tx("test") as conn:
        conn.executemany(
            "INSERT INTO agent_profiles(agent_id, level, updated_at) VALUES (?, 'none', ?)",
            [(f"agent-{i}", now) for i in range(5)],
        )
    with sql.read("test") as conn:
        count = conn.execute("SELECT count(*) FROM agent_profiles").fetchone()[0]
    assert int(count) == 5
