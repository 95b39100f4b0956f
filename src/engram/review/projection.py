"""The math of the graph view (FEATURES H5, seed 000): a 2-D projection of embeddings
and KMeans clusters over them.

With the ``[viz]`` extra (umap-learn, scikit-learn) the projection is seed 000's
``umap.UMAP(n_components=2, random_state=42, low_memory=True)`` and the clusters are
scikit-learn's ``KMeans(random_state=42)``. Without it, PCA by numpy's SVD and a small
numpy Lloyd's KMeans with a fixed seed stand in, and the caller is told so. Both
paths are deterministic: the same vectors give the same layout.

Importing umap compiles numba code on first use (over 20 s on a cold machine), so
``warm_up`` runs a tiny projection once; ``engram serve`` calls it in a background
thread at start so that the first graph opens quickly.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
import warnings
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt

#: seed 000's UMAP parameters.
UMAP_PARAMS: dict[str, Any] = {"n_components": 2, "random_state": 42, "low_memory": True}
#: Layout epochs. The seed leaves it to UMAP, which runs 500 below 10,000 points and 200
#: above; 200 here halves the layout time of 600 nodes (measured, docs/review.md) so the
#: graph tab opens within issue 15's 2 s.
UMAP_EPOCHS = 200
#: seed 000: KMeans k = min(8, max(1, N // 3)).
MAX_CLUSTERS = 8
SEED = 42
#: UMAP's neighbour graph (15 neighbours by default) and spectral layout need a few
#: points; below this many, PCA places them (measured: UMAP fails on 2 and 3 points).
UMAP_MIN_NODES = 5
#: The numpy KMeans fallback stops after this many Lloyd's iterations.
LLOYD_ITERATIONS = 100

Matrix = npt.NDArray[np.float32]

_warm_lock = threading.Lock()
_warm: dict[str, Any] = {}
_start_lock = threading.Lock()
_background: threading.Thread | None = None


@dataclass(frozen=True, slots=True)
class Projection:
    """2-D coordinates, one row per input row, and how they were made."""

    coords: npt.NDArray[np.float64]
    method: str
    """"umap" or "pca"."""
    note: str | None
    """Why the projection is not UMAP, or None."""


def cluster_count(n: int) -> int:
    """seed 000: k = min(8, max(1, N // 3)), bounded at 8 to avoid micro-clusters."""
    return min(MAX_CLUSTERS, max(1, n // 3))


def _umap() -> Any:
    """The umap module, or None when the [viz] extra is missing."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "Tensorflow not installed ..." and numba notes
            import umap  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        return None
    return umap


def _sklearn_kmeans() -> Any:
    try:
        from sklearn.cluster import (  # type: ignore[import-not-found, import-untyped, unused-ignore]
            KMeans,
        )
    except ImportError:
        return None
    return KMeans


def pca(matrix: Matrix) -> npt.NDArray[np.float64]:
    """The first two principal components by numpy's SVD, signs fixed so that each
    component's largest loading is positive (the same input gives the same layout)."""
    n = matrix.shape[0]
    out = np.zeros((n, 2), dtype=np.float64)
    if n < 2:
        return out
    centred = matrix.astype(np.float64) - matrix.mean(axis=0, dtype=np.float64)
    u, s, vt = np.linalg.svd(centred, full_matrices=False)
    for c in range(min(2, len(s))):
        sign = 1.0 if vt[c, np.argmax(np.abs(vt[c]))] >= 0 else -1.0
        out[:, c] = u[:, c] * s[c] * sign
    return out


def euclidean(matrix: Matrix) -> npt.NDArray[np.float64]:
    """The matrix of Euclidean distances between rows (UMAP's default metric)."""
    rows = matrix.astype(np.float64)
    squares = (rows * rows).sum(axis=1)
    gram = squares[:, None] + squares[None, :] - 2 * rows @ rows.T
    distances: npt.NDArray[np.float64] = np.sqrt(np.maximum(gram, 0.0))
    np.fill_diagonal(distances, 0.0)
    return distances


def umap_installed() -> bool:
    """Whether ``import umap`` would work, without paying for the import."""
    if "umap" in sys.modules:
        return sys.modules["umap"] is not None
    return importlib.util.find_spec("umap") is not None


def is_warm() -> bool:
    """Whether UMAP has run in this process (``warm_up`` is done)."""
    return bool(_warm.get("umap"))


def warm_up_in_background() -> None:
    """Start ``warm_up`` on a daemon thread, once per process."""
    global _background
    with _start_lock:
        if _background is None:
            _background = threading.Thread(target=warm_up, name="engram-warm-graph", daemon=True)
            _background.start()


def project(matrix: Matrix, method: str = "umap") -> Projection:
    """A 2-D projection: seed 000's UMAP, or PCA.

    ``method="umap"`` runs UMAP (compiling it first if this process has not: tens of
    seconds); ``"auto"`` runs it only once it is compiled, and otherwise starts the
    compilation in the background and answers with PCA this time (what a dashboard
    wants); ``"pca"`` is PCA. Without umap-learn, or with fewer than
    ``UMAP_MIN_NODES`` points, PCA answers and the note says why.
    """
    n = matrix.shape[0]
    if method == "pca":
        return Projection(pca(matrix), "pca", None)
    missing = "umap-learn is not installed (pip install 'engram[viz]'): PCA projection"
    if not umap_installed():
        return Projection(pca(matrix), "pca", missing)
    if n < UMAP_MIN_NODES:
        note = f"{n} memories are too few for UMAP (it needs {UMAP_MIN_NODES}): PCA projection"
        return Projection(pca(matrix), "pca", note if n else None)
    if method == "auto" and not is_warm():
        warm_up_in_background()
        note = (
            "UMAP is compiling in the background (its first use in a process takes about "
            "30 s): PCA projection this time, UMAP once it is ready"
        )
        return Projection(pca(matrix), "pca", note)
    umap = _umap()
    if umap is None:
        return Projection(pca(matrix), "pca", missing)
    # UMAP's default metric, computed here: for fewer than 4096 points UMAP itself fills
    # the distance matrix through a Python callback, 180,000 calls for 600 points.
    reducer = umap.UMAP(
        n_neighbors=min(15, n - 1), metric="precomputed", n_epochs=UMAP_EPOCHS, **UMAP_PARAMS
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "n_jobs overridden to 1 by random_state": wanted
        coords = reducer.fit_transform(euclidean(matrix))
    return Projection(np.asarray(coords, dtype=np.float64), "umap", None)


def _lloyd(matrix: Matrix, k: int) -> npt.NDArray[np.int64]:
    """KMeans by Lloyd's iterations from a k-means++ start, seeded: scikit-learn's
    algorithm in a few lines of numpy, for stores without the [viz] extra."""
    data = matrix.astype(np.float64)
    rng = np.random.default_rng(SEED)
    centres = [data[rng.integers(len(data))]]
    for _ in range(1, k):
        d2 = np.min([np.sum((data - c) ** 2, axis=1) for c in centres], axis=0)
        total = d2.sum()
        if total <= 0:  # fewer distinct points than clusters
            break
        centres.append(data[rng.choice(len(data), p=d2 / total)])
    centre = np.array(centres)
    labels: npt.NDArray[np.int64] | None = None
    for _ in range(LLOYD_ITERATIONS):
        distances = ((data[:, None, :] - centre[None, :, :]) ** 2).sum(axis=2)
        new = distances.argmin(axis=1).astype(np.int64)
        if labels is not None and np.array_equal(new, labels):
            break
        labels = new
        centre = np.array(
            [data[new == c].mean(axis=0) if np.any(new == c) else centre[c]
             for c in range(len(centre))]
        )  # fmt: skip
    assert labels is not None  # LLOYD_ITERATIONS >= 1
    return labels


def single_thread() -> AbstractContextManager[Any]:
    """One BLAS/OpenMP thread: at 600 points, waking a thread pool costs more than the
    work (KMeans measured 0.07 s against 0.5 s, PCA 0.08 s against 0.3 s, on a busy
    two-core machine)."""
    try:
        from threadpoolctl import (  # type: ignore[import-untyped, unused-ignore]
            threadpool_limits,
        )
    except ImportError:  # scikit-learn brings it; without it, the default pool
        return nullcontext()
    return cast("AbstractContextManager[Any]", threadpool_limits(limits=1))


def clusters(matrix: Matrix) -> tuple[npt.NDArray[np.int64], str]:
    """KMeans labels over the embeddings (topic groups, whatever the projection), and
    which implementation made them. Labels are renumbered by cluster size, largest 0."""
    n = matrix.shape[0]
    if n == 0:
        return np.zeros(0, dtype=np.int64), "none"
    k = cluster_count(n)
    kmeans = _sklearn_kmeans()
    if k == 1:
        raw, how = np.zeros(n, dtype=np.int64), "kmeans"
    elif kmeans is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # fewer distinct points than k: fewer clusters
            # One k-means++ start: scikit-learn's own choice (n_init="auto"), and fast.
            model = kmeans(n_clusters=k, random_state=SEED, n_init=1)
            raw, how = np.asarray(model.fit_predict(matrix), dtype=np.int64), "kmeans"
    else:
        raw, how = _lloyd(matrix, k), "numpy-kmeans"
    ids, counts = np.unique(raw, return_counts=True)
    order = sorted(range(len(ids)), key=lambda i: (-counts[i], int(np.argmax(raw == ids[i]))))
    remap = {int(ids[i]): rank for rank, i in enumerate(order)}
    return np.array([remap[int(x)] for x in raw], dtype=np.int64), how


def warm_up() -> dict[str, Any]:
    """Import umap and scikit-learn and run one tiny projection, so numba's compilation
    is paid once, before the first graph is asked for. Idempotent and thread-safe;
    returns what it found and how long it took."""
    with _warm_lock:
        if _warm:
            return dict(_warm)
        started = time.perf_counter()
        rng = np.random.default_rng(SEED)
        sample = rng.normal(size=(32, 8)).astype(np.float32)
        method = project(sample).method
        clusters(sample)
        _warm.update({"umap": method == "umap", "seconds": round(time.perf_counter() - started, 3)})
        return dict(_warm)
