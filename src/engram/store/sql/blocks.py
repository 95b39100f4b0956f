"""Core memory blocks (FEATURES S5)."""

from __future__ import annotations

from datetime import datetime

from engram.store.protocols import CoreBlockStore
from engram.store.protocols.blocks import BlockEdit, BlockWrite, CoreBlock
from engram.store.sql.rows import columns, record
from engram.store.sql.session import SqlPart

_BLOCK = columns(CoreBlock)
_EDIT = columns(BlockEdit)
_HISTORY = (
    "INSERT INTO core_block_history(namespace, label, op, old_value, new_value, actor, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


class SqlCoreBlocks(SqlPart, CoreBlockStore):
    """``CoreBlockStore`` on either engine."""

    def get(self, namespace: str, label: str) -> CoreBlock | None:
        return self._keyed(
            CoreBlock, "core_blocks", (namespace, "label", label), "reading core blocks"
        )

    def blocks(self, namespace: str) -> list[CoreBlock]:
        return self._records(
            CoreBlock,
            f"SELECT {_BLOCK} FROM core_blocks WHERE namespace = ? ORDER BY label",
            (namespace,),
            what="reading core blocks",
        )

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
        return record(self._d, CoreBlock, row)

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
        return record(self._d, CoreBlock, row)

    def history(self, namespace: str, label: str, *, limit: int) -> list[BlockEdit]:
        return self._records(
            BlockEdit,
            f"SELECT {_EDIT} FROM core_block_history WHERE namespace = ? AND label = ? "
            "ORDER BY id DESC LIMIT ?",
            (namespace, label, limit),
            what="reading core blocks",
        )
