"""The abstain decision's calibration (FEATURES E7, issues 13 and 24).

Written by ``engram bench abstain --fit`` (``engram/bench/abstain.py``): a
logistic model of whether anything related is stored, over the best candidate's
cosine and keyword overlap, fitted on the paraphrase set's calibration stores,
LoCoMo and BEAM dev. Below ``low_threshold`` (a logit) recall is silent: the
lowest calibration paraphrase less a margin for stores not seen
(``engram/bench/abstain_margin.py``); from there to ``threshold`` it answers
with one line marked low confidence; the
``relative_floor`` is the padding floor recall.relative_floor defaults to.
With ``standing`` (a line in the plane of the best cosine and the store
standing, fitted on the paraphrase calibration stores alone), that line
decides silence instead of ``low_threshold`` once a namespace's profile is
known (``engram.recall.standing``).
Regenerate; do not edit by hand."""

MODEL = {
    "features": ["sim", "overlap"],
    "mean": [0.388089, 0.424647],
    "scale": [0.227876, 0.299796],
    "coef": [3.40475, 0.0],
    "intercept": 0.424513,
    "threshold": -0.35,
    "low_threshold": -4.16,
    "relative_floor": 0.6,
    "standing": {"angle": 80.0, "floor": 0.03136},
    "embedder": "all-MiniLM-L6-v2",
    "fitted_on": "paraphrase calibration stores + LoCoMo + BEAM dev",
}
