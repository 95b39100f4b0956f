"""SQLite schema step of the palace (FEATURES G6, G7; seed 003): wings, rooms, closets,
drawers and their aliases. Never edit it once shipped; add a step."""

from __future__ import annotations

import sqlite3

from engram.store.sqlite.steps import _run_script


def m016_palace(conn: sqlite3.Connection) -> None:
    """The palace tables. Numbers come from counters (``palace_counters.wings``,
    ``palace_wings.rooms_made``, ``palace_rooms.drawers_made``) so a number is never
    given out twice, even after its drawer's memory is purged (the drawer cascades)."""
    _run_script(
        conn,
        """
        CREATE TABLE palace_counters (
            namespace TEXT PRIMARY KEY,
            wings INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE palace_wings (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            number INTEGER NOT NULL,
            kind TEXT NOT NULL,
            name TEXT NOT NULL,
            slug TEXT NOT NULL,
            rooms_made INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            UNIQUE (namespace, slug),
            UNIQUE (namespace, number)
        );
        CREATE TABLE palace_rooms (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            wing_id INTEGER NOT NULL REFERENCES palace_wings(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            name TEXT NOT NULL,
            slug TEXT NOT NULL,
            drawers_made INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            UNIQUE (wing_id, slug),
            UNIQUE (wing_id, number)
        );
        CREATE TABLE palace_closets (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            room_id INTEGER NOT NULL REFERENCES palace_rooms(id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            slug TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (room_id, slug)
        );
        CREATE TABLE palace_aliases (
            namespace TEXT NOT NULL,
            level TEXT NOT NULL,
            parent_id INTEGER NOT NULL,
            alias TEXT NOT NULL,
            target_id INTEGER NOT NULL,
            PRIMARY KEY (namespace, level, parent_id, alias)
        );
        CREATE INDEX palace_aliases_target ON palace_aliases(level, target_id);
        CREATE TABLE palace_drawers (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            namespace TEXT NOT NULL,
            room_id INTEGER NOT NULL REFERENCES palace_rooms(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            turn INTEGER NOT NULL,
            memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            role TEXT,
            tags TEXT NOT NULL DEFAULT '[]',
            created_at TEXT NOT NULL,
            UNIQUE (room_id, turn),
            UNIQUE (room_id, number)
        );
        CREATE INDEX palace_drawers_memory ON palace_drawers(memory_id, room_id);
        CREATE TABLE palace_closet_drawers (
            closet_id INTEGER NOT NULL REFERENCES palace_closets(id) ON DELETE CASCADE,
            drawer_id INTEGER NOT NULL REFERENCES palace_drawers(id) ON DELETE CASCADE,
            PRIMARY KEY (closet_id, drawer_id)
        );
        CREATE INDEX palace_closet_drawers_drawer ON palace_closet_drawers(drawer_id);
        """,
    )
