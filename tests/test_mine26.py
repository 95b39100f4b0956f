"""Task mine26: the review queue on mined chats, and round twenty-three's extraction
leftovers. A changed amount ("budget is 15000 pounds" / "now 18000 pounds") and a
thing sold or quit ("sold the Pixel 7" / "uses a Pixel 7") are contradictions the
review queue holds. A relation keeps its whole object ("allergic to penicillin" is the allergy,
not ``daughter allergic``); a relative's progressive ("my sister is getting married")
and "a big fan of X" name no value; a negation typed without its apostrophe ("i really
dont like") is not agreed as a verb; a user's question that names "Dr. Patel" is still
only a question (sentences are cut as the extraction rules cut them). The labelled chats
(``review_chats.json``) mined by both paths queue no junk review item, on both backends.
"""

from __future__ import annotations

import json
from importlib import resources

import pytest

from engram import Memory
from engram.pipeline import contradiction, offline, triples, turns
from engram.recall.echoes import only_questions
from engram.records import PIPELINE_WHO
from engram.text import split_sentences


def _triples(fact: str) -> list[tuple[str, str, str]]:
    return [(r.source, r.relationship, r.target) for r in triples.relation_triples(fact)]


@pytest.mark.parametrize(
    ("fact", "want"),
    [
        ("User's daughter is allergic to penicillin.", ("daughter", "allergic_to", "penicillin")),
        ("User's son is severely allergic to peanuts.", ("son", "allergic_to", "peanuts")),
        ("Ana is allergic to peanuts.", ("Ana", "allergic_to", "peanuts")),
        ("User is allergic to shellfish.", ("User", "allergic_to", "shellfish")),
        ("Tom's wife is allergic to cats and dogs.", ("Tom's wife", "allergic_to", "cats")),
    ],
)
def test_an_allergy_keeps_its_allergen(fact: str, want: tuple[str, str, str]) -> None:
    got = _triples(fact)
    assert want in got, got
    assert not [t for t in got if t[2] in ("allergic", "severely allergic")], got


@pytest.mark.parametrize(
    "fact",
    [
        "User's dad is afraid of dogs.",
        "User's rent is due on the 1st of every month.",
        "User's sister is getting married in October.",
        "User's brother is moving to Canada next year.",
    ],
)
def test_a_relatives_predicate_is_no_value_of_the_relation(fact: str) -> None:
    assert _triples(fact) == [], _triples(fact)


def test_a_fan_is_no_kind_of_thing() -> None:
    assert _triples("User is a big fan of Italian food.") == [("User", "fan_of", "Italian food")]


@pytest.mark.parametrize(
    ("fact", "want"),
    [
        ("Jon's favorite style is contemporary.", ("Jon", "favorite_style", "contemporary")),
        ("User's favourite hobby is hiking.", ("User", "favourite_hobby", "hiking")),
        ("User's favourite food is pizza with olives.", ("User", "favourite_food", "pizza")),
        ("User's sister is a nurse.", ("User", "sister", "nurse")),
        ("User's dentist is Dr. Okafor.", ("User", "dentist", "Dr Okafor")),
        ("User's car is red.", ("User", "car", "red")),
    ],
)
def test_attribute_values_read_as_before(fact: str, want: tuple[str, str, str]) -> None:
    assert want in _triples(fact)


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("i really dont like horror movies", "User really doesnt like horror movies."),
        ("I cant swim in cold water at all", "User cant swim in cold water at all."),
        ("i havent seen my brother in years", "User hasnt seen their brother in years."),
        ("I count sheep to get to sleep", "User counts sheep to get to sleep."),
    ],
)
def test_a_negation_typed_without_its_apostrophe_is_no_verb(text: str, fact: str) -> None:
    facts = [f.content for f in offline.analyse(text, speaker=turns.OWNER).facts]
    assert facts == [fact]


@pytest.mark.parametrize(
    "text",
    [
        "Is Dr. Patel in on Fridays?",
        "Is Mr. Evans free? Can St. Mary's take me?",
        "Should I use e.g. Postgres here?",
        "Is 9 a.m. too early to fast?",
        "What car do I drive?",
    ],
)
def test_a_question_naming_a_title_is_only_a_question(text: str) -> None:
    assert only_questions(text)


@pytest.mark.parametrize(
    "text", ["Dr. Patel is in on Fridays.", "I live in Leeds. Where do I live?", "Hmm. What now?"]
)
def test_a_statement_is_not_only_questions(text: str) -> None:
    assert not only_questions(text)


def test_sentences_are_cut_once_for_both_readers() -> None:
    # the extraction rules and recall's echoes read the same cut (engram.text)
    assert turns.split_sentences is split_sentences
    assert split_sentences("I saw Dr. Patel at 9 a.m. today. It went well.") == [
        "I saw Dr. Patel at 9 a.m. today.",
        "It went well.",
    ]


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        (
            "User's budget is 15000 pounds.",
            "User's budget is now 18000 pounds.",
            "user budget has one value: 18000 replaces 15000",
        ),
        (
            "User uses a Pixel 7 and VS Code is User's editor.",
            "User sold the Pixel 7 and bought an iPhone 15.",
            "user no longer holds what the old statement says (pixel)",
        ),
        (
            "User works at Acme Logistics.",
            "User quit Acme.",
            "user no longer holds what the old statement says (acme)",
        ),
    ],
)
def test_a_changed_amount_and_a_thing_sold_are_contradictions(old: str, new: str, why: str) -> None:
    verdict = contradiction.syntactic(new, old)
    assert verdict.contradicts and verdict.reason == why, verdict


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's budget is 15000 pounds.", "User's budget is 15000 pounds."),
        ("User's rent is 950 pounds a month.", "User's rent is 950 euros a month."),
        ("User's budget is 15000 pounds.", "User's budget is 18000 pounds and 200 euros."),
        ("User has a bike.", "User sold the car."),
        ("Raj has an iPhone 15.", "User sold the iPhone 15."),
        ("User works at Acme.", "User didn't quit Acme."),
    ],
)
def test_amounts_and_endings_that_do_not_conflict(old: str, new: str) -> None:
    assert not contradiction.syntactic(new, old).contradicts


def _chats() -> list[dict[str, object]]:
    path = resources.files("engram.data").joinpath("review_chats.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    return list(data["chats"])


def test_the_labelled_chats_shape() -> None:
    chats = _chats()
    assert len(chats) >= 12
    assert {c["fold"] for c in chats} == {"tune", "check"}
    for i, chat in enumerate(chats):
        messages = chat["messages"]
        assert isinstance(messages, list) and 20 <= len(messages) <= 40
        assert chat["fold"] == ("tune" if i % 2 == 0 else "check")
        assert [m["role"] for m in messages] == ["user", "assistant"] * (len(messages) // 2)
    wanted = sum(len(c["want"]) for c in chats)  # type: ignore[arg-type]
    assert 0 < wanted < sum(len(c["messages"]) for c in chats) // 20  # type: ignore[arg-type]


def _items(mem: Memory, user: str) -> list[tuple[str, str]]:
    out = []
    for item in mem.review.list(user_id=user, limit=1000):
        sides = dict(item.sides or {})
        out.append((str(sides.get("old")), str(sides.get("new"))))
    return out


@pytest.mark.parametrize("chat_id", ["allergy-clinic", "jokes-flat", "car-talk"])
def test_a_mined_chat_without_a_change_queues_nothing(mem: Memory, chat_id: str) -> None:
    chat = next(c for c in _chats() if c["id"] == chat_id)
    mem.palace.mine_conversation(chat["messages"], wing=chat_id, user_id="kim")  # type: ignore[arg-type]
    mem.jobs.process_pending()
    mem.jobs.process_pending()
    assert _items(mem, "kim") == []


def test_a_mined_budget_change_is_one_review_item(mem: Memory) -> None:
    chat = next(c for c in _chats() if c["id"] == "wedding-budget")
    mem.palace.mine_conversation(chat["messages"], wing="wedding", user_id="kim")  # type: ignore[arg-type]
    mem.jobs.process_pending()
    mem.jobs.process_pending()
    items = _items(mem, "kim")
    assert len(items) == 1, items
    old, new = items[0]
    assert "15000" in old and "18000" in new


def test_the_proxys_allergy_turn_keeps_the_allergen(mem: Memory) -> None:
    text = "Please note that my daughter is allergic to penicillin."
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": text},
    ]
    mem.chat.after(messages, f"Understood. {text}", user_id="kim", agent_id="assistant")
    mem.jobs.process_pending()
    mem.jobs.process_pending()
    facts = [r.content for r in mem.get_all(user_id="kim") if r.who == PIPELINE_WHO]
    assert facts == ["User's daughter is allergic to penicillin."]
    rels = [(r.source, r.relation_type, r.target) for r in mem.graph.relations(user_id="kim")]
    assert ("daughter", "allergic_to", "penicillin") in rels, rels
    assert not [r for r in rels if r[2] == "allergic"], rels
    assert _items(mem, "kim") == []
