"""Knowing when nothing matches (FEATURES E7, issue 13).

Seeds 000 and 003 promise an empty context when nothing matched, but ranking always
returns the best of what is stored, related or not. After ranking, this module reads
two things recall has already computed for its best candidates and decides whether
any of them is related at all:

- ``sim``: the best raw cosine between the query and a candidate (the dense leg);
- ``overlap``: the best share of the query's keywords found in one candidate's text
  (words, lightly stemmed, so "painting" finds "painted").

With the embedder it was calibrated on (``abstain_weights.MODEL["embedder"]``, or the
embedder a user's calibration file was fitted for: ``engram.recall.calibrations``), a
logistic model over those features gives the decision. Cosine scales differ from model
to model, so with any other embedder, or when the dense leg did not run, the decision
rests on words alone: recall abstains only when no candidate shares a single keyword
with the query. No model call is made; the cost is a few ``str.find`` scans over at
most ``depth`` texts.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engram.config import RecallConfig
from engram.recall import abstain_tie, abstain_weights, coverage
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


class Verdict(StrEnum):
    """What the decision concludes about the best candidates."""

    RELATED = "related"
    """Something stored is related: the hits are returned as usual."""
    UNCERTAIN = "uncertain"
    """Between the calibrated thresholds: the hits are returned marked
    ``Recall.low_confidence`` and the context carries at most one of them, under a
    "Possibly related" heading (issue 24: a silent miss is worse than one weak line)."""
    UNRELATED = "unrelated"
    """Nothing stored is related: no hits, an empty context, ``abstain_reason``."""


#: The features recall computes for every query (``Evidence.values`` without a
#: ``Space``): a calibration may only read these.
RECALL_FEATURES = frozenset({"sim", "overlap", "second", "margin", "mean", "matched"})
#: The category bridge's features (``Evidence.categories``), measured by the benchmark
#: only (``engram.bench.categories``; docs/benchmarks.md, "Round 3").
CATEGORY_FEATURES = (
    "cat_standout",
    "cat_bridge",
    "cat_topk",
    "cat_overlap",
    "cat_profile",
    "cat_named",
    "cat_named_tagged",
)


@dataclass(frozen=True, slots=True)
class Space:
    """The query against its whole namespace: the mean and spread of its cosines to
    every memory, its cosine to the namespace's normalised centroid, and the memories'
    mean cosine to each other (how tight the store is)."""

    mean: float
    std: float
    centroid: float
    within: float

    def values(self, sim: float) -> dict[str, float]:
        """The namespace features, with the best cosine standardised against them."""
        return {
            "ns_mean": self.mean,
            "ns_std": self.std,
            "ns_z": (sim - self.mean) / self.std if self.std > 0 else 0.0,
            "ns_centroid": self.centroid,
            "ns_standout": sim - self.within,
        }


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
    second: float | None = None
    """Second-best raw cosine (None with fewer than two dense scores)."""
    mean: float | None = None
    """Mean raw cosine of the candidates (how on-topic the store is as a whole)."""
    space: Space | None = None
    """What the whole namespace says (measured by the benchmark only; recall does not
    read it: docs/benchmarks.md, "Round 2", found it silences no more wrong-store
    paraphrases)."""
    categories: tuple[float, ...] | None = None
    """The category bridge, measured by the benchmark only: the query's mean cosine to
    its nearest category labels (``cat_standout`` is ``sim`` minus it), then, when the
    candidates were measured too, ``CATEGORY_FEATURES[1:]`` in order."""

    def values(self) -> dict[str, float]:
        """Every feature a model may read, by name (a missing cosine reads 0)."""
        sim = self.sim if self.sim is not None else 0.0
        second = self.second if self.second is not None else sim
        out = {
            "sim": sim,
            "overlap": self.overlap,
            "second": second,
            "margin": sim - second,
            "mean": self.mean if self.mean is not None else sim,
            "matched": 1.0 if self.matched else 0.0,
        }
        if self.space is not None:
            out |= self.space.values(sim)
        if self.categories:
            background, *rest = self.categories
            out["cat_standout"] = sim - background
            # A query-only measure records the background alone (no candidate features).
            out |= dict(zip(CATEGORY_FEATURES[1:], rest, strict=False))
        return out

    def features(self, names: Sequence[str] = ("sim", "overlap")) -> list[float]:
        """The model's inputs, in ``names`` order (``abstain_weights.MODEL["features"]``)."""
        values = self.values()
        return [values[n] for n in names]


@dataclass(frozen=True, slots=True)
class StandingLine:
    """The off-topic test of the two-stage decision (issue 24, round 5): silent when
    ``cos(angle) * sim + sin(angle) * standing`` is below ``floor``, the store standing
    read from ``engram.recall.standing``. Fitted on the paraphrase calibration stores
    alone, at the lowest of their answerable questions (``engram.bench.categories``)."""

    angle: float
    """Degrees from the best cosine's axis towards the standing's."""
    floor: float

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> StandingLine:
        """The line a calibration's ``standing`` entry describes."""
        return cls(angle=float(raw["angle"]), floor=float(raw["floor"]))

    def value(self, sim: float, standing: float) -> float:
        """Where the query sits along the line's direction."""
        a = math.radians(self.angle)
        return math.cos(a) * sim + math.sin(a) * standing

    def off_topic(self, sim: float, standing: float) -> bool:
        """Whether the query is clearly about nothing this store holds."""
        return self.value(sim, standing) < self.floor


@dataclass(frozen=True, slots=True)
class Calibration:
    """A logistic model of "something related is stored": with ``z = intercept + coef .
    (x - mean) / scale``, the decision is unrelated below ``low_threshold``, uncertain
    from there to ``threshold`` and related from ``threshold`` on (both logits)."""

    embedder: str
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float
    low_threshold: float | None = None
    """None: no uncertain band (below ``threshold`` is unrelated)."""
    features: tuple[str, ...] = ("sim", "overlap")
    relative_floor: float = 0.0
    """The padding floor fitted with the model (``recall.relative_floor``'s default for
    its embedder)."""
    standing: StandingLine | None = None
    """The off-topic test that decides silence when the store standing is known
    (``recall.standing``); None: the silent floor ``low_threshold`` decides."""

    @classmethod
    def from_mapping(cls, model: Mapping[str, Any]) -> Calibration:
        """The calibration a weights mapping describes."""
        low = model.get("low_threshold")
        return cls(
            embedder=str(model["embedder"]),
            mean=tuple(float(v) for v in model["mean"]),
            scale=tuple(float(v) for v in model["scale"]),
            coef=tuple(float(v) for v in model["coef"]),
            intercept=float(model["intercept"]),
            threshold=float(model["threshold"]),
            low_threshold=None if low is None else float(low),
            features=tuple(str(f) for f in model.get("features", ("sim", "overlap"))),
            relative_floor=float(model.get("relative_floor", 0.0)),
            standing=None
            if not model.get("standing")
            else StandingLine.from_mapping(model["standing"]),
        )

    def logit(self, evidence: Evidence) -> float:
        """The model's log-odds that something related is stored."""
        x = evidence.features(self.features)
        return self.intercept + sum(
            c * (v - m) / s for c, v, m, s in zip(self.coef, x, self.mean, self.scale, strict=True)
        )

    def verdict(self, evidence: Evidence, standing: float | None = None) -> Verdict:
        """Related, uncertain or unrelated, by the two thresholds; or, given the store
        ``standing`` and a line to read it with, two-stage: the line alone decides
        silence, the confident floor what is answered, and between them one line."""
        z = self.logit(evidence)
        if self.standing is not None and standing is not None:
            if self.standing.off_topic(evidence.sim or 0.0, standing):
                return Verdict.UNRELATED
            return Verdict.RELATED if z >= self.threshold else Verdict.UNCERTAIN
        if z >= self.threshold:
            return Verdict.RELATED
        if self.low_threshold is not None and z >= self.low_threshold:
            return Verdict.UNCERTAIN
        return Verdict.UNRELATED


#: The shipped calibration, for the default model (a user's fit for another embedder
#: is a file under the data directory: ``engram.recall.calibrations``).
CALIBRATION = Calibration.from_mapping(abstain_weights.MODEL)
#: The padding floor fitted with it (``recall.relative_floor``'s default).
RELATIVE_FLOOR = CALIBRATION.relative_floor


def _starts_a_word(text: str, stem: str) -> bool:
    """Whether some word of ``text`` starts with ``stem`` (``\\bstem`` without a regex:
    ``str.find`` scans long messages many times faster)."""
    at = text.find(stem)
    while at != -1:
        if at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_"):
            return True
        at = text.find(stem, at + 1)
    return False


def hit_overlaps(query: str, hits: Sequence[Hit]) -> list[float]:
    """Each hit's share of the query's keywords (for benchmarks, which keep them all)."""
    stems = [stem(t) for t in keywords(query)]
    if not stems:
        return [0.0 for _ in hits]
    out = []
    for hit in hits:
        text = f"{hit.memory.title or ''}\n{hit.memory.content}".lower()
        out.append(sum(1 for s in stems if _starts_a_word(text, s)) / len(stems))
    return out


def evidence(query: str, hits: Sequence[Hit]) -> Evidence:
    """The evidence ``hits`` (the best candidates, before ``limit``) give for ``query``."""
    terms = keywords(query)
    stems = [stem(t) for t in terms]
    best_overlap = 0.0
    sims = sorted((h.breakdown.sim for h in hits if h.breakdown.sim is not None), reverse=True)
    if stems:
        for hit in hits:
            text = f"{hit.memory.title or ''}\n{hit.memory.content}".lower()
            found = sum(1 for s in stems if _starts_a_word(text, s))
            best_overlap = max(best_overlap, found / len(stems))
            if best_overlap == 1.0:
                break
    return Evidence(
        sim=sims[0] if sims else None,
        overlap=best_overlap,
        terms=len(terms),
        matched=any((h.breakdown.bm25 or 0.0) > 0.0 for h in hits),
        second=sims[1] if len(sims) > 1 else None,
        mean=sum(sims) / len(sims) if sims else None,
    )


@dataclass(frozen=True, slots=True)
class Decision:
    """The verdict and, unless related, why (with the numbers)."""

    verdict: Verdict
    reason: str | None = None


_ANYWAY = "pass min_relevance=0 or abstain=false to see the nearest memories anyway"


def decide(
    found: Evidence,
    embedder: str | None,
    calibration: Calibration = CALIBRATION,
    standing: float | None = None,
) -> Decision:
    """Whether anything stored is related, by the calibrated model for the embedder it
    was calibrated on (with the store ``standing`` when it is known) and by words alone
    for any other."""
    words = f"{round(found.overlap * found.terms)} of {found.terms} query keywords"
    if found.sim is not None and embedder == calibration.embedder:
        verdict = calibration.verdict(found, standing)
        if verdict is Verdict.RELATED:
            return Decision(verdict)
        numbers = f"best similarity {found.sim:.2f}, {words} in the best match"
        if standing is not None and calibration.standing is not None:
            numbers += f", store standing {standing:.2f}"
        if verdict is Verdict.UNCERTAIN:
            return Decision(
                verdict,
                f"nothing stored looks clearly related: {numbers}, between the floors "
                f"calibrated for {calibration.embedder}",
            )
        return Decision(
            verdict,
            f"nothing stored looks related: {numbers} (the floor calibrated for "
            f"{calibration.embedder}); {_ANYWAY}",
        )
    # Another embedder's cosines mean something else: only words decide. A candidate
    # that shares a keyword is related; when none does, a dense leg may still have found
    # a paraphrase (issue 24), so that is uncertain; without one, nothing is related.
    if found.terms == 0 or found.matched or found.overlap > 0.0:
        return Decision(Verdict.RELATED)
    if found.sim is not None:
        return Decision(
            Verdict.UNCERTAIN,
            f"nothing stored looks clearly related: none of the query's {found.terms} "
            "keywords is in any candidate, and the similarity floor is not calibrated "
            f"for {embedder} (engram bench abstain --fit)",
        )
    return Decision(
        Verdict.UNRELATED,
        f"nothing stored looks related: none of the query's {found.terms} keywords is in "
        f"any candidate; {_ANYWAY}",
    )


def reason(
    found: Evidence,
    embedder: str | None,
    calibration: Calibration = CALIBRATION,
    standing: float | None = None,
) -> str | None:
    """Why recall should return nothing, or None when it returns something (related,
    or uncertain: the hits marked low confidence)."""
    decision = decide(found, embedder, calibration, standing)
    return decision.reason if decision.verdict is Verdict.UNRELATED else None


#: The store standing of a best cosine in the namespaces recall read (None: unknown);
#: ``engram.recall.standing.Standings.value`` bound to them.
StandingOf = Callable[[float], float | None]


def check(
    query: str,
    hits: Sequence[Hit],
    embedder: str | None,
    calibration: Calibration = CALIBRATION,
    standing: StandingOf | None = None,
) -> Decision:
    """The decision for ``query`` given its best candidates ``hits`` (related when
    there are none: nothing to judge); ``standing`` is read only when the calibration
    for this embedder has a line for it."""
    if not hits:
        return Decision(Verdict.RELATED)
    found = evidence(query, hits)
    value = None
    if (
        standing is not None
        and calibration.standing is not None
        and found.sim is not None
        and embedder == calibration.embedder
    ):
        value = standing(found.sim)
    return decide(found, embedder, calibration, value)


def probability(logit: float) -> float:
    """The logistic function (for reports)."""
    return 1.0 / (1.0 + math.exp(-logit))


def possibly_related(shown: Sequence[Hit]) -> list[Hit]:
    """The one line an unsure answer shows (issue 24): the note nearest the query by
    its own cosine among the notes (memories outside any session) that would be shown,
    when the first is one; otherwise the first.

    The decision read its best cosine to call the answer possibly related, so that is
    the line it found; fused rank can put another note first on a single shared
    common word ("session", "people"), which in a store of a few short notes stands
    alone and keeps the keyword leg's whole weight. A conversation's turn keeps its
    place: its rank carries its session's context, which finds a reply through the
    turn before it (round 11, silent36: docs/benchmarks.md)."""
    if not shown or shown[0].memory.session_id is not None:
        return list(shown[:1])
    notes = [h for h in shown if h.memory.session_id is None]
    best = max(notes, key=lambda h: -2.0 if h.breakdown.sim is None else h.breakdown.sim)
    return [best]


#: Whether some of the hits a context would show answer what the query asks
#: (``abstain_attribute.answers`` bound to its floor and cosines).
Answers = Callable[[str, Sequence[Hit]], bool]


def tie_margin(cfg: RecallConfig, embedder: str | None) -> float:
    """The near-tie margin a confident note answer is read with (``abstain_tie``):
    ``recall.tie_margin`` when set, else the shipped one for the embedder it was chosen
    on, else 0 (off: another model's cosines mean otherwise)."""
    if cfg.tie_margin is not None:
        return cfg.tie_margin
    return abstain_tie.MARGIN if embedder == CALIBRATION.embedder else 0.0


def screen(
    query: str,
    hits: list[Hit],
    embedder: str | None,
    cfg: RecallConfig,
    calibration: Calibration = CALIBRATION,
    standing: StandingOf | None = None,
    answered: Answers | None = None,
    limit: int | None = None,
) -> tuple[list[Hit], str | None, bool, bool]:
    """The decision applied to ranked ``hits``: ``(hits kept, abstain reason or None,
    low confidence, tied)``. Unrelated (or unsure, with ``recall.low_confidence``
    off) gives no hits and the reason; otherwise hits far below the best no longer pad
    up to the limit (issue 24's relative floor), and an unsure decision marks them. A
    related decision is marked unsure too, when ``recall.low_confidence`` lets an unsure
    answer through, if its best note has a near twin among the candidates (``tied``: the
    context keeps its lines under the unsure heading, ``abstain_tie``), or if
    its first ``limit`` kept hits do not ``answered`` the query (on topic, another
    attribute: ``engram.recall.abstain_attribute``)."""
    pool = hits[: cfg.candidates]
    decision = check(query, pool, embedder, calibration, standing)
    if decision.verdict is Verdict.UNRELATED or (
        decision.verdict is Verdict.UNCERTAIN and not cfg.low_confidence
    ):
        return [], decision.reason, False, False
    share = cfg.relative_floor
    if share is None:  # the floor fitted with the calibration, for its embedder
        share = calibration.relative_floor if embedder == calibration.embedder else 0.0
    # issue 24 (T2): a thread question's floor is judged per session (recall/coverage.py)
    kept = coverage.relative_floor(query, cfg, hits, share)
    unsure = decision.verdict is Verdict.UNCERTAIN
    # issue 24, round 12: a best note with a near twin is no confident answer
    if (
        not unsure
        and cfg.low_confidence
        and kept
        and abstain_tie.tied(pool, tie_margin(cfg, embedder))
    ):
        return kept, None, True, True
    if not unsure and answered is not None and cfg.low_confidence and kept:
        unsure = not answered(query, kept[: limit or len(kept)])
    return kept, None, unsure, False
