"""Seed 000's quality-weighted rank and seed 002's recency decay."""

from __future__ import annotations

import math
from datetime import datetime

# seed 000 / 001: 70% similarity, 30% quality.
SIM_WEIGHT = 0.7
QUALITY_WEIGHT = 0.3
# seed 000: scores below 7.0 count at half weight (the "soft floor").
SOFT_FLOOR = 7.0
# seed 000: a missing score is neutral, 5.0 on the 0-10 scale.
NEUTRAL_SCORE = 5.0
# seed 000: q_adjust = max(0.2, 1.0 + quality * 0.15).
Q_STEP = 0.15
Q_FLOOR = 0.2


def quality_weight(score: float | None) -> float:
    """seed 000's ``qual``: the external 0-10 score in [0, 1], halved below 7."""
    if score is not None and score < SOFT_FLOOR:
        return (score / 10.0) * 0.5
    return (score if score is not None else NEUTRAL_SCORE) / 10.0


def q_adjust(quality: int) -> float:
    """seed 000's feedback multiplier: +3 gives 1.45, -3 gives 0.55, never below 0.2."""
    return max(Q_FLOOR, 1.0 + quality * Q_STEP)


def rank_score(sim: float, score: float | None, quality: int) -> float:
    """seed 000: ``(0.7 * sim + 0.3 * qual) * q_adjust``."""
    return (SIM_WEIGHT * sim + QUALITY_WEIGHT * quality_weight(score)) * q_adjust(quality)


def recency(created_at: datetime, now: datetime, decay_rate: float) -> float:
    """seed 002: ``exp(-decay_rate * age_hours)``; future timestamps count as age 0."""
    age_hours = max(0.0, (now - created_at).total_seconds() / 3600.0)
    return math.exp(-decay_rate * age_hours)
