"""Issue 24, round 12 (abstain38): a confident answer whose best note another
candidate ties is given as an unsure one, its lines kept (recall/abstain_tie.py).

In a store grown with hundreds of unrelated lines, a question of another domain clears
the confident floor on whichever line is nearest, with no line standing out; an answer
the question singles out has a margin over its second best."""

from __future__ import annotations

from dataclasses import replace

from conftest import ranked_hit
from engram import Memory
from engram.config import RecallConfig
from engram.recall import abstain, abstain_tie
from engram.recall.abstain import CALIBRATION
from engram.records import Hit

TIED = ["Invoices go out on the first Monday.", "Invoices go to Dana for approval."]
OTHER = ["The coffee machine is descaled on Fridays.", "Parking permits renew in March."]


def _hit(memory_id: str, sim: float, session: str | None = None, score: float = 0.5) -> Hit:
    hit = ranked_hit(memory_id, score, session=session)
    return replace(hit, breakdown=replace(hit.breakdown, sim=sim))


def test_a_note_answer_with_a_near_twin_is_marked_unsure() -> None:
    cfg = RecallConfig()
    # Above the confident floor (0.336 on MiniLM), the second best 0.02 below it.
    tied = [_hit("a", 0.45), _hit("b", 0.43, score=0.4), _hit("c", 0.2, score=0.1)]
    kept, reason, unsure, tie = abstain.screen("q", tied, CALIBRATION.embedder, cfg)
    assert reason is None and unsure and tie
    assert [h.memory.id for h in kept] == ["a", "b", "c"][: len(kept)]
    # One that stands out stays confident.
    clear = [_hit("a", 0.45), _hit("b", 0.30, score=0.4)]
    assert abstain.screen("q", clear, CALIBRATION.embedder, cfg)[2:] == (False, False)


def test_turns_a_high_cosine_another_model_and_zero_are_left_alone() -> None:
    cfg = RecallConfig()
    turns = [_hit("t1", 0.45, session="s"), _hit("t2", 0.44, session="s")]
    assert abstain.screen("q", turns, CALIBRATION.embedder, cfg)[2:] == (False, False)
    high = [_hit("a", 0.62), _hit("b", 0.61)]
    assert abstain.screen("q", high, CALIBRATION.embedder, cfg)[2:] == (False, False)
    tied = [_hit("a", 0.45), _hit("b", 0.43)]
    off = replace(cfg, tie_margin=0.0)
    assert abstain.screen("q", tied, CALIBRATION.embedder, off)[2:] == (False, False)
    # Another model's cosines mean otherwise: off unless set for it.
    assert abstain.screen("q", tied, "other", cfg)[2:] == (False, False)
    on = replace(cfg, tie_margin=0.05)
    assert abstain.screen("q", tied, "other", on)[2:] == (True, True)
    # With unsure answers silenced, a tie is not read (it never silences).
    quiet = replace(cfg, low_confidence=False)
    assert abstain.screen("q", tied, CALIBRATION.embedder, quiet)[1:] == (None, False, False)


def test_tied_reads_the_best_and_second_cosines_of_the_pool() -> None:
    # The order of the pool does not matter, only the two best cosines and the best's kind.
    pool = [_hit("c", 0.2), _hit("b", 0.43), _hit("a", 0.45)]
    assert abstain_tie.tied(pool, 0.05)
    assert not abstain_tie.tied(pool, 0.02)
    assert not abstain_tie.tied(pool[:1], 0.05)
    assert not abstain_tie.tied([_hit("a", 0.45, session="s"), _hit("b", 0.44)], 0.05)


def test_recall_marks_a_tied_answer_and_keeps_its_lines(abstaining_mem: Memory) -> None:
    for text in TIED + OTHER:
        abstaining_mem.add(text)
    r = abstaining_mem.recall("where do invoices go")
    assert r.low_confidence and not r.abstained
    assert r.context.count("Possibly related") == 1
    assert all(text in r.context for text in TIED)
    assert not any(text in r.context for text in OTHER)
    plain = abstaining_mem.recall("where do invoices go", tie_margin=0.0)
    assert not plain.low_confidence and all(text in plain.context for text in TIED)
    # A question one note answers alone stays confident.
    clear = abstaining_mem.recall("when is the coffee machine descaled")
    assert not clear.low_confidence and OTHER[0] in clear.context
