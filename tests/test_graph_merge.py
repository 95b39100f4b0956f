"""Entity merging, splitting, relation invalidation and deduplication (issue 12), and
the normalisation step of ``record``, on both backends."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.embed.base import Vectors
from engram.errors import InvalidInputError, NotFoundError
from engram.records import MemoryRecord

JAN = datetime(2024, 1, 10, tzinfo=UTC)
FEB = datetime(2024, 2, 10, tzinfo=UTC)
MAR = datetime(2024, 3, 10, tzinfo=UTC)


@pytest.fixture
def config(tmp_path: Any) -> Config:
    """Without the write-time linker: each test states its own facts."""
    return Config.load(env={"ENGRAM_PIPELINE_LINKER": "false"}, home=str(tmp_path / "home"))


def told(mem: Memory, content: str, when: datetime = JAN, **scope: Any) -> MemoryRecord:
    return mem.add(content, created_at=when, **scope)


def facts(mem: Memory, entity: str) -> list[tuple[str, str, str, int]]:
    return [(r.source, r.relation_type, r.target, r.mentions) for r in mem.graph.timeline(entity)]


def caroline_and_caro(mem: Memory) -> tuple[MemoryRecord, MemoryRecord]:
    """Two spellings of one person, each with its own facts, one memory naming both."""
    a = told(mem, "Caroline went to the support group and talked to Caro", JAN)
    b = told(mem, "Caro painted a lake and went to the support group", FEB)
    mem.graph.record(
        a.id, [("Caroline", "attended", "support group", 0.9), ("Caroline", "knows", "Caro")]
    )
    mem.graph.record(
        b.id, [("Caro", "painted", "lake"), ("Caro", "attended", "support group", 0.5)]
    )
    return a, b


def test_merge_moves_mentions_and_relations_and_folds_duplicates(mem: Memory) -> None:
    a, b = caroline_and_caro(mem)
    kept = mem.graph.merge("Caroline", "Caro")
    assert (kept.canonical_name, kept.aliases) == ("caroline", ("caro",))
    assert kept.mentions == 2  # memory a named both: it counts once
    assert mem.graph.entity("Caro").id == kept.id  # the old name resolves to the kept one
    assert sorted(mem.graph.memories_of("Caroline")) == sorted([a.id, b.id])
    # "Caroline knows Caro" is a self-relation now: dropped. The two "attended" rows
    # are one fact: mentions summed, confidence averaged over the statements.
    assert facts(mem, "Caroline") == [
        ("Caroline", "attended", "support group", 2),
        ("Caroline", "painted", "lake", 1),
    ]
    [attended] = [r for r in mem.graph.relations("Caroline") if r.relation_type == "attended"]
    assert attended.confidence == pytest.approx(0.7)
    assert attended.valid_from == JAN  # the earlier window start wins
    assert [e.canonical_name for e in mem.graph.entities()] == [
        "caroline",
        "support group",
        "lake",
    ]


def test_a_merged_relation_keeps_its_idempotence(mem: Memory) -> None:
    _, b = caroline_and_caro(mem)
    mem.graph.merge("Caroline", "Caro")
    again = mem.graph.record(b.id, [("Caro", "attended", "support group", 0.5)])
    assert again.unchanged == 1  # memory b's statement moved with the fold


def test_merge_moves_attributes_and_unites_same_named_aspects(mem: Memory) -> None:
    a, b = caroline_and_caro(mem)
    mem.graph.upsert_aspect("Caroline", "hobbies", weight=0.3)
    mem.graph.upsert_aspect("Caro", "Hobbies", weight=0.8)
    mem.graph.upsert_aspect("Caro", "family", weight=0.4)
    mem.graph.add_attribute("Caroline", "goes to a support group", memory_id=a.id, aspect="hobbies")
    mem.graph.add_attribute("Caro", "paints lakes", memory_id=b.id, aspect="hobbies")
    mem.graph.merge("Caroline", "Caro")
    assert [(x.canonical_name, x.weight) for x in mem.graph.aspects("Caroline")] == [
        ("hobbies", 0.8),  # the heavier weight of the two
        ("family", 0.4),  # an aspect without attributes comes along too
    ]
    [hobbies, _] = mem.graph.aspects("Caroline")
    assert {(x.content, x.aspect_id) for x in mem.graph.attributes("Caroline")} == {
        ("goes to a support group", hobbies.id),
        ("paints lakes", hobbies.id),
    }


def test_merge_refuses_one_entity_and_unknown_ones(mem: Memory) -> None:
    caroline_and_caro(mem)
    mem.graph.add_alias("Caroline", "Carrie")
    with pytest.raises(InvalidInputError, match="nothing to merge"):
        mem.graph.merge("Caroline", "Carrie")
    with pytest.raises(NotFoundError):
        mem.graph.merge("Caroline", "Nobody")
    with pytest.raises(NotFoundError):
        mem.graph.merge("Nobody", "Caro")
    assert len(mem.graph.entities()) == 4  # nothing changed


def test_merge_stays_in_its_namespace(mem: Memory) -> None:
    caroline_and_caro(mem)
    other = told(mem, "Caro is my cat", user_id="x")
    mem.graph.record(other.id, [("Caro", "is", "cat")], user_id="x")
    mem.graph.merge("Caroline", "Caro")
    assert [(r.source, r.target) for r in mem.graph.timeline("Caro", user_id="x")] == [
        ("Caro", "cat")
    ]
    with pytest.raises(NotFoundError):
        mem.graph.merge("Caroline", "Caro", user_id="x")  # no Caroline there


def test_split_restores_what_the_alias_brought(mem: Memory) -> None:
    a, b = caroline_and_caro(mem)
    mem.graph.add_attribute("Caro", "paints lakes", memory_id=b.id, aspect="hobbies")
    mem.graph.merge("Caroline", "Caro")
    made = mem.graph.split("Caroline", "Caro")
    assert (made.canonical_name, made.mentions, made.aliases) == ("caro", 1, ())
    assert mem.graph.entity("Caroline").aliases == ()
    assert mem.graph.memories_of("Caro") == [b.id]
    # Relations first stated by memory b go back; the folded "attended" row was first
    # stated by memory a, so it stays (docs/graph.md, "What a split restores").
    assert facts(mem, "Caro") == [("Caro", "painted", "lake", 1)]
    assert [x.content for x in mem.graph.attributes("Caro")] == ["paints lakes"]
    assert [x.name for x in mem.graph.aspects("Caro")] == ["hobbies"]
    assert mem.graph.attributes("Caroline") == []
    assert mem.graph.entity("Caroline").mentions == 1


def test_split_needs_an_alias_of_that_entity(mem: Memory) -> None:
    caroline_and_caro(mem)
    with pytest.raises(NotFoundError, match="not an alias"):
        mem.graph.split("Caroline", "Caro")  # an entity of its own, not an alias
    with pytest.raises(NotFoundError, match="not an alias"):
        mem.graph.split("Caroline", "Caroline")


def test_invalidate_closes_the_current_relation(mem: Memory) -> None:
    caroline_and_caro(mem)
    closed = mem.graph.invalidate("Caroline", "Attended", "support group", at=MAR)
    assert (closed.valid_from, closed.valid_to) == (JAN, MAR)
    assert all(r.relation_type != "attended" for r in mem.graph.relations("Caroline"))
    assert [
        r.valid_to for r in mem.graph.timeline("Caroline") if r.relation_type == "attended"
    ] == [MAR]
    with pytest.raises(NotFoundError, match="no current 'attended' relation"):
        mem.graph.invalidate("Caroline", "attended", "support group")
    with pytest.raises(InvalidInputError, match="before it started"):
        mem.graph.invalidate("Caro", "painted", "lake", at=JAN)
    with pytest.raises(NotFoundError):
        mem.graph.invalidate("Caro", "painted", "nowhere")


def test_invalidate_defaults_to_now(mem: Memory) -> None:
    caroline_and_caro(mem)
    before = datetime.now(UTC)
    closed = mem.graph.invalidate("Caro", "painted", "lake")
    assert closed.valid_to is not None and closed.valid_to >= before


def test_record_matches_normalised_spellings(mem: Memory) -> None:
    note = told(mem, "Dr. Smith treats Caroline; dr smith likes tea; Caroline's dog is Oscar")
    mem.graph.record(
        note.id,
        [
            ("Dr. Smith", "treats", "Caroline"),
            ("dr smith", "likes", "tea"),
            ("Caroline's", "owns", "Oscar"),
        ],
    )
    smith = mem.graph.entity("DR. SMITH")
    assert mem.graph.entity("dr smith") == smith
    # one memory's names are upserted in canonical order: "dr smith" came first
    assert [r.source for r in mem.graph.relations("Caroline")] == ["dr smith", "Caroline"]
    names = sorted(e.canonical_name for e in mem.graph.entities())
    assert names == ["caroline", "dr smith", "oscar", "tea"]
    # Titles stay: Mr and Mrs Smith are two people.
    later = told(mem, "Mr Smith and Mrs Smith", FEB)
    mem.graph.record(later.id, [("Mr Smith", "married_to", "Mrs Smith")])
    assert mem.graph.entity("mr smith") != mem.graph.entity("mrs smith")


class NicknameEmbedder(HashEmbedder):
    """Embeds a few nicknames as their full names, so they are near-identical."""

    NICKNAMES = {"kate": "katherine", "bob": "robert"}

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return super().embed_batch([self.NICKNAMES.get(t.lower(), t) for t in texts])


@pytest.fixture
def nick_mem(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=NicknameEmbedder()) as m:
        yield m


def people(mem: Memory, *names: str, kind: str = "person") -> None:
    for n, name in enumerate(names):
        note = told(mem, f"{name} was here ({n})")
        mem.graph.record(note.id, [], entity_types={name: kind})


def test_dedupe_proposes_then_merges(nick_mem: Memory) -> None:
    people(nick_mem, "Melanie", "Melanie", "Caroline Smith", "Caroline", "Bob", "Robert")
    people(nick_mem, "Katherine", "Kate", "Jon")
    people(nick_mem, "Mel", kind="unknown")  # an untyped nickname pairs with a person
    dry = nick_mem.graph.dedupe(threshold=0.9)
    assert dry.dry_run and dry.merged == 0 and dry.scanned == 9
    assert [(p.keep, p.other, p.reason) for p in dry.pairs] == [
        ("caroline smith", "caroline", "first name"),
        ("katherine", "kate", "embedding"),
        ("melanie", "mel", "short name"),
    ]
    # "bob" and "robert" embed alike but share no block (first two letters): never
    # compared, so never merged.
    assert len(nick_mem.graph.entities()) == 9  # a dry run changes nothing
    done = nick_mem.graph.dedupe(threshold=0.9, dry_run=False)
    assert done.merged == 3
    assert sorted(e.canonical_name for e in nick_mem.graph.entities()) == [
        "bob",
        "caroline smith",
        "jon",
        "katherine",
        "melanie",
        "robert",
    ]
    assert nick_mem.graph.entity("Mel").mentions == 3
    assert nick_mem.graph.dedupe(dry_run=False).pairs == ()  # nothing left to do


def test_dedupe_leaves_ambiguous_names_and_other_types_alone(mem: Memory) -> None:
    people(mem, "Caroline Smith", "Caroline Jones", "Caroline", "Melanie", "Melissa", "Mel")
    people(mem, "Oscar")
    people(mem, "Oscar Trophy", kind="item")  # an item is not the person
    assert mem.graph.dedupe(threshold=0.99).pairs == ()


def test_dedupe_checks_its_arguments(mem: Memory) -> None:
    with pytest.raises(InvalidInputError):
        mem.graph.dedupe(threshold=1.5)
    with pytest.raises(InvalidInputError):
        mem.graph.dedupe(dry_run="no")  # type: ignore[arg-type]


def test_split_of_an_alias_nobody_spelled_makes_an_empty_entity(mem: Memory) -> None:
    caroline_and_caro(mem)
    mem.graph.add_alias("Caroline", "Carrie")
    made = mem.graph.split("Caroline", "carrie")
    assert (made.canonical_name, made.mentions) == ("carrie", 0)
    assert mem.graph.timeline("Carrie") == [] and mem.graph.entity("Caroline").mentions == 1
