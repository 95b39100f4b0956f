"""Core memory blocks in the PostgreSQL store (FEATURES S5)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from engram.store.postgres import codec
from engram.store.postgres.db import Database
from engram.store.protocols.blocks import BlockEdit, BlockWrite, CoreBlock

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
        updated_at=codec.utc(row[7]),
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
        at=codec.utc(row[7]),
    )


class PgCoreBlocks:
    """The PostgreSQL implementation of ``CoreBlockStore``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def get(self, namespace: str, label: str) -> CoreBlock | None:
        with self._db.read("reading core blocks") as conn:
            row = conn.execute(
                f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = %s AND label = %s",
                (namespace, label),
            ).fetchone()
        return _block(row) if row else None

    def blocks(self, namespace: str) -> list[CoreBlock]:
        with self._db.read("reading core blocks") as conn:
            rows = conn.execute(
                f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = %s ORDER BY label",
                (namespace,),
            ).fetchall()
        return [_block(r) for r in rows]

    def write(
        self, namespace: str, block: BlockWrite, *, expect_version: int, now: datetime
    ) -> CoreBlock | None:
        b = block
        with self._db.tx("writing a core block") as conn:
            old = conn.execute(
                "SELECT value, version FROM core_blocks WHERE namespace = %s AND label = %s "
                "FOR UPDATE",  # a concurrent writer waits, then sees the new version
                (namespace, b.label),
            ).fetchone()
            if (0 if old is None else int(old[1])) != expect_version:
                return None
            if old is None:
                conn.execute(
                    f"INSERT INTO core_blocks({_BLOCK}) VALUES (%s, %s, %s, %s, %s, %s, 1, %s)",
                    (namespace, b.label, b.value, b.char_limit, b.description, b.read_only, now),
                )
            else:
                conn.execute(
                    "UPDATE core_blocks SET value = %s, char_limit = %s, description = %s, "
                    "read_only = %s, version = version + 1, updated_at = %s "
                    "WHERE namespace = %s AND label = %s",
                    (b.value, b.char_limit, b.description, b.read_only, now, namespace, b.label),
                )
            conn.execute(
                "INSERT INTO core_block_history(namespace, label, op, old_value, new_value, "
                "actor, at) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (namespace, b.label, b.op, None if old is None else old[0], b.value, b.actor, now),
            )
            row = conn.execute(
                f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = %s AND label = %s",
                (namespace, b.label),
            ).fetchone()
        assert row is not None  # written just above, in this transaction
        return _block(row)

    def delete(
        self, namespace: str, label: str, *, actor: str | None, now: datetime
    ) -> CoreBlock | None:
        with self._db.tx("writing a core block") as conn:
            row = conn.execute(
                f"DELETE FROM core_blocks WHERE namespace = %s AND label = %s RETURNING {_BLOCK}",
                (namespace, label),
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                "INSERT INTO core_block_history(namespace, label, op, old_value, new_value, "
                "actor, at) VALUES (%s, %s, 'delete', %s, NULL, %s, %s)",
                (namespace, label, row[2], actor, now),
            )
        return _block(row)

    def history(self, namespace: str, label: str, *, limit: int) -> list[BlockEdit]:
        with self._db.read("reading core blocks") as conn:
            rows = conn.execute(
                f"SELECT {_EDIT} FROM core_block_history WHERE namespace = %s AND label = %s "
                "ORDER BY id DESC LIMIT %s",
                (namespace, label, limit),
            ).fetchall()
        return [_edit(r) for r in rows]
