"""Changes told in one mined chat (mined38): a later turn reads the slots earlier turns
of the same chat stated, a turn of several sentences is read one sentence at a time, a
change shape of the speaker's own slot is a change, and an assistant's acknowledgement
confirms the user's turn before it (never as the assistant's own fact)."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import change_told

U, A = "user", "assistant"


def _mine(mem: Memory, chat: list[tuple[str, str]]) -> list[tuple[str, str, bool]]:
    messages = [{"role": role, "content": text} for role, text in chat]
    mem.palace.mine_conversation(messages, wing="home", user_id="u")
    mem.jobs.process_pending()
    return [
        (r.relation_type, r.target, r.valid_to is None)
        for r in mem.graph.relations(current_only=False, limit=100, user_id="u")
        if r.relation_type != "talks_about"
    ]


def _held(rows: list[tuple[str, str, bool]], target: str) -> bool | None:
    """Whether a relation to ``target`` is current (None: none was read)."""
    found = [current for _, t, current in rows if t == target]
    return None if not found else any(found)


CHANGES = [
    # a first value in a turn of two sentences, changed in a later turn of the same chat
    (
        [
            (U, "The budget is 9k. The tiles are from Topps Tiles."),
            (A, "Noted."),
            (U, "Bad news, the budget went up to 11k because of the subfloor."),
            (A, "Okay."),
        ],
        "9k",
        "11k",
    ),
    # a first value with a tail about it, then "is now"
    (
        [
            (U, "The plumber is Gareth, he starts on the 14th."),
            (A, "Got it."),
            (U, "And the plumber is now Marek, Gareth pulled out."),
            (A, "Thanks."),
        ],
        "Gareth",
        "Marek",
    ),
    # a number's full stop ends the first sentence; "slipped to" moves the slot
    (
        [
            (U, "The launch date is March 3. The landing page is hosted on Netlify."),
            (A, "Noted."),
            (U, "Heads up: the launch date slipped to March 17, the review is slow."),
            (A, "Okay."),
        ],
        "March 3",
        "March 17",
    ),
    # the user's wording is read by no rule; the acknowledgement confirms it
    (
        [
            (U, "The caterer is Green Fig."),
            (A, "Noted."),
            (U, "Green Fig was too pricey, so Smoke House are doing the food."),
            (A, "Updated: the caterer is now Smoke House."),
        ],
        "Green Fig",
        "Smoke House",
    ),
]


@pytest.mark.parametrize(("chat", "old", "new"), CHANGES)
def test_a_change_told_in_one_chat_closes_the_old_value(
    mem: Memory, chat: list[tuple[str, str]], old: str, new: str
) -> None:
    rows = _mine(mem, chat)
    assert _held(rows, old) is False, rows
    assert _held(rows, new) is True, rows


LOOK_ALIKES = [
    # someone else's slot
    [
        (U, "The plumber is Gareth."),
        (A, "Noted."),
        (U, "My neighbour switched her plumber to Dave last year."),
        (A, "Good to know."),
    ],
    # a plan, not a change
    [
        (U, "The budget is 9k."),
        (A, "Noted."),
        (U, "If the subfloor is rotten the budget might go up to 11k."),
        (A, "Let's hope not."),
    ],
    # an acknowledgement of a value the user never said: no fact of the assistant's own
    [
        (U, "The caterer is Green Fig."),
        (A, "Noted."),
        (U, "Thanks, that's all for today."),
        (A, "Updated: the caterer is now Smoke House."),
    ],
]


@pytest.mark.parametrize("chat", LOOK_ALIKES)
def test_a_look_alike_in_a_chat_closes_nothing(mem: Memory, chat: list[tuple[str, str]]) -> None:
    rows = _mine(mem, chat)
    assert all(current for _, _, current in rows), rows


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("The budget is 9k. The tiles are from Topps Tiles.", [("user", "budget", "9k")]),
        ("The plumber is Gareth, he starts on the 14th.", [("user", "plumber", "Gareth")]),
        ("Bad news, the budget went up to 11k because of it.", [("user", "budget", "11k")]),
        ("We switched the insurer to Admiral.", [("user", "insurer", "Admiral")]),
        ("My neighbour switched her plumber to Dave.", []),
        ("We could move the landing page to Vercel someday.", []),
        ("We moved the meeting to the afternoon.", []),
    ],
)
def test_firsts_reads_each_sentence_and_the_speakers_own_change(
    text: str, read: list[tuple[str, str, str]]
) -> None:
    assert [f[:3] for f in change_told.firsts(text)] == read


@pytest.mark.parametrize(
    ("reply", "before", "found"),
    [
        ("Updated the budget to 11k.", "the budget went up to 11k", ("budget", "11k")),
        ("Updated: the plumber is now Marek.", "Marek is doing it", ("plumber", "Marek")),
        ("Got it - pickup now at 6:00.", "pickup is at 6:00 now", ("pickup", "6:00")),
        ("Updated the budget to 11k.", "thanks, that's all", None),
        ("Updated: it is now Marek.", "Marek is doing it", None),
        ("Noted, thanks!", "the budget went up to 11k", None),
    ],
)
def test_an_acknowledgement_confirms_only_a_value_the_user_said(
    reply: str, before: str, found: tuple[str, str] | None
) -> None:
    assert change_told.acknowledged(reply, before) == found
