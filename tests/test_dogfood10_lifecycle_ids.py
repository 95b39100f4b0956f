"""``restore`` with a short id (new-user pass, round ten): a unique prefix of an
archived original or of a summary restores it, as every other id a user types; an
ambiguous prefix says how many it matches and restores nothing; an unknown one says
where the archive is listed."""

from __future__ import annotations

import os

import pytest

from engram import Memory
from engram.errors import InvalidInputError, NotFoundError
from engram.store.protocols import ListQuery
from test_consolidation import PROSE, _fill, clock, mem

__all__ = ["clock", "mem"]

NS = "agent-a"


def _shortest(full: str, others: list[str]) -> str:
    """The shortest prefix of ``full`` (12 characters or more) no other id shares."""
    shared = max(len(os.path.commonprefix([full, o])) for o in others if o != full)
    return full[: max(12, shared + 1)]


def _every_id(mem: Memory) -> list[str]:
    live = [r.id for r in mem.store.memories.select(NS, ListQuery(limit=1000))]
    return live + [e.original_id for e in mem.lifecycle.archived(namespace=NS, limit=1000)]


def test_restore_takes_a_unique_prefix_of_an_original_and_of_a_summary(mem: Memory) -> None:
    _fill(mem, PROSE)
    result = mem.lifecycle.consolidate()
    entry = result.archival_index[0]
    back = mem.lifecycle.restore(_shortest(entry.original_id, _every_id(mem)), namespace=NS)
    assert [r.id for r in back] == [entry.original_id]
    summary = result.summaries[-1]
    members = {e.original_id for e in mem.lifecycle.archived(summary_id=summary, namespace=NS)}
    back = mem.lifecycle.restore(_shortest(summary, _every_id(mem)) + "\n", namespace=NS)
    assert {r.id for r in back} == members


def test_an_ambiguous_prefix_says_how_many_and_restores_nothing(mem: Memory) -> None:
    _fill(mem, PROSE)
    mem.lifecycle.consolidate()
    archived = sorted(e.original_id for e in mem.lifecycle.archived(namespace=NS))
    shared = max(
        (os.path.commonprefix([a, b]) for a, b in zip(archived, archived[1:], strict=False)),
        key=len,
    )
    assert len(shared) >= 8  # one batch: the same millisecond clock
    with pytest.raises(InvalidInputError, match=f"ambiguous id prefix '{shared}': it matches"):
        mem.lifecycle.restore(shared, namespace=NS)
    assert len(mem.lifecycle.archived(namespace=NS)) == len(archived)


def test_an_unknown_prefix_says_where_the_archive_is_listed(mem: Memory) -> None:
    _fill(mem, PROSE)
    mem.lifecycle.consolidate()
    with pytest.raises(NotFoundError) as caught:
        mem.lifecycle.restore("ffffffffffff", namespace=NS)
    message = str(caught.value)
    assert "neither an archived memory nor a summary" in message
    assert "(as an id or id prefix)" in message and "engram lifecycle status" in message
