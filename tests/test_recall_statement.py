"""issue 24 (Q1): a question read as the statement that would answer it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from engram import Config, Memory
from engram.config import RecallConfig
from engram.embed.cache import QueryVectorCache
from engram.recall import statement
from hashembed import HashEmbedder


@pytest.mark.parametrize(
    ("question", "third", "first"),
    [
        ("What has Melanie painted?", "Melanie painted", "I painted"),
        (
            "What activities does Melanie partake in?",
            "Melanie partakes in activities",
            "I partake in activities",
        ),
        (
            "Would Caroline pursue writing as a career?",
            "Caroline wants to pursue writing as a career",
            "I want to pursue writing as a career",
        ),
        ("which web framework does the API use?", "the API uses web framework", None),
        ("What did Caroline research?", "Caroline researched", "I researched"),
        ("What items has Melanie bought?", "Melanie bought items", "I bought items"),
        ("How many children does Melanie have?", "Melanie has children", "I have children"),
        ("What do Melanie's kids like?", "Melanie's kids like", "my kids like"),
        ("What is Caroline's identity?", "Caroline's identity is", "my identity is"),
        ("Which cities has John been to?", "John went to cities", "I went to cities"),
        (
            "What events has Caroline participated in to help children?",
            "Caroline participated in events to help children",
            "I participated in events to help children",
        ),
        (
            "What types of pottery have Melanie and her kids made?",
            "Melanie and her kids made pottery",
            None,
        ),
        ("What symbols are important to Caroline?", "symbols are important to Caroline", None),
        ("Who supports Caroline?", "supports Caroline", None),
        (
            "Would Caroline be considered religious?",
            "Caroline is considered religious",
            "I am considered religious",
        ),
        ("How did Gina promote her store?", "Gina promoted her store", "I promoted her store"),
        ("When did we try the new plan?", "we tried the new plan", None),
    ],
)
def test_a_question_reads_as_the_statement_that_answers_it(
    question: str, third: str, first: str | None
) -> None:
    assert statement.statement(question) == third
    assert statement.statement(question, "first") == (first or third)


@pytest.mark.parametrize("text", ["deploy steps for staging", "Melanie", "", "?", "What?"])
def test_what_is_no_question_has_no_statement(text: str) -> None:
    assert statement.statement(text) is None


def test_questions_among_memories_are_told_apart() -> None:
    assert statement.asks("Caroline: Wow, Mel! Any more paintings coming up?")
    assert statement.asks("Melanie: Did you go? [image: a photo of a lake]")
    assert not statement.asks("Melanie: I painted a sunset last week.")
    assert statement.asks_fact("What has Melanie painted?")
    assert not statement.asks_fact("Would Caroline likely enjoy Vivaldi?")
    assert not statement.asks_fact("Melanie painted")


def test_a_query_and_its_statement_cost_one_model_call() -> None:
    embedder, cache = HashEmbedder(), QueryVectorCache()
    cfg = RecallConfig(statement="leg", statement_person="third")
    asked, said = statement.vectors("What has Melanie painted?", "x", cfg, embedder, cache)
    assert embedder.calls == 1 and said is not None
    assert np.allclose(said, embedder.embed_batch(["Melanie painted"])[0])
    assert np.allclose(asked, embedder.embed_batch(["x"])[0])
    calls = embedder.calls
    statement.vectors("What has Melanie painted?", "x", cfg, embedder, cache)
    assert embedder.calls == calls  # both from the cache
    off = statement.vectors("What has Melanie painted?", "y", RecallConfig(), embedder, cache)
    assert off[1] is None and embedder.calls == calls + 1
    mean, none = statement.vectors(
        "What has Melanie painted?", "x", replace(cfg, statement="mean"), embedder, cache
    )
    assert none is None and np.isclose(float(np.linalg.norm(mean)), 1.0)
    assert np.allclose(mean, (asked + said) / np.linalg.norm(asked + said), atol=1e-6)


def test_recall_ranks_the_answer_above_a_question_like_turn(tmp_path: object) -> None:
    config = Config.load(env={}, home=str(tmp_path))
    with Memory(":memory:", config=config, embedder=HashEmbedder(1024)) as mem:
        mem.add_many(
            [
                "What has the weather been like, Melanie? Has it rained?",
                "Melanie painted a lake at sunrise.",
                "The shop closes at nine on Sundays.",
            ],
            namespace="chat",
        )

        def first(**settings: object) -> tuple[str, dict[str, float | None]]:
            got = mem.recall(
                "What has Melanie painted?",
                namespace="chat",
                strategy="dense",
                abstain=False,
                **settings,  # type: ignore[arg-type]
            )
            return got.hits[0].memory.content, {h.memory.id: h.breakdown.sim for h in got.hits}

        assert RecallConfig().statement == "off"  # off by default (measured: Q1)
        off_top, off_sims = first()
        on_top, on_sims = first(statement="leg", statement_weight=10.0, statement_k=1)
        assert off_top.startswith("What has the weather")
        assert on_top == "Melanie painted a lake at sunrise."
        assert on_sims == pytest.approx(off_sims)  # the question's cosines do not move
        assert first(statement="query")[0] == "Melanie painted a lake at sunrise."


def test_statement_settings_are_recall_settings() -> None:
    config = Config.load(
        env={"ENGRAM_RECALL_STATEMENT": "leg", "ENGRAM_RECALL_STATEMENT_PERSON": "first"}
    )
    assert (config.recall.statement, config.recall.statement_person) == ("leg", "first")
    with pytest.raises(Exception, match="statement"):
        Config.load(env={"ENGRAM_RECALL_STATEMENT": "always"})
