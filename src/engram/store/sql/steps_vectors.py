"""Schema steps of the vector rows added after the first ones (``steps.m003``)."""

from __future__ import annotations

from engram.store.sql.dialect import Conn, Dialect
from engram.store.sql.steps import script


def m036_bulk_vector_epoch(conn: Conn, d: Dialect) -> None:
    """PostgreSQL: the vector epoch's row trigger stands aside while the transaction's
    ``engram.bulk_vectors`` setting is on, so a bulk write (``engram.store.postgres.bulk``)
    moves the epoch once itself instead of once per row: 5,000 rows updated the one
    epoch row 5,000 times in one transaction, each update walking the versions the ones
    before it left. SQLite's per-row triggers cost nothing like that (one version)."""
    if d.name == "sqlite":
        return
    script(
        conn,
        d,
        """
        CREATE OR REPLACE FUNCTION engram_bump_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF current_setting('engram.bulk_vectors', true) = 'on' THEN
                RETURN NULL;
            END IF;
            UPDATE engram_meta SET value = value + 1 WHERE key = 'vector_epoch';
            RETURN NULL;
        END
        $$;
        """,
    )
