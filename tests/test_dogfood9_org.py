"""Org facts as a new user meets them (new-user pass, round nine): a mistyped or
shortened fact id given to write a new version is refused instead of starting a second
fact under that id, and the errors name what was wrong on every surface."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.errors import InvalidInputError, NotFoundError
from engram.org import human

HANA = human("hana")


def test_a_new_version_of_an_unknown_fact_is_refused_and_nothing_is_written(
    mem: Memory,
) -> None:
    adr = mem.org.write("ADR-1: Litestar", category="adr", author=HANA)
    # A mistyped id (round ten: a unique prefix of an existing fact is taken).
    typo = ("0" if adr.fact_id[0] != "0" else "1") + adr.fact_id[1:12]
    with pytest.raises(NotFoundError) as caught:
        mem.org.write("ADR-1: Litestar 3", category="adr", author=HANA, fact_id=typo)
    message = str(caught.value)
    assert repr(typo) in message and "leave out fact_id" in message
    assert [f.fact_id for f in mem.org.facts()] == [adr.fact_id]
    assert [e.action for e in mem.org.audit()] == ["write"]


def test_an_unknown_fact_names_every_surface_that_lists_them(mem: Memory) -> None:
    with pytest.raises(NotFoundError) as caught:
        mem.org.history("nope-not-a-fact")
    message = str(caught.value)
    assert "engram org list" in message and "GET /v1/org/facts" in message
    assert "org_query" in message  # an MCP agent has no shell


def test_empty_content_says_what_it_got(mem: Memory) -> None:
    with pytest.raises(InvalidInputError, match="got '  '"):
        mem.org.write("  ", category="adr", author=HANA)
