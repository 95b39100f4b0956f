"""``engram bench abstain``: does recall know when nothing matches? (issues 13 and 24)

Four sets of queries, each answered with the abstain decision off, so the evidence it
would read (``engram.recall.abstain.evidence``) and every hit's cosine, fused score and
keyword share are recorded once per query, and any policy (floors, the uncertain band,
the relative floor) can be scored afterwards without recalling again:

- the paraphrase set (``engram.bench.paraphrase``): answerable, same-register unrelated
  and cross-domain questions over small agent stores; its held-out stores are scored,
  never fitted;
- ``abstention``: BEAM's abstention questions, whose answer is not in the chat;
- ``cross``: LoCoMo questions asked of BEAM chats' namespaces and BEAM questions asked
  of LoCoMo conversations' namespaces (every one should come back empty);
- ``answerable``: LoCoMo and BEAM questions with evidence, asked of their own
  namespace; they should keep a gold turn in the context.

A policy answers each query in one of three ways: silent (unrelated), one line marked
low confidence (uncertain) or the hits (related). The fit (:func:`fit`) weighs every
dataset alike, sets the silent floor so answerable questions are not silenced, the
confident floor so cross-domain ones are rarely answered confidently, and the relative
floor so no gold memory is lost. Conversations and calibration stores are split in two
folds (alternately); :func:`two_fold` fits on one and scores the other.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engram.bench import abstain_line, abstain_margin, beam, runner
from engram.bench.dataset import Dataset
from engram.bench.metrics import percentile
from engram.bench.spaces import Spaces
from engram.memory import Memory
from engram.recall import abstain, coverage
from engram.records import Hit

#: Hits read per query: recall's over-fetch (``candidates``), the hits the decision reads.
DEPTH = 12
LIMITS = (4, 10)


@dataclass(frozen=True, slots=True)
class Row:
    """One query: which set it belongs to, the evidence, and where its gold ranked."""

    set: str
    dataset: str
    fold: int
    question_id: str
    namespace: str
    sim: float | None
    overlap: float
    terms: int
    matched: bool
    fused: float
    top_score: float
    gold_rank: int | None
    """0-based rank of the first gold hit among the top ``DEPTH``; None if absent."""
    decision_us: float
    held_out: bool = False
    """A row never used to fit or tune (the paraphrase set's held-out stores)."""
    hit_sims: list[float | None] = field(default_factory=list)
    """Per hit, in rank order (the top ``DEPTH``): raw cosine, keyword share, fused
    relevance and final score; so floors and bands can be scored without recalling."""
    hit_overlaps: list[float] = field(default_factory=list)
    hit_fused: list[float] = field(default_factory=list)
    hit_scores: list[float] = field(default_factory=list)
    gold_ranks: list[int] = field(default_factory=list)
    """0-based ranks of every gold hit among the top ``DEPTH``."""
    split: str = ""
    """The paraphrase set's split of the row's store ("" for LoCoMo and BEAM)."""
    space: list[float] | None = None
    """The query against its whole namespace (``abstain.Space``'s fields in order), or
    None when not measured."""
    categories: list[float] | None = None
    """The category bridge (``abstain.CATEGORY_FEATURES`` in order), or None when not
    measured (``engram.bench.categories``)."""
    standing: float | None = None
    """The best cosine's store standing as recall computes it (``engram.recall.
    standing``), or None when not measured (rows saved before round 5)."""
    thread: bool = False
    """Recall read the query as a thread question: its floor is judged per bucket."""
    hit_buckets: list[str] = field(default_factory=list)
    """Per hit, its time bucket (``coverage.bucket_of``); empty in older rows."""

    def evidence(self) -> abstain.Evidence:
        """The evidence the abstain decision reads."""
        sims = sorted((s for s in self.hit_sims if s is not None), reverse=True)
        return abstain.Evidence(
            self.sim,
            self.overlap,
            self.terms,
            self.matched,
            second=sims[1] if len(sims) > 1 else None,
            mean=sum(sims) / len(sims) if sims else None,
            space=abstain.Space(*self.space) if self.space else None,
            categories=tuple(self.categories) if self.categories is not None else None,
        )


Progress = Callable[[str, int, int], None]
#: Measures extra evidence of a query from its hits (``Categories.measure``).
Measure = Callable[[str, Sequence[Hit]], list[float]]


def ask(
    mem: Memory,
    kind: str,
    dataset: str,
    fold: int,
    question_id: str,
    namespace: str,
    text: str,
    gold: frozenset[str],
    key: str = "turn",
    held_out: bool = False,
    split: str = "",
    spaces: Spaces | None = None,
    categories: Measure | None = None,
) -> Row:
    """Ask ``text`` with the decision off and record what the decision would read;
    ``gold`` holds the gold hits' ``metadata[key]``."""
    recall = mem.recall(text, namespace=namespace, limit=DEPTH, abstain=False)
    hits = recall.hits[:DEPTH]
    start = time.perf_counter()
    found = abstain.evidence(text, hits)
    abstain.reason(found, mem.embedder.name if mem.embedder is not None else None)
    cost = (time.perf_counter() - start) * 1e6
    marks = [str(h.memory.metadata.get(key)) for h in hits]
    ranks = [n for n, t in enumerate(marks) if t in gold]
    return Row(
        kind,
        dataset,
        fold,
        question_id,
        namespace,
        found.sim,
        found.overlap,
        found.terms,
        found.matched,
        max((h.breakdown.fused for h in hits), default=0.0),
        hits[0].score if hits else 0.0,
        ranks[0] if ranks else None,
        cost,
        held_out=held_out,
        hit_sims=[None if h.breakdown.sim is None else round(h.breakdown.sim, 5) for h in hits],
        hit_overlaps=[round(v, 4) for v in abstain.hit_overlaps(text, hits)],
        hit_fused=[round(h.breakdown.fused, 5) for h in hits],
        hit_scores=[round(h.score, 5) for h in hits],
        gold_ranks=ranks,
        split=split,
        space=spaces.measure(namespace, text) if spaces is not None else None,
        categories=categories(text, hits) if categories is not None else None,
        standing=abstain_line.standing_in(mem, namespace, found.sim),
        thread=coverage.thread(text, mem.config.recall),
        hit_buckets=[coverage.bucket_of(h) for h in hits],
    )


def collect(
    mem: Memory,
    locomo: Dataset,
    beam_data: Dataset,
    progress: Progress | None = None,
    namespace_evidence: bool = False,
) -> list[Row]:
    """Ingest both datasets (skipping stored ones) and ask the three sets; with
    ``namespace_evidence``, also measure each query against its whole namespace (one
    more embedding per query: ``engram.bench.spaces``)."""
    runner.ingest(mem, locomo, progress)
    runner.ingest(mem, beam_data, progress)
    spaces = {
        name: [
            [
                runner.namespace_for(data.name, c.id)
                for i, c in enumerate(data.conversations)
                if i % 2 == fold
            ]
            for fold in (0, 1)
        ]
        for name, data in (("locomo", locomo), ("beam", beam_data))
    }
    plan: list[tuple[str, str, int, str, str, str, frozenset[str]]] = []
    for name, data, other in (("locomo", locomo, "beam"), ("beam", beam_data, "locomo")):
        for i, conv in enumerate(data.conversations):
            fold = i % 2
            own = runner.namespace_for(data.name, conv.id)
            targets = spaces[other][fold] or spaces[other][1 - fold]
            for n, q in enumerate(conv.questions):
                if name == "beam" and q.category == beam.ABSTENTION:
                    plan.append(("abstention", name, fold, q.id, own, q.text, frozenset()))
                elif q.gold_turns:
                    plan.append(("answerable", name, fold, q.id, own, q.text, q.gold_turns))
                target = targets[n % len(targets)]
                plan.append(("cross", name, fold, q.id, target, q.text, frozenset()))
    rows: list[Row] = []
    measured = Spaces(mem) if namespace_evidence else None
    for done, (kind, name, fold, qid, ns, text, gold) in enumerate(plan, 1):
        rows.append(ask(mem, kind, name, fold, qid, ns, text, gold, spaces=measured))
        if progress is not None:
            progress("recall", done, len(plan))
    return rows


# -- scoring a policy ---------------------------------------------------------------------

#: The decision before issue 24 (issue 13's weights: one floor, no uncertain band, no
#: relative floor), kept to report before and after on the same rows.
ISSUE_13: dict[str, Any] = {
    "features": ["sim", "overlap"],
    "mean": [0.39369, 0.506285],
    "scale": [0.234283, 0.270253],
    "coef": [4.432124, 0.853774],
    "intercept": -0.25091,
    "embedder": "all-MiniLM-L6-v2",
    "threshold": -0.44,
}


@dataclass(frozen=True, slots=True)
class Policy:
    """What recall does after ranking: the decision (None: none), whether its uncertain
    band answers with one line (else it is silent) and the relative floor."""

    name: str
    calibration: abstain.Calibration | None
    embedder: str | None
    low_confidence: bool = True
    floor: float = 0.0
    veto: float = 0.0
    """The category veto (``engram.bench.categories``, an experiment): below this best
    cosine, a query that names a category no candidate is tagged with is silent."""
    off_topic: Callable[[Row], bool] | None = None
    """A separate "clearly off-topic" test (round 4, an experiment): when set, only it
    silences; what the calibration puts below its confident floor is one line."""


def verdict(row: Row, policy: Policy) -> abstain.Verdict:
    """The decision ``policy`` takes for the row's query."""
    if policy.calibration is None:
        return abstain.Verdict.RELATED
    if policy.veto > 0.0 and row.categories is not None and (row.sim or 0.0) < policy.veto:
        values = row.evidence().values()
        if values["cat_named"] and not values["cat_named_tagged"]:
            return abstain.Verdict.UNRELATED
    found = abstain.decide(
        row.evidence(), policy.embedder, policy.calibration, row.standing
    ).verdict
    if policy.off_topic is None:
        return found
    if policy.off_topic(row):
        return abstain.Verdict.UNRELATED
    return abstain.Verdict.UNCERTAIN if found is abstain.Verdict.UNRELATED else found


def shown(row: Row, policy: Policy, limit: int = LIMITS[0]) -> list[int]:
    """Ranks (among the row's hits) of the memories the context holds."""
    found = verdict(row, policy)
    if found is abstain.Verdict.UNRELATED or (
        found is abstain.Verdict.UNCERTAIN and not policy.low_confidence
    ):
        return []
    # Recall's own floor (coverage.floor_kept): per time bucket for a thread question.
    buckets = row.hit_buckets if row.thread and row.hit_buckets else None
    kept = coverage.floor_kept(row.hit_sims, row.hit_fused, policy.floor, buckets)
    return kept[:1] if found is abstain.Verdict.UNCERTAIN else kept[:limit]


def split_of(row: Row) -> str:
    """The paraphrase split of a row (rows saved before the split was recorded were
    either calibration or the first held-out set)."""
    if row.split:
        return row.split
    return "held-out" if row.held_out else "calibration"


def group(row: Row) -> str:
    """The row's report group: dataset, and for the paraphrase set its split."""
    if row.dataset == "paraphrase":
        return f"paraphrase {split_of(row)}"
    return f"{row.dataset} dev"


GROUPS = (
    "paraphrase calibration",
    "paraphrase held-out",
    *(f"paraphrase held-out-{n}" for n in range(2, 10)),
    "paraphrase tune-36",
    "paraphrase held-out-10",
    "locomo dev",
    "beam dev",
)
KINDS = ("answerable", "unrelated", "cross", "abstention")


def score(rows: Sequence[Row], policy: Policy, limit: int = LIMITS[0]) -> dict[str, Any]:
    """Per group and kind: how often recall is silent, unsure (one line) or answers;
    for answerable questions, how often a gold memory reaches the context (``gold``), of
    those whose gold was in the top ``limit`` without the policy (``kept``), and the
    context lines (``lines``; for other kinds every line is noise)."""
    out: dict[str, Any] = {}
    for name in GROUPS:
        for kind in KINDS:
            items = [r for r in rows if group(r) == name and r.set == kind]
            if not items:
                continue
            verdicts = [verdict(r, policy) for r in items]
            lines = [shown(r, policy, limit) for r in items]
            cell: dict[str, Any] = {
                "n": len(items),
                "silent": _share(sum(1 for r, v in zip(items, lines, strict=True) if not v), items),
                "uncertain": _share(
                    sum(
                        1
                        for v, x in zip(verdicts, lines, strict=True)
                        if x and v is abstain.Verdict.UNCERTAIN
                    ),
                    items,
                ),
                "lines": round(sum(len(x) for x in lines) / len(items), 3),
            }
            if kind == "answerable":
                gold = [bool(set(r.gold_ranks) & set(x)) for r, x in zip(items, lines, strict=True)]
                cell["gold"] = _share(sum(gold), items)
                ceiling = [
                    g
                    for r, g in zip(items, gold, strict=True)
                    if any(k < limit for k in r.gold_ranks)
                ]
                cell["kept"] = _share(sum(ceiling), ceiling)
                cell["gold_without_policy"] = _share(len(ceiling), items)
            out[f"{name} / {kind}"] = cell
    return out


def _share(count: int, items: Sequence[Any]) -> float:
    return round(count / len(items), 4) if items else float("nan")


# -- fitting ------------------------------------------------------------------------------

#: The model's inputs. Extra features the evidence carries (second-best cosine, the
#: candidates' mean cosine, their margin, keyword match) were measured and did not keep
#: more held-out paraphrases at the same silence (docs/benchmarks.md, "No false silence").
FEATURES = ("sim", "overlap")
#: Answerable questions the silent floor may drop on the data it is fitted on: none of
#: the paraphrase calibration stores' (issue 24: never wrongly silent; 2% is the
#: ceiling held out) and a quarter of a percent of LoCoMo's (half its 0.5% ceiling).
SILENT_FIT = {"paraphrase": 0.0, "locomo": 0.0025}
#: The confident floor: the lowest logit at which at most this share of the fitting
#: paraphrase cross-domain questions, and of LoCoMo and BEAM's negatives together
#: (cross-domain and abstention, issue 13's measure), would get a confident answer.
#: Between the floors recall answers with one line marked low confidence.
CONFIDENT_NEGATIVES = {"paraphrase": 0.05, "dev": 0.10}
#: Relative floors tried for padding; the highest that keeps every gold memory of the
#: paraphrase calibration stores in the top ``LIMITS[0]`` is chosen...
FLOORS = tuple(round(0.05 * i, 2) for i in range(0, 19))
#: ... and that keeps at least this share of LoCoMo's and BEAM's gold memories.
FLOOR_DEV_KEEP = 0.995


def fitting_rows(rows: Sequence[Row]) -> list[Row]:
    """Rows a model may be fitted on: not held out, with a cosine, of a set with a label."""
    return [
        r
        for r in rows
        if not r.held_out and r.sim is not None and r.set in ("answerable", "cross", "abstention")
    ]


def fit_logistic(
    rows: Sequence[Row], features: Sequence[str] = FEATURES, steps: int = 3000, l2: float = 1e-3
) -> dict[str, Any]:
    """Logistic regression of "answerable" on the evidence features: each (dataset,
    answerable or not) group weighs the same, so a small set counts as much as a large
    one; coefficients stay non-negative (more similarity or shared words never means
    "less related"). Gradient descent on standardised features; no thresholds yet."""
    x = np.array([r.evidence().features(features) for r in rows], dtype=np.float64)
    y = np.array([1.0 if r.set == "answerable" else 0.0 for r in rows])
    keys = [(r.dataset, r.set == "answerable") for r in rows]
    sizes = {k: keys.count(k) for k in set(keys)}
    weights = np.array([len(keys) / (len(sizes) * sizes[k]) for k in keys])
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    coef = np.zeros(z.shape[1])
    intercept = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ coef + intercept)))
        g = weights * (p - y)
        coef = np.maximum(coef - 0.5 * ((z.T @ g) / len(y) + l2 * coef), 0.0)
        intercept -= 0.5 * float(g.mean())
    return {
        "features": list(features),
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "coef": [round(float(v), 6) for v in coef],
        "intercept": round(intercept, 6),
    }


def calibration(
    model: Mapping[str, Any], embedder: str, threshold: float, low: float | None = None
) -> abstain.Calibration:
    """A calibration from fitted weights and its thresholds (and the standing's line,
    when ``model`` has one)."""
    return abstain.Calibration.from_mapping(
        {**model, "embedder": embedder, "threshold": threshold, "low_threshold": low}
    )


def pick_band(rows: Sequence[Row], model: Mapping[str, Any], embedder: str) -> tuple[float, float]:
    """The silent floor (the highest logit at which at most ``SILENT_FIT`` of each
    dataset's answerable questions fall below it) and the confident floor (the lowest
    at which at most ``CONFIDENT_NEGATIVES`` of the negatives reach it), rounded
    outwards to 0.01 so the choice is stable."""
    cal = calibration(model, embedder, 0.0)
    lows = []
    for dataset, share in SILENT_FIT.items():
        logits = sorted(
            cal.logit(r.evidence())
            for r in rows
            if r.dataset == dataset and r.set == "answerable" and r.sim is not None
        )
        if logits:
            lows.append(logits[int(len(logits) * share)] - _headroom(rows, cal, dataset))
    highs = []
    for pool, share in CONFIDENT_NEGATIVES.items():
        logits = sorted(
            cal.logit(r.evidence())
            for r in rows
            if r.set in ("cross", "abstention") and r.sim is not None
            if (r.dataset == "paraphrase") == (pool == "paraphrase")
        )
        if logits:
            highs.append(logits[min(len(logits) - 1, int(len(logits) * (1 - share)))])
    low = float(np.floor(min(lows) * 100) / 100) if lows else float("-inf")
    high = float(np.ceil(max(highs) * 100) / 100) if highs else low
    return low, max(low, high)


def _headroom(rows: Sequence[Row], cal: abstain.Calibration, dataset: str) -> float:
    """Below the paraphrase stores' lowest answerable question, the margin a store not
    seen needs (``abstain_margin``, round 6); none for LoCoMo's quantile."""
    if dataset != "paraphrase":
        return 0.0
    by_store: dict[str, list[float]] = {}
    for r in rows:
        if r.dataset == dataset and r.set == "answerable" and r.sim is not None:
            by_store.setdefault(r.question_id.split(":")[0], []).append(cal.logit(r.evidence()))
    return abstain_margin.margin(by_store)


def pick_floor(rows: Sequence[Row], policy: Policy) -> float:
    """The highest relative floor (decision off) that keeps every gold memory the
    paraphrase calibration stores had in the top ``LIMITS[0]`` without it, and at
    least ``FLOOR_DEV_KEEP`` of LoCoMo's and BEAM's."""
    answerable = [
        r
        for r in rows
        if not r.held_out and r.set == "answerable" and any(k < LIMITS[0] for k in r.gold_ranks)
    ]
    best = 0.0
    for share in FLOORS:
        plain = Policy("floor", None, policy.embedder, floor=share)
        ok = True
        for dataset in {r.dataset for r in answerable}:
            items = [r for r in answerable if r.dataset == dataset]
            kept = sum(1 for r in items if set(r.gold_ranks) & set(shown(r, plain))) / len(items)
            ok = ok and kept >= (1.0 if dataset == "paraphrase" else FLOOR_DEV_KEEP)
        if not ok:
            break
        best = share
    return best


def fit(rows: Sequence[Row], embedder: str, features: Sequence[str] = FEATURES) -> dict[str, Any]:
    """The model, its two thresholds and the relative floor, from the rows it may see;
    and, when the paraphrase calibration rows carry the store standing, the off-topic
    line that then decides silence instead of the silent floor."""
    train = fitting_rows(rows)
    model = fit_logistic(train, features)
    low, high = pick_band(train, model, embedder)
    cal = calibration(model, embedder, high, low)
    floor = pick_floor([r for r in rows if not r.held_out], Policy("fit", cal, embedder))
    out = {**model, "threshold": high, "low_threshold": low, "relative_floor": floor}
    line = abstain_line.fit_standing(rows)
    if line is not None:
        out["standing"] = line
    return out


def fitted_policy(fitted: Mapping[str, Any], embedder: str, name: str = "fitted") -> Policy:
    """The policy a :func:`fit` result describes."""
    cal = calibration(fitted, embedder, fitted["threshold"], fitted["low_threshold"])
    return Policy(name, cal, embedder, floor=float(fitted["relative_floor"]))


def two_fold(rows: Sequence[Row], embedder: str) -> list[dict[str, Any]]:
    """Fit on one fold of the fitting data (LoCoMo and BEAM conversations, paraphrase
    calibration stores, each split alternately), score the other and the held-out
    stores; both ways."""
    out = []
    for train in (0, 1):
        fitted = fit([r for r in rows if r.fold == train and not r.held_out], embedder)
        policy = fitted_policy(fitted, embedder)
        out.append(
            {
                "fit_on_fold": train,
                "model": fitted,
                "fit_fold": score([r for r in rows if r.fold == train or r.held_out], policy),
                "held_out_fold": score([r for r in rows if r.fold != train or r.held_out], policy),
            }
        )
    return out


def policies(rows: Sequence[Row], embedder: str, fitted: Mapping[str, Any]) -> list[Policy]:
    """Every policy the report compares, before and after."""
    before = abstain.Calibration.from_mapping(ISSUE_13)
    after = fitted_policy(fitted, embedder, "issue 24: two floors, one line, relative floor")
    cal = after.calibration
    assert cal is not None
    return [
        Policy("no decision", None, embedder),
        Policy("issue 13 (before): one floor", before, before.embedder),
        Policy("words only (other embedders)", cal, None),
        Policy("issue 24 silent floor only, no band", _only_low(cal), embedder),
        Policy("issue 24, unsure -> silent (no line)", cal, embedder, low_confidence=False),
        Policy("issue 24 one line, no relative floor", cal, embedder),
        after,
    ]


def _only_low(cal: abstain.Calibration) -> abstain.Calibration:
    """``cal`` with its silent floor as the only one (no uncertain band)."""
    low = cal.low_threshold if cal.low_threshold is not None else cal.threshold
    return abstain.Calibration(
        cal.embedder, cal.mean, cal.scale, cal.coef, cal.intercept, low, None, cal.features
    )


def summarize(rows: Sequence[Row], embedder: str) -> dict[str, Any]:
    """Every figure the docs quote: the fit, each policy per group, the folds, cost."""
    fitted = fit(rows, embedder)
    shipped = abstain.CALIBRATION
    compared = policies(rows, embedder, fitted)
    compared.append(
        Policy(
            "shipped (abstain_weights.py)",
            shipped,
            shipped.embedder,
            floor=abstain.RELATIVE_FLOOR,
        )
    )
    costs = [r.decision_us for r in rows]
    return {
        "embedder": embedder,
        "counts": {
            g: sum(1 for r in rows if group(r) == g)
            for g in GROUPS
            if any(group(r) == g for r in rows)
        },
        "fitted": fitted,
        "policies": {p.name: score(rows, p) for p in compared},
        "floors": {
            str(share): score(rows, Policy("floor", None, embedder, floor=share))
            for share in FLOORS
            if share <= 0.8
        },
        "two_fold": two_fold(rows, embedder) if {r.fold for r in rows} == {0, 1} else [],
        "decision_us": {
            "p50": round(percentile(costs, 50), 1),
            "p95": round(percentile(costs, 95), 1),
        },
    }


def save_rows(rows: Sequence[Row], path: Path) -> None:
    """Keep the per-query evidence, so rules can be rescored without recalling."""
    path.write_text(json.dumps([asdict(r) for r in rows]), encoding="utf-8")


def load_rows(path: str | Path) -> list[Row]:
    """Rows written by :func:`save_rows`."""
    return [Row(**item) for item in json.loads(Path(path).read_text(encoding="utf-8"))]
