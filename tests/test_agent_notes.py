"""An agent's own notes (task x23, new-user pass round fourteen): of 8 facts the offline
extractor derived from a coding agent's 60 notes, 4 were junk: "User fixed by docker
system prune -af." (a passive fragment given the user), "User hung on the addrcheck
package ..." (the command ``go test ./...`` lost), "User marked xfail ..." (the agent's
own action given the user), and "We ..." read as "User and others ...". In a note of
this register the team is the subject, a command is a subject, and fragments give
nothing; the user's own "I" and chats are read as before."""

from __future__ import annotations

import json
import re
from importlib import resources

import pytest

from engram import Memory
from engram.pipeline import offline, turns
from engram.records import PIPELINE_WHO

NOTES = [
    # the round-fourteen junk, and notes like them
    ("Port 8000 was busy; fixed by docker system prune -af.", []),
    ("go test ./... hung on the addrcheck package; added t.Cleanup(srv.Close).", []),
    ("Fixed by pinning urllib3<2.", []),
    (
        "Marked test_refund_flow as xfail pending a fix.",
        ["The team marked test_refund_flow as xfail pending a fix."],
    ),
    (
        "We decided to keep Redis as the queue instead of RabbitMQ.",
        ["The team decided to keep Redis as the queue instead of RabbitMQ."],
    ),
    (
        "Decided to use SQLModel instead of raw SQLAlchemy for the billing service.",
        ["The team decided to use SQLModel instead of raw SQLAlchemy for the billing service."],
    ),
    ("We use pnpm, not npm, in the web repo.", ["The team uses pnpm, not npm, in the web repo."]),
    ("Our team deploys on Fridays.", ["The team deploys on Fridays."]),
    (
        "Our Dockerfile for the worker is docker/worker.Dockerfile.",
        ["The team's Dockerfile for the worker is docker/worker.Dockerfile."],
    ),
    (
        "Memory leak in the websocket hub: goroutines never exited on disconnect; "
        "added ctx cancellation.",
        [],
    ),
    # a program's output is not a statement
    ("KeyError: 'tenant_id'", []),
    ("ModuleNotFoundError: No module named 'engram_ext' when running the CLI.", []),
    # the user's own first person in a note is still the user
    (
        "I prefer pathlib over os.path in the repo.",
        ["User prefers pathlib over os.path in the repo."],
    ),
    # a plain statement with nothing of the trade in it is read as before
    ("We moved to Leeds last year.", ["User and others moved to Leeds last year."]),
    ("Went to the dentist this morning.", ["User went to the dentist this morning."]),
]


@pytest.mark.parametrize(("note", "expected"), NOTES)
def test_an_agents_note_gives_the_facts_a_careful_reader_derives(
    note: str, expected: list[str]
) -> None:
    facts = offline.analyse(note, speaker=turns.OWNER).facts
    assert [f.content for f in facts] == expected


def test_a_command_that_opens_a_note_is_its_subject_kept_whole() -> None:
    from engram.pipeline import offline_notes

    assert offline_notes.quote_command("go test ./... hung on X") == "`go test ./...` hung on X"
    assert offline_notes.quote_command("npm ci failed with E") == "`npm ci` failed with E"
    assert offline_notes.quote_command("Go to the shop") == "Go to the shop"


def test_a_chat_turn_keeps_its_speakers_we() -> None:
    facts = offline.analyse("Caroline: We use the repo at work for our band's songs.").facts
    assert all("team" not in f.content for f in facts), facts


def test_the_labelled_agent_notes_are_many_and_split_by_parity() -> None:
    rows = json.loads(
        resources.files("engram").joinpath("data/agent_notes.json").read_text("utf-8")
    )["notes"]
    assert len(rows) >= 200
    assert [r["fold"] for r in rows[:4]] == ["tune", "check", "tune", "check"]
    for row in rows:
        for words in row["expect"]:
            assert all(w in row["text"].lower() for w in words), row["id"]


_USER = re.compile(r"\bUser\b")


def test_an_agents_day_through_mem_add_names_no_invented_user(mem: Memory) -> None:
    notes = [note for note, _ in NOTES[:9]]
    for note in notes:
        mem.add(note, user_id="agent")
    mem.jobs.process_pending()
    facts = sorted(r.content for r in mem.get_all(user_id="agent") if r.who == PIPELINE_WHO)
    assert not [f for f in facts if _USER.search(f)], facts
    assert "The team uses pnpm, not npm, in the web repo." in facts
    assert "The team decided to keep Redis as the queue instead of RabbitMQ." in facts
