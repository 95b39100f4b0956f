"""The abstain decision's calibration (FEATURES E7, issues 13 and 24).

Written by ``engram bench abstain --fit`` (``engram/bench/abstain.py``): a
logistic model of whether anything related is stored, over the best candidate's
cosine and keyword overlap, fitted on the paraphrase set's calibration stores,
LoCoMo and BEAM dev. Below ``low_threshold`` (a logit) recall is silent; from
there to ``threshold`` it answers with one line marked low confidence; the
``relative_floor`` is the padding floor recall.relative_floor defaults to.
With ``standing`` (a line in the plane of the best cosine and the store
standing, fitted on the paraphrase calibration stores alone), that line
decides silence instead of ``low_threshold`` once a namespace's profile is
known (``engram.recall.standing``).
Regenerate; do not edit by hand."""

MODEL = {
    "features": ["sim", "overlap"],
    "mean": [0.389735, 0.4248],
    "scale": [0.227546, 0.299481],
    "coef": [3.384565, 0.0],
    "intercept": 0.420754,
    "threshold": -0.34,
    "low_threshold": -3.1,
    "relative_floor": 0.6,
    "standing": {"angle": 80.0, "floor": 0.03136},
    "embedder": "all-MiniLM-L6-v2",
    "fitted_on": "paraphrase calibration stores + LoCoMo + BEAM dev; standing: the stores only",
}
