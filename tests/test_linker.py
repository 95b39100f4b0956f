"""The inline entity linker (FEATURES G3): what it reads, that it writes in the memory's
own transaction, and that the extract job deepens the graph without double counting."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Memory
from engram.config import Config
from engram.errors import NotFoundError
from engram.pipeline.linker import TALKS_ABOUT, links, protection
from engram.pipeline.patterns import proper_names

NS = "linker"


def _config(config: Config, **pipeline: Any) -> Config:
    return replace(config, pipeline=replace(config.pipeline, **pipeline))


def test_proper_names_skip_sentence_openers_and_chat_words() -> None:
    text = "Bye Joanna! Painting helps. I loved Lord of the Rings at the Valorant finals in May."
    assert proper_names(text) == ["Joanna", "Lord of the Rings", "Valorant"]
    assert proper_names("Xenoblade Chronicles is great, and Caroline's dog too.") == [
        "Xenoblade Chronicles",
        "Caroline",
    ]
    assert proper_names("yeah, nothing named here. I think so!") == []


def test_links_read_speaker_triples_and_names() -> None:
    triples, types = links("Nate: I went to a Valorant tournament with Sam last week!")
    assert types == {"Nate": "person", "Valorant": "unknown", "Sam": "unknown"}
    assert ("Nate", TALKS_ABOUT, "Valorant", 0.4) in triples
    assert ("Nate", TALKS_ABOUT, "Sam", 0.4) in triples
    assert any(t[:2] == ("Nate", "attended") for t in triples)
    # Plain text with no speaker and no names links nothing.
    assert links("the weather was fine") == ([], {})


def test_add_links_entities_and_relations(config: Config, store_location: str) -> None:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as mem:
        note = mem.add("Nate: I won my first Valorant tournament with Sam!", namespace=NS)
        mem.add("Nate: Playing Valorant again tonight.", namespace=NS)
        nate = mem.graph.entity("nate", namespace=NS)
        assert nate.entity_type == "person" and nate.mentions == 2
        assert mem.graph.entity("Valorant", namespace=NS).mentions == 2
        assert mem.graph.memories_of("Sam", namespace=NS) == [note.id]
        kinds = {(r.source, r.relation_type, r.target) for r in mem.graph.relations(namespace=NS)}
        assert ("Nate", TALKS_ABOUT, "Valorant") in kinds
        # The same content again is a duplicate: nothing is linked twice.
        mem.add("Nate: I won my first Valorant tournament with Sam!", namespace=NS)
        assert mem.graph.entity("Sam", namespace=NS).mentions == 1


def test_linker_switch_off(config: Config, store_location: str) -> None:
    cfg = _config(config, linker=False)
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as mem:
        mem.add("Nate: I won my first Valorant tournament!", namespace=NS)
        assert mem.graph.entities(namespace=NS) == []
    cfg = _config(config, graph=False)  # no graph at all: no linking either
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as mem:
        mem.add("Nate: Xenoblade is fun", namespace=NS)
        with pytest.raises(NotFoundError):
            mem.graph.entity("nate", namespace=NS)


def test_a_failing_link_rolls_back_the_memory(
    config: Config, store_location: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with Memory(store_location, config=config, embedder=HashEmbedder()) as mem:
        store_graph = mem.store.graph
        original = store_graph.record

        def record_then_fail(*args: Any, **kwargs: Any) -> Any:
            original(*args, **kwargs)  # the graph rows are written ...
            raise RuntimeError("disk full")  # ... then the transaction fails

        monkeypatch.setattr(store_graph, "record", record_then_fail)
        with pytest.raises(RuntimeError, match="disk full"):
            mem.add_many(
                ["Gina: I opened a store in Chicago", "Jon: Paris was lovely"], namespace=NS
            )
        monkeypatch.undo()
        assert mem.get_all(namespace=NS) == []
        assert mem.graph.entities(namespace=NS) == []
        assert mem.jobs.counts().get("pending", 0) == 0


def test_a_bug_in_the_rules_never_costs_the_memory(
    config: Config, store_location: str, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(text: str) -> Any:
        raise ValueError("a rule broke")

    with Memory(store_location, config=config, embedder=HashEmbedder()) as mem:
        mem._core.linker = broken
        with caplog.at_level("WARNING", logger="engram.write"):
            note = mem.add("Gina: I opened a store in Chicago", namespace=NS)
        assert mem.get(note.id, namespace=NS).content == "Gina: I opened a store in Chicago"
        assert mem.graph.entities(namespace=NS) == []
        assert "stored it unlinked" in caplog.text
        assert mem.jobs.counts().get("pending", 0) == 1  # the extract job still reads it


def test_linker_and_extract_job_count_each_mention_once(
    config: Config, store_location: str
) -> None:
    cfg = _config(config, extractor="offline")
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as mem:
        note = mem.add("Caroline: I went to the LGBTQ support group in Boston.", namespace=NS)
        caroline = mem.graph.entity("caroline", namespace=NS)
        group = mem.graph.entity("lgbtq support group", namespace=NS)
        linked = {r.id: r.mentions for r in mem.graph.relations(namespace=NS)}
        assert caroline.mentions == 1 and group.mentions == 1
        assert mem.jobs.process_pending() >= 1
        # The offline extract job states the same triple for the same memory: record is
        # idempotent per memory, so no mention and no relation is counted twice.
        assert mem.graph.entity("caroline", namespace=NS).mentions == 1
        assert mem.graph.entity("lgbtq support group", namespace=NS).mentions == 1
        after = {r.id: r.mentions for r in mem.graph.relations(namespace=NS)}
        assert {k: after[k] for k in linked} == linked
        assert mem.graph.memories_of("boston", namespace=NS) == [note.id]


def test_a_decision_is_protected_at_write_time(config: Config, store_location: str) -> None:
    # FEATURES P9 (seed 004): the inline linker marks a decision's attributes
    # ``constraint`` (importance 0.85) in the memory's transaction, before any job runs.
    cfg = _config(config, enabled=True, extractor="offline")
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as mem:
        note = mem.add(
            "We decided to use PostgreSQL for the Orion project. The team met on Monday.",
            namespace=NS,
        )
        assert mem.jobs.counts().get("pending", 0) >= 1  # the extract job has not run
        for name in ("PostgreSQL", "Orion"):
            [attribute] = mem.graph.attributes(name, namespace=NS)
            assert attribute.memory_id == note.id and attribute.kind == "constraint"
            assert attribute.importance == pytest.approx(0.85)
            assert attribute.content == "We decided to use PostgreSQL for the Orion project."
        mem.jobs.process_pending()  # the deep pass never demotes it (kinds only rise)
        kinds = {a.content: a.kind for a in mem.graph.attributes("Orion", namespace=NS)}
        assert kinds["We decided to use PostgreSQL for the Orion project."] == "constraint"
        plain = mem.add("Dana: I visited Lisbon in the spring.", namespace=NS)
        assert mem.graph.attributes("Lisbon", namespace=NS) == []  # no decision, no constraint
        assert mem.graph.entity("Lisbon", namespace=NS) is not None and plain.id


def test_protection_reads_decision_clauses() -> None:
    assert protection("Sam: the weather was fine today") is None
    clause, importance = protection("Sam: Ok. We went with Rust for the CLI. Lunch was late.")
    assert clause == "We went with Rust for the CLI." and importance == pytest.approx(0.85)
