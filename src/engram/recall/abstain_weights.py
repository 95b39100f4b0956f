"""The abstain decision's calibration (FEATURES E7, issue 13).

Written by ``engram bench abstain --fit`` (``engram/bench/abstain.py``): a
class-balanced logistic model of whether anything related is stored, over the
best candidate's cosine and keyword overlap, with the threshold (a logit) that
keeps 99% of answerable LoCoMo dev questions' gold turn at limit 4 (98% is the
target; the point above it holds on conversations it was not fitted on).
Regenerate; do not edit by hand."""

MODEL = {
    "features": ["sim", "overlap"],
    "mean": [0.39369, 0.506285],
    "scale": [0.234283, 0.270253],
    "coef": [4.432124, 0.853774],
    "intercept": -0.25091,
    "embedder": "all-MiniLM-L6-v2",
    "threshold": -0.44,
    "fitted_on": "LoCoMo + BEAM dev",
}
