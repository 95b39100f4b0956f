"""Typographic quotes and dashes on the keyword leg, both backends: a PDF's straight
apostrophe comes back curly from pypdf ("days’ notice"), and a user types it straight.

Nothing folds them on purpose: FTS5's unicode61 and ``engram_fold`` with PostgreSQL's
parser (and ``engram.text.keywords`` for the query) take both kinds of quote and dash
for what separates words, so the stored text keeps its quotes and still matches. These
tests hold that (round twenty-three of the documents pass checked it before changing
anything: nothing needed changing)."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.store.sqlite.tokenize import terms
from engram.text import fts_query

#: Stored text and a query typed the other way, and the reverse.
CURLY = "Either party may end it by giving fifteen working days’ notice — in writing."
STRAIGHT = "Either party may end it by giving fifteen working days' notice - in writing."
PAIRS = [
    ("The client’s “kick–off” meeting", 'The client\'s "kick-off" meeting'),
    ("O’Neill’s rock’n’roll report", "O'Neill's rock'n'roll report"),
]


@pytest.mark.parametrize(("stored", "query"), [(CURLY, "days' notice"), (STRAIGHT, "days’ notice")])
def test_a_quote_typed_the_other_way_scores_the_same(mem: Memory, stored: str, query: str) -> None:
    ns = mem.config.default_namespace
    quoted, other, plain = mem.add_many([stored, "A week of notice is usual.", "Nothing here."])
    assert mem.get(quoted.id).content == stored  # kept verbatim
    curly = dict(mem.store.keyword.search(ns, fts_query(query) or "", 10))
    straight = dict(mem.store.keyword.search(ns, fts_query(stored) or "", 10))
    assert set(curly) == {quoted.id, other.id}
    assert max(curly, key=curly.__getitem__) == quoted.id
    assert quoted.id in straight and plain.id not in straight


@pytest.mark.parametrize(
    ("stored", "query"), [(a, b) for a, b in PAIRS] + [(b, a) for a, b in PAIRS]
)
def test_quotes_and_dashes_match_either_way(mem: Memory, stored: str, query: str) -> None:
    ns = mem.config.default_namespace
    hit, _ = mem.add_many([stored, "Nothing in common."])
    ranked = mem.store.keyword.search(ns, fts_query(query) or "", 10)
    assert [i for i, _ in ranked] == [hit.id]


def test_fts5_terms_are_the_same_for_either_quote() -> None:
    # The term index (large SQLite namespaces) cuts text as FTS5 does.
    assert terms(CURLY) == terms(STRAIGHT)
    for a, b in PAIRS:
        assert terms(a) == terms(b)
    assert fts_query("days’ notice") == fts_query("days' notice") == '"days" OR "notice"'
