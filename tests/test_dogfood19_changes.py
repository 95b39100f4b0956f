"""Facts that change, told as a user tells them (new-user pass, round eleven; changes19):
a changed taste ("I used to drink tea every morning, now it's coffee", "I don't like
sushi any more, I prefer ramen now", "these days I prefer coffee in the morning, not
tea"), an attribute of four words and more ("my budget for the garden is 300 pounds
now", "the deadline for the grant application moved to May 3"), the comma form "Sam
left Initech, joined Globex." (the speaker was taken for the subject of "joined") and a
mined chat's "Also my budget is about 200 pounds" (the leading "also" hid the budget)
left the old fact open. Each now closes it, and recall asked about now answers the new
memory first; a taste said to end closes alone, and the lookalikes close nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram import Memory
from engram.pipeline import change_signals

CASES = [
    ("I drink tea every morning.", "I used to drink tea every morning, now it's coffee.",
     ("user", "drinks", "tea"), ("user", "drinks", "coffee"), "What do I drink every morning now?"),
    ("I drink tea every morning.", "These days I prefer coffee in the morning, not tea.",
     ("user", "drinks", "tea"), ("user", "drinks", "coffee"),
     "What do I drink in the morning now?"),
    ("I like sushi.", "I don't like sushi any more, I prefer ramen now.",
     ("user", "likes", "sushi"), ("user", "likes", "ramen"), "What food do I like now?"),
    ("My budget for the garden is 200 pounds.", "My budget for the garden is 300 pounds now.",
     ("user", "garden_budget", "200 pounds"), ("user", "garden_budget", "300 pounds"),
     "What is my budget for the garden now?"),
    ("The deadline for the grant application is April 20.",
     "The deadline for the grant application moved to May 3.",
     ("grant application", "deadline", "April 20"), ("grant application", "deadline", "May 3"),
     "When is the deadline for the grant application now?"),
    ("Sam works at Initech.", "Sam left Initech, joined Globex.",
     ("Sam", "works_at", "Initech"), ("Sam", "works_at", "Globex"), "Where does Sam work now?"),
    ("Great. Also my budget is about 200 pounds for everything.",
     "change of plan: my budget is now 300 pounds",
     ("user", "budget", "200 pounds"), ("user", "budget", "300 pounds"), "What is my budget now?"),
]  # fmt: skip


def _rows(mem: Memory) -> dict[tuple[str, str, str], bool]:
    return {
        (r.source, r.relation_type, r.target): r.valid_to is None
        for r in mem.graph.relations(current_only=False, user_id="dana")
        if r.relation_type != "talks_about"
    }


def _told(mem: Memory, *texts: str) -> list[str]:
    ids = []
    for text in texts:
        ids.append(mem.add(text, user_id="dana").id)
        mem.jobs.process_pending()
    return ids


@pytest.mark.parametrize(("before", "after", "old", "new", "question"), CASES)
def test_the_old_fact_is_closed_and_recall_answers_the_new_one(
    mem: Memory,
    before: str,
    after: str,
    old: tuple[str, ...],
    new: tuple[str, ...],
    question: str,
) -> None:
    _, later = _told(mem, before, after)
    assert _rows(mem) == {old: False, new: True}
    assert mem.recall(question, user_id="dana").hits[0].memory.id == later


def test_a_taste_said_to_end_closes_alone(mem: Memory) -> None:
    _told(mem, "I like sushi.", "I like hiking.")
    _told(mem, "I don't like sushi any more, I prefer ramen now.")
    assert _rows(mem) == {
        ("user", "likes", "sushi"): False,
        ("user", "likes", "hiking"): True,
        ("user", "likes", "ramen"): True,
    }


@pytest.mark.parametrize(
    ("before", "after"),
    [
        # "now" alone does not end another taste: one prefers many things at once
        ("I prefer Python for scripts.", "I prefer window seats now."),
        ("I use Emacs.", "Also I use Vim."),  # "also" still keeps both
        ("I work at Globex.", "I used to work at Acme."),  # past narration
        ("My budget for the garden is 200 pounds.", "My budget for the holiday is 900 pounds."),
        ("I like sushi.", "My brother doesn't like sushi any more, he prefers ramen."),
        ("I like sushi.", "I don't like sushi, never did."),  # no "any more": nothing ended
        ("Sam works at Initech.", "Sam's sister left Umbrella, joined Initech."),
        # Another person's change is theirs: it never closes what the speaker said of
        # themselves (it did, when the subject held nothing: the lead, round nineteen)
        ("I use Android.", "My brother switched from Android to an iPhone."),
        ("I use Vim.", "Sam switched from Vim to Emacs."),
        ("I drink tea every morning.", "My housemate switched from tea to coffee."),
        # round two's (changes20): routines, sites, raises, "dropped X, using Y now"
        ("I swim in the mornings.", "I also swim in the evenings."),
        ("I run on Mondays.", "I cycle on Fridays."),
        ("I commute by car.", "Could I commute by bike?"),
        ("Our studio is in Hackney.", "Our second studio is in Peckham."),
        ("My food budget is 300 euros.", "The heat went up to 30 degrees today."),
        ("My food budget is 300 euros.", "My sister's food budget went up to 500 euros."),
        ("The design team's lead is Ana.", "The sales team's lead is Ben."),
        ("I use Todoist.", "My boss dropped Asana, using Trello now."),
        # what ended is held by nobody: "now" alone closes nothing
        ("I use Todoist.", "I dropped the gym, using my bike now."),
        ("My gym is Gymbox.", "My sister changed gyms, she is at PureGym now."),
        ("We use Zapier.", "We also use Make."),
        # round three's (changes21): kinds, verbs by meaning, subjects named two ways
        # kinds held many at once, and a second one said as such
        ("My friend is Amir.", "My friend is Lena."),
        ("My bank is Barclays.", "My other bank is Chase."),
        ("My bank is Barclays.", "My second bank is Chase."),
        ("My bank is Barclays.", "Chase is my bank too."),
        # "is" that describes, not values
        ("My bank is Barclays.", "My bank is closed on bank holidays."),
        ("My GP is Dr. Ames.", "My GP is lovely."),
        # another owner, another relative, another team, another person of one name
        ("My bank is Barclays.", "Chase is my brother's bank."),
        ("My salary is 50k.", "My sister's salary rose to 60k."),
        ("My mother lives in Hull.", "My mother-in-law moved to Whitby."),
        ("The platform squad uses Bamboo.", "The data team switched to TeamCity."),
        # a thing the attribute does not name, and someone else's change
        ("We use MySQL.", "We migrated the analytics warehouse to BigQuery."),
        ("Our gas supplier is British Gas.", "My parents switched gas supplier to Ovo."),
        # another event's time
        ("The choir meets on Tuesdays.", "The orchestra meets on Fridays."),
        # an amount that is no price, and a hedged one
        ("My water bill is 40 pounds.", "The water level rose to 3 metres."),
        ("My water bill is 40 pounds.", "If my water bill rose to 60 pounds I would switch."),
    ],
)
def test_lookalikes_close_nothing(mem: Memory, before: str, after: str) -> None:
    _told(mem, before, after)
    assert all(_rows(mem).values())


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("Sam left Initech, joined Globex.", ("Sam", "joined", "Globex", "change")),
        ("Yesterday Sam left Initech, joined Globex.", ("Sam", "joined", "Globex", "change")),
        ("My sister quit Acme, joined Globex in May.", ("sister", "joined", "Globex", "change")),
        ("Left Deloitte, joined PwC.", ("user", "joined", "PwC", "change")),  # the speaker
        ("My budget for the garden is 300 pounds now.",
         ("user", "garden budget", "300 pounds", "change")),
        ("Sam's budget for the trip is 500 euros.", ("Sam", "trip budget", "500 euros", "plain")),
        ("The deadline for the grant application moved to May 3.",
         ("grant application", "deadline", "May 3", "change")),
        ("Also my budget is about 200 pounds.", ("user", "budget", "200 pounds", "addition")),
        ("I prefer ramen now.", ("user", "prefers", "ramen", "plain")),
        ("I like ramen too.", ("user", "likes", "ramen", "addition")),
    ],
)  # fmt: skip
def test_the_claims_these_read(text: str, claim: tuple[str, ...]) -> None:
    (read,) = change_signals.read(text)
    assert (read.source, read.relation, read.target, read.signal) == claim


def test_an_end_said_before_the_taste_held_loses_nothing(mem: Memory) -> None:
    # The end is dated before the taste began (a back-dated import): closing it would
    # end it before it started, so it stays open, and the memory and its new fact are
    # written all the same (the refused close is a savepoint, not the write).
    later, earlier = datetime(2025, 3, 1, tzinfo=UTC), datetime(2025, 1, 1, tzinfo=UTC)
    first = mem.add("I like sushi.", user_id="dana", created_at=later).id
    ended = "I don't like sushi any more, I prefer ramen now."
    second = mem.add(ended, user_id="dana", created_at=earlier).id
    mem.jobs.process_pending()
    assert _rows(mem) == {("user", "likes", "sushi"): True, ("user", "likes", "ramen"): True}
    assert [mem.get(i, user_id="dana").content for i in (first, second)] == ["I like sushi.", ended]
