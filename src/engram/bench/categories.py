"""The category bridge (issue 24, round 3 of "no false silence"): an experiment.

A paraphrased question names a category ("which web framework", "the vet") where its
memory names the thing (Flask, Dr. Patel). The idea measured here: embed a fixed list
of a few hundred generic category labels once (``engram/data/categories.txt``, written
for engram), tag the query and each candidate with the labels nearest to them by
cosine, and read their agreement as evidence that something related is stored. A
question asked of another domain's store should share no category with it.

Per query, from the vectors of the query and of its best candidates (the hits the
abstain decision reads), these numbers (``abstain.Evidence.categories``, in order):

- the query's mean cosine to its ``BACKGROUND`` nearest labels, read as
  ``cat_standout`` = best cosine minus it: a question about something generic the
  store never mentions sits closer to the generic labels than to any memory (the
  labels as a background pool; needs the query's vector only);

- ``cat_bridge``: the best, over candidates and labels, of min(query's cosine to the
  label, candidate's cosine to it): both are near one category;
- ``cat_topk``: the same over the query's ``TOP`` nearest labels only;
- ``cat_overlap``: the best share of the query's ``TOP`` labels among one candidate's;
- ``cat_profile``: the best cosine between the query's and a candidate's label
  profiles (their cosines to every label, each centred on its own mean);
- ``cat_named``: 1 when the query names a label in words (each of the label's
  keywords, stemmed as the abstain overlap stems, starts a word of the query), else 0;
- ``cat_named_tagged``: 1 when a label the query names is among some candidate's
  ``TOP`` nearest labels: the store mentions the category the question asks about.

The last two make a veto (``veto_policy``): a query that names a category no
candidate is tagged with, and whose best cosine is low, is silent.

The benchmark re-embeds the candidates' texts (recall does not hand their vectors
out); recall itself reads none of this: docs/benchmarks.md, "Round 3", found it
separates answerable paraphrases from cross-domain ones worse than the cosine alone.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from engram.bench import abstain as abstain_bench
from engram.bench import abstain_line, paraphrase
from engram.bench.abstain import Row
from engram.embed.base import Embedder
from engram.errors import InvalidInputError
from engram.recall import abstain
from engram.recall.abstain import _starts_a_word, stem
from engram.recall.standing import load_labels, standing_of, summary
from engram.records import Hit
from engram.text import keywords

#: How many nearest labels tag a text.
TOP = 5
#: How many of the query's nearest labels make its background (chosen on the
#: calibration stores: 3 to 40 all gave about the same separation there).
BACKGROUND = 10
#: The features, in the order ``Categories.measure`` returns them.
NAMES = abstain.CATEGORY_FEATURES


class Categories:
    """The label list embedded once with ``embedder``; measures the bridge per query."""

    def __init__(self, embedder: Embedder, labels: Sequence[str] | None = None) -> None:
        self.embedder = embedder
        self.labels = list(labels) if labels is not None else load_labels()
        self.matrix = np.asarray(embedder.embed_batch(self.labels), dtype=np.float32)
        #: Each label's keywords (stopwords such as "as" or "and" never name a label).
        self.words = [keywords(label) for label in self.labels]

    def named(self, text: str) -> set[int]:
        """The labels ``text`` names in words (each word of the label, stemmed, starts a
        word of the text)."""
        low = text.lower()
        return {
            n
            for n, words in enumerate(self.words)
            if words and all(_starts_a_word(low, stem(w)) for w in words)
        }

    def features(
        self, query: np.ndarray, candidates: np.ndarray, named: set[int] | None = None
    ) -> list[float]:
        """The recorded values for a query vector against candidate vectors (rows),
        given the labels the query names (``named``): the background, then
        ``NAMES[1:]``."""
        named = named or set()
        mine = self.matrix @ query  # the query's cosine to every label
        background = self.background_of(mine)
        if len(candidates) == 0:
            return [background, 0.0, 0.0, 0.0, 0.0, 1.0 if named else 0.0, 0.0]
        theirs = candidates @ self.matrix.T  # each candidate's, one row per candidate
        top = np.argsort(-mine)[: min(TOP, len(mine))]
        tagged = np.argsort(-theirs, axis=1)[:, : len(top)]
        shared = max(len(set(top.tolist()) & set(row.tolist())) for row in tagged)
        centred_q = mine - mine.mean()
        centred_c = theirs - theirs.mean(axis=1, keepdims=True)
        norms = np.linalg.norm(centred_c, axis=1) * float(np.linalg.norm(centred_q))
        profile = (centred_c @ centred_q) / np.where(norms > 0, norms, 1.0)
        return [
            background,
            round(float(np.minimum(theirs, mine[None, :]).max()), 5),
            round(float(np.minimum(theirs[:, top], mine[top][None, :]).max()), 5),
            round(shared / len(top), 4),
            round(float(profile.max()), 5),
            1.0 if named else 0.0,
            1.0 if named & {int(n) for n in tagged.flatten()} else 0.0,
        ]

    @staticmethod
    def background_of(cosines: np.ndarray) -> float:
        """The mean of the ``BACKGROUND`` highest label cosines."""
        top = np.sort(cosines)[::-1][:BACKGROUND]
        return round(float(top.mean()), 5)

    def background(self, texts: Sequence[str]) -> list[float]:
        """Each text's background (the query-only part of the bridge), in one batch."""
        vectors = np.asarray(self.embedder.embed_batch(list(texts)), dtype=np.float32)
        return [self.background_of(self.matrix @ v) for v in vectors]

    def measure(self, text: str, hits: Sequence[Hit]) -> list[float]:
        """The recorded values for ``text`` against the memories of ``hits``."""
        texts = [text] + [f"{h.memory.title or ''}\n{h.memory.content}".strip() for h in hits]
        vectors = np.asarray(self.embedder.embed_batch(texts), dtype=np.float32)
        return self.features(vectors[0], vectors[1:], self.named(text))


#: The variants compared: the shipped evidence, and each bridge feature added to it.
VARIANTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("best cosine + overlap (shipped)", abstain_bench.FEATURES),
    *((f"+ {name}", (*abstain_bench.FEATURES, name)) for name in NAMES),
    ("+ all of them", (*abstain_bench.FEATURES, *NAMES)),
    ("bridge alone (cat_bridge + overlap)", ("cat_bridge", "overlap")),
)
#: The figures reported per split: the paraphrase report's headline
#: (``paraphrase.HEADLINE``: label, kind, cell of ``abstain_bench.score``).
CELLS = paraphrase.HEADLINE


#: Veto cosines tried; the highest that silences no more fitting answerable questions
#: than the silent floor may (``abstain_bench.SILENT_FIT``) is chosen.
VETOES = tuple(round(0.05 * i, 2) for i in range(3, 13))


def pick_veto(rows: Sequence[Row], policy: abstain_bench.Policy) -> float:
    """The highest veto cosine at which the rows not held out lose no more answerable
    questions to silence than ``SILENT_FIT`` allows per dataset (0 when none does)."""
    fitting = [r for r in rows if not r.held_out and r.set == "answerable"]
    best = 0.0
    for veto in VETOES:
        trial = replace(policy, veto=veto)
        for dataset, share in abstain_bench.SILENT_FIT.items():
            items = [r for r in fitting if r.dataset == dataset]
            silent = sum(1 for r in items if not abstain_bench.shown(r, trial))
            if items and silent > int(len(items) * share):
                return best
        best = veto
    return best


def _scored(rows: Sequence[Row], policy: abstain_bench.Policy) -> dict[str, Any]:
    scored = abstain_bench.score(rows, policy)
    return {
        group: {label: scored.get(f"{group} / {kind}", {}).get(cell) for label, kind, cell in CELLS}
        for group in abstain_bench.GROUPS
        if any(key.startswith(f"{group} /") for key in scored)
    }


#: The variants that need the query's vector only, so LoCoMo and BEAM rows recorded
#: without the bridge can be measured afterwards (``with_background``).
QUERY_ONLY = (VARIANTS[0], ("+ cat_standout", (*abstain_bench.FEATURES, "cat_standout")))


def with_background(rows: Sequence[Row], texts: Mapping[str, str], bridge: Categories) -> list[Row]:
    """``rows`` with the query-only part of the bridge added to those recorded without
    it, their question's text read from ``texts`` by question id."""
    todo = [n for n, r in enumerate(rows) if r.categories is None]
    missing = sorted({rows[n].question_id for n in todo} - set(texts))
    if missing:
        raise InvalidInputError(f"no question text for {len(missing)} rows, e.g. {missing[0]}")
    values = bridge.background([texts[rows[n].question_id] for n in todo])
    out = list(rows)
    for n, value in zip(todo, values, strict=True):
        out[n] = replace(rows[n], categories=[value])
    return out


def compare(
    rows: Sequence[Row],
    embedder: str,
    variants: Sequence[tuple[str, tuple[str, ...]]] = VARIANTS,
) -> dict[str, Any]:
    """Each variant fitted as the shipped model is (``abstain_bench.fit``: the same
    floor rules) on the rows not held out, then scored on every split; and the shipped
    policy with the category veto, its cosine chosen on the same rows."""
    out: dict[str, Any] = {}
    usable = [r for r in rows if r.categories is not None]
    for name, features in variants:
        fitted = abstain_bench.fit(usable, embedder, features)
        out[name] = {
            "model": fitted,
            "groups": _scored(usable, abstain_bench.fitted_policy(fitted, embedder)),
        }
    shipped = paraphrase.shipped_policy(embedder)
    out["shipped calibration"] = {"model": {}, "groups": _scored(usable, shipped)}
    for name, (model, policy) in rule_policies(usable, embedder).items():
        out[name] = {"model": model, "groups": _scored(usable, policy)}
    if not all(r.categories is not None and len(r.categories) == len(NAMES) for r in usable):
        return out  # the veto reads the candidates' tags
    veto = pick_veto(usable, shipped)
    out[f"shipped + category veto below cosine {veto}"] = {
        "model": {"veto": veto},
        "groups": _scored(usable, replace(shipped, veto=veto)),
    }
    return out


def markdown(compared: Mapping[str, Any]) -> str:
    """One row per variant and group."""
    from engram.bench.report import table

    return table(
        ["variant", "group", *(label for label, _, _ in CELLS)],
        [
            [name, group, *(cells[label] for label, _, _ in CELLS)]
            for name, body in compared.items()
            for group, cells in body["groups"].items()
        ],
    )


# -- round 4: a separate "clearly off-topic" test --------------------------------------
#
# The shipped decision is silent below one floor of its logit, which rests on the best
# cosine alone. Round 4 tries a two-stage decision instead: the calibration's confident
# floor still decides what is answered confidently, and a separate test, fitted on the
# calibration stores alone, decides what is clearly off-topic (silent); whatever is
# neither gets one line marked low confidence. Each test silences no answerable
# question of the calibration stores (docs/benchmarks.md, "Round 4").

#: Best-cosine bounds tried for the box (both the cosine and the feature low).
BOX_SIMS = tuple(round(0.10 + 0.01 * i, 2) for i in range(30))

Feature = abstain_line.Feature
#: The line's direction fit (shared with ``engram bench abstain --fit``).
fit_direction = abstain_line.fit_direction
OffTopic = Callable[[Row], bool]


def named_feature(name: str) -> Feature:
    """A feature the row's evidence holds (``abstain.Evidence.values``), by name."""
    return lambda row: row.evidence().values()[name]


def searched(row: Row) -> str:
    """The store a row's query was asked of: its namespace, or for the paraphrase set
    (one namespace per fresh store) the store named by its question id."""
    if row.dataset != "paraphrase":
        return row.namespace
    return row.question_id.split(">")[-1].split(":")[0]


class Profiles:
    """Each store's standing profile (round 4's store-level feature): the mean and
    spread over the category labels of each label's best cosine to the store's
    memories, that is what a generic question finds in this store. ``standing`` is a
    query's best cosine standardised against it: how it ranks among them."""

    def __init__(self, bridge: Categories) -> None:
        self.bridge = bridge
        self.maxima: dict[str, np.ndarray] = {}

    def add(self, key: str, vectors: np.ndarray) -> None:
        """The profile of the store ``key`` whose memory vectors are the rows given."""
        if len(vectors) == 0:
            raise InvalidInputError(f"store {key} holds no vectors to profile")
        best = (self.bridge.matrix @ np.asarray(vectors, dtype=np.float32).T).max(axis=1)
        self.maxima[key] = best

    def add_texts(self, key: str, texts: Sequence[str]) -> None:
        """The profile of a store given its memories' texts (embedded here)."""
        self.add(key, np.asarray(self.bridge.embedder.embed_batch(list(texts))))

    @property
    def stats(self) -> dict[str, tuple[float, float]]:
        """Each store's profile as its mean and spread."""
        return {key: summary(best) for key, best in self.maxima.items()}

    def standing(self, row: Row) -> float:
        """The row's best cosine standardised against the searched store's profile."""
        return standing_of(row.sim or 0.0, self.maxima[searched(row)])


def _fitting(rows: Sequence[Row], kind: str) -> list[Row]:
    """The calibration stores' rows of one kind (the only rows a test is fitted on)."""
    return [
        r
        for r in rows
        if r.dataset == "paraphrase"
        and abstain_bench.split_of(r) == paraphrase.CALIBRATION
        and r.set == kind
        and r.categories is not None
    ]


def _asker(row: Row) -> str:
    return row.question_id.split(":")[0]


def loso_margin(answerable: Sequence[Row], cross: Sequence[Row], feature: Feature) -> float:
    """How far below the fitted floor a calibration store's lowest answerable question
    falls when the test is fitted on the other stores (leave one store out: the most
    over all stores, 0 when none falls below)."""
    gap = 0.0
    for store in sorted({_asker(r) for r in answerable}):
        angle, floor = fit_direction(
            [r for r in answerable if _asker(r) != store],
            [r for r in cross if _asker(r) != store],
            feature,
        )
        value = abstain_line.along(feature, angle)
        gap = max(gap, floor - min(value(r) for r in answerable if _asker(r) == store))
    return gap


def fit_box(
    answerable: Sequence[Row], cross: Sequence[Row], feature: Feature
) -> tuple[float, float]:
    """``(sim, bound)``: silent when the best cosine is below ``sim`` and ``feature``
    below ``bound``, the bound as high as keeps every answerable question; the pair
    that silences the most cross-domain questions."""
    best: tuple[float, float, float] = (-1.0, 0.0, -math.inf)
    for sim in BOX_SIMS:
        inside = [feature(r) for r in answerable if (r.sim or 0.0) < sim]
        bound = min(inside) if inside else math.inf
        share = sum(1 for r in cross if (r.sim or 0.0) < sim and feature(r) < bound)
        if share / max(len(cross), 1) > best[0]:
            best = (share / max(len(cross), 1), sim, bound)
    return best[1], best[2]


def _below(value: Feature, floor: float) -> OffTopic:
    return lambda row: value(row) < floor


def _box(feature: Feature, sim: float, bound: float) -> OffTopic:
    return lambda row: (row.sim or 0.0) < sim and feature(row) < bound


def off_topic_tests(
    rows: Sequence[Row], features: Mapping[str, Feature]
) -> dict[str, tuple[dict[str, Any], OffTopic]]:
    """The off-topic tests compared, each fitted on the calibration stores: the best
    cosine alone, and per feature a direction (with and without a leave-one-store-out
    margin) and a box; each with its description and its predicate."""
    answerable, cross = _fitting(rows, "answerable"), _fitting(rows, "cross")
    sim_floor = min((r.sim or 0.0) for r in answerable)
    out: dict[str, tuple[dict[str, Any], OffTopic]] = {
        "off-topic: best cosine below the lowest calibration question": (
            {"sim": round(sim_floor, 5)},
            _below(lambda r: r.sim or 0.0, sim_floor),
        )
    }
    for name, feature in features.items():
        angle, floor = fit_direction(answerable, cross, feature)
        margin = loso_margin(answerable, cross, feature)
        value = abstain_line.along(feature, angle)
        for label, at in (("", floor), (" minus a leave-one-store-out margin", floor - margin)):
            out[f"off-topic: best cosine and {name} along {angle} degrees{label}"] = (
                {"angle": angle, "floor": round(at, 5), "margin": round(floor - at, 5)},
                _below(value, at),
            )
        sim, bound = fit_box(answerable, cross, feature)
        out[f"off-topic: best cosine and {name} both low"] = (
            {"sim": sim, "bound": round(bound, 5)},
            _box(feature, sim, bound),
        )
    return out


def rule_policies(
    rows: Sequence[Row], embedder: str, features: Mapping[str, Feature] | None = None
) -> dict[str, tuple[dict[str, Any], abstain_bench.Policy]]:
    """Each off-topic test as a two-stage policy: the shipped confident floor, the test
    for silence, one line between (``cat_standout`` unless ``features`` says; empty
    when no calibration row has the bridge)."""
    if not _fitting(rows, "answerable"):
        return {}
    features = features or {"cat_standout": named_feature("cat_standout")}
    shipped = paraphrase.shipped_policy(embedder)
    return {
        name: (model, replace(shipped, name=name, off_topic=test))
        for name, (model, test) in off_topic_tests(rows, features).items()
    }
