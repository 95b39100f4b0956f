"""An assistant's memory is never the held value a change closes (left39, item 1).

``change_earlier`` finds a slot's first value the rules never read in an earlier memory.
In a chat the newest earlier memory naming the subject is often the assistant's echo
("Noted, the book club meets at the library."): the value was recorded as held from the
assistant's turn, and a relation
so recorded was then closed by someone else's change (week f of the new-user pass:
"Malik swapped Google Photos for iCloud" closed ``Photos are_on Google Photos``). The
user's statement is the one held; the assistant's echo is skipped.

Each turn is its own write (``mem.add`` with its chat role), so the later turn's plan
reads the earlier ones; both backends (``mem``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram import Memory

NAMESPACE = "user:noor"
START = datetime(2026, 3, 2, 9, tzinfo=UTC)
U, A = "user", "assistant"

#: (relation source, type, target, current, role of the memory it was recorded from)
Row = tuple[str, str, str, bool, str | None]


def _told(mem: Memory, chat: list[tuple[str, str]]) -> list[Row]:
    roles: dict[str, str] = {}
    for k, (role, text) in enumerate(chat):
        record = mem.add(
            text,
            namespace=NAMESPACE,
            metadata={"role": role},
            created_at=START + timedelta(minutes=k),
        )
        roles[record.id] = role
        mem.jobs.process_pending()
    return [
        (r.source, r.relation_type, r.target, r.valid_to is None, roles.get(r.source_memory_id))
        for r in mem.graph.relations(current_only=False, namespace=NAMESPACE)
        if r.relation_type != "talks_about"
    ]


CHANGES = [
    # (chat, old value closed, new value current)
    (
        [
            (U, "The pottery class meets at the village hall."),
            (A, "Noted, the pottery class meets at the village hall."),
            (U, "The pottery class relocated to the Old Forge."),
        ],
        "village hall",
        "Old Forge",
    ),
    (
        # the speaker's slot by its category: the echo is told in the second person
        [
            (U, "I write everything in Vim."),
            (A, "Noted: you write everything in Vim."),
            (U, "I switched to VS Code now."),
        ],
        "Vim",
        "VS Code",
    ),
]


@pytest.mark.parametrize(("chat", "old", "new"), CHANGES)
def test_the_users_statement_is_the_held_value(
    mem: Memory, chat: list[tuple[str, str]], old: str, new: str
) -> None:
    rows = _told(mem, chat)
    closed = [row for row in rows if row[2] == old and not row[3]]
    assert closed, rows
    assert all(role != A for *_, role in closed), rows
    assert any(row[2] == new and row[3] for row in rows), rows
    assert all(role != A for *_, role in rows), rows


def test_someone_elses_swap_closes_no_echo(mem: Memory) -> None:
    rows = _told(
        mem,
        [
            (U, "I keep all my photos on Google Photos."),
            (A, "Noted: your photos are on Google Photos."),
            (U, "Malik swapped Google Photos for iCloud last month."),
        ],
    )
    assert all(current for _, _, target, current, _ in rows if target == "Google Photos"), rows
    assert all(role != A for *_, role in rows), rows
