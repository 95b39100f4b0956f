"""seed 002's DensityClassifier: is a text sparse (conversation, narrative) or dense
(code, structured data, identifiers)? Five weighted heuristic signals, no LLM.

The seed names the five signals; their weights (0.30 / 0.25 / 0.20 / 0.10 / 0.15, summing
to 1) and the 0.5 threshold are those of the seed's upstream design (SynthOrg's
``memory/consolidation`` density classifier). Each signal is a 0-1 score.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum

#: seed 002's five signals and their weights.
WEIGHTS = {
    "code": 0.30,
    "structured": 0.25,
    "identifiers": 0.20,
    "numeric": 0.10,
    "lines": 0.15,
}
#: A score at or above it is dense (seed 002's DualModeConfig threshold).
DENSE_THRESHOLD = 0.5

_CODE = re.compile(
    r"\bdef\s+\w+\s*\(|\bclass\s+\w+|\bimport\s+\w+|\breturn\b|\bfunction\s*\w*\s*\(|"
    r"=>|==|!=|\w+\s*=\s*[\[{(\"']|[{}\[\];]|\w+\(\)"
)
_STRUCTURED = re.compile(
    r'"[\w-]+"\s*:|^\s*[\w.-]+\s*:\s+\S|</?[a-zA-Z][\w-]*[\s>/]|^\s*[-*]\s+\S|^\s*\|.*\|\s*$',
    re.MULTILINE,
)
_IDENTIFIER = re.compile(
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b[0-9a-f]{16,}\b|"
    r"https?://\S+|\b\w+(?:_\w+){2,}\b|\b[a-z]+(?:[A-Z][a-z0-9]+){2,}\b|\b\w+(?:\.\w+){2,}\b",
    re.IGNORECASE,
)
_NUMERIC = re.compile(
    r"\bv?\d+\.\d+\.\d+\b|\b\d{1,3}(?:\.\d{1,3}){3}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{5,}\b|"
    r"\b0x[0-9a-f]+\b",
    re.IGNORECASE,
)


class Density(StrEnum):
    """How dense a text is; decides the archival mode (seed 002)."""

    SPARSE = "sparse"
    DENSE = "dense"


def _per_word(pattern: re.Pattern[str], text: str, scale: float) -> float:
    words = max(len(text.split()), 1)
    return min(len(pattern.findall(text)) / words * scale, 1.0)


def signals(text: str) -> dict[str, float]:
    """The five 0-1 signal scores of ``text``."""
    lines = [line for line in text.splitlines() if line.strip()]
    n_lines = max(len(lines), 1)
    if len(lines) >= 2:
        mean = sum(len(line) for line in lines) / len(lines)
        # Many short lines read like code or a table, not prose.
        line_score = max(0.0, 1.0 - mean / 80.0) * min(len(lines) / 10.0, 1.0)
    else:
        line_score = 0.0
    return {
        "code": _per_word(_CODE, text, 5.0),
        "structured": min(len(_STRUCTURED.findall(text)) / n_lines * 2.0, 1.0),
        "identifiers": _per_word(_IDENTIFIER, text, 8.0),
        "numeric": _per_word(_NUMERIC, text, 10.0),
        "lines": line_score,
    }


def density_score(text: str) -> float:
    """The weighted sum of the five signals, in [0, 1]."""
    return sum(WEIGHTS[name] * value for name, value in signals(text).items())


def classify(text: str, threshold: float = DENSE_THRESHOLD) -> Density:
    """DENSE when the score reaches ``threshold``, else SPARSE."""
    return Density.DENSE if density_score(text) >= threshold else Density.SPARSE


def classify_group(texts: Sequence[str], threshold: float = DENSE_THRESHOLD) -> Density:
    """seed 002: "Groups are classified by majority vote: if most entries in a category
    group are dense, the group uses extractive mode"."""
    dense = sum(1 for t in texts if classify(t, threshold) is Density.DENSE)
    return Density.DENSE if dense * 2 > len(texts) else Density.SPARSE
