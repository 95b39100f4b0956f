"""Which abstain calibration recall uses for an embedder (FEATURES E7, issue 24).

The calibration shipped in ``engram/recall/abstain_weights.py`` was fitted for the
default model. ``engram bench abstain --fit`` fits one for the embedder a user has
configured and writes it as JSON under the data directory,
``<home>/calibration/abstain-<embedder>.json``, never into the installed package (an
upgrade would replace it, and one file cannot hold two models' floors). Recall looks
for the file named after its embedder: when it exists, its floors decide; otherwise
the shipped calibration applies to the model it was fitted on and words alone decide
for any other (``abstain.decide``). Deleting the file undoes a fit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engram.errors import ConfigError
from engram.recall.abstain import CALIBRATION, RECALL_FEATURES, Calibration

#: Where user calibrations live, under the data directory (``ENGRAM_HOME``).
FOLDER = "calibration"
#: The fields a calibration file must hold (what ``Calibration.from_mapping`` reads).
REQUIRED = ("embedder", "features", "mean", "scale", "coef", "intercept", "threshold")


def path_for(home: Path, embedder: str) -> Path:
    """The calibration file for ``embedder`` under ``home``: the name with every
    character that is not a letter, digit, dot or dash replaced by ``_``
    (``ollama:nomic-embed-text`` -> ``abstain-ollama_nomic-embed-text.json``)."""
    return home / FOLDER / f"abstain-{re.sub(r'[^A-Za-z0-9.-]', '_', embedder)}.json"


def save(home: Path, embedder: str, fitted: Mapping[str, Any], note: str) -> Path:
    """Write a fitted model (``engram.bench.abstain.fit``) as ``embedder``'s calibration
    and return its path; the folder is created if needed."""
    path = path_for(home, embedder)
    path.parent.mkdir(parents=True, exist_ok=True)
    body = {**fitted, "embedder": embedder, "fitted_on": note}
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)  # a reader never sees half a file
    return path


def load(path: Path, embedder: str) -> Calibration:
    """The calibration in ``path``, checked: valid JSON with every field, and made for
    ``embedder`` (a file copied from another model's name would apply wrong floors)."""
    fix = f"rerun `engram bench abstain --fit` with this embedder, or delete {path}"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read the abstain calibration {path}: {exc}; {fix}") from exc
    missing = [k for k in REQUIRED if not isinstance(raw, dict) or k not in raw]
    if missing:
        raise ConfigError(f"the abstain calibration {path} lacks {', '.join(missing)}; {fix}")
    if raw["embedder"] != embedder:
        raise ConfigError(
            f"the abstain calibration {path} was fitted for {raw['embedder']!r}, not for the "
            f"configured embedder {embedder!r}; {fix}"
        )
    try:
        found = Calibration.from_mapping(raw)
    except (TypeError, ValueError, KeyError) as exc:  # a KeyError: a ``standing`` line half given
        raise ConfigError(f"the abstain calibration {path} is malformed: {exc!r}; {fix}") from exc
    unknown = sorted(set(found.features) - RECALL_FEATURES)
    if unknown or not len(found.features) == len(found.mean) == len(found.scale) == len(found.coef):
        raise ConfigError(
            f"the abstain calibration {path} reads features recall does not measure "
            f"({', '.join(unknown)}) or has one weight per feature missing; {fix}"
        )
    return found


def for_embedder(home: Path, embedder: str | None) -> Calibration:
    """The calibration recall uses with ``embedder``: the user's file for it when there
    is one, else the shipped one (which applies only to the model it was fitted on)."""
    if embedder is not None:
        path = path_for(home, embedder)
        if path.is_file():
            return load(path, embedder)
    return CALIBRATION
