"""Recall's fuse stage over columns walked by C-level ``map`` and ``compress``
(recall/fuse_arrays.py, ``FactColumns``' passes, ``keyword_share``'s counted shares)
gives what the per-candidate generators it replaced gave, value for value: on random
columns, and on a small store's recall, where fusion and the share rescoring are
checked against the object path one candidate at a time (both backends)."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from engram import Memory
from engram.recall import fusion, keyword_share, ranking
from engram.recall.abstain import _starts_a_word, stem
from engram.recall.directives import directive_ids, is_directive
from engram.recall.fuse_arrays import exact, kept, member, parts, values
from engram.records import MemoryRecord
from engram.settings import RecallConfig
from engram.store.protocols.memories import FactColumns, MemoryFacts
from engram.text import keywords
from test_fusion_arrays import _reference


@pytest.mark.parametrize("seed", range(20))
def test_the_columns_are_the_generators_values(seed: int) -> None:
    rng = random.Random(seed)
    ids = [f"m{k}" for k in range(rng.randint(0, 40))]
    scores = {i: rng.uniform(-1, 1) for i in ids if rng.random() < 0.6}
    inside = frozenset(i for i in ids if rng.random() < rng.choice([0.0, 0.5, 1.0]))
    wider = set(inside) | {"x", "y"}
    assert values(ids, scores).tolist() == [scores.get(i, 0.0) for i in ids]
    assert values(ids, scores, 0.5).tolist() == [scores.get(i, 0.5) for i in ids]
    present = [i for i in ids if i in scores]
    assert exact(present, scores).tolist() == [scores[i] for i in present]
    if len(present) < len(ids):
        with pytest.raises(KeyError):
            exact(ids, scores)
    for members in (inside, wider, scores, list(inside)):
        assert member(ids, members).tolist() == [i in members for i in ids]
    has = member(ids, scores)
    legs = [rng.random() for _ in ids]
    keyword: list[Any] = [rng.choice([None, rng.random()]) for _ in ids]
    assert kept(ids, legs, has) == {i: v for i, v, h in zip(ids, legs, has, strict=True) if h}
    want = {i: (d if h else None, k) for i, d, h, k in zip(ids, legs, has, keyword, strict=True)}
    got = parts(ids, legs, has, keyword)
    assert got == want and list(got) == list(want)


def _facts(rng: random.Random, n: int, prefix: str) -> FactColumns:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    heads = ["always answer in french", "we went hiking", "never call after 9pm", "ok"]
    return FactColumns.of(
        {
            f"{prefix}{k}": MemoryFacts(
                at, rng.choice([None, "s1", "s2"]), rng.randint(0, 900), rng.choice(heads)
            )
            for k in range(n)
        }
    )


@pytest.mark.parametrize("seed", range(10))
def test_fact_columns_passes_follow_an_update(seed: int) -> None:
    rng = random.Random(seed)
    facts = _facts(rng, 30, "m")

    def alone() -> frozenset[str]:
        return frozenset(i for i in facts if facts[i].session_id is None)

    assert facts.without_session() == alone()
    for chars in (0, 300, 899):
        assert facts.longer_than(chars) == frozenset(i for i in facts if facts[i].chars > chars)
    cfg = RecallConfig()
    assert directive_ids(facts, cfg) == frozenset(i for i in facts if is_directive(facts[i].head))
    # An update after a pass: new ids and changed sessions are seen (the kept answer goes).
    changed = {i: MemoryFacts(facts[i].created_at, None, 1, "ok") for i in list(facts)[:5]}
    facts.update({**_facts(rng, 10, "n"), **changed})
    assert facts.without_session() == alone()
    assert {f"m{k}" for k in range(5)} <= facts.without_session()


def _object_rescored(
    query: str,
    pool: Sequence[str],
    records: Mapping[str, MemoryRecord],
    fused: dict[str, float],
    parts: dict[str, tuple[float | None, float | None]],
    dense: Mapping[str, float],
    raw_keyword: Mapping[str, float],
    cfg: RecallConfig,
    notes: frozenset[str],
    weights: Mapping[str, float],
    timed: bool,
) -> list[str]:
    """``keyword_share.rescored`` as it was: every note's whole share, one at a time,
    and round 10's case read from every candidate's cosine."""
    stems = [stem(t) for t in keywords(query)]
    cosines = {i: dense[i] for i in parts if i in dense}
    turns = [d for i, d in cosines.items() if i not in notes]
    about = False
    if turns:
        nearest = max(cosines, key=cosines.__getitem__)
        about = nearest in notes and cosines[nearest] - max(turns) >= cfg.keyword_spread_margin
    held = frozenset(parts) if about else notes
    todo = [
        i
        for i in pool
        if i in held and i in records and parts.get(i, (None, None))[0] is not None
        if (parts[i][1] or 0.0) > 0.0
    ]
    if not stems or not todo or cfg.fusion == "rrf" or cfg.strategy != "hybrid":
        return list(pool)
    spread = fusion.keyword_spread(raw_keyword, cfg.keyword_spread_rank)
    over = 1.0 + cfg.time_weight if timed else 1.0
    for i in todo:
        memory = records[i]
        text = f"{memory.title or ''}\n{memory.content}".lower()
        part_held = sum(1 for s in stems if _starts_a_word(text, s)) / len(stems)
        if part_held * len(stems) > keyword_share.MAX_HELD + 1e-9:
            continue
        if part_held < 1.0:
            part = (1.0 - weights.get(i, cfg.alpha)) * spread * float(parts[i][1] or 0.0) / over
            fused[i] = fused.get(i, 0.0) - (1.0 - part_held) * part
            dense_part, keyword_part = parts[i]
            parts[i] = (dense_part, None if keyword_part is None else keyword_part * part_held)
    return sorted(pool, key=lambda i: fused.get(i, 0.0), reverse=True)


NOTES = [
    "Always reply to Dana in French, she prefers it.",
    "The library desk books public PCs in one-hour sessions.",
    "Gwen runs the toddler rhyme time on Tuesdays.",
    "The story session for little kids moved to the upstairs room.",
    "Kids' story session: Gwen reads, Omar plays the guitar.",
    "Never book the upstairs room on Mondays, it is cleaned then.",
]
TURNS = [
    ("t1", "Did you book the story session for the kids?"),
    ("t1", "Yes, Gwen does it upstairs."),
    ("t1", "Great, the little ones loved it last week."),
    ("t2", "The PCs were all booked again."),
    ("t2", "One-hour sessions fill up fast on Saturdays."),
]
QUERIES = [
    "who does the story session for little kids",
    "when is the upstairs room cleaned",
    "how long are PC sessions at the desk",
    "what language does Dana want replies in",
]


def test_a_recalls_fusion_and_rescoring_are_the_object_paths(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem.add_many([{"content": t} for t in NOTES])
    mem.add_many([{"content": t, "session_id": s} for s, t in TURNS])
    fuse, rescored = ranking.fuse, keyword_share.rescored
    seen: dict[str, int] = {"fused": 0, "rescored": 0, "held": 0}

    def checked_fuse(*args: Any) -> Any:
        got = fuse(*args)
        assert not args[10]  # nothing self-contained: the reference's ten arguments
        want = _reference(*args[:10])
        assert got[0] == want[0] and got[1] == want[1]
        seen["fused"] += len(got[0])
        return got

    def checked_rescored(*args: Any) -> list[str]:
        mine, theirs = copy.deepcopy(args), copy.deepcopy(args)
        got = rescored(*mine)
        assert got == _object_rescored(*theirs)
        assert mine[3] == theirs[3] and mine[4] == theirs[4]  # fused and parts, in place
        seen["rescored"] += 1
        seen["held"] += sum(mine[3][i] != args[3][i] for i in args[3])
        return rescored(*args)

    monkeypatch.setattr(ranking, "fuse", checked_fuse)
    monkeypatch.setattr(keyword_share, "rescored", checked_rescored)
    for query in QUERIES:
        assert mem.recall(query, abstain=False).hits
    assert seen["fused"] > 4 * len(QUERIES) and seen["rescored"] == len(QUERIES)
    assert seen["held"] > 0  # some note's keyword leg was scaled by its share


def test_a_note_holding_many_of_the_words_is_counted_to_the_limit_only() -> None:
    record = MemoryRecord("m1", "n", "Story session for little kids, upstairs", "hash")
    stems = [stem(t) for t in keywords("story session little kids upstairs")]
    assert keyword_share.held(stems, record, len(stems)) == 5
    assert keyword_share.held(stems, record, 2) == 2
    assert keyword_share.share(stems, record) == 1.0
    assert np.isclose(keyword_share.share([*stems, "zebra"], record), 5 / 6)
