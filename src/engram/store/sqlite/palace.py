"""The palace in the SQLite store: wings, rooms, closets and drawers (FEATURES G6, G7)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, StoreError
from engram.store.protocols.palace import (
    Closet,
    Drawer,
    NewDrawer,
    Room,
    RoomNode,
    Wing,
    WingNode,
)
from engram.store.sqlite.codec import parse_ts, ts
from engram.store.sqlite.db import Database

_WING = "id, namespace, number, kind, name, slug, created_at"
_ROOM = (
    "r.id, r.namespace, r.wing_id, w.number, r.number, r.name, r.slug, r.created_at "
    "FROM palace_rooms r JOIN palace_wings w ON w.id = r.wing_id"
)
_DRAWER = (
    "d.id, d.namespace, w.id, w.number, r.id, r.number, d.number, d.turn, d.memory_id, "
    "d.role, d.tags, d.created_at FROM palace_drawers d "
    "JOIN palace_rooms r ON r.id = d.room_id JOIN palace_wings w ON w.id = r.wing_id"
)
#: SQLite's default limit on host parameters is 999 in old builds: chunk IN lists.
_CHUNK = 500


def _when(value: Any) -> datetime:
    parsed = parse_ts(value)
    assert parsed is not None  # the columns are NOT NULL
    return parsed


def _room(row: Sequence[Any]) -> Room:
    return Room(
        int(row[0]), row[1], int(row[2]), int(row[3]), int(row[4]), row[5], row[6], _when(row[7])
    )


def _drawer(row: Sequence[Any]) -> Drawer:
    return Drawer(
        id=int(row[0]),
        namespace=row[1],
        wing_id=int(row[2]),
        wing_number=int(row[3]),
        room_id=int(row[4]),
        room_number=int(row[5]),
        number=int(row[6]),
        turn=int(row[7]),
        memory_id=row[8],
        role=row[9],
        tags=tuple(json.loads(row[10])),
        created_at=_when(row[11]),
    )


class SQLitePalace:
    """The SQLite implementation of ``PalaceStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    @contextmanager
    def _tx(self, what: str) -> Iterator[sqlite3.Connection]:
        try:
            with self._db.tx() as conn:
                yield conn
        except sqlite3.IntegrityError as exc:
            raise InvalidInputError(f"{what} rejected by the database: {exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"{what} failed: {exc}") from exc

    # -- helpers ----------------------------------------------------------------------
    @staticmethod
    def _target(
        conn: sqlite3.Connection, namespace: str, level: str, parent_id: int, slug: str
    ) -> int | None:
        """The id of the wing/room/closet whose slug or alias is ``slug``."""
        table, parent = {
            "wing": ("palace_wings", "namespace = ? AND 0 = ?"),
            "room": ("palace_rooms", "namespace = ? AND wing_id = ?"),
            "closet": ("palace_closets", "namespace = ? AND room_id = ?"),
        }[level]
        row = conn.execute(
            f"SELECT id FROM {table} WHERE {parent} AND slug = ?", (namespace, parent_id, slug)
        ).fetchone()
        if row is None:
            row = conn.execute(
                "SELECT target_id FROM palace_aliases WHERE namespace = ? AND level = ? "
                "AND parent_id = ? AND alias = ?",
                (namespace, level, parent_id, slug),
            ).fetchone()
        return None if row is None else int(row[0])

    def _wing_by_id(self, conn: sqlite3.Connection, wing_id: int) -> Wing:
        row = conn.execute(f"SELECT {_WING} FROM palace_wings WHERE id = ?", (wing_id,)).fetchone()
        aliases = conn.execute(
            "SELECT alias FROM palace_aliases WHERE level = 'wing' AND target_id = ? "
            "ORDER BY alias",
            (wing_id,),
        ).fetchall()
        return Wing(
            int(row[0]),
            row[1],
            int(row[2]),
            row[3],
            row[4],
            row[5],
            _when(row[6]),
            tuple(a[0] for a in aliases),
        )

    @staticmethod
    def _room_by_id(conn: sqlite3.Connection, room_id: int) -> Room:
        return _room(conn.execute(f"SELECT {_ROOM} WHERE r.id = ?", (room_id,)).fetchone())

    # -- wings ------------------------------------------------------------------------
    def ensure_wing(
        self, namespace: str, *, slug: str, name: str, kind: str, now: datetime
    ) -> Wing:
        """The wing of ``slug`` (slug or alias), created with the next number if new."""
        with self._tx("filing the wing") as conn:
            found = self._target(conn, namespace, "wing", 0, slug)
            if found is None:
                conn.execute(
                    "INSERT INTO palace_counters(namespace, wings) VALUES (?, 1) "
                    "ON CONFLICT(namespace) DO UPDATE SET wings = wings + 1",
                    (namespace,),
                )
                number = conn.execute(
                    "SELECT wings FROM palace_counters WHERE namespace = ?", (namespace,)
                ).fetchone()[0]
                found = conn.execute(
                    "INSERT INTO palace_wings(namespace, number, kind, name, slug, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                    (namespace, number, kind, name, slug, ts(now)),
                ).fetchone()[0]
            return self._wing_by_id(conn, int(found))

    def wing(self, namespace: str, key: str | int) -> Wing | None:
        """The wing by number or by slug/alias."""
        with self._db.read("reading the wing") as conn:
            if isinstance(key, int):
                row = conn.execute(
                    "SELECT id FROM palace_wings WHERE namespace = ? AND number = ?",
                    (namespace, key),
                ).fetchone()
                found = None if row is None else int(row[0])
            else:
                found = self._target(conn, namespace, "wing", 0, key)
            return None if found is None else self._wing_by_id(conn, found)

    def add_alias(
        self, namespace: str, level: str, parent_id: int, target_id: int, alias: str
    ) -> bool:
        """Make ``alias`` resolve to ``target_id`` at ``level`` within ``parent_id``."""
        with self._tx("adding the alias") as conn:
            current = self._target(conn, namespace, level, parent_id, alias)
            if current == target_id:
                return False
            if current is not None:
                raise InvalidInputError(
                    f"{alias!r} already names another {level}; pick another alias"
                )
            conn.execute(
                "INSERT INTO palace_aliases(namespace, level, parent_id, alias, target_id) "
                "VALUES (?, ?, ?, ?, ?)",
                (namespace, level, parent_id, alias, target_id),
            )
            return True

    # -- rooms ------------------------------------------------------------------------
    def ensure_room(
        self, namespace: str, wing_id: int, *, slug: str, name: str, now: datetime
    ) -> Room:
        """The wing's room of ``slug``, created with the wing's next room number."""
        with self._tx("filing the room") as conn:
            found = self._target(conn, namespace, "room", wing_id, slug)
            if found is None:
                number = conn.execute(
                    "UPDATE palace_wings SET rooms_made = rooms_made + 1 "
                    "WHERE id = ? AND namespace = ? RETURNING rooms_made",
                    (wing_id, namespace),
                ).fetchone()[0]
                found = conn.execute(
                    "INSERT INTO palace_rooms(namespace, wing_id, number, name, slug, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                    (namespace, wing_id, number, name, slug, ts(now)),
                ).fetchone()[0]
            return self._room_by_id(conn, int(found))

    def room(self, namespace: str, wing_id: int, key: str | int) -> Room | None:
        """The wing's room by number or by slug/alias."""
        with self._db.read("reading the room") as conn:
            if isinstance(key, int):
                row = conn.execute(
                    "SELECT id FROM palace_rooms WHERE namespace = ? AND wing_id = ? "
                    "AND number = ?",
                    (namespace, wing_id, key),
                ).fetchone()
                found = None if row is None else int(row[0])
            else:
                found = self._target(conn, namespace, "room", wing_id, key)
            return None if found is None else self._room_by_id(conn, found)

    # -- drawers and closets ----------------------------------------------------------
    def drawers(self, namespace: str, room_id: int) -> list[Drawer]:
        """The room's drawers by number."""
        with self._db.read("reading the drawers") as conn:
            rows = conn.execute(
                f"SELECT {_DRAWER} WHERE d.namespace = ? AND d.room_id = ? ORDER BY d.number",
                (namespace, room_id),
            ).fetchall()
        return [_drawer(r) for r in rows]

    def file_drawers(
        self, namespace: str, room_id: int, drawers: Sequence[NewDrawer], now: datetime
    ) -> list[Drawer]:
        """File the drawers whose turn the room lacks, with its next numbers."""
        made: list[int] = []
        with self._tx("filing the drawers") as conn:
            have = {
                int(r[0])
                for r in conn.execute(
                    "SELECT turn FROM palace_drawers WHERE namespace = ? AND room_id = ?",
                    (namespace, room_id),
                )
            }
            for item in drawers:
                if item.turn in have:
                    continue
                have.add(item.turn)
                number = conn.execute(
                    "UPDATE palace_rooms SET drawers_made = drawers_made + 1 "
                    "WHERE id = ? AND namespace = ? RETURNING drawers_made",
                    (room_id, namespace),
                ).fetchone()[0]
                made.append(
                    conn.execute(
                        "INSERT INTO palace_drawers(namespace, room_id, number, turn, memory_id, "
                        "role, tags, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                        (
                            namespace,
                            room_id,
                            number,
                            item.turn,
                            item.memory_id,
                            item.role,
                            json.dumps(list(item.tags), ensure_ascii=False),
                            ts(now),
                        ),
                    ).fetchone()[0]
                )
            rows = []
            for start in range(0, len(made), _CHUNK):
                part = made[start : start + _CHUNK]
                marks = ", ".join("?" for _ in part)
                rows += conn.execute(
                    f"SELECT {_DRAWER} WHERE d.id IN ({marks}) ORDER BY d.number", part
                ).fetchall()
        return [_drawer(r) for r in rows]

    def file_closet(
        self,
        namespace: str,
        room_id: int,
        *,
        slug: str,
        name: str,
        drawer_ids: Sequence[int],
        now: datetime,
    ) -> Closet:
        """The room's closet of ``slug`` (created if new), holding ``drawer_ids``."""
        with self._tx("filing the closet") as conn:
            found = self._target(conn, namespace, "closet", room_id, slug)
            if found is None:
                found = conn.execute(
                    "INSERT INTO palace_closets(namespace, room_id, name, slug, created_at) "
                    "VALUES (?, ?, ?, ?, ?) RETURNING id",
                    (namespace, room_id, name, slug, ts(now)),
                ).fetchone()[0]
            conn.executemany(
                "INSERT OR IGNORE INTO palace_closet_drawers(closet_id, drawer_id) "
                "SELECT ?, id FROM palace_drawers WHERE id = ? AND room_id = ?",
                [(found, d, room_id) for d in drawer_ids],
            )
            row = conn.execute(
                "SELECT c.id, c.namespace, c.room_id, c.name, c.slug, "
                "(SELECT count(*) FROM palace_closet_drawers x WHERE x.closet_id = c.id), "
                "c.created_at FROM palace_closets c WHERE c.id = ?",
                (found,),
            ).fetchone()
        return Closet(int(row[0]), row[1], int(row[2]), row[3], row[4], int(row[5]), _when(row[6]))

    def drawer(
        self, namespace: str, wing_number: int, room_number: int, drawer_number: int
    ) -> Drawer | None:
        """The drawer a pointer names."""
        with self._db.read("resolving the pointer") as conn:
            row = conn.execute(
                f"SELECT {_DRAWER} WHERE d.namespace = ? AND w.namespace = ? AND w.number = ? "
                "AND r.number = ? AND d.number = ?",
                (namespace, namespace, wing_number, room_number, drawer_number),
            ).fetchone()
        return None if row is None else _drawer(row)

    def pointers(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, Drawer]:
        """Each filed memory's first drawer."""
        out: dict[str, Drawer] = {}
        ids = list(dict.fromkeys(memory_ids))
        with self._db.read("reading the pointers") as conn:
            for start in range(0, len(ids), _CHUNK):
                part = ids[start : start + _CHUNK]
                marks = ", ".join("?" for _ in part)
                for row in conn.execute(
                    f"SELECT {_DRAWER} WHERE d.namespace = ? AND d.memory_id IN ({marks}) "
                    "ORDER BY d.id DESC",
                    (namespace, *part),
                ):
                    drawer = _drawer(row)
                    out[drawer.memory_id] = drawer  # lowest id written last, so it wins
        return out

    def tree(self, namespace: str, wing_id: int | None) -> list[WingNode]:
        """Wings with their rooms, drawer counts and closets."""
        one = "" if wing_id is None else " AND w.id = ?"
        args: tuple[Any, ...] = (namespace,) if wing_id is None else (namespace, wing_id)
        with self._db.read("reading the palace") as conn:
            wing_ids = [
                int(r[0])
                for r in conn.execute(
                    f"SELECT w.id FROM palace_wings w WHERE w.namespace = ?{one} ORDER BY w.number",
                    args,
                )
            ]
            wings = [self._wing_by_id(conn, w) for w in wing_ids]
            rooms = [
                (_room(r[:8]), int(r[8]))
                for r in conn.execute(
                    "SELECT r.id, r.namespace, r.wing_id, w.number, r.number, r.name, r.slug, "
                    "r.created_at, (SELECT count(*) FROM palace_drawers d WHERE d.room_id = r.id) "
                    "FROM palace_rooms r JOIN palace_wings w ON w.id = r.wing_id "
                    f"WHERE r.namespace = ?{one} ORDER BY r.number",
                    args,
                )
            ]
            closets: dict[int, list[Closet]] = {}
            for r in conn.execute(
                "SELECT c.id, c.namespace, c.room_id, c.name, c.slug, "
                "(SELECT count(*) FROM palace_closet_drawers x WHERE x.closet_id = c.id), "
                "c.created_at FROM palace_closets c JOIN palace_rooms r ON r.id = c.room_id "
                f"JOIN palace_wings w ON w.id = r.wing_id WHERE c.namespace = ?{one} "
                "ORDER BY c.id",
                args,
            ):
                closets.setdefault(int(r[2]), []).append(
                    Closet(int(r[0]), r[1], int(r[2]), r[3], r[4], int(r[5]), _when(r[6]))
                )
        return [
            WingNode(
                wing,
                tuple(
                    RoomNode(room, count, tuple(closets.get(room.id, ())))
                    for room, count in rooms
                    if room.wing_id == wing.id
                ),
            )
            for wing in wings
        ]

    def members(
        self, namespace: str, memory_ids: Sequence[str], *, wing_id: int, room_id: int | None
    ) -> set[str]:
        """Which of ``memory_ids`` are filed in the wing (or its room)."""
        found: set[str] = set()
        ids = list(dict.fromkeys(memory_ids))
        where = "r.wing_id = ?" if room_id is None else "r.wing_id = ? AND d.room_id = ?"
        place: tuple[int, ...] = (wing_id,) if room_id is None else (wing_id, room_id)
        with self._db.read("filtering by place") as conn:
            for start in range(0, len(ids), _CHUNK):
                part = ids[start : start + _CHUNK]
                marks = ", ".join("?" for _ in part)
                found.update(
                    r[0]
                    for r in conn.execute(
                        "SELECT DISTINCT d.memory_id FROM palace_drawers d "
                        "JOIN palace_rooms r ON r.id = d.room_id "
                        f"WHERE d.namespace = ? AND {where} AND d.memory_id IN ({marks})",
                        (namespace, *place, *part),
                    )
                )
        return found
