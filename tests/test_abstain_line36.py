"""Round 11 (silent36): the one line an unsure answer shows is the note nearest the
query, not a note ranked first on one shared common word."""

from __future__ import annotations

from dataclasses import replace

from conftest import ranked_hit
from engram.recall.abstain import possibly_related
from engram.records import Hit


def _hit(memory_id: str, score: float, sim: float | None, session: str | None = None) -> Hit:
    hit = ranked_hit(memory_id, score, session=session)
    return replace(hit, breakdown=replace(hit.breakdown, sim=sim))


def test_an_unsure_answer_shows_the_nearest_note() -> None:
    # "who does the story session for little kids?": the PCs note shares "session" and
    # ranks first at a cosine of 0.12; the rhyme-time note is at 0.28.
    shown = [_hit("pcs", 0.38, 0.12), _hit("club", 0.30, 0.29), _hit("rhyme", 0.25, 0.28)]
    assert [h.memory.id for h in possibly_related(shown)] == ["club"]
    shown = [_hit("pcs", 0.38, 0.12), _hit("rhyme", 0.25, 0.31)]
    assert [h.memory.id for h in possibly_related(shown)] == ["rhyme"]


def test_the_first_stays_when_it_is_the_nearest_or_a_turn() -> None:
    assert [h.memory.id for h in possibly_related([_hit("a", 0.5, 0.4), _hit("b", 0.4, 0.3)])] == [
        "a"
    ]
    # A conversation's turn ranks through its session's context: it keeps its place.
    turns = [_hit("t1", 0.5, 0.10, session="s1"), _hit("t2", 0.4, 0.35, session="s1")]
    assert [h.memory.id for h in possibly_related(turns)] == ["t1"]
    # A note first beside turns: only the notes compete.
    mixed = [_hit("n1", 0.5, 0.10), _hit("t2", 0.4, 0.35, session="s1"), _hit("n2", 0.3, 0.2)]
    assert [h.memory.id for h in possibly_related(mixed)] == ["n2"]


def test_no_cosine_reads_as_the_farthest_and_nothing_stays_nothing() -> None:
    assert possibly_related([]) == []
    shown = [_hit("a", 0.5, None), _hit("b", 0.4, 0.05)]
    assert [h.memory.id for h in possibly_related(shown)] == ["b"]
    assert [h.memory.id for h in possibly_related([_hit("a", 0.5, None)])] == ["a"]
