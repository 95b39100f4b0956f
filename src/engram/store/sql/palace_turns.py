"""The palace's turn index: what lining a mined request up with a room reads
(``palace.align``; dogfood round seven). A room's highest turn, its highest request
sequence, and the turns holding given content hashes, each one indexed read: the
memories' live-hash index finds the memory, the drawers' memory index its turns here.
"""

from __future__ import annotations

from collections.abc import Sequence

from engram.store.protocols.palace_turns import Mined, PalaceTurnStore
from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.session import SqlPart
from engram.store.sql.steps import script


class SqlPalaceTurns(SqlPart, PalaceTurnStore):
    """``PalaceTurnStore`` on either engine."""

    def mined(self, namespace: str, room_id: int) -> Mined:
        row = self._row(
            "SELECT (SELECT max(turn) FROM palace_drawers WHERE room_id = r.id), r.mined_seq "
            "FROM palace_rooms r WHERE r.namespace = ? AND r.id = ?",
            (namespace, room_id),
            what="reading the room",
        )
        if row is None:
            return Mined(None, None)
        return Mined(
            None if row[0] is None else int(row[0]), None if row[1] is None else int(row[1])
        )

    def holding(
        self, namespace: str, room_id: int, content_hashes: Sequence[str]
    ) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        hashes = list(dict.fromkeys(content_hashes))
        with self._sql.read("reading the room's turns") as conn:
            # The live-hash index finds each memory; the drawer index its turns here.
            rows = self._d.select_in(
                conn,
                "SELECT m.content_hash, d.turn FROM memories m "
                "JOIN palace_drawers d ON d.memory_id = m.id AND d.room_id = ? "
                "WHERE m.namespace = ? AND m.deleted_at IS NULL AND ",
                "m.content_hash",
                hashes,
                (room_id, namespace),
                " ORDER BY d.turn",
            )
        for content_hash, turn in rows:
            out.setdefault(str(content_hash), []).append(int(turn))
        return out


def m034_palace_mined_seq(conn: Conn, d: Dialect) -> None:
    """Each room's highest request sequence (a chat job's id): a job older than what is
    filed only fills gaps, so chat jobs run out of order never re-file an older reply."""
    script(conn, d, "ALTER TABLE palace_rooms ADD COLUMN mined_seq {bigint};")
