"""A PostgreSQL store in a schema of its own (docs/deploy-postgres.md, "Schema"): when
the search_path the URL sets names no schema, or leaves out the schema that holds the
vector extension, opening says so and what to put in the URL (new-user pass, round
four: both were a bare PostgreSQL error about SQL the user never wrote)."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest

from engram.config import PostgresConfig
from engram.errors import StoreError
from engram.store.postgres import PostgresStore

pytestmark = pytest.mark.postgres


@pytest.fixture
def fresh(pg_server: object) -> Iterator[str]:
    """A new database whose owner created the vector extension in ``public`` (as the
    docs' "Privileges" advice leaves it) and an empty schema ``engram``."""
    name = pg_server.create_database(migrated=False)  # type: ignore[attr-defined]
    url: str = pg_server.database_url(name)  # type: ignore[attr-defined]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector SCHEMA public")
        conn.execute("CREATE SCHEMA engram")
    try:
        yield url
    finally:
        pg_server.drop_database(name)  # type: ignore[attr-defined]


def open_at(url: str, search_path: str) -> PostgresStore:
    return PostgresStore(f"{url}?options=-csearch_path%3D{search_path}", PostgresConfig())


def test_a_search_path_without_a_schema_says_create_it(fresh: str) -> None:
    with pytest.raises(StoreError, match="no schema on the search_path") as raised:
        open_at(fresh, "nosuch")
    assert "CREATE SCHEMA" in str(raised.value)


def test_a_search_path_without_the_vector_extension_says_add_its_schema(fresh: str) -> None:
    with pytest.raises(StoreError, match="vector extension") as raised:
        open_at(fresh, "engram")
    assert "public" in str(raised.value) and "search_path" in str(raised.value)


def test_the_documented_search_path_opens_in_its_own_schema(fresh: str) -> None:
    open_at(fresh, "engram,public").close()
    with psycopg.connect(fresh) as conn:
        row = conn.execute("SELECT to_regclass('engram.memories'), to_regclass('public.memories')")
        assert row.fetchone() == ("engram.memories", None)
