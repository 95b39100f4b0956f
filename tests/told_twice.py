"""A fact told and, a month on, its change, written as a user would write them: each by
``mem.add``, or each told in its own mined chat among small talk and assistant turns.
The change-reading tests of rounds fifteen and sixteen (changes36, change38) share it
(left39)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import NamedTuple

from engram import Memory

#: A chat's turns around the told sentence (``None`` stands for it).
SMALL_TALK: tuple[tuple[str, str | None], ...] = (
    ("user", "hi, hope you're well"),
    ("assistant", "Hi! What's new?"),
    ("user", None),
    ("assistant", "Noted, thanks."),
    ("user", "cheers"),
)


class Graph(NamedTuple):
    """The targets current and closed, and every relation as "source type target"."""

    current: set[str]
    closed: set[str]
    rows: set[str]


def graph(mem: Memory, namespace: str) -> Graph:
    rows = mem.graph.relations(current_only=False, namespace=namespace)
    rows = [r for r in rows if r.relation_type != "talks_about"]
    return Graph(
        {r.target for r in rows if r.valid_to is None},
        {r.target for r in rows if r.valid_to is not None},
        {f"{r.source} {r.relation_type} {r.target}" for r in rows},
    )


def added(mem: Memory, namespace: str, start: datetime, first: str, second: str) -> Graph:
    """The graph after ``first`` and, a month on, ``second``, each by ``mem.add``."""
    for n, text in enumerate((first, second)):
        mem.add(text, namespace=namespace, created_at=start + timedelta(days=30 * n))
        mem.jobs.process_pending()
    return graph(mem, namespace)


def mined(mem: Memory, namespace: str, start: datetime, first: str, second: str) -> Graph:
    """The same, each told in its own chat (``SMALL_TALK``) mined into the palace."""
    for n, text in enumerate((first, second)):
        at = start + timedelta(days=30 * n)
        chat = [
            {
                "role": role,
                "content": text if said is None else said,
                "created_at": (at + timedelta(minutes=k)).isoformat(),
            }
            for k, (role, said) in enumerate(SMALL_TALK)
        ]
        mem.palace.mine_conversation(
            chat, wing="chats", session=f"chat-{n}", graph=True, namespace=namespace
        )
        mem.jobs.process_pending()
    return graph(mem, namespace)
