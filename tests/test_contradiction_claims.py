"""Contradictions that are real (issue 28): the claim reader, the detector on the lines
that filled the review queue with junk, the labelled set and its bench command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engram.bench import contradictions as contra
from engram.pipeline import claims, contradiction

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bench"

# Pairs the b0232ed pipeline queued as UPDATE proposals after mining LoCoMo conv-26
# offline (issue 28): none is a contradiction.
JUNK = [
    (
        "Caroline felt so accepted and happy, just being around people who accepted and "
        "celebrated Caroline.",
        "Caroline: I felt so proud and grateful - the vibes were amazing and it was "
        "comforting to know I'm not alone and have a great community around me.",
    ),
    (
        "Caroline is thrilled to make a family for kids who need one.",
        "Caroline: Thanks so much, Melanie! It's beautiful! It really brings home how much "
        "love's in families - both blood and the ones we choose. I hope to build my own "
        "family and put a roof over kids who haven't had that before.",
    ),
    (
        "Melanie is a big fan of pottery - the creativity and skill is awesome.",
        "Melanie thinks Pottery is a huge part of Melanie's life, not just a hobby - it "
        "helps Melanie express Melanie's emotions.",
    ),
    (
        "Melanie will never forget the day their youngest took her first steps.",
        "Caroline took the first step towards becoming a mom - Caroline applied to adoption "
        "agencies.",
    ),
    (
        "Next month Caroline is having an LGBTQ art show with Caroline's paintings - can't wait.",
        "Caroline is putting together an LGBTQ art show next month and Caroline is going to "
        "show their paintings.",
    ),
    (
        "Caroline is really thankful for their friends, family and mentors' support.",
        "Some close friends kept supporting Caroline, but a few weren't able to handle it.",
    ),
    (
        "Melanie loves camping trips with their fam, 'cause nature brings such peace and serenity.",
        "Melanie thinks nature and quality time, can't beat it.",
    ),
]


@pytest.mark.parametrize(("old", "new"), JUNK)
def test_the_junk_the_queue_filled_with_is_not_a_contradiction(old: str, new: str) -> None:
    verdict = contradiction.syntactic(new, old)
    assert not verdict.contradicts, verdict.reason
    assert contradiction.lexical(new, old).contradicts  # what seed 004's literal test said


@pytest.mark.parametrize(
    "text",
    [
        "Caroline: Thanks so much, Melanie!",
        "Caroline: I felt so proud and grateful.",
        "Melanie: Hi Caroline! So good to hear from you.",
        "Caroline is so excited to meet other people in the community.",
        "Melanie thinks nature and quality time, can't beat it.",
        "Caroline: I'm so lucky to have such a great support system.",
        "Melanie: Wow, that's awesome!",
        "Derek will move to Denver next year.",
        "Do you still live in Boston?",
        "She doesn't live in Boston.",
    ],
)
def test_filler_questions_plans_and_unresolved_subjects_form_no_claim(text: str) -> None:
    assert claims.read(text) == []


def test_a_claim_is_subject_attribute_value() -> None:
    [claim] = claims.read("Derek doesn't live in Boston anymore.")
    assert (claim.subject, claim.attribute, claim.value, claim.negated) == (
        ("derek",),
        "residence",
        frozenset({"boston"}),
        True,
    )
    [spoken] = claims.read("Caroline: I work at the library.")
    assert spoken.subject == ("caroline",)  # "I" is the speaker of a "Name: ..." line
    [moved] = claims.read("We migrated billing to Postgres.")
    assert (moved.subject, moved.attribute, moved.change) == (("billing",), "use", True)


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("Derek lives in Boston.", "Derek moved to Denver.", ["denver", "boston"]),
        ("Ana works at Acme.", "Ana works at Initech now.", ["initech", "acme"]),
        ("Dark mode is enabled.", "Dark mode is disabled.", ["enabled", "disabled"]),
        ("Caroline likes camping.", "Caroline hates camping.", ["camping"]),
        ("Sam is vegetarian.", "Sam is not vegetarian.", ["vegetarian"]),
        ("The billing service uses PostgreSQL.", "The billing service migrated to MongoDB.",
         ["mongodb", "postgresql"]),
    ],
)  # fmt: skip
def test_real_contradictions_are_found_with_a_reason_in_words(
    old: str, new: str, words: list[str]
) -> None:
    verdict = contradiction.syntactic(new, old)
    assert verdict.contradicts and verdict.method == "syntactic"
    assert all(w in verdict.reason for w in words), verdict.reason
    assert verdict.new_claim and verdict.old_claim


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The API uses PostgreSQL.", "The API also uses Redis."),  # an addition
        ("Derek lives in Boston.", "Derek works in Cambridge."),  # another attribute
        ("Derek lives in Boston.", "Maria lives in Denver."),  # another subject
        ("Caroline likes camping.", "Caroline likes painting."),  # several values
        ("Priya moved to Pune.", "Priya lives in Pune."),  # consistent
        ("Tom doesn't eat meat.", "Tom doesn't drink alcohol."),  # two denials
    ],
)
def test_hard_negatives_are_not_contradictions(old: str, new: str) -> None:
    assert not contradiction.syntactic(new, old).contradicts


def test_the_shipped_set_is_large_labelled_and_split() -> None:
    pairs, left_out = contra.load_set(data=SHARED)
    assert left_out == 0
    assert len(pairs) >= 300
    hand = [p for p in pairs if p["source"] == "hand"]
    assert sum(1 for p in hand if p["label"]) >= 80
    assert {p["fold"] for p in pairs} == {"A", "B"}
    assert len({p["id"] for p in pairs}) == len(pairs)
    assert {contra._source(p) for p in pairs} >= {"hand", "locomo", "locomo-mined", "beam"}


def test_precision_is_at_least_0_9_on_both_folds() -> None:
    scores = contra.labelled(contra.load_set(data=SHARED)[0])
    for fold in contra.FOLDS:
        mine = scores["syntactic"]["folds"][fold]
        assert mine["precision"] is not None and mine["precision"] >= 0.9, (fold, mine)
        assert mine["recall"] is not None and mine["recall"] >= 0.5, (fold, mine)
        # seed 004's literal test, for comparison: mostly wrong on the same pairs.
        assert scores["lexical"]["folds"][fold]["precision"] < 0.5


def test_score_counts_the_confusion_matrix() -> None:
    pairs = [
        {"old": "a", "new": "b", "label": True},
        {"old": "a", "new": "c", "label": False},
        {"old": "a", "new": "d", "label": True},
    ]
    got = contra.score(pairs, lambda new, old: new in ("b", "c"))
    assert (got["tp"], got["fp"], got["fn"], got["tn"]) == (1, 1, 1, 0)
    assert (got["precision"], got["recall"]) == (0.5, 0.5)


def test_a_bad_set_file_says_what_is_wrong(tmp_path: Path) -> None:
    from engram.errors import InvalidInputError

    bad = tmp_path / "set.json"
    bad.write_text(json.dumps([{"old": "x"}]))
    with pytest.raises(InvalidInputError, match="list of objects"):
        contra.load_set(bad)
    with pytest.raises(InvalidInputError, match="cannot read"):
        contra.load_set(tmp_path / "missing.json")
