"""Audited bulk erase (issue 14): ``mem.erasure`` hard-deletes a namespace (or what a
filter picks) on both backends, every surface reaches it within its scope, and the
audit row outlives what it erased."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from click.testing import CliRunner

from conftest import HashEmbedder, user_keys
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from engram.compat.mem0 import Memory as Mem0Memory
from engram.errors import InvalidInputError
from engram.store.protocols import KEPT_TABLES
from test_filters_native import run_doc_block

ALICE, BOB = "user:alice", "user:bob"


def fill(mem: Memory, namespace: str) -> dict[str, str]:
    """A namespace holding one of everything an erase must reach."""
    kept = mem.add("Alice keeps a spare key under the blue pot", namespace=namespace)
    mem.feedback(kept.id, "up", "useful", namespace=namespace)
    gone = mem.add("Alice's old address was 12 Elm Street", namespace=namespace)
    mem.delete(gone.id, namespace=namespace)
    tagged = mem.add(
        "Alice's passport number ends in 42",
        namespace=namespace,
        session_id="s1",
        metadata={"secret": True},
    )
    mem.add_transcript("s1", "alice: my passport ends in 42", namespace=namespace)
    mem.graph.record(kept.id, [("Alice", "hides", "spare key")], namespace=namespace)
    doc = mem.documents.ingest("Alice's travel checklist: passport, tickets", namespace=namespace)
    mem.documents.process(doc.id, namespace=namespace)
    mem.palace.mine_conversation(
        [{"role": "Alice", "content": "The safe code is in the green folder"}],
        wing="Alice",
        session="private",
        namespace=namespace,
    )
    return {"kept": kept.id, "gone": gone.id, "tagged": tagged.id}


def namespaced_rows(location: str, namespace: str) -> dict[str, int]:
    """Rows of ``namespace`` in every table with a namespace column (raw SQL, past the
    library, so nothing an erase should reach can hide)."""
    out: dict[str, int] = {}
    if location.startswith("postgresql"):
        with psycopg.connect(location) as conn:
            tables = [
                r[0]
                for r in conn.execute(
                    "SELECT table_name FROM information_schema.columns WHERE "
                    "table_schema = current_schema() AND column_name = 'namespace'"
                )
            ]
            for table in tables:
                row = conn.execute(
                    f'SELECT count(*) FROM "{table}" WHERE namespace = %s', (namespace,)
                ).fetchone()
                out[table] = int(row[0]) if row else 0
        return out
    conn = sqlite3.connect(location)
    try:
        names = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND sql NOT LIKE 'CREATE VIRTUAL%'"
            )
        ]
        for table in names:
            columns = {r[1] for r in conn.execute(f"PRAGMA table_info('{table}')")}
            if "namespace" in columns:
                query = f"SELECT count(*) FROM {table} WHERE namespace = ?"
                out[table] = conn.execute(query, (namespace,)).fetchone()[0]
        # The namespace's keyword index (its own FTS5 table, over ``memories``) must
        # match nothing of what it held: a MATCH reads the index, not the content table.
        row = conn.execute("SELECT id FROM fts_namespaces WHERE namespace = ?", (namespace,))
        found = row.fetchone()
        if found is not None:
            table = f"fts_{found[0]}"
            terms = "alice OR passport OR spare OR checklist OR safe OR address"
            query = f"SELECT count(*) FROM {table} WHERE {table} MATCH ?"
            out["fts index"] = conn.execute(query, (terms,)).fetchone()[0]
    finally:
        conn.close()
    return out


@pytest.fixture
def place(config: Config, reopenable: str) -> Iterator[tuple[Memory, str]]:
    """A memory on a store a second connection can read (a SQLite file or PostgreSQL)."""
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as mem:
        yield mem, reopenable


def test_erasing_a_namespace_removes_every_row_of_it_and_keeps_the_audit(
    place: tuple[Memory, str],
) -> None:
    mem, location = place
    fill(mem, ALICE)
    bob = fill(mem, BOB)
    before = namespaced_rows(location, ALICE)
    assert before["memories"] >= 4 and before["session_transcripts"] == 1
    assert before["entities"] >= 2 and before["palace_drawers"] >= 1
    assert before.get("fts index", 1) > 0  # the check below can see index entries
    bob_rows = namespaced_rows(location, BOB)

    result = mem.erasure.erase(user_id="alice", actor="dpo@example.com")

    assert result.whole_namespace and not result.dry_run
    assert result.memories == before["memories"]  # live and tombstoned alike
    after = namespaced_rows(location, ALICE)
    leftovers = {t: n for t, n in after.items() if n and t not in KEPT_TABLES}
    assert leftovers == {}
    assert namespaced_rows(location, BOB) == bob_rows  # the neighbour is untouched
    assert mem.get(bob["kept"], namespace=BOB).content.startswith("Alice keeps")
    assert mem.search("passport", namespace=ALICE) == []
    assert mem.get_all(namespace=ALICE, include_deleted=True) == []
    [audit] = mem.erasure.audit(user_id="alice")
    assert audit == result.audit
    assert (audit.namespace, audit.actor, audit.whole_namespace) == (ALICE, "dpo@example.com", True)
    assert audit.memories == before["memories"] and audit.filters == {}


def test_the_audit_survives_reopening_and_a_second_erase(config: Config, reopenable: str) -> None:
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as mem:
        mem.add("first", namespace="team")
        first = mem.erasure.erase(namespace="team", actor="ops").audit
        mem.add("second", namespace="team")
        mem.erasure.erase(namespace="team", filters={"type": "fact"}, actor="ops")
        mem.admin.purge(all_namespaces=True)
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as mem:
        rows = mem.erasure.audit(namespace="team")
        assert [r.memories for r in rows] == [1, 1]
        assert rows[-1] == first  # newest first; the first row unchanged
        assert (
            rows[0].filters == {"type": {"op": "$eq", "values": 1}} and not rows[0].whole_namespace
        )
        assert mem.erasure.audit(all_namespaces=True) == rows
        assert mem.erasure.audit(namespace="elsewhere") == []


def test_a_filtered_erase_takes_only_what_matches(mem: Memory) -> None:
    ids = fill(mem, ALICE)
    other = mem.add("Also secret", namespace=ALICE, metadata={"secret": True})
    mem.delete(other.id, namespace=ALICE)  # tombstoned matches go too

    result = mem.erasure.erase(namespace=ALICE, filters={"metadata.secret": True})

    assert result.memories == 2 and not result.whole_namespace
    assert result.filters == {"metadata.secret": True}
    remaining = {r.id for r in mem.get_all(namespace=ALICE, include_deleted=True, limit=1000)}
    assert ids["tagged"] not in remaining and other.id not in remaining
    assert {ids["kept"], ids["gone"]} <= remaining
    assert len(mem.history(ids["kept"], namespace=ALICE)) >= 2  # others keep their history
    with pytest.raises(Exception, match="no memory"):
        mem.history(ids["tagged"], namespace=ALICE)  # the erased one's history went with it
    assert mem.store.transcripts.get(ALICE, ["s1"]) != {}  # a filtered erase keeps transcripts
    assert ids["tagged"] not in {h.memory.id for h in mem.search("passport", namespace=ALICE)}


def test_a_narrower_id_narrows_the_erase(mem: Memory) -> None:
    planner = mem.add("planner note", user_id="alice", agent_id="planner")
    writer = mem.add("writer note", user_id="alice", agent_id="writer")
    result = mem.erasure.erase(user_id="alice", agent_id="planner")
    assert result.memories == 1 and result.filters == {"agent_id": "planner"}
    assert [r.id for r in mem.get_all(user_id="alice")] == [writer.id]
    assert planner.id not in {r.id for r in mem.get_all(user_id="alice", include_deleted=True)}


def test_a_dry_run_counts_and_changes_nothing(mem: Memory) -> None:
    fill(mem, ALICE)
    before = mem.get_all(namespace=ALICE, include_deleted=True, limit=1000)
    plan = mem.erasure.erase(namespace=ALICE, dry_run=True)
    assert plan.dry_run and plan.audit is None and plan.memories == len(before)
    picked = mem.erasure.erase(namespace=ALICE, filters={"metadata.secret": True}, dry_run=True)
    assert picked.memories == 1 and not picked.whole_namespace
    assert mem.get_all(namespace=ALICE, include_deleted=True, limit=1000) == before
    assert mem.erasure.audit(namespace=ALICE) == []


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "target named"),
        ({"namespace": ALICE, "filters": {"source": "x"}}, "metadata.source"),
        ({"namespace": ALICE, "filters": {"metadata.k": [1, 2]}}, "one value per key"),
        ({"namespace": ALICE, "dry_run": "yes"}, "dry_run"),
        ({"namespace": ALICE, "actor": 5}, "actor"),
    ],
)
def test_bad_erase_requests_are_refused_and_erase_nothing(
    mem: Memory, kwargs: dict[str, Any], message: str
) -> None:
    record = mem.add("stays", namespace=ALICE)
    with pytest.raises(InvalidInputError, match=message):
        mem.erasure.erase(**kwargs)
    assert mem.get(record.id, namespace=ALICE) == record
    assert mem.erasure.audit(all_namespaces=True) == []


def test_erase_everything_audits_each_namespace(mem: Memory) -> None:
    mem.add("a", namespace="one")
    mem.add_transcript("s", "only a transcript", namespace="two")  # no memory at all
    tomb = mem.add("b", namespace="three")
    mem.delete(tomb.id, namespace="three")
    results = mem.erasure.erase_everything(actor="admin")
    assert sorted(r.namespace for r in results) == ["one", "three", "two"]
    assert mem.store.erase.namespaces() == []
    assert mem.store.transcripts.get("two", ["s"]) == {}
    assert len(mem.erasure.audit(all_namespaces=True)) == 3


def test_the_store_records_the_erase_migration_by_name(
    place: tuple[Memory, str], backend: str
) -> None:
    _, location = place
    name = "021_erase_audit" if backend == "sqlite" else "017_erase_audit"
    query = "SELECT name FROM schema_migrations"
    if location.startswith("postgresql"):
        with psycopg.connect(location) as conn:
            applied = {r[0] for r in conn.execute(query)}
    else:
        with sqlite3.connect(location) as lite:
            applied = {r[0] for r in lite.execute(query)}
    assert name in applied


# -- mem0 compat -----------------------------------------------------------------------
def test_mem0_delete_all_keeps_history_and_reset_goes_through_the_audited_erase(
    mem: Memory,
) -> None:
    m = Mem0Memory(memory=mem)
    [sushi] = m.add("I love sushi", user_id="alice", infer=False)["results"]
    m.add("I love pizza", user_id="bob", infer=False)
    m.delete_all(user_id="alice")
    assert m.get_all(filters={"user_id": "alice"})["results"] == []
    # issue 27: mem0 deletes one by one, so each memory's history ends in DELETE
    assert [h["event"] for h in m.history(sushi["id"])] == ["ADD", "DELETE"]
    assert mem.erasure.audit(user_id="alice") == []
    m.reset()
    assert m.get_all(filters={"user_id": "bob"})["results"] == []
    assert m.history(sushi["id"]) == []  # mem0's reset empties the history too
    audits = mem.erasure.audit(all_namespaces=True)
    assert {r.namespace for r in audits} == {ALICE, BOB}
    assert {r.actor for r in audits} == {"mem0-compat"}


# -- CLI -------------------------------------------------------------------------------
KEYWORD_ONLY = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}


def _cli(home: Path, *args: str, input: str | None = None) -> Any:
    return CliRunner().invoke(cli, ["--home", str(home), *args], env=KEYWORD_ONLY, input=input)


def _reopen(home: Path) -> Memory:
    return Memory(config=Config.load(env={}, home=str(home), embedder={"name": "none"}))


def test_cli_forget_all_counts_confirms_erases_and_shows_the_audit(tmp_path: Path) -> None:
    home = tmp_path / "home"
    for text in ("first note", "second note"):
        assert _cli(home, "add", text, "--namespace", "team").exit_code == 0
    assert _cli(home, "add", "keep me", "--namespace", "other").exit_code == 0

    dry = _cli(home, "forget", "--all", "--namespace", "team", "--dry-run")
    assert dry.exit_code == 0 and "would erase 2 memories" in dry.output
    declined = _cli(home, "forget", "--all", "--namespace", "team", input="n\n")
    assert declined.exit_code != 0 and "Erase 2 memories" in declined.output
    with _reopen(home) as mem:
        assert len(mem.get_all(namespace="team")) == 2
    done = _cli(home, "forget", "--all", "--namespace", "team", input="y\n")
    assert done.exit_code == 0, done.output
    assert "erased 2 memories" in done.output and "audit #1" in done.output

    with _reopen(home) as mem:
        assert mem.get_all(namespace="team", include_deleted=True) == []
        assert [r.content for r in mem.get_all(namespace="other")] == ["keep me"]
        [row] = mem.erasure.audit(namespace="team")
        assert row.actor is not None and row.actor.startswith("cli")
    shown = _cli(home, "erasures", "--namespace", "team", "--json")
    assert shown.exit_code == 0
    assert [(r["namespace"], r["memories"]) for r in json.loads(shown.output)] == [("team", 2)]
    assert "team" in _cli(home, "erasures", "--all-namespaces").output


def test_cli_forget_all_with_a_filter_and_yes(tmp_path: Path) -> None:
    home = tmp_path / "home"
    _cli(home, "add", "from chat", "--namespace", "team", "--meta", "source=chat")
    _cli(home, "add", "from a book", "--namespace", "team", "--meta", "source=book")
    out = _cli(
        home, "forget", "--all", "-n", "team", "--filter", "metadata.source=chat", "--yes", "--json"
    )
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["memories"] == 1
    with _reopen(home) as mem:
        assert [r.content for r in mem.get_all(namespace="team")] == ["from a book"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("forget", "--all"), "needs its target"),
        (("forget",), "--all to erase"),
        (("forget", "--all", "-n", "team", "--json"), "needs --yes"),
        (("forget", "--all", "-n", "team", "--filter", "source=x", "--yes"), "metadata.source"),
    ],
)
def test_cli_forget_all_refuses_what_it_cannot_do(
    tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    home = tmp_path / "home"
    _cli(home, "add", "stays", "--namespace", "team")
    result = _cli(home, *args)
    assert result.exit_code != 0 and message in result.output, result.output
    with _reopen(home) as mem:
        assert [r.content for r in mem.get_all(namespace="team")] == ["stays"]


# -- HTTP ------------------------------------------------------------------------------
@pytest.fixture
def served(config: Config) -> Iterator[tuple[str, Memory, dict[str, str]]]:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        keys = user_keys(memory)
        for ns in (ALICE, f"{ALICE}/project", BOB):
            memory.add(f"a note in {ns}", namespace=ns)
        with serve_in_thread(create_app(memory, worker=False)) as url:
            yield url, memory, keys


def _as(url: str, key: str) -> httpx.Client:
    return httpx.Client(base_url=url, timeout=10, headers={"Authorization": f"Bearer {key}"})


def test_http_erase_is_scoped_to_the_key_and_audited(
    served: tuple[str, Memory, dict[str, str]],
) -> None:
    url, memory, keys = served
    with _as(url, keys["alice"]) as alice:
        for body in ({"namespace": BOB}, {"user_id": "bob"}, {"namespace": "default"}):
            refused = alice.post("/v1/memories/erase", json=body)
            assert refused.status_code == 403, refused.text
        assert alice.get("/v1/erasures", params={"namespace": BOB}).status_code == 403
        assert alice.get("/v1/erasures", params={"all_namespaces": "true"}).status_code == 403
        # An empty body never defaults to the key's own namespace.
        empty = alice.post("/v1/memories/erase", json={})
        assert empty.status_code == 422 and "name what to erase" in empty.json()["detail"]
        dry = alice.post("/v1/memories/erase", json={"user_id": "alice", "dry_run": True})
        # A user's erase counts the namespaces below it too (round thirty).
        assert dry.json()["memories"] == 2 and dry.json()["audit"] is None
        assert dry.json()["nested"] == [f"{ALICE}/project"]
        alone = {"user_id": "alice", "dry_run": True, "nested": False}
        assert alice.post("/v1/memories/erase", json=alone).json()["memories"] == 1
        done = alice.post("/v1/memories/erase", json={"namespace": f"{ALICE}/project"})
        assert done.status_code == 200, done.text
        audit = done.json()["audit"]
        assert audit["namespace"] == f"{ALICE}/project" and audit["memories"] == 1
        assert audit["actor"].startswith("key:")
        listed = alice.get("/v1/erasures", params={"namespace": f"{ALICE}/project"}).json()
        assert listed["items"] == [audit]
        bad = alice.post(
            "/v1/memories/erase", json={"user_id": "alice", "filters": {"source": "x"}}
        )
        assert bad.status_code == 422 and "metadata.source" in bad.json()["detail"]
    assert len(memory.get_all(namespace=BOB)) == 1  # bob's note survived alice's attempts
    assert len(memory.get_all(namespace=ALICE)) == 1
    with _as(url, keys["admin"]) as admin:
        erased = admin.post("/v1/memories/erase", json={"namespace": BOB}).json()
        assert erased["memories"] == 1
        every = admin.get("/v1/erasures", params={"all_namespaces": "true"}).json()["items"]
        assert [r["namespace"] for r in every] == [BOB, f"{ALICE}/project"]
    assert memory.get_all(namespace=BOB) == []


def test_the_erase_audit_list_is_paged_like_every_list(
    served: tuple[str, Memory, dict[str, str]],
) -> None:
    """docs/http.md: lists are ``{items, total, limit, offset}`` (new-user pass, round
    five: ``GET /v1/erasures`` had only ``items``)."""
    url, memory, keys = served
    for n in range(3):
        memory.add(f"draft {n}", namespace=f"{ALICE}/drafts")
        memory.erasure.erase(namespace=f"{ALICE}/drafts")
    memory.erasure.erase(namespace=BOB)
    assert memory.erasure.audit_count(namespace=f"{ALICE}/drafts") == 3
    assert memory.erasure.audit_count(all_namespaces=True) == 4
    with _as(url, keys["alice"]) as alice:
        page = alice.get(
            "/v1/erasures", params={"namespace": f"{ALICE}/drafts", "limit": 2, "offset": 1}
        ).json()
        assert (page["total"], page["limit"], page["offset"]) == (3, 2, 1)
        assert len(page["items"]) == 2
    with _as(url, keys["admin"]) as admin:
        every = admin.get("/v1/erasures", params={"all_namespaces": "true"}).json()
        assert (every["total"], every["limit"], every["offset"]) == (4, 100, 0)


def test_the_erase_example_in_the_library_guide_runs() -> None:
    ran = run_doc_block("library.md", "## Erasing a user or a namespace")
    assert ran["done"].memories == 1
    ran["mem"].close()
