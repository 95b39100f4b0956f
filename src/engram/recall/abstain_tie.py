"""A confident answer whose best note another candidate ties (issue 24, round 12).

The abstain decision reads the best cosine against an absolute floor. A store that
grows and mixes topics (an agent's notes beside hundreds of other lines) holds, for
almost any short question, a few lines at a fair cosine, none standing out: a question
of another domain then clears the floor on whichever of them is nearest
(docs/benchmarks.md, round 12, abstain38: beside 500 LoCoMo turns, 35 of tune-36's 132
cross-domain questions answered confidently against 8 in the store alone). What such a
pass lacks is a line the question singles out: its best cosine has a near twin (a
median margin of 0.04 over the second beside the turns, against 0.13 for the
answerable questions). So a related verdict whose best candidate is a note, below
``CEILING``, with the second best within ``margin`` of it, is given as an unsure
answer: marked ``low_confidence`` under "Possibly related", never silence. Its
context keeps every line a confident answer would show: the note that answers is
not always one of the tied two (cut to the tied notes, 5 of the nine older held-out
splits' 436 answerable questions lost their gold from the context; cut to one line,
12), so the tie changes what the answer claims, not what it shows.

- Only a note (a memory outside any session) is read this way: a conversation's turns
  on one topic sit close to each other whether or not they answer (LoCoMo's answerable
  questions), and their context comes from their session.
- ``CEILING``: a best cosine this high is an answer however near its twin (the value
  ``abstain_attribute.CEILING`` takes for the same embedder).
- The margin is on all-MiniLM-L6-v2's cosine scale (``MARGIN``); with another
  embedder it is off unless ``recall.tie_margin`` is set.
"""

from __future__ import annotations

from collections.abc import Sequence

from engram.records import Hit

#: The shipped margin for all-MiniLM-L6-v2, chosen on tune-36 (docs/benchmarks.md,
#: round 12): best minus second best cosine below it marks a confident note answer.
MARGIN = 0.05
#: A best cosine at or above this is an answer, tie or not (MiniLM's scale).
CEILING = 0.60


def _sim(hit: Hit) -> float:
    return -2.0 if hit.breakdown.sim is None else hit.breakdown.sim


def tied(hits: Sequence[Hit], margin: float, ceiling: float = CEILING) -> bool:
    """Whether the best of ``hits`` by cosine is a note below ``ceiling`` whose cosine
    another hit comes within ``margin`` of."""
    if margin <= 0.0 or len(hits) < 2:
        return False
    ordered = sorted(hits, key=_sim, reverse=True)
    best, second = ordered[0], ordered[1]
    if best.memory.session_id is not None or best.breakdown.sim is None:
        return False
    return best.breakdown.sim < ceiling and best.breakdown.sim - _sim(second) < margin
