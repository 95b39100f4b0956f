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


def test_search_rows_are_ids_and_floats_best_first(mem: Memory) -> None:
    # PostgreSQL hands its ranking's rows over as the driver decodes them (issue 29,
    # round 7): each must still be (id, float >= 0), best first, and only the matches.
    ns = mem.config.default_namespace
    records = mem.add_many([*TEXTS, "nothing in common"])
    ranked = mem.store.keyword.search(ns, '"beta" OR "alpha"', 100)
    assert {i for i, _ in ranked} == {r.id for r in records[:-1]}
    assert all(type(i) is str and type(s) is float and s >= 0 for i, s in ranked), ranked
    assert [s for _, s in ranked] == sorted((s for _, s in ranked), reverse=True)
    assert ranked[0][0] in {r.id for r in records[:12:3]}  # "beta" is the rarer keyword
