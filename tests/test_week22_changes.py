"""New-user round twenty-two: a change of plan said in passing to a personal assistant
closes the old value, and the week's junk relations are gone (docs/benchmarks.md,
"2026-12-02, round twenty-two"; round twenty-one's findings 1 and 2).

- "Actually the dentist moved to Thursday the 17th" after "My dentist appointment is on
  Tuesday the 15th": "Actually" opened the subject, "Thursday the 17th" was read as a
  home (``lives_in``) and "the dentist" as another thing than the appointment, so
  nothing closed and the old day ranked above the new one;
- "The wedding is at Quinta da Regaleira": an event's venue, read as ``works_at``;
- "My new phone number is 07700 900462": the number cut at its space.

Every sentence is written for these tests (none is a fold's). The store tests run on
both backends (``mem``), through a mined chat as the proxy mines it.
"""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_events, change_signals, change_things

USER = "sam"


def _said(mem: Memory, *turns: tuple[str, str]) -> None:
    """Each (user, reply) exchange mined as the chat proxy mines it, its jobs run."""
    for n, (text, reply) in enumerate(turns):
        messages = [{"role": "user", "content": text}]
        mem.chat.after(messages, reply, user_id=USER, conversation_id=f"day-{n}")
        mem.jobs.process_pending()


def _rows(mem: Memory) -> dict[tuple[str, str, str], bool]:
    return {
        (r.source, r.relation_type, r.target): r.valid_to is None
        for r in mem.graph.relations(current_only=False, user_id=USER, limit=100)
        if r.relation_type != "talks_about"
    }


VET = (
    "My vet appointment is on Monday the 14th at 4pm with Dr. Haas.",
    "Noted: the vet on Monday the 14th at 4pm, Dr. Haas.",
)
VET_MOVED = (
    "Actually the vet moved to Wednesday the 16th, same time.",
    "Updated: the vet is now on Wednesday the 16th at 4pm.",
)


def test_a_change_of_day_said_in_passing_closes_the_old_day(mem: Memory) -> None:
    _said(mem, VET, VET_MOVED)
    rows = _rows(mem)
    assert rows == {
        ("vet appointment", "scheduled", "Monday the 14th"): False,
        ("vet appointment", "scheduled", "Wednesday the 16th"): True,
    }, rows


@pytest.mark.parametrize(
    "question", ["When is my vet appointment?", "Am I still going to the vet on Monday?"]
)
def test_the_new_day_ranks_above_the_old_one(mem: Memory, question: str) -> None:
    _said(mem, VET, VET_MOVED)
    hits = [h.memory.content for h in mem.recall(question, user_id=USER).hits]
    new = next(k for k, text in enumerate(hits) if "Wednesday the 16th" in text)
    old = [k for k, text in enumerate(hits) if "Monday the 14th" in text]
    assert all(new < k for k in old), hits


def test_what_still_holds_of_a_moved_appointment_is_not_demoted(mem: Memory) -> None:
    # Demoted whole, the old statement fell under the change for "which dentist?" in
    # the week (first to third): only the day changed, and Dr. Haas still holds.
    _said(mem, VET, VET_MOVED)
    hits = [
        h.memory.content
        for h in mem.recall("Which doctor does the vet visit with?", user_id=USER).hits
    ]
    haas = next(k for k, text in enumerate(hits) if "Dr. Haas" in text)
    moved = next(k for k, text in enumerate(hits) if text.startswith("Actually the vet moved"))
    assert haas < moved, hits


def test_the_store_names_the_memories_whose_closed_facts_are_times(mem: Memory) -> None:
    _said(mem, VET, VET_MOVED)
    _said(mem, ("My bank is Monzo.", "Noted."), ("I switched my bank to Starling.", "Noted."))
    ns = f"user:{USER}"
    every = [m.id for m in mem.get_all(user_id=USER, limit=100)]
    stale = mem._core.store.graph_counts.stale_memories(ns, every)
    texts = {m.id: m.content for m in mem.get_all(user_id=USER, limit=100)}
    retimed = mem._core.store.graph_counts.retimed_memories(ns, sorted(stale))
    assert any("Monday the 14th" in texts[i] for i in retimed), [texts[i] for i in stale]
    assert not any("Monzo" in texts[i] for i in retimed), [texts[i] for i in retimed]
    assert any("Monzo" in texts[i] for i in stale), [texts[i] for i in stale]


def test_a_weekly_lesson_moved_closes_its_old_day(mem: Memory) -> None:
    # "Lena's swimming moved to Thursdays now" was a subject of its own beside
    # ``Lena has_lesson swimming lessons``: the lesson's day was never recorded.
    _said(
        mem,
        ("My son Max has judo lessons every Tuesday at 6pm at the Leisure Centre.", "Noted."),
        ("Max's judo moved to Fridays now, same time.", "Updated: Max's judo is on Fridays."),
    )
    rows = _rows(mem)
    assert rows[("Max's judo lessons", "scheduled", "Tuesday")] is False, rows
    assert rows[("Max's judo lessons", "scheduled", "Fridays")] is True, rows
    hits = [h.memory.content for h in mem.recall("When does Max have judo now?", user_id=USER).hits]
    assert hits and "Fridays" in hits[0], hits


def test_no_junk_relation_from_the_change(mem: Memory) -> None:
    _said(mem, VET, VET_MOVED)
    assert not any(kind == "lives_in" or "Actually" in source for source, kind, _ in _rows(mem))


def test_an_event_at_a_place_works_nowhere(mem: Memory) -> None:
    _said(
        mem,
        ("The christening is at St Mary's in Harrow, starting at 11am.", "St Mary's, 11am."),
        ("Our anniversary dinner is at Luca on Friday.", "Luca on Friday, noted."),
    )
    assert not any(kind == "works_at" for _, kind, _ in _rows(mem)), _rows(mem)


def test_a_number_written_in_groups_is_kept_whole(mem: Memory) -> None:
    _said(mem, ("My new phone number is 07911 123456; the old one is gone.", "Saved."))
    assert ("user", "uses_phone", "07911 123456") in _rows(mem), _rows(mem)


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("Thursday the 17th", True),
        ("the 3rd", True),
        ("January 13", True),
        ("13 January", True),
        ("Friday, the 2nd of May", True),
        ("Thursdays", True),
        ("9:30", True),
        ("Thursday Street", False),
        ("Berlin", False),
    ],
)
def test_a_day_with_its_date_is_a_time(text: str, when: bool) -> None:
    assert (change_things.IS_WHEN.match(text) is not None) is when


def test_actually_is_no_part_of_the_subject() -> None:
    (claim,) = change_signals.read("Actually the yoga class moved to Tuesday the 9th.")
    assert (claim.source, claim.relation, claim.target) == (
        "yoga class",
        "scheduled",
        "Tuesday the 9th",
    )


@pytest.mark.parametrize(
    ("subject", "event"),
    [("wedding", True), ("team dinner", True), ("Sam", False), ("dinner table", False)],
)
def test_an_event_is_named_by_its_head_noun(subject: str, event: bool) -> None:
    assert change_events.is_event(subject) is event
