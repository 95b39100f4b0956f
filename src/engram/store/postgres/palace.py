"""The palace in the PostgreSQL store: wings, rooms, closets and drawers (FEATURES G6, G7)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from engram.errors import InvalidInputError, StoreError
from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.palace import (
    Closet,
    Drawer,
    NewDrawer,
    Room,
    RoomNode,
    Wing,
    WingNode,
)

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


def _when(value: Any) -> datetime:
    return codec.utc(value)


def _made(found: int | None) -> int:
    """The id an insert-or-find produced: a row that was just inserted or found."""
    if found is None:  # the conflicting row vanished before we read it: a concurrent purge
        raise StoreError("the palace changed while filing; try again")
    return int(found)


def _tags(value: Any) -> tuple[str, ...]:
    return tuple(json.loads(value) if isinstance(value, str) else value)


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
        tags=_tags(row[10]),
        created_at=_when(row[11]),
    )


class PgPalace:
    """The PostgreSQL implementation of ``PalaceStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # psycopg types rows as ``Any | None``; every fetch below reads a row that exists.
    @contextmanager
    def _tx(self, what: str) -> Iterator[Any]:
        with self._db.tx(what) as conn:
            yield conn

    @contextmanager
    def _read(self, what: str) -> Iterator[Any]:
        with self._db.read(what) as conn:
            yield conn

    # -- helpers ----------------------------------------------------------------------
    @staticmethod
    def _target(conn: Any, namespace: str, level: str, parent_id: int, slug: str) -> int | None:
        """The id of the wing/room/closet whose slug or alias is ``slug``."""
        table, parent = {
            "wing": ("palace_wings", "namespace = %s AND 0 = %s"),
            "room": ("palace_rooms", "namespace = %s AND wing_id = %s"),
            "closet": ("palace_closets", "namespace = %s AND room_id = %s"),
        }[level]
        row = conn.execute(
            f"SELECT id FROM {table} WHERE {parent} AND slug = %s", (namespace, parent_id, slug)
        ).fetchone()
        if row is None:
            row = conn.execute(
                "SELECT target_id FROM palace_aliases WHERE namespace = %s AND level = %s "
                "AND parent_id = %s AND alias = %s",
                (namespace, level, parent_id, slug),
            ).fetchone()
        return None if row is None else int(row[0])

    def _wing_by_id(self, conn: Any, wing_id: int) -> Wing:
        row = conn.execute(f"SELECT {_WING} FROM palace_wings WHERE id = %s", (wing_id,)).fetchone()
        aliases = conn.execute(
            "SELECT alias FROM palace_aliases WHERE level = 'wing' AND target_id = %s "
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
    def _room_by_id(conn: Any, room_id: int) -> Room:
        return _room(conn.execute(f"SELECT {_ROOM} WHERE r.id = %s", (room_id,)).fetchone())

    # -- wings ------------------------------------------------------------------------
    def ensure_wing(
        self, namespace: str, *, slug: str, name: str, kind: str, now: datetime
    ) -> Wing:
        """The wing of ``slug`` (slug or alias), created with the next number if new."""
        with self._tx("filing the wing") as conn:
            found = self._target(conn, namespace, "wing", 0, slug)
            if found is None:
                conn.execute(
                    "INSERT INTO palace_counters(namespace, wings) VALUES (%s, 1) "
                    "ON CONFLICT(namespace) DO UPDATE SET wings = palace_counters.wings + 1",
                    (namespace,),
                )
                number = conn.execute(
                    "SELECT wings FROM palace_counters WHERE namespace = %s", (namespace,)
                ).fetchone()[0]
                row = conn.execute(
                    "INSERT INTO palace_wings(namespace, number, kind, name, slug, created_at) "
                    "VALUES (%s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (namespace, slug) DO NOTHING RETURNING id",
                    (namespace, number, kind, name, slug, now),
                ).fetchone()
                # A concurrent caller made it first (its number wins; this one is skipped).
                found = row[0] if row else self._target(conn, namespace, "wing", 0, slug)
            return self._wing_by_id(conn, _made(found))

    def wing(self, namespace: str, key: str | int) -> Wing | None:
        """The wing by number or by slug/alias."""
        with self._read("reading the wing") as conn:
            if isinstance(key, int):
                row = conn.execute(
                    "SELECT id FROM palace_wings WHERE namespace = %s AND number = %s",
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
                "VALUES (%s, %s, %s, %s, %s)",
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
                    "WHERE id = %s AND namespace = %s RETURNING rooms_made",
                    (wing_id, namespace),
                ).fetchone()[0]
                row = conn.execute(
                    "INSERT INTO palace_rooms(namespace, wing_id, number, name, slug, created_at) "
                    "VALUES (%s, %s, %s, %s, %s, %s) "
                    "ON CONFLICT (wing_id, slug) DO NOTHING RETURNING id",
                    (namespace, wing_id, number, name, slug, now),
                ).fetchone()
                found = row[0] if row else self._target(conn, namespace, "room", wing_id, slug)
            return self._room_by_id(conn, _made(found))

    def room(self, namespace: str, wing_id: int, key: str | int) -> Room | None:
        """The wing's room by number or by slug/alias."""
        with self._read("reading the room") as conn:
            if isinstance(key, int):
                row = conn.execute(
                    "SELECT id FROM palace_rooms WHERE namespace = %s AND wing_id = %s "
                    "AND number = %s",
                    (namespace, wing_id, key),
                ).fetchone()
                found = None if row is None else int(row[0])
            else:
                found = self._target(conn, namespace, "room", wing_id, key)
            return None if found is None else self._room_by_id(conn, found)

    # -- drawers and closets ----------------------------------------------------------
    def drawers(self, namespace: str, room_id: int) -> list[Drawer]:
        """The room's drawers by number."""
        with self._read("reading the drawers") as conn:
            rows = conn.execute(
                f"SELECT {_DRAWER} WHERE d.namespace = %s AND d.room_id = %s ORDER BY d.number",
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
                    "SELECT turn FROM palace_drawers WHERE namespace = %s AND room_id = %s",
                    (namespace, room_id),
                )
            }
            for item in drawers:
                if item.turn in have:
                    continue
                have.add(item.turn)
                number = conn.execute(
                    "UPDATE palace_rooms SET drawers_made = drawers_made + 1 "
                    "WHERE id = %s AND namespace = %s RETURNING drawers_made",
                    (room_id, namespace),
                ).fetchone()[0]
                row = conn.execute(
                    "INSERT INTO palace_drawers(namespace, room_id, number, turn, memory_id, "
                    "role, tags, created_at) VALUES (%s, %s, %s, %s, %s, %s, %s::json, %s) "
                    "ON CONFLICT (room_id, turn) DO NOTHING RETURNING id",
                    (
                        namespace,
                        room_id,
                        number,
                        item.turn,
                        item.memory_id,
                        item.role,
                        codec.dumps(list(item.tags)),
                        now,
                    ),
                ).fetchone()
                if row is not None:  # None: a concurrent miner filed this turn first
                    made.append(row[0])
            rows = conn.execute(
                f"SELECT {_DRAWER} WHERE d.id = ANY(%s) ORDER BY d.number", (made,)
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
                row = conn.execute(
                    "INSERT INTO palace_closets(namespace, room_id, name, slug, created_at) "
                    "VALUES (%s, %s, %s, %s, %s) "
                    "ON CONFLICT (room_id, slug) DO NOTHING RETURNING id",
                    (namespace, room_id, name, slug, now),
                ).fetchone()
                found = _made(
                    row[0] if row else self._target(conn, namespace, "closet", room_id, slug)
                )
            conn.cursor().executemany(
                "INSERT INTO palace_closet_drawers(closet_id, drawer_id) "
                "SELECT %s, id FROM palace_drawers WHERE id = %s AND room_id = %s "
                "ON CONFLICT DO NOTHING",
                [(found, d, room_id) for d in drawer_ids],
            )
            row = conn.execute(
                "SELECT c.id, c.namespace, c.room_id, c.name, c.slug, "
                "(SELECT count(*) FROM palace_closet_drawers x WHERE x.closet_id = c.id), "
                "c.created_at FROM palace_closets c WHERE c.id = %s",
                (found,),
            ).fetchone()
        return Closet(int(row[0]), row[1], int(row[2]), row[3], row[4], int(row[5]), _when(row[6]))

    def drawer(
        self, namespace: str, wing_number: int, room_number: int, drawer_number: int
    ) -> Drawer | None:
        """The drawer a pointer names."""
        with self._read("resolving the pointer") as conn:
            row = conn.execute(
                f"SELECT {_DRAWER} WHERE d.namespace = %s AND w.namespace = %s AND w.number = %s "
                "AND r.number = %s AND d.number = %s",
                (namespace, namespace, wing_number, room_number, drawer_number),
            ).fetchone()
        return None if row is None else _drawer(row)

    def pointers(self, namespace: str, memory_ids: Sequence[str]) -> dict[str, Drawer]:
        """Each filed memory's first drawer."""
        out: dict[str, Drawer] = {}
        ids = list(dict.fromkeys(memory_ids))
        with self._read("reading the pointers") as conn:
            for row in conn.execute(
                f"SELECT {_DRAWER} WHERE d.namespace = %s AND d.memory_id = ANY(%s) "
                "ORDER BY d.id DESC",
                (namespace, ids),
            ):
                drawer = _drawer(row)
                out[drawer.memory_id] = drawer  # lowest id written last, so it wins
        return out

    def tree(self, namespace: str, wing_id: int | None) -> list[WingNode]:
        """Wings with their rooms, drawer counts and closets."""
        one = "" if wing_id is None else " AND w.id = %s"
        args: tuple[Any, ...] = (namespace,) if wing_id is None else (namespace, wing_id)
        with self._read("reading the palace") as conn:
            wing_ids = [
                int(r[0])
                for r in conn.execute(
                    "SELECT w.id FROM palace_wings w "
                    f"WHERE w.namespace = %s{one} ORDER BY w.number",
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
                    f"WHERE r.namespace = %s{one} ORDER BY r.number",
                    args,
                )
            ]
            closets: dict[int, list[Closet]] = {}
            for r in conn.execute(
                "SELECT c.id, c.namespace, c.room_id, c.name, c.slug, "
                "(SELECT count(*) FROM palace_closet_drawers x WHERE x.closet_id = c.id), "
                "c.created_at FROM palace_closets c JOIN palace_rooms r ON r.id = c.room_id "
                f"JOIN palace_wings w ON w.id = r.wing_id WHERE c.namespace = %s{one} "
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
        where = "r.wing_id = %s" if room_id is None else "r.wing_id = %s AND d.room_id = %s"
        place: tuple[int, ...] = (wing_id,) if room_id is None else (wing_id, room_id)
        with self._read("filtering by place") as conn:
            found.update(
                r[0]
                for r in conn.execute(
                    "SELECT DISTINCT d.memory_id FROM palace_drawers d "
                    "JOIN palace_rooms r ON r.id = d.room_id "
                    f"WHERE d.namespace = %s AND {where} AND d.memory_id = ANY(%s)",
                    (namespace, *place, ids),
                )
            )
        return found
