"""PostgreSQL's BM25 statistics (``keyword_terms``, issue 29): the triggers keep each
namespace's document frequencies and row count equal to a recount through every kind
of write, concurrent writers of one namespace neither deadlock nor lose a count, a
database made before the table gets it filled, keyword search ranks exactly as
counting the matches did, and its scores are BM25 of each row's frequencies."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.store.postgres.keyword import COMMON, MEMORIES, RANK_WEIGHTS, search
from engram.store.protocols.keyword import K1, B, idf
from engram.validate import build_record
from pg_steps import undo_keyword_bm25

pytestmark = pytest.mark.postgres

#: What the triggers should hold: each source's rows recounted from scratch, and their
#: tokens (``' tokens'``, 032).
RECOUNT = """
    SELECT 'memories', namespace, t, count(*) FROM memories,
        unnest(array_prepend('', coalesce(tsvector_to_array(search), '{}'))) t
    WHERE deleted_at IS NULL GROUP BY 1, 2, 3
    UNION ALL
    SELECT 'hints', namespace, t, count(*) FROM memory_hints,
        unnest(array_prepend('', tsvector_to_array(search))) t GROUP BY 1, 2, 3
    UNION ALL
    SELECT 'memories', namespace, ' tokens', sum(engram_search_length(search)) FROM memories
    WHERE deleted_at IS NULL GROUP BY 1, 2, 3 HAVING sum(engram_search_length(search)) <> 0
    UNION ALL
    SELECT 'hints', namespace, ' tokens', sum(engram_search_length(search)) FROM memory_hints
    GROUP BY 1, 2, 3 HAVING sum(engram_search_length(search)) <> 0
"""


def kept(url: str) -> set[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return {
            tuple(r)
            for r in conn.execute(
                "SELECT source, namespace, term, df FROM keyword_terms WHERE df <> 0"
            )
        }


def recounted(url: str) -> set[tuple[Any, ...]]:
    with psycopg.connect(url) as conn:
        return {tuple(r) for r in conn.execute(RECOUNT)}


@pytest.fixture
def pg_mem(pg_url: str, config: Config) -> Iterator[Memory]:
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
        yield mem


def test_the_statistics_follow_every_write(pg_mem: Memory, pg_url: str) -> None:
    a = pg_mem.add_many(
        ["Caroline paints sunsets", "Melanie runs a charity race", "Caroline's dog"],
        namespace="a",
    )
    b = pg_mem.add("Caroline paints in namespace b", namespace="b")
    pg_mem.store.hints.put("a", a[0].id, ["What does Caroline paint?"], model="t")
    assert kept(pg_url) == recounted(pg_url)
    assert ("memories", "a", "carolin", 2) in kept(pg_url)
    assert ("memories", "a", "", 3) in kept(pg_url)
    assert ("hints", "a", "", 1) in kept(pg_url)
    pg_mem.update(a[1].id, "Melanie paints pottery", namespace="a")  # new text
    pg_mem.update(a[2].id, namespace="a", importance=0.9)  # the text stays
    pg_mem.delete(a[0].id, namespace="a")  # tombstone: leaves the counts
    pg_mem.store.hints.put("a", a[1].id, ["Who paints pottery?"], model="t")
    assert kept(pg_url) == recounted(pg_url)
    assert ("memories", "a", "", 2) in kept(pg_url)
    pg_mem.purge(namespace="a")  # the row and its hints go
    pg_mem.delete(b.id, namespace="b")
    assert kept(pg_url) == recounted(pg_url)
    assert ("memories", "b", "", 1) not in kept(pg_url)


def test_concurrent_writers_of_one_namespace_keep_exact_counts(pg_mem: Memory, pg_url: str) -> None:
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(6):  # several memories per transaction, words in any order
                pg_mem.add_many(
                    [f"zebra apple note {n} {i}", f"apple mango zebra {n} {i}", f"mango {n} {i}"],
                    namespace="shared",
                )
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert kept(pg_url) == recounted(pg_url)
    assert ("memories", "shared", "zebra", 48) in kept(pg_url)


def test_an_old_database_gets_its_statistics(pg_url: str, config: Config) -> None:
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
        mem.add_many(["Caroline paints sunsets", "Caroline runs"], namespace="a")
        before = mem.store.keyword.search("a", '"caroline" OR "sunset"', 10)
    with psycopg.connect(pg_url, autocommit=True) as conn:  # as before the step
        undo_keyword_bm25(conn)  # 032 changed 026's table and functions: it runs again
        conn.execute("DROP TABLE keyword_terms, keyword_terms_pending")
        conn.execute("DROP FUNCTION engram_memories_terms, engram_hints_terms CASCADE")
        conn.execute("DROP FUNCTION engram_terms_flush")
        conn.execute("DELETE FROM schema_migrations WHERE name = '026_keyword_terms'")
    with Memory(pg_url, config=config, embedder=HashEmbedder()) as mem:
        with psycopg.connect(pg_url, autocommit=True) as conn:  # the step ran again
            row = conn.execute(
                "SELECT count(*) FROM schema_migrations WHERE name = '026_keyword_terms'"
            ).fetchone()
        assert row == (1,)
        assert mem.store.keyword.search("a", '"caroline" OR "sunset"', 10) == before
    assert kept(pg_url) == recounted(pg_url)


def test_a_transaction_finds_what_it_wrote_and_a_rollback_counts_nothing(
    pg_mem: Memory, pg_url: str
) -> None:
    pg_mem.add("Caroline paints sunsets", namespace="a")
    store = pg_mem.store

    class Undo(Exception):
        pass

    with pytest.raises(Undo), store.transaction():
        store.memories.insert([build_record("a quokka smiles", namespace="a", max_chars=1000)])
        found = store.keyword.search("a", '"quokka"', 10)
        assert len(found) == 1 and found[0][1] > 0  # its counts are still pending
        raise Undo
    assert kept(pg_url) == recounted(pg_url)
    assert store.keyword.search("a", '"quokka"', 10) == []
    with store.transaction():
        store.memories.insert([build_record("a quokka smiles", namespace="a", max_chars=1000)])
    assert [round(s, 6) for _, s in store.keyword.search("a", '"quokka"', 10)] == [
        round(s, 6) for _, s in found
    ]
    assert kept(pg_url) == recounted(pg_url)


def counted(conn: psycopg.Connection[Any], namespace: str, terms: list[str], limit: int) -> Any:
    """Keyword search with each keyword's matches counted, N counted, then the same
    ranking statement (``search`` with the counts)."""
    with conn.transaction(force_rollback=True):
        conn.execute(
            "UPDATE keyword_terms k SET df = (SELECT count(*) FROM memories m "
            "WHERE m.namespace = k.namespace AND m.deleted_at IS NULL "
            "AND m.search @@ k.term::tsquery) "
            "WHERE k.source = 'memories' AND k.term NOT IN ('', ' tokens')"
        )
        return search(conn, namespace, terms, limit, MEMORIES)


def test_search_ranks_as_counting_the_matches_does(pg_mem: Memory, pg_url: str) -> None:
    # More than COMMON rows hold "caroline" (exact, not capped since bm25pg27), and
    # fewer than half hold "pottery": an IDF above FTS5's floor.
    assert COMMON == 1000
    texts = [f"Caroline note {i} on {'sunset' if i % 3 else 'pottery glaze'}" for i in range(1100)]
    pg_mem.add_many(texts, namespace="big")
    terms = ["caroline", "sunset", "pottery", "glaze", "don't"]  # the last is a phrase
    with psycopg.connect(pg_url) as conn:
        now = search(conn, "big", terms, 2000, MEMORIES)
        before = counted(conn, "big", terms, 2000)
    assert now == before
    assert len(now) == 1100
    assert [round(s, 9) for _, s in now[:3]] == [round(s, 9) for _, s in before[:3]]


def test_search_scores_are_bm25_of_each_rows_frequencies(pg_mem: Memory, pg_url: str) -> None:
    # The ranking statement against BM25 computed here from each row's per-keyword
    # ts_rank_cd and token count: rows of different lengths, a keyword in a title.
    texts = [
        "Caroline went to the pottery class",
        "Pottery pottery pottery: Caroline glazed a bowl and fired it twice in the kiln",
        "Melanie painted a sunset over the lake with her children",
        "Caroline and Melanie talked about the sunset, the lake and the pottery class",
        "Nothing about any of it",
    ]
    for text in texts:
        pg_mem.add(text, namespace="bm25")
    pg_mem.add("a long day", namespace="bm25", title="Pottery")
    terms = ["caroline", "pottery", "sunset"]
    with psycopg.connect(pg_url) as conn:
        got = search(conn, "bm25", terms, 100, MEMORIES)
        rows = conn.execute(
            "SELECT id, seq, engram_search_length(search), "
            + ", ".join(
                f"2 * ts_rank_cd('{RANK_WEIGHTS}'::float4[], search, "
                f"phraseto_tsquery('engram_english', engram_fold(%s)), 0)"
                for _ in terms
            )
            + " FROM memories WHERE namespace = 'bm25' AND deleted_at IS NULL",
            terms,
        ).fetchall()
    total = len(rows)
    dfs = [sum(1 for r in rows if r[3 + i] > 0) for i in range(len(terms))]
    matching = [r for r in rows if any(f > 0 for f in r[3:])]
    average = sum(r[2] for r in rows) / total  # the namespace's, as FTS5's
    expected = sorted(
        (
            (
                r[0],
                sum(
                    idf(total, df) * f * (K1 + 1) / (f + K1 * (1 - B + B * r[2] / average))
                    for f, df in zip(r[3:], dfs, strict=True)
                ),
                r[1],
            )
            for r in matching
        ),
        key=lambda x: (-x[1], x[2]),
    )
    assert [i for i, _ in got] == [i for i, _, _ in expected]
    assert [s for _, s in got] == pytest.approx([s for _, s, _ in expected], rel=1e-9)


def test_the_ranking_statement_is_never_prepared(pg_mem: Memory, pg_url: str) -> None:
    # psycopg prepares a statement on its sixth run, and PostgreSQL may then run it with
    # a generic plan that cannot see how common each keyword is (86-131 ms instead of
    # about 9 for some searches at 100k): the ranking is planned afresh every time.
    pg_mem.add_many(["Caroline paints sunsets", "Melanie paints the lake"], namespace="p")
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for _ in range(12):
            assert [i for i, _ in search(conn, "p", ["paints", "lake"], 10, MEMORIES)]
        prepared = [r[0] for r in conn.execute("SELECT statement FROM pg_prepared_statements")]
    assert prepared, "psycopg prepares what runs often (the statistics statement)"
    assert not [s for s in prepared if "ts_rank_cd" in s], prepared
