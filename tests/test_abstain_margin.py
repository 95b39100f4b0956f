"""The silent floor's headroom for stores it has not seen (issue 24, round 6)."""

from __future__ import annotations

import dataclasses

import pytest

from engram.bench import abstain as bench
from engram.bench import abstain_margin
from engram.bench.abstain_margin import HEADROOM, STEP, margin
from test_abstain_calibration import _row as row


def _stores(outlier: float) -> dict[str, list[float]]:
    """Four stores of ten answerable questions at 1.0 and one lowest each: 0.0, except
    the first, whose lowest sits at ``outlier``."""
    return {f"s{n}": [1.0] * 10 + [outlier if n == 0 else 0.0] for n in range(4)}


def test_an_outlying_store_widens_the_margin_until_no_halving_silences_it() -> None:
    # A floor fitted on two stores without s0 sits at 0.0; s0's lowest question (-1.0)
    # stays above it only 7 steps lower (-1.05); 2% of 22 questions allows none silent.
    assert margin(_stores(-1.0)) == pytest.approx((7 + HEADROOM) * STEP)
    assert margin(_stores(0.0)) == pytest.approx(HEADROOM * STEP)


def test_no_margin_to_learn_from_one_store() -> None:
    assert margin({"only": [0.1, 0.5]}) == 0.0
    assert margin({}) == 0.0


def test_the_ceiling_allows_one_silent_question_in_fifty() -> None:
    # 55 questions in the other half: one may fall below (issue 24's 2%), two may not.
    one = {"a": [0.0] * 55, "b": [0.0] * 54 + [-1.0]}
    assert margin(one) == pytest.approx(HEADROOM * STEP)
    two = {"a": [0.0] * 55, "b": [0.0] * 53 + [-1.0, -1.0]}
    assert margin(two) == pytest.approx((7 + HEADROOM) * STEP)


def test_many_stores_are_sampled_the_same_way_each_time() -> None:
    many = {f"s{n}": [float(n % 5), 2.0] for n in range(20)}
    assert len(abstain_margin._halvings(sorted(many))) == abstain_margin.MAX_HALVINGS
    assert margin(many) == margin(dict(reversed(list(many.items()))))


def _row(store: str, n: int, sim: float, kind: str = "answerable") -> bench.Row:
    """A calibration store's question with best cosine ``sim`` (no shared keyword)."""
    return dataclasses.replace(row(n, kind), question_id=f"{store}:a{n}", sim=sim)


def test_the_fit_puts_the_silent_floor_the_margin_below_the_lowest_paraphrase() -> None:
    rows = [_row(f"s{s}", n, 0.4 + 0.02 * n) for s in range(4) for n in range(10)]
    rows.append(_row("s0", 10, 0.1))  # one store's question far below the rest
    rows += [_row("x", n, 0.02 * n, "cross") for n in range(10)]
    fitted = bench.fit(rows, "m")
    cal = bench.calibration(fitted, "m", fitted["threshold"])
    logits = {
        f"s{s}": [cal.logit(r.evidence()) for r in rows if r.question_id.startswith(f"s{s}:")]
        for s in range(4)
    }
    lowest = min(min(v) for v in logits.values())
    # The floor is rounded down to 0.01 below the lowest question less the margin.
    assert lowest - margin(logits) - 0.01 <= fitted["low_threshold"]
    assert fitted["low_threshold"] <= lowest - margin(logits)
    assert margin(logits) > HEADROOM * STEP  # the outlier widened it
