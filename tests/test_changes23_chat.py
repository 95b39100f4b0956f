"""Change reading round five (changes23): the two changes the round-fourteen chat left
open, and the junk relations it recorded beside them (docs/benchmarks.md, "2026-11-30,
change reading round five").

- "My manager is no longer Joost; ... Femke is my team lead now": the negated value is
  the one that ended, not a value "no longer Joost"; "my manager" speaks of the slot
  itself, not of the manager's own slot;
- "we moved the cron to 0 3": a held slot named only by its own word ("the cron"), its
  subject unsaid, gets the new value; an amount with its unit written on ("2Gi") is an
  amount;
- ends that are no thing are not recorded: "no longer Joost", "platform team" as a home,
  "0 3" as a thing used, "decided" as a subject.

Every sentence is written for these tests (none is a fold's). Each test runs on both
backends (``mem``), through ``mem.add`` and through a mined chat.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory
from engram.pipeline import relation_ends
from test_dogfood19_changes import _rows, _told

CHANGES = [
    (
        (
            "My team lead is Annelie; she approves the release notes.",
            "My manager is no longer Annelie; Annelie moved to the payments team and Rutger "
            "is my team lead now.",
        ),
        ("user", "team_lead", "Annelie"),
        ("user", "team_lead", "Rutger"),
    ),
    (
        ("My manager is Cosmin.", "my manager is no longer Cosmin, it's Ebba"),
        ("user", "reports_to", "Cosmin"),
        ("user", "reports_to", "Ebba"),
    ),
    (
        (
            "The cron schedule for the importer is 0 2 * * * in UTC.",
            "Actually we moved the cron to 0 5 * * * so the upstream dump is finished.",
        ),
        ("importer", "cron_schedule", "0 2"),
        ("importer", "cron_schedule", "0 5"),
    ),
    (
        (
            "The memory limit for the scheduler is 256Mi.",
            "raised the scheduler memory limit to 2Gi",
        ),
        ("scheduler", "memory_limit", "256Mi"),
        ("scheduler", "memory_limit", "2Gi"),
    ),
]

#: What each statement must not record: an end that names no thing.
JUNK = [
    ("My manager is no longer Annelie.", "no longer Annelie"),
    ("Annelie moved to the payments team.", "payments team"),
    ("We moved the cron to 0 5 * * *.", "0 5"),
    ("We decided to use the multipart uploader with a pipe.", "decided"),
]

LOOKALIKES = [
    ("My team lead is Annelie.", "Annelie moved to the payments team's channel for the launch."),
    ("My manager is Cosmin.", "Cosmin is no longer on the interview panel."),
    ("The cron schedule for the importer is 0 2 * * *.", "We ran the importer by hand at 5 today."),
    ("My team lead is Rutger.", "Annelie moved to the payments team last year."),
]


def mine_as_the_proxy(
    mem: Memory,
    turns: list[str],
    start: datetime,
    wing: str,
    session: str = "day1",
    reply: str | None = None,
) -> None:
    """``turns`` as the chat proxy files a conversation: each user turn answered by the
    fake upstream (``reply``, or "Understood. <first sentence>"), five minutes apart, the
    whole history mined on every exchange, then the jobs (the ``extract`` job reads each
    memory again)."""
    messages = []
    for n, text in enumerate(turns):
        at = (start + timedelta(minutes=5 * n)).isoformat()
        messages.append({"role": "user", "content": text, "created_at": at})
        answer = reply if reply is not None else "Understood. " + text.split(".")[0]
        messages.append({"role": "assistant", "content": answer, "created_at": at})
    for k in range(2, len(messages) + 1, 2):
        mem.palace.mine_conversation(messages[:k], wing=wing, session=session, user_id="dana")
        mem.jobs.process_pending()


@pytest.mark.parametrize(("told", "old", "new"), CHANGES)
def test_a_change_told_in_a_chat_closes_the_old_value(
    mem: Memory, told: tuple[str, str], old: tuple[str, str, str], new: tuple[str, str, str]
) -> None:
    _told(mem, *told)
    rows = _rows(mem)
    assert rows.get(old) is False, rows  # closed
    assert rows.get(new) is True, rows  # holds
    assert [k for k, current in rows.items() if not current] == [old]


@pytest.mark.parametrize(("text", "junk"), JUNK)
def test_an_end_that_is_no_thing_is_not_recorded(mem: Memory, text: str, junk: str) -> None:
    _told(mem, text)
    ends = {e for source, _, target in _rows(mem) for e in (source, target)}
    assert junk not in ends


@pytest.mark.parametrize("told", LOOKALIKES)
def test_a_lookalike_closes_nothing(mem: Memory, told: tuple[str, str]) -> None:
    _told(mem, *told)
    assert all(_rows(mem).values())


def test_a_mined_chat_closes_the_team_lead_and_the_cron(mem: Memory) -> None:
    # The round-fourteen shape: one conversation, the changes a few turns after the
    # facts, each user turn answered by the assistant (the fake upstream's "Understood.
    # <first sentence>"), mined as the chat proxy files it.
    start = datetime(2026, 3, 2, 9, tzinfo=UTC)
    turns = [
        "My team lead is Annelie; she approves the release notes.",
        "The cron schedule for the importer is 0 2 * * * in UTC.",
        "We decided to use the multipart uploader with a pipe.",
        "Actually we moved the cron to 0 5 * * * so the upstream dump is finished.",
        "My manager is no longer Annelie; Annelie moved to the payments team and Rutger is "
        "my team lead now.",
    ]
    mine_as_the_proxy(mem, turns, start, wing="coder")
    rows = _rows(mem)
    assert rows.get(("user", "team_lead", "Annelie")) is False, rows
    assert rows.get(("user", "team_lead", "Rutger")) is True, rows
    assert rows.get(("importer", "cron_schedule", "0 2")) is False, rows
    assert rows.get(("importer", "cron_schedule", "0 5")) is True, rows
    ends = {e for source, _, target in rows for e in (source, target)}
    assert not ends & {"no longer Annelie", "payments team", "0 5 * * *", "decided"}


def test_which_ends_are_no_thing() -> None:
    assert relation_ends.not_a_thing("user", "reports_to", "no longer Joost")
    assert relation_ends.not_a_thing("Joost", "moved_to", "platform team")
    assert relation_ends.not_a_thing("cron", "uses", "0 3")
    assert not relation_ends.not_a_thing("cron", "uses", "0 3", numbers=False)
    assert relation_ends.not_a_thing("decided", "uses", "s3manager uploader")
    # a quantity's own type keeps its number; a town is a home; a tool is used
    assert not relation_ends.not_a_thing("exporter", "cron_schedule", "0 4")
    assert not relation_ends.not_a_thing("Joost", "moved_to", "Utrecht")
    assert not relation_ends.not_a_thing("user", "uses", "Neovim")
