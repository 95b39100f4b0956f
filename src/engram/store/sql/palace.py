"""The palace: wings, rooms, closets and drawers (FEATURES G6, G7).

Every insert-or-find is written in PostgreSQL's race-safe form: look the slug up, and
if it is new insert it with ``ON CONFLICT ... DO NOTHING RETURNING id``, re-reading the
row a concurrent caller made first. SQLite's ``BEGIN IMMEDIATE`` serialises writers, so
there the conflict never happens and the form costs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, StoreError
from engram.store.protocols import PalaceStore
from engram.store.protocols.palace import (
    Closet,
    Drawer,
    NewDrawer,
    Room,
    RoomNode,
    Wing,
    WingNode,
)
from engram.store.sql.dialect import Conn
from engram.store.sql.rows import record
from engram.store.sql.session import SqlPart

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
_CLOSET = (
    "c.id, c.namespace, c.room_id, c.name, c.slug, "
    "(SELECT count(*) FROM palace_closet_drawers x WHERE x.closet_id = c.id), "
    "c.created_at FROM palace_closets c"
)
#: Where a wing, room or closet slug is looked up, within its parent.
_LEVELS = {
    "wing": ("palace_wings", "namespace = ? AND 0 = ?"),
    "room": ("palace_rooms", "namespace = ? AND wing_id = ?"),
    "closet": ("palace_closets", "namespace = ? AND room_id = ?"),
}


def _made(found: int | None) -> int:
    """The id an insert-or-find produced: a row that was just inserted or found."""
    if found is None:  # the conflicting row vanished before we read it: a concurrent purge
        raise StoreError("the palace changed while filing; try again")
    return int(found)


class SqlPalace(SqlPart, PalaceStore):
    """``PalaceStore`` on either engine."""

    # -- helpers ----------------------------------------------------------------------
    @staticmethod
    def _target(conn: Conn, namespace: str, level: str, parent_id: int, slug: str) -> int | None:
        """The id of the wing/room/closet whose slug or alias is ``slug``."""
        table, parent = _LEVELS[level]
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

    def _find(
        self, conn: Conn, namespace: str, level: str, parent_id: int, key: str | int
    ) -> int | None:
        """The id of the wing or room numbered ``key`` (an int) or named it (a slug or
        alias)."""
        if not isinstance(key, int):
            return self._target(conn, namespace, level, parent_id, key)
        table, parent = _LEVELS[level]
        row = conn.execute(
            f"SELECT id FROM {table} WHERE {parent} AND number = ?", (namespace, parent_id, key)
        ).fetchone()
        return None if row is None else int(row[0])

    def _insert(
        self, conn: Conn, at: tuple[str, str, int, str], sql: str, params: tuple[Any, ...]
    ) -> int:
        """The id of the wing, room or closet ``sql`` inserts (``ON CONFLICT DO NOTHING
        RETURNING id``), or of the one a concurrent caller made first; ``at`` is its
        (namespace, level, parent id, slug)."""
        row = conn.execute(sql, params).fetchone()
        return _made(row[0] if row else self._target(conn, *at))

    @staticmethod
    def _next_number(conn: Conn, table: str, counter: str, parent_id: int, namespace: str) -> Any:
        """The next number under a wing or room: its ``counter`` column counts up, so a
        number is never given twice, even after a delete."""
        return conn.execute(
            f"UPDATE {table} SET {counter} = {counter} + 1 "
            f"WHERE id = ? AND namespace = ? RETURNING {counter}",
            (parent_id, namespace),
        ).fetchone()[0]

    def _wing_by_id(self, conn: Conn, wing_id: int) -> Wing:
        row = conn.execute(f"SELECT {_WING} FROM palace_wings WHERE id = ?", (wing_id,)).fetchone()
        aliases = conn.execute(
            "SELECT alias FROM palace_aliases WHERE level = 'wing' AND target_id = ? "
            "ORDER BY alias",
            (wing_id,),
        ).fetchall()
        return record(self._d, Wing, (*row, tuple(a[0] for a in aliases)), aliases=tuple)

    def _room_by_id(self, conn: Conn, room_id: int) -> Room:
        row = conn.execute(f"SELECT {_ROOM} WHERE r.id = ?", (room_id,)).fetchone()
        return record(self._d, Room, row)

    # -- wings ------------------------------------------------------------------------
    def ensure_wing(
        self, namespace: str, *, slug: str, name: str, kind: str, now: datetime
    ) -> Wing:
        with self._sql.tx("filing the wing") as conn:
            found = self._target(conn, namespace, "wing", 0, slug)
            if found is None:
                conn.execute(
                    "INSERT INTO palace_counters(namespace, wings) VALUES (?, 1) "
                    "ON CONFLICT(namespace) DO UPDATE SET wings = palace_counters.wings + 1",
                    (namespace,),
                )
                number = conn.execute(
                    "SELECT wings FROM palace_counters WHERE namespace = ?", (namespace,)
                ).fetchone()[0]
                # A concurrent caller made it first (its number wins; this one is skipped).
                found = self._insert(
                    conn,
                    (namespace, "wing", 0, slug),
                    "INSERT INTO palace_wings(namespace, number, kind, name, slug, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (namespace, slug) DO NOTHING RETURNING id",
                    (namespace, number, kind, name, slug, self._d.ts(now)),
                )
            return self._wing_by_id(conn, found)

    def wing(self, namespace: str, key: str | int) -> Wing | None:
        with self._sql.read("reading the wing") as conn:
            found = self._find(conn, namespace, "wing", 0, key)
            return None if found is None else self._wing_by_id(conn, found)

    def add_alias(
        self, namespace: str, level: str, parent_id: int, target_id: int, alias: str
    ) -> bool:
        with self._sql.tx("adding the alias") as conn:
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
        with self._sql.tx("filing the room") as conn:
            found = self._target(conn, namespace, "room", wing_id, slug)
            if found is None:
                number = self._next_number(conn, "palace_wings", "rooms_made", wing_id, namespace)
                found = self._insert(
                    conn,
                    (namespace, "room", wing_id, slug),
                    "INSERT INTO palace_rooms(namespace, wing_id, number, name, slug, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (wing_id, slug) DO NOTHING RETURNING id",
                    (namespace, wing_id, number, name, slug, self._d.ts(now)),
                )
            return self._room_by_id(conn, found)

    def room(self, namespace: str, wing_id: int, key: str | int) -> Room | None:
        with self._sql.read("reading the room") as conn:
            found = self._find(conn, namespace, "room", wing_id, key)
            return None if found is None else self._room_by_id(conn, found)

    # -- drawers and closets ----------------------------------------------------------
    def drawers(self, namespace: str, room_id: int, turns: slice | None = None) -> list[Drawer]:
        span = ""
        params: list[Any] = [namespace, room_id]
        bounds = (turns.start, turns.stop) if turns is not None else (None, None)
        for op, bound in zip((">=", "<"), bounds, strict=True):
            if bound is not None:
                span += f" AND d.turn {op} ?"
                params.append(bound)
        return self._records(
            Drawer,
            f"SELECT {_DRAWER} WHERE d.namespace = ? AND d.room_id = ?{span} ORDER BY d.number",
            params,
            what="reading the drawers",
        )

    def file_drawers(
        self,
        namespace: str,
        room_id: int,
        drawers: Sequence[NewDrawer],
        now: datetime,
        *,
        from_turn: int | None = None,
        sequence: int | None = None,
    ) -> list[Drawer]:
        d = self._d
        made: list[int] = []
        with self._sql.tx("filing the drawers") as conn:
            if sequence is not None:
                conn.execute(
                    "UPDATE palace_rooms SET mined_seq = ? WHERE id = ? AND namespace = ? "
                    "AND (mined_seq IS NULL OR mined_seq < ?)",
                    (sequence, room_id, namespace, sequence),
                )
            if from_turn is not None:  # the conversation branched there: unfile the old branch
                conn.execute(
                    "DELETE FROM palace_drawers WHERE namespace = ? AND room_id = ? AND turn >= ?",
                    (namespace, room_id, from_turn),
                )
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
                number = self._next_number(conn, "palace_rooms", "drawers_made", room_id, namespace)
                row = conn.execute(
                    "INSERT INTO palace_drawers(namespace, room_id, number, turn, memory_id, "
                    f"role, tags, created_at) VALUES (?, ?, ?, ?, ?, ?, {d.json}, ?) "
                    "ON CONFLICT (room_id, turn) DO NOTHING RETURNING id",
                    (
                        namespace,
                        room_id,
                        number,
                        item.turn,
                        item.memory_id,
                        item.role,
                        d.dumps(list(item.tags)),
                        d.ts(now),
                    ),
                ).fetchone()
                if row is not None:  # None: a concurrent miner filed this turn first
                    made.append(row[0])
            # ``made`` rises with the drawer numbers, so the slices come back in order.
            rows = d.select_in(
                conn, f"SELECT {_DRAWER} WHERE ", "d.id", made, (), " ORDER BY d.number"
            )
        return [record(d, Drawer, r) for r in rows]

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
        with self._sql.tx("filing the closet") as conn:
            found = self._target(conn, namespace, "closet", room_id, slug)
            if found is None:
                found = self._insert(
                    conn,
                    (namespace, "closet", room_id, slug),
                    "INSERT INTO palace_closets(namespace, room_id, name, slug, created_at) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (room_id, slug) DO NOTHING RETURNING id",
                    (namespace, room_id, name, slug, self._d.ts(now)),
                )
            # SQLite needs the WHERE before ON CONFLICT to parse an upsert after a SELECT.
            conn.executemany(
                "INSERT INTO palace_closet_drawers(closet_id, drawer_id) "
                "SELECT ?, id FROM palace_drawers WHERE id = ? AND room_id = ? "
                "ON CONFLICT DO NOTHING",
                [(found, drawer_id, room_id) for drawer_id in drawer_ids],
            )
            row = conn.execute(f"SELECT {_CLOSET} WHERE c.id = ?", (found,)).fetchone()
        return record(self._d, Closet, row)

    def drawer(
        self, namespace: str, wing_number: int, room_number: int, drawer_number: int
    ) -> Drawer | None:
        return self._record(
            Drawer,
            f"SELECT {_DRAWER} WHERE d.namespace = ? AND w.namespace = ? AND w.number = ? "
            "AND r.number = ? AND d.number = ?",
            (namespace, namespace, wing_number, room_number, drawer_number),
            what="resolving the pointer",
        )

    def pointers(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, Drawer]:
        out: dict[str, Drawer] = {}
        ids = list(dict.fromkeys(memory_ids))
        with self._sql.read("reading the pointers") as conn:
            head = f"SELECT {_DRAWER} WHERE d.namespace = ? AND "
            rows = self._d.select_in(
                conn, head, "d.memory_id", ids, (namespace,), " ORDER BY d.id DESC"
            )
        for row in rows:
            drawer = record(self._d, Drawer, row)
            out[drawer.memory_id] = drawer  # lowest id written last, so it wins
        return out

    def tree(self, namespace: str, wing_id: int | None) -> list[WingNode]:
        one = "" if wing_id is None else " AND w.id = ?"
        args: tuple[Any, ...] = (namespace,) if wing_id is None else (namespace, wing_id)
        with self._sql.read("reading the palace") as conn:
            wing_ids = [
                int(r[0])
                for r in conn.execute(
                    f"SELECT w.id FROM palace_wings w WHERE w.namespace = ?{one} ORDER BY w.number",
                    args,
                )
            ]
            wings = [self._wing_by_id(conn, w) for w in wing_ids]
            rooms = [
                (record(self._d, Room, r[:8]), int(r[8]))
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
                f"SELECT {_CLOSET} JOIN palace_rooms r ON r.id = c.room_id "
                f"JOIN palace_wings w ON w.id = r.wing_id WHERE c.namespace = ?{one} "
                "ORDER BY c.id",
                args,
            ):
                closets.setdefault(int(r[2]), []).append(record(self._d, Closet, r))
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
        ids = list(dict.fromkeys(memory_ids))
        where = "r.wing_id = ?" if room_id is None else "r.wing_id = ? AND d.room_id = ?"
        place: tuple[int, ...] = (wing_id,) if room_id is None else (wing_id, room_id)
        with self._sql.read("filtering by place") as conn:
            rows = self._d.select_in(
                conn,
                "SELECT DISTINCT d.memory_id FROM palace_drawers d "
                f"JOIN palace_rooms r ON r.id = d.room_id WHERE d.namespace = ? AND {where} AND ",
                "d.memory_id",
                ids,
                (namespace, *place),
            )
        return {r[0] for r in rows}
