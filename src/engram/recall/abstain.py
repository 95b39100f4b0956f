"""Knowing when nothing matches (FEATURES E7, issue 13).

Seeds 000 and 003 promise an empty context when nothing matched, but ranking always
returns the best of what is stored, related or not. After ranking, this module reads
two things recall has already computed for its best candidates and decides whether
any of them is related at all:

- ``sim``: the best raw cosine between the query and a candidate (the dense leg);
- ``overlap``: the best share of the query's keywords found in one candidate's text
  (words, lightly stemmed, so "painting" finds "painted").

With the embedder it was calibrated on (``abstain_weights.MODEL["embedder"]``), a
logistic model over those features, fitted on the dev sets by ``engram bench abstain
--fit``, gives the decision. Cosine scales differ from model to model, so with any other
embedder, or when the dense leg did not run, the decision rests on words alone: recall
abstains only when no candidate shares a single keyword with the query. No model call
is made; the cost is a few regex searches over at most ``depth`` texts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engram.recall import abstain_weights
from engram.records import Hit
from engram.text import keywords

#: Suffixes stripped before a keyword is looked for as a word prefix, so inflections
#: of one word meet ("painting"/"painted" -> "paint", "studies" -> "study").
_SUFFIXES = (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))
_MIN_STEM = 3


def stem(term: str) -> str:
    """``term`` without one common English suffix (never shorter than 3 characters)."""
    for suffix, repl in _SUFFIXES:
        if term.endswith(suffix) and len(term) - len(suffix) + len(repl) >= _MIN_STEM:
            return term[: len(term) - len(suffix)] + repl
    return term


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the best candidates say about whether anything stored is related."""

    sim: float | None
    """Best raw cosine of a candidate to the query; None when the dense leg did not run."""
    overlap: float
    """Best share of the query's keywords found in one candidate's text (0 to 1)."""
    terms: int
    """How many keywords the query has."""
    matched: bool
    """Whether the keyword index matched any candidate (a non-zero BM25)."""

    def features(self) -> list[float]:
        """The model's inputs, in ``abstain_weights.MODEL["features"]`` order."""
        return [self.sim if self.sim is not None else 0.0, self.overlap]


@dataclass(frozen=True, slots=True)
class Calibration:
    """A logistic model: abstain when ``intercept + coef . (x - mean) / scale`` is below
    ``threshold`` (a logit)."""

    embedder: str
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float

    @classmethod
    def from_mapping(cls, model: Mapping[str, Any]) -> Calibration:
        """The calibration a weights mapping describes."""
        return cls(
            embedder=str(model["embedder"]),
            mean=tuple(float(v) for v in model["mean"]),
            scale=tuple(float(v) for v in model["scale"]),
            coef=tuple(float(v) for v in model["coef"]),
            intercept=float(model["intercept"]),
            threshold=float(model["threshold"]),
        )

    def logit(self, evidence: Evidence) -> float:
        """The model's log-odds that something related is stored."""
        x = evidence.features()
        return self.intercept + sum(
            c * (v - m) / s for c, v, m, s in zip(self.coef, x, self.mean, self.scale, strict=True)
        )


CALIBRATION = Calibration.from_mapping(abstain_weights.MODEL)


def _starts_a_word(text: str, stem: str) -> bool:
    """Whether some word of ``text`` starts with ``stem`` (``\\bstem`` without a regex:
    ``str.find`` scans long messages many times faster)."""
    at = text.find(stem)
    while at != -1:
        if at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_"):
            return True
        at = text.find(stem, at + 1)
    return False


def evidence(query: str, hits: Sequence[Hit]) -> Evidence:
    """The evidence ``hits`` (the best candidates, before ``limit``) give for ``query``."""
    terms = keywords(query)
    stems = [stem(t) for t in terms]
    best_overlap = 0.0
    sims = [h.breakdown.sim for h in hits if h.breakdown.sim is not None]
    if stems:
        for hit in hits:
            text = f"{hit.memory.title or ''}\n{hit.memory.content}".lower()
            found = sum(1 for s in stems if _starts_a_word(text, s))
            best_overlap = max(best_overlap, found / len(stems))
            if best_overlap == 1.0:
                break
    return Evidence(
        sim=max(sims) if sims else None,
        overlap=best_overlap,
        terms=len(terms),
        matched=any((h.breakdown.bm25 or 0.0) > 0.0 for h in hits),
    )


def reason(
    found: Evidence, embedder: str | None, calibration: Calibration = CALIBRATION
) -> str | None:
    """Why recall should return nothing, or None when something related is stored."""
    words = f"{round(found.overlap * found.terms)} of {found.terms} query keywords"
    if found.sim is not None and embedder == calibration.embedder:
        if calibration.logit(found) >= calibration.threshold:
            return None
        return (
            f"nothing stored looks related: best similarity {found.sim:.2f}, {words} in "
            f"the best match (the floor calibrated for {calibration.embedder}); pass "
            "min_relevance=0 or abstain=false to see the nearest memories anyway"
        )
    # Another embedder's cosines mean something else: only words decide, and only when
    # no candidate shares a single keyword with the query.
    if found.terms == 0 or found.matched or found.overlap > 0.0:
        return None
    return (
        f"nothing stored looks related: none of the query's {found.terms} keywords is in "
        "any candidate; pass min_relevance=0 or abstain=false to see the nearest "
        "memories anyway"
    )


def check(query: str, hits: Sequence[Hit], embedder: str | None) -> str | None:
    """Why recall abstains for ``query`` given its best candidates ``hits``, or None."""
    if not hits:
        return None
    return reason(evidence(query, hits), embedder)


def probability(logit: float) -> float:
    """The logistic function (for reports)."""
    return 1.0 / (1.0 + math.exp(-logit))
