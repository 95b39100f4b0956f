"""The tables ``engram bench abstain`` prints (``docs/benchmarks.md``, "Abstention" and
"No false silence"): one row per policy and report group, and the two folds."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engram.bench.abstain import GROUPS
from engram.bench.report import table

_CELLS = (
    ("answerable", "silent"),
    ("answerable", "uncertain"),
    ("answerable", "gold"),
    ("answerable", "kept"),
    ("answerable", "lines"),
    ("unrelated", "silent"),
    ("unrelated", "uncertain"),
    ("cross", "silent"),
    ("cross", "uncertain"),
    ("cross", "lines"),
    ("abstention", "silent"),
)


def policy_table(scored: Mapping[str, Mapping[str, Any]], label: str = "policy") -> str:
    """One row per policy and group: the cells docs/benchmarks.md shows."""
    head = [label, "group", *(f"{k} {c}" for k, c in _CELLS)]
    lines = []
    for name, cells in scored.items():
        for g in GROUPS:
            if not any(key.startswith(f"{g} / ") for key in cells):
                continue
            lines.append([name, g, *(cells.get(f"{g} / {k}", {}).get(c, "-") for k, c in _CELLS)])
    return table(head, lines)


def markdown(summary: Mapping[str, Any]) -> str:
    """The tables docs/benchmarks.md shows."""
    parts = [
        f"queries: {summary['counts']}",
        f"fitted: {summary['fitted']}",
        "",
        policy_table(summary["policies"]),
        "",
        "relative floor alone (decision off):",
        "",
        policy_table(summary["floors"], "floor"),
    ]
    for fold in summary["two_fold"]:
        parts += [
            "",
            f"fitted on fold {fold['fit_on_fold']}: {fold['model']}",
            "",
            policy_table(
                {"fit fold": fold["fit_fold"], "other fold + held-out": fold["held_out_fold"]},
                "scored on",
            ),
        ]
    parts += ["", f"decision cost per query: {summary['decision_us']} µs"]
    return "\n".join(parts)
