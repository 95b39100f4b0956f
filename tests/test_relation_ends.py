"""Which ends of a read relation name an entity (task x22,
``engram.pipeline.relation_ends``): a pronoun, reported speech or a generic "guy
called ..." is none; a name carried in a relation type is the relation's target."""

from __future__ import annotations

from datetime import UTC, datetime

from engram.pipeline import relation_ends
from engram.store.protocols.graph import SINGLE_VALUED, Statement

T0 = datetime(2026, 10, 1, 9, tzinfo=UTC)


def test_pronouns_reported_speech_and_someone_named_are_dropped() -> None:
    statement = Statement(
        "m1",
        [
            ("he", "likes", "sake", 0.7),
            ("sister says I", "likes", "spicy food", 0.7),
            ("friend Priya", "works_at", "Monzo", 0.75),
            ("user", "partner_sam", "gluten intolerant", 0.6),
            ("guy", "named", "Mr Okafor", 0.65),
            ("project", "named", "Tasker", 0.65),
            ("Zara", "dates", "someone called Omar", 0.7),
            ("It Ends With Us", "is_a", "novel", 0.6),
        ],
        T0,
        T0,
    )
    text = "my partner Sam is gluten intolerant; a guy called Mr Okafor rang"
    kept = [t[:3] for t in relation_ends.sound(statement, text).triples]
    assert kept == [
        ("Priya", "works_at", "Monzo"),
        ("user", "partner", "Sam"),
        ("project", "named", "Tasker"),
        ("Zara", "dates", "Omar"),
        ("It Ends With Us", "is_a", "novel"),
    ]


def test_names_entity() -> None:
    for name in ("he", "She", "it", "sister says I", "they", "you"):
        assert not relation_ends.names_entity(name), name
    for name in (
        "Ken",
        "brother Ken",
        "It Ends With Us",
        "The Who",
        "spicy food",
        "Bosch these days",
    ):
        assert relation_ends.names_entity(name), name


def test_pronouns_are_the_values_of_a_pronouns_relation() -> None:
    statement = Statement("m1", [("user", "pronouns", "they", 0.75)], T0, T0)
    assert relation_ends.sound(statement, "my pronouns are they/them now") is statement


def test_a_rewritten_type_closes_nothing_and_a_kept_one_still_closes() -> None:
    statement = Statement(
        "m1",
        [("user", "partner_sam", "gluten intolerant", 0.6), ("she", "lives_in", "York", 0.75)],
        T0,
        T0,
    )
    out = relation_ends.sound(statement, "my partner Sam is gluten intolerant")
    assert [t[:3] for t in out.triples] == [("user", "partner", "Sam")]
    assert out.single_valued == frozenset()
    kept = Statement(
        "m2", [("user", "lives_in", "York", 0.75), ("he", "likes", "sake", 0.7)], T0, T0
    )
    out = relation_ends.sound(kept, "I live in York. he likes sake")
    assert "lives_in" in SINGLE_VALUED and out.single_valued == frozenset({"lives_in"})
