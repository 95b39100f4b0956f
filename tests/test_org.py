"""``mem.org``: seed 002's organisational memory on both backends — the role matrix of
write access, append-only versions and retractions, an audit trail that survives, core
policies at the head of every context, the extended store queried on demand, and
FEATURES S6's non-inferable tag filter. Time is set by hand (no sleeps)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import anyio
import pytest

from conftest import (
    NO_LINKER,
    Clock,
    FailingEmbedder,
    HashEmbedder,
    run_doc_example,
    section_config,
)
from engram import AsyncMemory, Memory
from engram.config import Config
from engram.errors import (
    ConfigError,
    InvalidInputError,
    NotFoundError,
    PermissionDeniedError,
    StoreError,
)
from engram.org import SENIORITY, WRITE_ACCESS, OrgFactAuthor, agent, human
from engram.org.policies import HEADER
from engram.store.protocols.org import NewOrgFact
from engram.store.sql.migrations import migrate
from engram.store.sqlite.dialect import SQLITE

T0 = datetime(2026, 6, 1, 8, 0, tzinfo=UTC)

ALICE = human("alice")


def _config(tmp_path: Path, **org: Any) -> Config:
    return section_config(tmp_path, NO_LINKER, "org", org)


@pytest.fixture
def mem(tmp_path: Path, store_location: str, clock: Clock) -> Iterator[Memory]:
    with Memory(store_location, config=_config(tmp_path), embedder=HashEmbedder()) as m:
        m.org.clock = clock
        yield m


# -- write access: seed 002's role matrix ----------------------------------------------
AUTHORS = [human("hana")] + [agent(f"bot-{level}", level) for level in SENIORITY]
#: seed 002: policies ["human"]; adrs and procedures ["human", "senior", "lead", "c_suite"].
EXPECTED = {
    "policy": {"human"},
    "adr": {"human", "senior", "lead", "c_suite"},
    "procedure": {"human", "senior", "lead", "c_suite"},
    "convention": {"human", "senior", "lead", "c_suite"},
    "coding_standard": {"human", "senior", "lead", "c_suite"},
}


def test_the_write_access_table_is_the_seeds() -> None:
    assert {k: set(v) for k, v in WRITE_ACCESS.items()} == EXPECTED


@pytest.mark.parametrize("category", sorted(EXPECTED))
def test_role_matrix(mem: Memory, category: str) -> None:
    for author in AUTHORS:
        text = f"{category} written by {author.id}"
        if author.role in EXPECTED[category]:
            fact = mem.org.write(text, category=category, author=author)
            assert (fact.category, fact.author, fact.version) == (category, author, 1)
        else:
            with pytest.raises(PermissionDeniedError, match=f"write_access.{category}"):
                mem.org.write(text, category=category, author=author)
    stored = {f.author.id for f in mem.org.facts(categories=[category])}
    assert stored == {a.id for a in AUTHORS if a.role in EXPECTED[category]}
    denied = [e for e in mem.org.audit() if e.action == "denied"]
    assert {e.actor.id for e in denied} == {
        a.id for a in AUTHORS if a.role not in EXPECTED[category]
    }
    assert all(e.detail and e.detail.startswith(f"write_access.{category}") for e in denied)


def test_a_refusal_says_which_rule_and_stores_nothing(mem: Memory) -> None:
    with pytest.raises(PermissionDeniedError) as caught:
        mem.org.write("Deploy on Fridays", category="policy", author=agent("ci", "c_suite"))
    message = str(caught.value)
    assert "only humans may write policy facts" in message
    assert "'ci' (c_suite)" in message
    assert mem.org.list_policies() == []


def test_retracting_needs_the_role_that_writes(mem: Memory) -> None:
    adr = mem.org.write("ADR-7: use Litestar", category="adr", author=agent("arch", "lead"))
    with pytest.raises(PermissionDeniedError, match="may not"):
        mem.org.retract(adr.fact_id, author=agent("intern", "junior"))
    assert not mem.org.get(adr.fact_id).retracted
    gone = mem.org.retract(adr.fact_id, author=agent("arch2", "senior"), reason="superseded")
    assert gone.retracted and gone.version == 2


@pytest.mark.parametrize(
    ("author", "error"),
    [
        (OrgFactAuthor("robot", "x"), "kind must be human or agent"),
        (OrgFactAuthor("agent", "x", "intern"), "seniority must be one of"),
        (OrgFactAuthor("agent", "x"), "seniority must be one of"),
        (OrgFactAuthor("human", "x", "senior"), "a human author has no seniority"),
        (OrgFactAuthor("human", "bad name"), "author id must be"),
        ("alice", "author must be an OrgFactAuthor"),
    ],
)
def test_bad_authors_are_refused_clearly(mem: Memory, author: Any, error: str) -> None:
    with pytest.raises(InvalidInputError, match=error):
        mem.org.write("Use Litestar", category="convention", author=author)
    assert mem.org.facts() == []


def test_bad_input_is_refused_clearly(mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="category must be one of"):
        mem.org.write("x", category="rumour", author=ALICE)
    with pytest.raises(InvalidInputError, match="non-empty string"):
        mem.org.write("  ", category="policy", author=ALICE)
    with pytest.raises(InvalidInputError, match="NUL"):
        mem.org.write("a\x00b", category="policy", author=ALICE)
    # query's argument is ``text`` on every surface (library, CLI, HTTP, MCP org_query)
    with pytest.raises(InvalidInputError, match="^text contains a NUL"):
        mem.org.query("deploy\x00policy")
    with pytest.raises(InvalidInputError, match="^text is empty"):
        mem.org.query("  ")
    with pytest.raises(NotFoundError, match="no org fact"):
        mem.org.history("nope-not-a-fact")
    fact = mem.org.write("Use Litestar", category="convention", author=ALICE)
    with pytest.raises(InvalidInputError, match="keeps its category"):
        mem.org.write("Use Litestar", category="policy", author=ALICE, fact_id=fact.fact_id)
    mem.org.retract(fact.fact_id, author=ALICE)
    with pytest.raises(InvalidInputError, match="already retracted"):
        mem.org.retract(fact.fact_id, author=ALICE)


# -- append-only versions and the audit ----------------------------------------------
def test_a_change_is_a_new_version_and_the_old_one_stays(mem: Memory, clock: Clock) -> None:
    first = mem.org.write("PRs require 2 approvals", category="policy", author=ALICE)
    clock.advance(days=1)
    second = mem.org.write(
        "PRs require 3 approvals",
        category="policy",
        author=human("bob"),
        fact_id=first.fact_id,
        reason="after the incident",
    )
    assert (second.version, second.supersedes) == (2, first.seq)
    history = mem.org.history(first.fact_id)
    assert history[0] == first  # the first version is unchanged, field for field
    assert [v.content for v in history] == ["PRs require 2 approvals", "PRs require 3 approvals"]
    assert [v.created_at for v in history] == [T0, T0 + timedelta(days=1)]
    assert [p.content for p in mem.org.list_policies()] == ["PRs require 3 approvals"]
    clock.advance(days=1)
    mem.org.retract(first.fact_id, author=ALICE, reason="moved to the handbook")
    assert mem.org.list_policies() == []
    assert [v.retracted for v in mem.org.history(first.fact_id)] == [False, False, True]
    assert mem.org.history(first.fact_id)[:2] == history
    audit = mem.org.audit(fact_id=first.fact_id)
    assert [(e.action, e.actor.id, e.version, e.reason, e.at) for e in audit] == [
        ("retract", "alice", 3, "moved to the handbook", T0 + timedelta(days=2)),
        ("supersede", "bob", 2, "after the incident", T0 + timedelta(days=1)),
        ("write", "alice", 1, None, T0),
    ]
    assert [e.actor.role for e in audit] == ["human"] * 3


def test_no_store_path_changes_or_deletes_a_past_row(mem: Memory) -> None:
    fact = mem.org.write("Use Litestar", category="convention", author=ALICE)
    with pytest.raises(PermissionDeniedError):
        mem.org.write("Deploy Fridays", category="policy", author=agent("x", "junior"))
    before = (mem.org.history(fact.fact_id), mem.org.audit())
    store = mem.store
    # The store's own part has no verb that changes or deletes a row ...
    verbs = {n for n in dir(store.org) if not n.startswith("_")}
    assert not verbs & {"update", "delete", "remove", "purge", "edit", "erase"}
    # ... and the database itself refuses, whatever SQL reaches it.
    db = store._db  # type: ignore[attr-defined]
    for sql in (
        "UPDATE org_facts SET content = 'Use Flask'",
        "DELETE FROM org_facts",
        "UPDATE org_audit SET actor_id = 'mallory'",
        "DELETE FROM org_audit",
    ):
        with pytest.raises((StoreError, sqlite3.Error), match="append-only"), db.tx() as conn:
            conn.execute(sql)
    assert (mem.org.history(fact.fact_id), mem.org.audit()) == before


def test_audit_survives_purge_erase_and_reopening(
    tmp_path: Path, reopenable: str, clock: Clock
) -> None:
    config = _config(tmp_path)
    with Memory(reopenable, config=config, embedder=None) as mem:
        mem.org.clock = clock
        fact = mem.org.write("All code has 80% coverage", category="policy", author=ALICE)
        mem.add("an ordinary memory", namespace="default")
        mem.admin.purge(all_namespaces=True)
        mem.erasure.erase_everything(actor="alice")
        audit = mem.org.audit()
    with Memory(reopenable, config=config, embedder=None) as again:
        assert again.org.audit() == audit
        assert again.org.history(fact.fact_id)[0].content == "All code has 80% coverage"


def test_a_store_append_never_reuses_a_version(any_store: Any) -> None:
    first = any_store.org.append(NewOrgFact("f1", "adr", "one"), ALICE, now=T0)
    second = any_store.org.append(NewOrgFact("f1", "adr", "two"), ALICE, now=T0)
    assert (first.version, second.version, second.supersedes) == (1, 2, first.seq)
    assert [f.content for f in any_store.org.current()] == ["two"]


# -- core policies in every context ----------------------------------------------------
def test_policies_head_every_recall_and_get_context(mem: Memory) -> None:
    mem.add("We picked Postgres for the billing service", namespace="user:ann")
    assert HEADER not in mem.recall("billing database", namespace="user:ann").context
    mem.org.write("PRs require 2 approvals", category="policy", author=ALICE)
    mem.org.write("Use Litestar, not Flask", category="policy", author=ALICE)
    mem.org.write("ADR-3: billing on Postgres", category="adr", author=ALICE)
    got = mem.recall("billing database", namespace="user:ann")
    assert got.context.startswith(
        f"{HEADER}\n- PRs require 2 approvals\n- Use Litestar, not Flask\n\n"
    )
    assert "We picked Postgres" in got.context
    assert "ADR-3" not in got.context  # the extended store is retrieved on demand
    # Every namespace, even with nothing recalled, and the get_context block too.
    empty = mem.recall("anything at all", namespace="user:zed")
    assert empty.hits == () and empty.context.startswith(HEADER)
    block = mem.runs.get_context("billing database", namespace="user:ann")
    assert block.startswith(HEADER) and "Prior work" in block


def test_the_policy_block_keeps_to_its_budget(tmp_path: Path, store_location: str) -> None:
    config = _config(tmp_path, policy_budget_tokens=50)
    with Memory(store_location, config=config, embedder=None) as mem:
        for n in range(10):
            mem.org.write(f"Rule {n}: " + "be careful " * 5, category="policy", author=ALICE)
        block = mem.org.policy_block()
        assert len(block) <= 50 * 4 + 80  # the budget, and the line that counts the rest
        assert block.splitlines()[1].startswith("- Rule 0:")
        assert "more policies over the budget" in block.splitlines()[-1]
        assert mem.recall("careful", namespace="x").context.startswith(block)


def test_injection_can_be_switched_off(tmp_path: Path, store_location: str) -> None:
    with Memory(
        store_location, config=_config(tmp_path, inject_policies=False), embedder=None
    ) as mem:
        mem.org.write("PRs require 2 approvals", category="policy", author=ALICE)
        assert mem.org.policy_block() == ""
        assert mem.org.list_policies()[0].content == "PRs require 2 approvals"


def test_bad_org_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        _config(tmp_path, max_retrieved_per_query=0)
    assert Config().org.max_retrieved_per_query == 5  # seed 002


# -- the extended store, retrieved on demand ---------------------------------------------
def _seed_facts(mem: Memory) -> dict[str, str]:
    facts = {
        "litestar": ("ADR-1: the web framework is Litestar, not Flask", "adr", ["web"]),
        "deploy": ("Deploy procedure: tag, build, canary for one hour, roll out", "procedure", []),
        "naming": ("Name database tables in the singular", "coding_standard", ["db"]),
        "tabs": ("Indent with four spaces, never tabs", "convention", []),
        "pr": ("PRs require 2 approvals", "policy", []),
    }
    return {
        key: mem.org.write(text, category=cat, author=ALICE, tags=tags).fact_id
        for key, (text, cat, tags) in facts.items()
    }


def test_query_finds_related_facts_by_keyword_and_vector(mem: Memory) -> None:
    ids = _seed_facts(mem)
    found = mem.org.query("which web framework: Flask or Litestar?")
    assert found[0].fact_id == ids["litestar"]
    assert len(found) <= 5  # seed 002: max_retrieved_per_query
    only = mem.org.query("deploy canary roll out", categories=["procedure"])
    assert [f.fact_id for f in only] == [ids["deploy"]]
    assert mem.org.query("framework", limit=1)[0].fact_id == ids["litestar"]


def test_query_leaves_out_retracted_and_old_versions(mem: Memory) -> None:
    ids = _seed_facts(mem)
    mem.org.write(
        "ADR-1: the web framework is Django", category="adr", author=ALICE, fact_id=ids["litestar"]
    )
    found = mem.org.query("web framework")
    assert [f.content for f in found if f.fact_id == ids["litestar"]] == [
        "ADR-1: the web framework is Django"
    ]
    mem.org.retract(ids["litestar"], author=ALICE)
    assert ids["litestar"] not in {f.fact_id for f in mem.org.query("web framework")}


def test_query_works_keyword_only_and_heals_missing_vectors(
    tmp_path: Path, reopenable: str
) -> None:
    config = _config(tmp_path)
    with Memory(reopenable, config=config, embedder=FailingEmbedder()) as down:
        fact = down.org.write("Rotate credentials every 90 days", category="policy", author=ALICE)
        assert [f.fact_id for f in down.org.query("rotate credentials")] == [fact.fact_id]
    with Memory(reopenable, config=config, embedder=HashEmbedder()) as up:
        assert up.store.org.vectors([fact.seq], "test-hash") == {}
        assert [f.fact_id for f in up.org.query("credentials rotation")] == [fact.fact_id]
        assert set(up.store.org.vectors([fact.seq], "test-hash")) == {fact.seq}


# -- S6: the non-inferable filter by tags -------------------------------------------------
def test_tags_filter_matches_tags_exactly_never_content(mem: Memory) -> None:
    """FEATURES S6 (seed 002, D23): memories tagged non-inferable at write time are the
    only ones the filter lets through; text about the same thing is never matched."""
    tagged = mem.add("We chose Litestar because Flask lacked typed DI", tags=["non-inferable"])
    mem.add("non-inferable: the team decided to use Litestar instead of Flask")
    mem.add("We chose Litestar", tags=["Non-Inferable"])  # another tag: case matters
    both = mem.add("Litestar over Flask, decided 2026", tags=["non-inferable", "decision"])
    hits = mem.search("Litestar Flask non-inferable", filters={"tags": ["non-inferable"]})
    assert {h.memory.id for h in hits} == {tagged.id, both.id}
    hits = mem.search("Litestar", filters={"tags": ["non-inferable", "decision"]})
    assert [h.memory.id for h in hits] == [both.id]
    page = mem.get_all(filters={"tags": "non-inferable"})
    assert {r.id for r in page} == {tagged.id, both.id}


def test_org_query_filters_by_tags_exactly(mem: Memory) -> None:
    ids = _seed_facts(mem)
    assert [f.fact_id for f in mem.org.query("database tables", tags=["db"])] == [ids["naming"]]
    assert mem.org.query("web framework db", tags=["web", "db"]) == []


# -- agent keys and the async twin ------------------------------------------------------
def test_agent_keys_carry_their_seniority(mem: Memory) -> None:
    key, plaintext = mem.org.create_agent_key("planner", seniority="senior")
    assert mem.keys.verify(plaintext).id == key.id
    assert mem.org.author_for_key(key.id, key.user) == agent("planner", "senior")
    human_key, _ = mem.keys.create("hana")
    assert mem.org.author_for_key(human_key.id, "hana") == human("hana")
    # A plain user key on a shared server reads org memory but may not write it.
    member = mem.org.author_for_key(human_key.id, "hana", admin=False)
    assert member.kind == "member"
    with pytest.raises(PermissionDeniedError, match="user key reads organisation memory"):
        mem.org.write("Everyone deploys on Fridays", category="policy", author=member)
    assert all("Fridays" not in f.content for f in mem.org.list_policies())
    assert mem.org.author_for_key(None, None) == human("local")
    with pytest.raises(InvalidInputError, match="seniority must be one of"):
        mem.org.create_agent_key("x", seniority="boss")
    assert [k.user for k in mem.keys.list()] == ["planner", "hana"]


def test_async_org(tmp_path: Path) -> None:
    amem = AsyncMemory(":memory:", config=_config(tmp_path), embedder=None)

    async def run() -> list[str]:
        fact = await amem.org.write("Use Litestar", category="policy", author=ALICE)
        return [fact.fact_id, *(p.fact_id for p in await amem.org.list_policies())]

    try:
        written, *listed = anyio.run(run)
        assert listed == [written]
    finally:
        amem.sync.close()


def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    run_doc_example(capsys, "organisation.md")


def test_a_store_from_before_org_memory_upgrades(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        migrate(conn, SQLITE, upto="022_sessions")
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        assert "org_facts" not in tables
    finally:
        conn.close()
    with Memory(path, config=_config(tmp_path), embedder=None) as mem:
        mem.org.write("PRs require 2 approvals", category="policy", author=ALICE)
        assert [p.content for p in mem.org.list_policies()] == ["PRs require 2 approvals"]
