"""``postgres.read_only`` (a read replica) opens without migrating; pointed at a
database engram has not migrated, or not fully, it now says so and what to do, where
every read failed with 'relation "vector_indexes" does not exist' (new-user pass,
round four)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import postgres_before
from engram.config import PostgresConfig
from engram.errors import MigrationError
from engram.store.postgres import PostgresStore

pytestmark = pytest.mark.postgres

READ_ONLY = PostgresConfig(read_only=True)


@pytest.fixture
def empty(pg_server: object) -> Iterator[str]:
    name = pg_server.create_database(migrated=False)  # type: ignore[attr-defined]
    try:
        yield pg_server.database_url(name)  # type: ignore[attr-defined]
    finally:
        pg_server.drop_database(name)  # type: ignore[attr-defined]


def test_read_only_on_an_unmigrated_database_says_migrate_it_first(empty: str) -> None:
    with pytest.raises(MigrationError, match="has no engram schema") as raised:
        PostgresStore(empty, READ_ONLY)
    assert "without postgres.read_only" in str(raised.value)


def test_read_only_on_an_older_schema_names_what_is_missing(pg_server: object) -> None:
    with (
        postgres_before(pg_server, "027_relations_by_type") as url,
        pytest.raises(MigrationError, match="lacks migration 027_relations_by_type"),
    ):
        PostgresStore(url, READ_ONLY)


def test_read_only_on_a_migrated_database_opens(pg_url: str) -> None:
    PostgresStore(pg_url, READ_ONLY).close()
