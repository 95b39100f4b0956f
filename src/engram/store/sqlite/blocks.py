"""Core memory blocks in the SQLite store (FEATURES S5)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.store.protocols.blocks import BlockEdit, BlockWrite, CoreBlock
from engram.store.sqlite.codec import ts
from engram.store.sqlite.db import Database

_BLOCK = "namespace, label, value, char_limit, description, read_only, version, updated_at"
_EDIT = "id, namespace, label, op, old_value, new_value, actor, at"


def _block(row: Sequence[Any]) -> CoreBlock:
    return CoreBlock(
        namespace=row[0],
        label=row[1],
        value=row[2],
        char_limit=int(row[3]),
        description=row[4],
        read_only=bool(row[5]),
        version=int(row[6]),
        updated_at=datetime.fromisoformat(row[7]),
    )


def _edit(row: Sequence[Any]) -> BlockEdit:
    return BlockEdit(
        id=int(row[0]),
        namespace=row[1],
        label=row[2],
        op=row[3],
        old_value=row[4],
        new_value=row[5],
        actor=row[6],
        at=datetime.fromisoformat(row[7]),
    )


class SQLiteCoreBlocks:
    """The SQLite implementation of ``CoreBlockStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def get(self, namespace: str, label: str) -> CoreBlock | None:
        with self._db.read() as conn:
            row = conn.execute(
                f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = ? AND label = ?",
                (namespace, label),
            ).fetchone()
        return _block(row) if row else None

    def blocks(self, namespace: str) -> list[CoreBlock]:
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = ? ORDER BY label",
                (namespace,),
            ).fetchall()
        return [_block(r) for r in rows]

    def write(
        self, namespace: str, block: BlockWrite, *, expect_version: int, now: datetime
    ) -> CoreBlock | None:
        b = block
        with self._db.tx() as conn:
            old = conn.execute(
                "SELECT value, version FROM core_blocks WHERE namespace = ? AND label = ?",
                (namespace, b.label),
            ).fetchone()
            if (0 if old is None else int(old[1])) != expect_version:
                return None
            if old is None:
                conn.execute(
                    f"INSERT INTO core_blocks({_BLOCK}) VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
                    (
                        namespace,
                        b.label,
                        b.value,
                        b.char_limit,
                        b.description,
                        b.read_only,
                        ts(now),
                    ),
                )
            else:
                conn.execute(
                    "UPDATE core_blocks SET value = ?, char_limit = ?, description = ?, "
                    "read_only = ?, version = version + 1, updated_at = ? "
                    "WHERE namespace = ? AND label = ?",
                    (
                        b.value,
                        b.char_limit,
                        b.description,
                        b.read_only,
                        ts(now),
                        namespace,
                        b.label,
                    ),
                )
            conn.execute(
                "INSERT INTO core_block_history(namespace, label, op, old_value, new_value, "
                "actor, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    namespace,
                    b.label,
                    b.op,
                    None if old is None else old[0],
                    b.value,
                    b.actor,
                    ts(now),
                ),
            )
            row = conn.execute(
                f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = ? AND label = ?",
                (namespace, b.label),
            ).fetchone()
        return _block(row)

    def delete(
        self, namespace: str, label: str, *, actor: str | None, now: datetime
    ) -> CoreBlock | None:
        with self._db.tx() as conn:
            row = conn.execute(
                f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = ? AND label = ?",
                (namespace, label),
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                "DELETE FROM core_blocks WHERE namespace = ? AND label = ?", (namespace, label)
            )
            conn.execute(
                "INSERT INTO core_block_history(namespace, label, op, old_value, new_value, "
                "actor, at) VALUES (?, ?, 'delete', ?, NULL, ?, ?)",
                (namespace, label, row[2], actor, ts(now)),
            )
        return _block(row)

    def history(self, namespace: str, label: str, *, limit: int) -> list[BlockEdit]:
        with self._db.read() as conn:
            rows = conn.execute(
                f"SELECT {_EDIT} FROM core_block_history WHERE namespace = ? AND label = ? "
                "ORDER BY id DESC LIMIT ?",
                (namespace, label, limit),
            ).fetchall()
        return [_edit(r) for r in rows]
