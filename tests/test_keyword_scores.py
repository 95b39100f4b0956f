"""``KeywordIndex.scores`` and ``exact`` on both backends: the scores ``search`` gives."""

from __future__ import annotations

import pytest

from engram import Memory

TEXTS = [f"note {i} about alpha" if i % 3 else f"note {i} about beta and alpha" for i in range(12)]


def test_scores_pick_what_search_ranks(mem: Memory) -> None:
    ns = mem.config.default_namespace
    records = mem.add_many([*TEXTS, "nothing in common"])
    match = '"beta" OR "alpha"'
    ranked = dict(mem.store.keyword.search(ns, match, 100))
    ids = [r.id for r in records]
    scored = mem.store.keyword.scores(ns, match, [*ids[:5], records[-1].id, "unknown"])
    assert scored == pytest.approx({i: ranked[i] for i in ids[:5]})
    assert mem.store.keyword.scores(ns, match, []) == {}
    assert mem.store.keyword.exact(ns) is False  # small namespaces: the database ranks
    assert isinstance(mem.store.keyword.state(), dict)
