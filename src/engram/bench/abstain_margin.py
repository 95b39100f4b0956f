"""The silent floor's headroom for stores it has not seen (issue 24, round 6).

The silent floor sits at the lowest answerable paraphrase of the calibration stores.
A new store's lowest question can sit lower: in round 5 one calibration store of ten
(``finance-budget``) sat 0.07 of a cosine below the other nine, and the first held-out
set's lowest question 0.03 below the calibration's. The headroom is measured on the
calibration stores alone: split them in two halves every way there is, put the floor
at the lowest answerable question of one half less ``k`` steps, and count the other
half's answerable questions it silences. The margin is the fewest steps at which no
halving silences more than issue 24's ceiling (2%) of the other half, plus
``HEADROOM`` step for stores that grow (docs/benchmarks.md, "Round 6": at 311
memories the same check needed one step more than at eleven).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Mapping, Sequence

#: Issue 24's ceiling on answerable questions wrongly silent, per held-out split.
CEILING = 0.02
#: One step of the margin, in log-odds (about 0.01 of MiniLM's cosine: the shipped
#: model's cosine weight is 3.38 per 0.228 of cosine).
STEP = 0.15
#: Steps added to the fewest that hold on the halvings (stores that grow; round 6).
HEADROOM = 1
#: Halvings tried at most (all of them for up to 14 stores; a seeded sample beyond).
MAX_HALVINGS = 3432


def _halvings(stores: Sequence[str]) -> list[tuple[str, ...]]:
    """The fitting halves: every way of choosing half the stores, or a seeded sample."""
    size = len(stores) // 2
    if math.comb(len(stores), size) <= MAX_HALVINGS:
        return list(itertools.combinations(stores, size))
    rng = random.Random(24)
    return [tuple(rng.sample(list(stores), size)) for _ in range(MAX_HALVINGS)]


def margin(logits: Mapping[str, Sequence[float]]) -> float:
    """The log-odds to put below the lowest answerable question of the stores whose
    answerable questions' logits ``logits`` holds (0 with fewer than two stores: no
    halving to learn from)."""
    stores = sorted(s for s, values in logits.items() if values)
    if len(stores) < 2:
        return 0.0
    lowest = {s: min(logits[s]) for s in stores}
    steps = 0
    for fit in _halvings(stores):
        floor = min(lowest[s] for s in fit)
        other = sorted(v for s in stores if s not in fit for v in logits[s])
        # The floor may silence ``allowed`` of the other half: it must sit at or below
        # the next one up.
        allowed = math.floor(CEILING * len(other))
        if allowed < len(other):
            short = floor - other[allowed]
            if short > 0:
                steps = max(steps, math.ceil(short / STEP - 1e-9))
    return (steps + HEADROOM) * STEP
