"""Novelty assessment (FEATURES H6, seed 000's ``assess_novelty``).

Seed 000's known gap is that the word-overlap fallback had no tests and "could return
misleading novelty scores when the research context and new results share domain
vocabulary but differ in substance". Most tests here run that fallback (a ``Memory``
without an embedder): shared vocabulary with different substance, numbers, negation,
empty inputs, duplicates and near-duplicates. The embedding path is checked with the
hash embedder, which plugs in through the real ``Embedder`` seam.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from conftest import FailingEmbedder, HashEmbedder
from engram import Config, InvalidInputError, Memory
from engram.review import Novelty
from engram.review.novelty import context_pieces
from engram.review.overlap import features

CONTEXT = "Quantization cuts LLM inference cost by storing weights in 4 bits instead of 16."


@pytest.fixture
def plain(config: Config) -> Iterator[Memory]:
    """A store without an embedder: the heuristic answers."""
    with Memory(":memory:", config=config, embedder=None) as m:
        yield m


def novelty_of(mem: Memory, result: str, context: str | None = CONTEXT) -> float:
    report = mem.review.assess_novelty([result], context, use_memories=False)
    return report.results[0].novelty


# -- the heuristic (no embedder) ---------------------------------------------------------
def test_the_heuristic_says_so(plain: Memory) -> None:
    report = plain.review.assess_novelty(["anything at all"], CONTEXT)
    assert report.method == "heuristic"
    assert report.note is not None and "no embedder" in report.note


def test_an_exact_duplicate_of_the_context_adds_nothing(plain: Memory) -> None:
    report = plain.review.assess_novelty([CONTEXT], CONTEXT)
    assert report.score == 0.0
    assert report.results[0].closest == "context:0"
    assert report.results[0].similarity == 1.0


@pytest.mark.parametrize(
    "near",
    [
        "quantization cuts LLM inference costs by storing weights in 4 bits, instead of 16",
        "QUANTIZATION CUTS LLM INFERENCE COST BY STORING WEIGHTS IN 4 BITS INSTEAD OF 16!",
        "Quantization cuts the LLM inference cost by storing the weights in 4 bits instead of 16.",
    ],
    ids=["plural-and-punctuation", "shouting", "extra-stop-words"],
)
def test_a_near_duplicate_adds_almost_nothing(plain: Memory, near: str) -> None:
    assert novelty_of(plain, near) < 0.05


def test_shared_vocabulary_with_different_substance_reads_as_new(plain: Memory) -> None:
    """The seed's gap: both texts are about cutting LLM inference cost, with different
    mechanisms. Half the content words are shared, yet most of the substance is new."""
    other = "Batching cuts LLM inference cost by serving many requests together on one GPU."
    shared = features(CONTEXT) & features(other)
    assert {"cut", "llm", "inference", "cost"} <= shared  # the domain vocabulary
    assert novelty_of(plain, other) > 0.6
    assert novelty_of(plain, other) > novelty_of(plain, CONTEXT.lower()) + 0.6


def test_different_numbers_are_different_substance(plain: Memory) -> None:
    other = "Quantization cuts LLM inference cost by storing weights in 8 bits instead of 32."
    swapped = "Storing weights in 16 bits instead of 4 cuts LLM inference cost."
    assert 0.3 < novelty_of(plain, other) < 0.7
    assert novelty_of(plain, swapped) > 0.25  # same words and numbers, other claim


def test_negation_is_not_a_duplicate(plain: Memory) -> None:
    negated = "Quantization does not cut LLM inference cost by storing weights in 4 bits."
    assert novelty_of(plain, negated) > 0.1
    assert novelty_of(plain, negated) > novelty_of(plain, CONTEXT)


def test_unrelated_results_are_fully_new(plain: Memory) -> None:
    assert novelty_of(plain, "The museum reopens in March with a wing for Dutch art.") == 1.0


def test_domain_words_every_text_shares_count_for_little(plain: Memory) -> None:
    """Words in every text (the field's vocabulary) weigh less than the rest, so two
    results that differ only in their specifics still read as mostly new."""
    context = ["LLM inference cost: quantization to 4 bits.", "LLM inference cost: pruning."]
    results = ["LLM inference cost: speculative decoding with a draft model."]
    report = plain.review.assess_novelty(results, context, use_memories=False)
    assert report.results[0].novelty > 0.6


def test_empty_inputs(plain: Memory) -> None:
    nothing = plain.review.assess_novelty([], CONTEXT)
    assert (nothing.score, nothing.results) == (0.0, ())
    for context in (None, "", [], ["", "  "]):
        report = plain.review.assess_novelty(["a new finding about kites"], context)
        assert report.score == 1.0 and report.results[0].closest is None
    blank = plain.review.assess_novelty(["", "   ", "the of and"], CONTEXT)
    assert [r.novelty for r in blank.results] == [0.0, 0.0, 0.0]  # nothing to add
    assert blank.score == 0.0


def test_a_repeated_result_adds_nothing_the_first_did_not(plain: Memory) -> None:
    kite = "Kites were flown in China 2,000 years ago."
    report = plain.review.assess_novelty([kite, kite, kite.upper()], CONTEXT)
    assert [r.novelty for r in report.results] == [1.0, 0.0, 0.0]
    assert [r.closest for r in report.results] == [None, "result:0", "result:0"]
    assert report.score == pytest.approx(1 / 3, abs=1e-3)


def test_known_memories_count_as_known(plain: Memory) -> None:
    stored = plain.add("The staging database is db-staging-2 on port 5433")
    result = "the staging database is db-staging-2 on port 5433"
    with_memories = plain.review.assess_novelty([result])
    assert with_memories.results[0].novelty == 0.0
    assert with_memories.results[0].closest == f"memory:{stored.id}"
    alone = plain.review.assess_novelty([result], use_memories=False)
    assert alone.results[0].novelty == 1.0
    # Another namespace's memories are not known here.
    assert plain.review.assess_novelty([result], user_id="bob").results[0].novelty == 1.0


# -- inputs ------------------------------------------------------------------------------
def test_results_may_be_dicts_hits_or_records(mem: Memory) -> None:
    record = mem.add("Kites were flown in China 2,000 years ago", title="Kites")
    [hit] = mem.search("kites china", limit=1)
    web = {"title": "Kites", "snippet": "Kites were flown in China 2,000 years ago", "url": "x"}
    report = mem.review.assess_novelty([web, hit, record], use_memories=False)
    assert [r.novelty for r in report.results] == [1.0, 0.0, 0.0]


@pytest.mark.parametrize(
    ("results", "context", "message"),
    [
        ("a string", None, "list of search results"),
        ([42], None, "a search result is a string"),
        ([{"url": 1}], 7, "context is a string"),
        (["x"] * 201, None, "at most 200"),
    ],
)
def test_bad_input_is_refused(
    plain: Memory, results: object, context: object, message: str
) -> None:
    with pytest.raises(InvalidInputError, match=message):
        plain.review.assess_novelty(results, context)  # type: ignore[arg-type]


def test_context_is_split_into_paragraph_sized_pieces() -> None:
    long = " ".join(f"Sentence number {i} says something." for i in range(60))
    pieces = context_pieces(["First paragraph.\n\nSecond paragraph.", long])
    assert pieces[:2] == ["First paragraph.", "Second paragraph."]
    assert all(len(p) <= 650 for p in pieces) and len(pieces) > 3
    assert " ".join(pieces[2:]) == long


# -- the embedding path ------------------------------------------------------------------
def test_embedding_path_scores_against_context_and_memories(mem: Memory) -> None:
    stored = mem.add("The staging database is db-staging-2 on port 5433")
    report = mem.review.assess_novelty(
        [
            CONTEXT.upper(),
            "the staging database is db-staging-2 on port 5433",
            "The museum reopens in March with a wing for Dutch art",
        ],
        CONTEXT,
    )
    assert isinstance(report, Novelty) and report.method == "embedding" and report.note is None
    first, second, third = report.results
    assert (first.novelty, first.closest) == (0.0, "context:0")
    assert (second.novelty, second.closest) == (0.0, f"memory:{stored.id}")
    assert third.novelty > 0.7
    assert report.score == pytest.approx(third.novelty / 3, abs=1e-3)
    assert all(0.0 <= r.novelty <= 1.0 for r in report.results)


def test_embedding_path_duplicates_and_empties(mem: Memory) -> None:
    kite = "Kites were flown in China 2,000 years ago."
    report = mem.review.assess_novelty([kite, "", kite], None, use_memories=False)
    assert [r.novelty for r in report.results] == [1.0, 0.0, 0.0]
    assert report.results[2].closest == "result:0"
    assert mem.review.assess_novelty([], CONTEXT).score == 0.0


def test_a_failing_embedder_falls_back_loudly(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=FailingEmbedder()) as failing:
        report = failing.review.assess_novelty([CONTEXT], CONTEXT)
    assert report.method == "heuristic"
    assert report.note is not None and "embedder failed" in report.note
    assert report.results[0].novelty == 0.0


def test_the_same_call_through_the_embedder_seam_is_deterministic(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as m:
        a = m.review.assess_novelty(["one finding", "another"], "known text")
        b = m.review.assess_novelty(["one finding", "another"], "known text")
    assert a == b
