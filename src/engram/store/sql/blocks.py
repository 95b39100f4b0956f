"""Core memory blocks (FEATURES S5)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.store.protocols.blocks import BlockEdit, BlockWrite, CoreBlock
from engram.store.sql.session import Sql

_BLOCK = "namespace, label, value, char_limit, description, read_only, version, updated_at"
_EDIT = "id, namespace, label, op, old_value, new_value, actor, at"
_HISTORY = (
    "INSERT INTO core_block_history(namespace, label, op, old_value, new_value, actor, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


class SqlCoreBlocks:
    """``CoreBlockStore`` on either engine."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql
        self._d = sql.d

    def _block(self, row: Sequence[Any]) -> CoreBlock:
        return CoreBlock(
            namespace=row[0],
            label=row[1],
            value=row[2],
            char_limit=int(row[3]),
            description=row[4],
            read_only=bool(row[5]),
            version=int(row[6]),
            updated_at=self._d.time(row[7]),
        )

    def _edit(self, row: Sequence[Any]) -> BlockEdit:
        return BlockEdit(
            id=int(row[0]),
            namespace=row[1],
            label=row[2],
            op=row[3],
            old_value=row[4],
            new_value=row[5],
            actor=row[6],
            at=self._d.time(row[7]),
        )

    def get(self, namespace: str, label: str) -> CoreBlock | None:
        with self._sql.read("reading core blocks") as conn:
            row = conn.execute(
                f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = ? AND label = ?",
                (namespace, label),
            ).fetchone()
        return self._block(row) if row else None

    def blocks(self, namespace: str) -> list[CoreBlock]:
        with self._sql.read("reading core blocks") as conn:
            rows = conn.execute(
                f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = ? ORDER BY label",
                (namespace,),
            ).fetchall()
        return [self._block(r) for r in rows]

    def write(
        self, namespace: str, block: BlockWrite, *, expect_version: int, now: datetime
    ) -> CoreBlock | None:
        b = block
        at = self._d.ts(now)
        with self._sql.tx("writing a core block") as conn:
            # On PostgreSQL a concurrent writer waits on the row lock, then sees the new
            # version; SQLite's ``BEGIN IMMEDIATE`` serialises writers already.
            old = conn.execute(
                "SELECT value, version FROM core_blocks WHERE namespace = ? AND label = ?"
                + self._d.for_update,
                (namespace, b.label),
            ).fetchone()
            if (0 if old is None else int(old[1])) != expect_version:
                return None
            if old is None:
                conn.execute(
                    f"INSERT INTO core_blocks({_BLOCK}) VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
                    (namespace, b.label, b.value, b.char_limit, b.description, b.read_only, at),
                )
            else:
                conn.execute(
                    "UPDATE core_blocks SET value = ?, char_limit = ?, description = ?, "
                    "read_only = ?, version = version + 1, updated_at = ? "
                    "WHERE namespace = ? AND label = ?",
                    (b.value, b.char_limit, b.description, b.read_only, at, namespace, b.label),
                )
            conn.execute(
                _HISTORY,
                (namespace, b.label, b.op, None if old is None else old[0], b.value, b.actor, at),
            )
            row = conn.execute(
                f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = ? AND label = ?",
                (namespace, b.label),
            ).fetchone()
        assert row is not None  # written just above, in this transaction
        return self._block(row)

    def delete(
        self, namespace: str, label: str, *, actor: str | None, now: datetime
    ) -> CoreBlock | None:
        with self._sql.tx("writing a core block") as conn:
            row = conn.execute(
                f"DELETE FROM core_blocks WHERE namespace = ? AND label = ? RETURNING {_BLOCK}",
                (namespace, label),
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                _HISTORY, (namespace, label, "delete", row[2], None, actor, self._d.ts(now))
            )
        return self._block(row)

    def history(self, namespace: str, label: str, *, limit: int) -> list[BlockEdit]:
        with self._sql.read("reading core blocks") as conn:
            rows = conn.execute(
                f"SELECT {_EDIT} FROM core_block_history WHERE namespace = ? AND label = ? "
                "ORDER BY id DESC LIMIT ?",
                (namespace, label, limit),
            ).fetchall()
        return [self._edit(r) for r in rows]
