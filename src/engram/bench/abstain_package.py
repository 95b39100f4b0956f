"""The shipped abstain weights as a file: what ``engram bench abstain --fit --package``
writes into a source checkout's ``engram/recall/abstain_weights.py`` (issues 13 and 24).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engram.errors import InvalidInputError


def weights_module(fitted: Mapping[str, Any], embedder: str, note: str) -> str:
    """The text of ``engram/recall/abstain_weights.py`` for a :func:`fit` result."""
    values = {**fitted, "embedder": embedder, "fitted_on": note}
    body = "".join(f"    {json.dumps(k)}: {json.dumps(v)},\n" for k, v in values.items())
    return (
        '"""The abstain decision\'s calibration (FEATURES E7, issues 13 and 24).\n\n'
        "Written by ``engram bench abstain --fit`` (``engram/bench/abstain.py``): a\n"
        "logistic model of whether anything related is stored, over the best candidate's\n"
        "cosine and keyword overlap, fitted on the paraphrase set's calibration stores,\n"
        "LoCoMo and BEAM dev. Below ``low_threshold`` (a logit) recall is silent: the\n"
        "lowest calibration paraphrase less a margin for stores not seen\n"
        "(``engram/bench/abstain_margin.py``); from there to ``threshold`` it answers\n"
        "with one line marked low confidence; the\n"
        "``relative_floor`` is the padding floor recall.relative_floor defaults to.\n"
        "With ``standing`` (a line in the plane of the best cosine and the store\n"
        "standing, fitted on the paraphrase calibration stores alone), that line\n"
        "decides silence instead of ``low_threshold`` once a namespace's profile is\n"
        "known (``engram.recall.standing``).\n"
        'Regenerate; do not edit by hand."""\n\n'
        f"MODEL = {{\n{body}}}\n"
    )


def weights_path() -> Path:
    """The package's weights file, when it belongs to a source checkout (the file to
    commit); an installed package is never rewritten (an upgrade would undo it, and
    users calibrate into their data directory: ``engram.recall.calibrations``)."""
    from engram.recall import abstain_weights

    path = Path(abstain_weights.__file__).resolve()
    if not any((parent / ".git").exists() for parent in path.parents):
        raise InvalidInputError(
            f"{path} is an installed package, not a source checkout: --package rewrites "
            "the shipped weights only in a checkout; --fit alone writes your calibration"
        )
    return path
