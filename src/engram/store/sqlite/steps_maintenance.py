"""SQLite schema step of maintenance (FEATURES S10; seed 004's maintenance worker):
recorded runs, executed repair actions and the halt tracker. Never edit it once
shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m027_maintenance(conn: sqlite3.Connection) -> None:
    """Maintenance runs (append-only), executed repair actions, halt states."""
    _run_script(
        conn,
        """
        CREATE TABLE maintenance_runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            mode TEXT NOT NULL,
            namespace TEXT,
            started_at TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            score_before REAL NOT NULL,
            score_after REAL NOT NULL,
            recommendations TEXT NOT NULL DEFAULT '[]',
            actions TEXT NOT NULL DEFAULT '[]',
            report TEXT NOT NULL DEFAULT '{}'
        );
        CREATE INDEX maintenance_runs_by_kind ON maintenance_runs(kind, id);
        CREATE TABLE maintenance_actions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            action TEXT NOT NULL,
            outcome TEXT NOT NULL,
            executed_at TEXT NOT NULL
        );
        CREATE INDEX maintenance_actions_by_action ON maintenance_actions(action, executed_at);
        CREATE TABLE maintenance_halts (
            action TEXT PRIMARY KEY,
            streak INTEGER NOT NULL,
            halted_at TEXT
        );
        """,
    )
