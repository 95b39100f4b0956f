"""``ScheduleLeaseStore`` on either engine: one row per schedule in ``schedule_leases``.

Taking a lease is one upsert in one write transaction, as leasing a job is
(``SqlJobs.lease``): the row is inserted, or updated only where its holder is the
caller or its lease has expired, and ``RETURNING`` says whether it was. Two processes
racing for it are serialised by the write (SQLite's ``BEGIN IMMEDIATE``, PostgreSQL's
row lock on the conflicting key), so exactly one of them gets a row back.
"""

from __future__ import annotations

from datetime import datetime

from engram.store.protocols.schedules import ScheduleLease, ScheduleLeaseStore
from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.rows import columns, record
from engram.store.sql.session import SqlPart
from engram.store.sql.steps import script


class SqlScheduleLeases(SqlPart, ScheduleLeaseStore):
    """``ScheduleLeaseStore`` on either engine."""

    def take(self, name: str, holder: str, *, now: datetime, until: datetime) -> bool:
        d = self._d
        with self._sql.tx("taking a schedule lease") as conn:
            row = conn.execute(
                "INSERT INTO schedule_leases(name, holder, leased_at, expires_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET "
                "holder = excluded.holder, leased_at = excluded.leased_at, "
                "expires_at = excluded.expires_at "
                "WHERE schedule_leases.holder = excluded.holder "
                "OR schedule_leases.expires_at <= excluded.leased_at RETURNING holder",
                (name, holder, d.ts(now), d.ts(until)),
            ).fetchone()
        return row is not None

    def release(self, name: str, holder: str) -> None:
        with self._sql.tx("releasing a schedule lease") as conn:
            conn.execute(
                "DELETE FROM schedule_leases WHERE name = ? AND holder = ?", (name, holder)
            )

    def leases(self) -> list[ScheduleLease]:
        sql = f"SELECT {columns(ScheduleLease)} FROM schedule_leases ORDER BY name"
        rows = self._rows(sql, what="reading the schedule leases")
        return [record(self._d, ScheduleLease, row) for row in rows]


def m035_schedule_leases(conn: Conn, d: Dialect) -> None:
    """A lease per server schedule, so two engram processes on one store do not run
    one schedule at once (``engram mcp`` runs serve's schedules too)."""
    script(
        conn,
        d,
        """
        CREATE TABLE schedule_leases (
            name TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            leased_at {time} NOT NULL,
            expires_at {time} NOT NULL
        );
        """,
    )
