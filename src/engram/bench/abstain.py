"""``engram bench abstain``: does recall know when nothing matches? (issue 13, FEATURES E7)

Three sets of queries, asked of a store holding LoCoMo and BEAM (dev) in their own
namespaces, each answered with the abstain decision off, so the evidence it would read
(``engram.recall.abstain.evidence``) is recorded once per query and any decision rule
can be scored afterwards without recalling again:

- ``abstention``: BEAM's abstention questions, whose answer is not in the chat;
- ``cross``: LoCoMo questions asked of BEAM chats' namespaces and BEAM questions asked
  of LoCoMo conversations' namespaces (every one should come back empty);
- ``answerable``: LoCoMo and BEAM questions with evidence, asked of their own
  namespace; they should keep a gold turn in the context.

Retention at ``limit`` k: of the answerable questions whose top-k hits without the
decision hold a gold turn, the share whose hits with the decision still hold one. The
decision is all-or-nothing per query, so that is the share not abstained.

Conversations are split in two folds (alternately, LoCoMo and BEAM each); cross queries
stay inside their fold. The model is fitted on one fold and scored on the other, both
ways, and the threshold is the one that keeps LoCoMo retention at 4 on the fitting fold
at or above the target.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engram.bench import beam, runner
from engram.bench.dataset import Dataset
from engram.bench.metrics import percentile
from engram.memory import Memory
from engram.recall import abstain

#: issue 13: at least 98% of answerable LoCoMo questions keep their gold turn.
RETENTION_TARGET = 0.98
#: issue 13: at least 90% of cross-domain and abstention queries give an empty context.
EMPTY_TARGET = 0.90
#: The retention the threshold keeps on the data it is fitted on: one point above the
#: target, so a fold it was not fitted on still keeps 98% (at 0.98 exactly, one held-out
#: fold kept 0.971; docs/benchmarks.md, "Abstention").
FIT_TARGET = 0.99
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

    def evidence(self) -> abstain.Evidence:
        """The evidence the abstain decision reads."""
        return abstain.Evidence(self.sim, self.overlap, self.terms, self.matched)


Progress = Callable[[str, int, int], None]


def _ask(
    mem: Memory, text: str, namespace: str, gold: frozenset[str]
) -> tuple[abstain.Evidence, float, float, int | None, float]:
    recall = mem.recall(text, namespace=namespace, limit=DEPTH, abstain=False)
    hits = recall.hits[:DEPTH]
    start = time.perf_counter()
    found = abstain.evidence(text, hits)
    abstain.reason(found, mem.embedder.name if mem.embedder is not None else None)
    cost = (time.perf_counter() - start) * 1e6
    turns = [str(h.memory.metadata.get("turn")) for h in hits]
    rank = next((n for n, t in enumerate(turns) if t in gold), None)
    fused = max((h.breakdown.fused for h in hits), default=0.0)
    top = hits[0].score if hits else 0.0
    return found, fused, top, rank, cost


def collect(
    mem: Memory, locomo: Dataset, beam_data: Dataset, progress: Progress | None = None
) -> list[Row]:
    """Ingest both datasets (skipping stored ones) and ask the three sets."""
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
    for done, (kind, name, fold, qid, ns, text, gold) in enumerate(plan, 1):
        found, fused, top, rank, cost = _ask(mem, text, ns, gold)
        rows.append(
            Row(
                kind,
                name,
                fold,
                qid,
                ns,
                found.sim,
                found.overlap,
                found.terms,
                found.matched,
                fused,
                top,
                rank,
                cost,
            )
        )
        if progress is not None:
            progress("recall", done, len(plan))
    return rows


# -- scoring a decision rule ---------------------------------------------------------------

Rule = Callable[[Row], bool]
"""True when the rule abstains for the row's query."""


def rates(rows: Sequence[Row], abstains: Rule) -> dict[str, float]:
    """Empty rates of the negative sets and retention of the answerable ones."""

    def share(items: Sequence[Row], keep: bool) -> float:
        if not items:
            return float("nan")
        hit = sum(1 for r in items if abstains(r) != keep)
        return round(hit / len(items), 4)

    out: dict[str, float] = {}
    negatives = [r for r in rows if r.set in ("abstention", "cross")]
    out["empty_all_negatives"] = share(negatives, keep=False)
    out["empty_abstention"] = share([r for r in rows if r.set == "abstention"], keep=False)
    for name in ("locomo", "beam"):
        out[f"empty_cross_{name}_on_other"] = share(
            [r for r in rows if r.set == "cross" and r.dataset == name], keep=False
        )
        answerable = [r for r in rows if r.set == "answerable" and r.dataset == name]
        for k in LIMITS:
            held = [r for r in answerable if r.gold_rank is not None and r.gold_rank < k]
            out[f"retention_{name}@{k}"] = share(held, keep=True)
        out[f"answered_{name}"] = share(answerable, keep=True)
    return out


def counts(rows: Sequence[Row]) -> dict[str, int]:
    """How many queries each set and denominator has."""
    out: dict[str, int] = {}
    for kind in ("abstention", "cross", "answerable"):
        out[kind] = sum(1 for r in rows if r.set == kind)
    for name in ("locomo", "beam"):
        for k in LIMITS:
            out[f"{name}_gold_in_top{k}"] = sum(
                1
                for r in rows
                if r.set == "answerable"
                and r.dataset == name
                and r.gold_rank is not None
                and r.gold_rank < k
            )
    return out


# -- fitting ------------------------------------------------------------------------------


def _matrix(rows: Sequence[Row]) -> np.ndarray:
    return np.array([r.evidence().features() for r in rows], dtype=np.float64)


def fit_logistic(rows: Sequence[Row], steps: int = 3000, l2: float = 1e-3) -> dict[str, Any]:
    """Class-balanced logistic regression of "answerable" on the evidence features
    (gradient descent on standardised features; no threshold yet)."""
    x = _matrix(rows)
    y = np.array([1.0 if r.set == "answerable" else 0.0 for r in rows])
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    pos = y.sum()
    weights = np.where(y == 1, len(y) / (2 * pos), len(y) / (2 * (len(y) - pos)))
    coef = np.zeros(z.shape[1])
    intercept = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ coef + intercept)))
        g = weights * (p - y)
        coef -= 0.5 * ((z.T @ g) / len(y) + l2 * coef)
        intercept -= 0.5 * float(g.mean())
    return {
        "features": ["sim", "overlap"],
        "mean": [round(float(v), 6) for v in mean],
        "scale": [round(float(v), 6) for v in scale],
        "coef": [round(float(v), 6) for v in coef],
        "intercept": round(intercept, 6),
    }


def calibration(model: Mapping[str, Any], embedder: str, threshold: float) -> abstain.Calibration:
    """A calibration from fitted weights and a threshold."""
    return abstain.Calibration.from_mapping({**model, "embedder": embedder, "threshold": threshold})


def model_rule(cal: abstain.Calibration) -> Rule:
    """Abstain as recall would with ``cal`` (for the embedder it was calibrated on)."""
    return lambda r: abstain.reason(r.evidence(), cal.embedder, cal) is not None


def pick_threshold(
    rows: Sequence[Row], model: Mapping[str, Any], embedder: str, target: float
) -> float:
    """The highest logit threshold that keeps LoCoMo retention at 4 at or above
    ``target`` on ``rows`` (rounded down to 0.01, so the choice is stable)."""
    cal = calibration(model, embedder, 0.0)
    held = [
        cal.logit(r.evidence())
        for r in rows
        if r.set == "answerable" and r.dataset == "locomo" and r.gold_rank is not None
        if r.gold_rank < LIMITS[0] and r.sim is not None
    ]
    if not held:
        return float("-inf")
    ordered = sorted(held)
    # Abstaining below t drops every held logit < t: allow at most (1 - target) of them.
    allowed = int(len(ordered) * (1 - target))
    return float(np.floor(ordered[allowed] * 100) / 100)


def curve(
    rows: Sequence[Row], model: Mapping[str, Any], embedder: str, thresholds: Sequence[float]
) -> list[dict[str, float]]:
    """Retention and empty rates at each threshold: the trade-off."""
    return [
        {"threshold": t} | rates(rows, model_rule(calibration(model, embedder, t)))
        for t in thresholds
    ]


def two_fold(rows: Sequence[Row], embedder: str, target: float) -> list[dict[str, Any]]:
    """Fit on one fold, pick the threshold there, score both folds; both ways."""
    out = []
    for train in (0, 1):
        fit_rows = [r for r in rows if r.fold == train and r.sim is not None]
        test_rows = [r for r in rows if r.fold != train]
        model = fit_logistic(fit_rows)
        threshold = pick_threshold(fit_rows, model, embedder, target)
        rule = model_rule(calibration(model, embedder, threshold))
        out.append(
            {
                "fit_on_fold": train,
                "model": model,
                "threshold": threshold,
                "fit_fold": rates([r for r in rows if r.fold == train], rule),
                "held_out_fold": rates(test_rows, rule),
            }
        )
    return out


def threshold_rule(field: str, cut: float) -> Rule:
    """Abstain when the row's ``field`` is below ``cut`` (a one-feature floor)."""
    return lambda r: float(getattr(r, field) or 0.0) < cut


def best_single(rows: Sequence[Row], field: str, target: float) -> tuple[float, dict[str, float]]:
    """The highest ``field`` floor keeping LoCoMo retention at 4 at ``target``."""
    held = sorted(
        float(getattr(r, field) or 0.0)
        for r in rows
        if r.set == "answerable" and r.dataset == "locomo" and r.gold_rank is not None
        if r.gold_rank < LIMITS[0]
    )
    cut = held[int(len(held) * (1 - target))] if held else 0.0
    cut = float(np.floor(cut * 1000) / 1000)
    return cut, rates(rows, threshold_rule(field, cut))


def weights_module(model: Mapping[str, Any], embedder: str, threshold: float, note: str) -> str:
    """The text of ``engram/recall/abstain_weights.py`` for a fitted model."""
    values = {**model, "embedder": embedder, "threshold": threshold, "fitted_on": note}
    body = "".join(f"    {json.dumps(k)}: {json.dumps(v)},\n" for k, v in values.items())
    return (
        '"""The abstain decision\'s calibration (FEATURES E7, issue 13).\n\n'
        "Written by ``engram bench abstain --fit`` (``engram/bench/abstain.py``): a\n"
        "class-balanced logistic model of whether anything related is stored, over the\n"
        "best candidate's cosine and keyword overlap, with the threshold (a logit) that\n"
        "keeps 99% of answerable LoCoMo dev questions' gold turn at limit 4 (98% is the\n"
        "target; the point above it holds on conversations it was not fitted on).\n"
        'Regenerate; do not edit by hand."""\n\n'
        f"MODEL = {{\n{body}}}\n"
    )


def weights_path() -> Path:
    """The package's weights file (in a source checkout, the file to commit)."""
    from engram.recall import abstain_weights

    return Path(abstain_weights.__file__)


def summarize(rows: Sequence[Row], embedder: str, target: float = FIT_TARGET) -> dict[str, Any]:
    """Every figure the docs quote: folds, the full fit, variants, curve, cost."""
    dense_rows = [r for r in rows if r.sim is not None]
    model = fit_logistic(dense_rows)
    threshold = pick_threshold(rows, model, embedder, target)
    cal = calibration(model, embedder, threshold)
    variants: dict[str, Any] = {
        "no floor (today)": rates(rows, lambda r: False),
        "keyword rule (other embedders): no candidate shares a keyword": rates(
            rows, lambda r: abstain.reason(r.evidence(), None, cal) is not None
        ),
    }
    for field in ("sim", "fused", "top_score", "overlap"):
        cut, scored = best_single(rows, field, target)
        variants[f"{field} >= {cut}"] = scored
    variants[f"logistic sim+overlap, logit >= {threshold}"] = rates(rows, model_rule(cal))
    costs = [r.decision_us for r in rows]
    folds = two_fold(rows, embedder, target)
    held = [f["held_out_fold"] for f in folds]
    return {
        "targets": {
            "retention_locomo@4 (held-out, worst fold)": min(h["retention_locomo@4"] for h in held),
            "retention target": RETENTION_TARGET,
            "empty_all_negatives (held-out, worst fold)": min(
                h["empty_all_negatives"] for h in held
            ),
            "empty target": EMPTY_TARGET,
        },
        "counts": counts(rows),
        "model": model,
        "threshold": threshold,
        "embedder": embedder,
        "variants": variants,
        "two_fold": folds,
        "curve": curve(rows, model, embedder, [threshold + d for d in np.arange(-2.0, 2.01, 0.25)]),
        "decision_us": {
            "p50": round(percentile(costs, 50), 1),
            "p95": round(percentile(costs, 95), 1),
        },
    }


_COLUMNS = (
    "empty_all_negatives",
    "empty_abstention",
    "empty_cross_locomo_on_other",
    "empty_cross_beam_on_other",
    "retention_locomo@4",
    "retention_locomo@10",
    "retention_beam@4",
    "retention_beam@10",
)


def markdown(summary: Mapping[str, Any]) -> str:
    """The tables docs/benchmarks.md shows."""
    from engram.bench.report import table

    head = ["rule", *_COLUMNS]
    lines = [f"queries: {summary['counts']}", f"targets: {summary['targets']}", ""]
    lines.append(
        table(head, [[name, *(v[c] for c in _COLUMNS)] for name, v in summary["variants"].items()])
    )
    lines.append("")
    lines.append(
        table(
            ["fit on fold", "threshold", "scored on", *_COLUMNS],
            [
                [f["fit_on_fold"], f["threshold"], part, *(f[part][c] for c in _COLUMNS)]
                for f in summary["two_fold"]
                for part in ("fit_fold", "held_out_fold")
            ],
        )
    )
    lines.append("")
    lines.append(
        table(
            ["logit threshold", *_COLUMNS],
            [[round(p["threshold"], 2), *(p[c] for c in _COLUMNS)] for p in summary["curve"]],
        )
    )
    lines.append("")
    lines.append(f"decision cost per query: {summary['decision_us']} µs")
    return "\n".join(lines)


def save_rows(rows: Sequence[Row], path: Path) -> None:
    """Keep the per-query evidence, so rules can be rescored without recalling."""
    path.write_text(json.dumps([asdict(r) for r in rows]), encoding="utf-8")


def load_rows(path: str) -> list[Row]:
    """Rows written by :func:`save_rows`."""
    return [Row(**item) for item in json.loads(Path(path).read_text(encoding="utf-8"))]
