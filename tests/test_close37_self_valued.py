"""A value that only repeats its relation's noun or its subject (task close37,
``relation_values.self_valued``): "Leo has lessons with Mr Adeyemi now" was read as
``Leo has_lesson lessons`` (the type is made of the value's head noun), and the
change reader then took "lessons" for the slot's new value and closed the true
``Leo has_lesson piano`` (change reading round fifteen's held case h06). Such a value
is not recorded and closes nothing. The sentences are written for these tests; both
backends (``mem``), through ``mem.add`` and a mined chat."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.pipeline import relation_ends, relation_values

NAMESPACE = "user:close37"
START = datetime(2026, 3, 2, 9, tzinfo=UTC)


def _rows(mem: Memory) -> list[tuple[str, str, str, bool]]:
    rows = mem.graph.relations(current_only=False, namespace=NAMESPACE)
    return [
        (r.source, r.relation_type, r.target, r.valid_to is not None)
        for r in rows
        if r.relation_type != "talks_about"
    ]


@pytest.mark.parametrize(
    ("source", "relation", "target"),
    [
        ("Leo", "has", "lessons"),
        ("son", "has_football", "football"),
        ("user", "has", "hobbies"),
        ("user", "has_standup", "stand up"),
        ("Nadia", "has", "the classes"),
        ("user", "has_hobby", "hobbies"),
        ("Mrs Greaves", "named", "Greaves"),
    ],
)
def test_a_value_that_is_its_types_noun_or_its_subject_is_no_thing(
    source: str, relation: str, target: str
) -> None:
    assert relation_ends.not_a_thing(source, relation, target)


@pytest.mark.parametrize(
    ("source", "relation", "target"),
    [
        ("Leo", "has_lesson", "piano"),
        ("user", "has", "48V battery"),
        ("user", "has_class", "yoga class"),
        ("Sam", "uses", "Sam's laptop"),
        ("user", "works_at", "User Interviews"),
        ("user", "plays", "football"),
    ],
)
def test_a_value_naming_more_than_its_type_or_subject_stays(
    source: str, relation: str, target: str
) -> None:
    kind = relation if "_" in relation else relation + "_x"
    assert not relation_values.self_valued(source, relation, kind, target)


def test_a_change_read_as_the_types_own_noun_closes_nothing(mem: Memory) -> None:
    """h06's shape: the true slot's value stays current, no "lessons" is recorded."""
    mem.add("Priya learns violin with Mr Okoro.", namespace=NAMESPACE, created_at=START)
    mem.jobs.process_pending()
    mem.add(
        "Mr Okoro moved away, Priya has lessons with Ms Lund now.",
        namespace=NAMESPACE,
        created_at=START + timedelta(days=30),
    )
    mem.jobs.process_pending()
    rows = _rows(mem)
    assert not [r for r in rows if r[3] and r[2] != "Mr Okoro"], rows
    assert not [r for r in rows if r[2].lower() in ("lessons", "lesson")], rows


@pytest.mark.parametrize(
    ("text", "junk"),
    [
        ("My son has football every Saturday morning.", "football"),
        ("Nadia has lessons on Tuesdays after school.", "lessons"),
        ("I have standup at half nine.", "standup"),
    ],
)
def test_a_self_valued_relation_is_not_recorded(mem: Memory, text: str, junk: str) -> None:
    mem.add(text, namespace=NAMESPACE, created_at=START)
    mem.jobs.process_pending()
    rows = _rows(mem)
    assert not [r for r in rows if r[2].lower() == junk], rows


def test_a_mined_chat_records_no_self_valued_relation(mem: Memory) -> None:
    turns = [
        ("user", "morning!"), ("assistant", "Morning! How can I help?"),
        ("user", "My daughter has swimming on Thursdays now."),
        ("assistant", "Got it."), ("user", "thanks"),
    ]  # fmt: skip
    chat = [
        {"role": role, "content": said, "created_at": (START + timedelta(minutes=k)).isoformat()}
        for k, (role, said) in enumerate(turns)
    ]
    mem.palace.mine_conversation(chat, wing="chats", session="c1", graph=True, namespace=NAMESPACE)
    mem.jobs.process_pending()
    rows = _rows(mem)
    assert not [r for r in rows if r[2].lower() == "swimming"], rows


def test_a_thing_had_said_with_an_article_is_kept_and_closes_nothing(mem: Memory) -> None:
    """ "Tomasz has a parrot" is a thing had (``has_parrot parrot``), kept in passing; "a
    lesson" said in a change is read as no new value of the lesson slot."""
    mem.add("Tomasz has a parrot, which is noisy.", namespace=NAMESPACE, created_at=START)
    mem.add("Priya learns violin with Mr Okoro.", namespace=NAMESPACE, created_at=START)
    mem.jobs.process_pending()
    mem.add(
        "Mr Okoro moved away, Priya has a lesson with Ms Lund now.",
        namespace=NAMESPACE,
        created_at=START + timedelta(days=30),
    )
    mem.jobs.process_pending()
    rows = _rows(mem)
    assert [r for r in rows if r[0] == "Tomasz" and r[2] == "parrot" and not r[3]], rows
    assert not [r for r in rows if r[3] and r[2] != "Mr Okoro"], rows
