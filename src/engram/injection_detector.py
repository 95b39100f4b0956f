"""The learned injection detector (engram issue 26, item 3): a logistic regression over a
memory's embedding, beside the rule scan of ``engram.safety``.

The rules were tuned on two thirds of ``data/injection_set.json`` and caught every tuned
payload, but only 0.63 of the English attacks in a second held-out fold written later
(``held_out_2``): a rule matches the words it was written for, and a paraphrase ("let go
of the constraints your developers set") slips past. A linear model over the sentence
embedding generalises over wording. It was fitted on the set's ``tune`` and first
``held_out`` folds against every real LoCoMo and BEAM text of one half (and benign
agent notes that share words with attacks), and checked on ``held_out_2`` and the other
half of the real texts; ``scripts/fit_injection_detector.py`` reproduces it and
``docs/safety.md`` has the figures.

It runs where vectors are made, on new writes only (``add``, ``add_many``, ``update``),
so it costs a dot product per memory, not a second embedding. Being statistical it never
refuses a write: a memory it fires on (and the rules passed) is quarantined, which is
what flag mode does with a rule hit: it stays stored, its ``metadata["injection_flags"]``
names the detector and its probability, and every context builder leaves it out. The
weights belong to one embedding model (the default MiniLM); with another embedder the
detector is off and the rules stand alone.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from engram.records import MemoryRecord

log = logging.getLogger(__name__)

#: The reason code a quarantined memory carries in ``metadata["injection_flags"]``.
CODE = "learned_detector"
FLAGS = "injection_flags"


@dataclass(frozen=True)
class Detector:
    """Weights of the logistic regression fitted for one embedding model."""

    embedder: str
    coef: np.ndarray
    intercept: float
    threshold: float

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> Detector:
        coef = np.asarray(data["coef"], np.float32)
        if coef.ndim != 1 or not np.isfinite(coef).all():
            raise ValueError("coef must be a finite vector")
        return cls(str(data["embedder"]), coef, float(data["intercept"]), float(data["threshold"]))

    def probabilities(self, vectors: np.ndarray) -> np.ndarray:
        """The probability that each row of ``vectors`` embeds an injection."""
        logits = np.asarray(vectors, np.float32) @ self.coef + self.intercept
        return np.asarray(1.0 / (1.0 + np.exp(-logits)), np.float64)

    def reasons(self, vectors: np.ndarray) -> list[str | None]:
        """Per row, the reason to quarantine it, or None below the threshold."""
        if len(vectors) == 0 or np.asarray(vectors).shape[1] != self.coef.shape[0]:
            return [None] * len(vectors)
        return [
            f"{CODE}: an embedding classifier gives {p:.2f} (threshold {self.threshold:.2f})"
            if p >= self.threshold
            else None
            for p in self.probabilities(vectors)
        ]


@cache
def shipped() -> Detector | None:
    """The detector shipped in ``engram/data/injection_detector.json`` (None when the
    file is missing or unreadable: the rules then stand alone, with a log line)."""
    try:
        raw = (resources.files("engram") / "data" / "injection_detector.json").read_text("utf-8")
        return Detector.from_mapping(json.loads(raw))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("the learned injection detector is off: %s", exc)
        return None


def for_model(name: str | None) -> Detector | None:
    """The shipped detector when it was fitted on embeddings of model ``name``."""
    found = shipped()
    return found if found is not None and name is not None and found.embedder == name else None


def quarantined(
    detector: Detector, records: Sequence[MemoryRecord], vectors: np.ndarray
) -> list[tuple[MemoryRecord, str]]:
    """The records the detector fires on that carry no injection flag yet, each with
    its reason (a memory the rules already flagged keeps the rules' reasons)."""
    out = []
    for record, reason in zip(records, detector.reasons(vectors), strict=True):
        if reason is not None and not record.metadata.get(FLAGS):
            out.append((record, reason))
    return out
