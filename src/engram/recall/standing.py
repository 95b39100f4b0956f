"""The store standing: how a query's best cosine ranks in its own store (issue 24).

A paraphrased question about a store's own notes and a question about something the
store never mentions can have the same best cosine; what differs is the store. A
store whose memories sit near every generic topic (amounts, dates, people) gives any
question a fair cosine. The standing measures that: each of the packaged category
labels (``engram/data/categories.txt``, 327 generic topics) is searched once in the
namespace, and its best cosine kept (the namespace's *profile*); a query's standing is
its best cosine less the profile's mean, over its spread. The abstain decision's
off-topic test reads the best cosine and the standing together
(``abstain.StandingLine``; docs/benchmarks.md, "Round 5").

Cost, kept off recall's critical wait:

- the labels are embedded once per process and embedder;
- a namespace's profile is computed on a worker thread the first time recall asks for
  it (that recall, and any before the profile is ready, decides without it), through
  the namespace's own dense search: one top-1 search per label, so an HNSW namespace
  answers each in well under a millisecond instead of a full matrix product;
- it is keyed on the store's vector epoch: this process's adds fold into it at once
  (each label's best cosine can only grow), and an epoch move they do not explain
  (deletes, updates, another process's writes) recomputes it in the background, at
  most once per ``REFRESH`` seconds per namespace; until then the last profile serves.

Several namespaces read by one recall (a namespace and the shared space it ranks
beside: seed 002) are profiled as one store: each label's best cosine over them all
is the highest of their own, and the standing is taken against that; when one of them
has no profile yet, recall decides without the standing.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engram.embed.base import Embedder
from engram.errors import EngramError, InvalidInputError
from engram.store.protocols.vectors import VectorSearch, VectorStore

log = logging.getLogger("engram.recall")

Matrix = npt.NDArray[np.float32]

#: Seconds between two checks of a namespace's profile against the store's vector
#: epoch, and so the longest a profile lags writes this process did not fold in.
REFRESH = 5.0


def default_labels_path() -> Path:
    """The packaged category label list."""
    return Path(str(resources.files("engram") / "data" / "categories.txt"))


def load_labels(path: str | Path | None = None) -> list[str]:
    """The labels of a list file: one a line, ``#`` comments and blank lines skipped,
    each once."""
    where = Path(path or default_labels_path())
    lines = where.read_text(encoding="utf-8").splitlines()
    labels = [s.strip() for s in lines if s.strip() and not s.lstrip().startswith("#")]
    if not labels:
        raise InvalidInputError(f"{where} holds no category labels")
    repeated = sorted({x for x in labels if labels.count(x) > 1})
    if repeated:
        raise InvalidInputError(f"category labels listed twice: {', '.join(repeated)}")
    return labels


#: The label vectors of each (model name, dimension) this process has embedded them with.
_LABELS: dict[tuple[str, int], Matrix] = {}
_LABELS_LOCK = threading.Lock()


def label_vectors(embedder: Embedder, folder: Path | None = None) -> Matrix:
    """The packaged labels embedded by ``embedder``: once per process and model, and
    kept in ``folder`` (when given) so a later process reads them instead of spending
    a second of the model on them beside its first recalls."""
    key = (embedder.name, int(embedder.dimension))
    with _LABELS_LOCK:
        found = _LABELS.get(key)
    if found is not None:
        return found
    labels = load_labels()
    path = None if folder is None else _cached_path(folder, embedder.name, labels)
    found = None if path is None else _read(path, (len(labels), int(embedder.dimension)))
    if found is None:
        found = np.asarray(embedder.embed_batch(labels), dtype=np.float32)
        if path is not None:
            _write(path, found)
    with _LABELS_LOCK:
        return _LABELS.setdefault(key, found)


def _cached_path(folder: Path, model: str, labels: Sequence[str]) -> Path:
    """The file of ``model``'s label vectors: named after the model and the list (a
    changed list is a new file)."""
    digest = hashlib.sha256("\n".join(labels).encode("utf-8")).hexdigest()[:12]
    return folder / f"labels-{re.sub(r'[^A-Za-z0-9.-]', '_', model)}-{digest}.npy"


def _read(path: Path, shape: tuple[int, int]) -> Matrix | None:
    """Saved label vectors of the expected shape, or None (absent, unreadable, other)."""
    try:
        found = np.load(path, allow_pickle=False)
    except (OSError, ValueError):
        return None
    return np.asarray(found, dtype=np.float32) if found.shape == shape else None


def _write(path: Path, vectors: Matrix) -> None:
    """Keep the label vectors; a read-only data directory only costs the next process
    the embedding again."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as out:
            np.save(out, vectors, allow_pickle=False)
        tmp.replace(path)  # a reader never sees half a file
    except OSError as exc:
        log.debug("label vectors not kept in %s: %s", path, exc)


def summary(maxima: Matrix) -> tuple[float, float]:
    """The mean and spread of a profile's label maxima (a spread of 0 reads 1)."""
    return float(maxima.mean()), float(maxima.std()) or 1.0


def standing_of(sim: float, maxima: Matrix) -> float:
    """``sim`` standardised against a profile: how it ranks among the labels' best."""
    mean, spread = summary(maxima)
    return (sim - mean) / spread


def standing_reader(
    standings: Standings | None, on: bool, *namespaces: str | None
) -> Callable[[float], float | None] | None:
    """What recall's abstain decision reads the standing with: ``standings.reader`` over
    ``namespaces`` when the setting is ``on`` (``recall.standing``), else None."""
    return standings.reader(namespaces) if standings is not None and on else None


#: What ``Standings._compute`` returns when the store closed under it.
_CLOSING: Matrix = np.empty(0, dtype=np.float32)


@dataclass(slots=True)
class Profile:
    """One namespace's label maxima and the vector epoch they were read at."""

    maxima: Matrix | None
    """None: the namespace held no vector at ``epoch`` (it adds nothing to a union)."""
    epoch: int
    checked: float
    """``time.monotonic()`` of the last epoch check (or the computation)."""


class Standings:
    """The profiles of the namespaces recall reads, for one store and embedder."""

    def __init__(
        self,
        vectors: VectorStore,
        index: VectorSearch,
        embedder: Embedder,
        cache: Path | None = None,
        refresh: float = REFRESH,
    ) -> None:
        self.vectors, self.index, self.embedder = vectors, index, embedder
        self.refresh, self.cache = refresh, cache
        """``cache``: where the label vectors are kept between processes."""
        self.computed = 0
        """How many profiles were computed (not counting adds folded in)."""
        self._profiles: dict[str, Profile] = {}
        self._pending: dict[str, Future[None]] = {}
        self._lock, self._closed = threading.Lock(), False
        self._worker: ThreadPoolExecutor | None = None

    # -- the hot path ---------------------------------------------------------------
    def value(self, namespaces: Sequence[str], sim: float) -> float | None:
        """The standing of best cosine ``sim`` in the union of ``namespaces``; None when
        one of them has no profile yet (asked for, off the caller's wait)."""
        found: list[Matrix] = []
        missing = False
        now = time.monotonic()
        for namespace in namespaces:  # each one asked for, even after a missing one
            with self._lock:
                profile = self._profiles.get(namespace)
                due = profile is None or now - profile.checked >= self.refresh
            if due:
                self._schedule(namespace)
                with self._lock:
                    profile = self._profiles.get(namespace)
            if profile is None:
                missing = True
            elif profile.maxima is not None:
                found.append(profile.maxima)
        if missing or not found:
            return None
        return standing_of(sim, np.maximum.reduce(found) if len(found) > 1 else found[0])

    def reader(self, namespaces: Sequence[str | None]) -> Callable[[float], float | None]:
        """``value`` for the namespaces one recall read (its own, and the shared space
        ranked beside it when there is one)."""
        read = [n for n in namespaces if n]
        return lambda sim: self.value(read, sim)

    # -- writes ---------------------------------------------------------------------
    def added(self, namespace: str, vectors: Matrix, epoch_after: int) -> None:
        """This process stored ``vectors`` in ``namespace``: the labels' best cosines
        can only grow. When the epoch moved by exactly one per vector nothing else was
        written in between and the profile is current again; otherwise it is checked
        at the next recall."""
        with self._lock:
            profile = self._profiles.get(namespace)
        if profile is None or len(vectors) == 0:
            return
        labels = label_vectors(self.embedder, self.cache)
        found = (labels @ np.asarray(vectors, dtype=np.float32).T).max(axis=1)
        with self._lock:
            if self._profiles.get(namespace) is not profile:
                return  # recomputed meanwhile
            had = profile.maxima
            profile.maxima = found if had is None else np.maximum(had, found)
            if epoch_after == profile.epoch + len(vectors):
                profile.epoch = epoch_after
            else:
                profile.checked = -np.inf  # something else moved: check at once

    # -- computing ------------------------------------------------------------------
    def profile(self, namespace: str) -> Profile | None:
        """The namespace's current profile, computed or refreshed in this call if it is
        missing or stale (None: the namespace holds no vector)."""
        self._refresh(namespace)
        with self._lock:
            found = self._profiles.get(namespace)
        return None if found is None or found.maxima is None else found

    def wait(self) -> None:
        """Until no profile is being computed (tests, benchmarks)."""
        while True:
            with self._lock:
                pending = list(self._pending.values())
            if not pending:
                return
            for future in pending:
                future.result()

    def close(self) -> None:
        """Stop the worker after the profile it is computing (before the store closes)."""
        with self._lock:
            self._closed = True
            worker, self._worker = self._worker, None
        if worker is not None:
            worker.shutdown(wait=True, cancel_futures=True)

    def _schedule(self, namespace: str) -> None:
        with self._lock:
            if self._closed or namespace in self._pending:
                return
            if self._worker is None:
                self._worker = ThreadPoolExecutor(1, thread_name_prefix="engram-standing")
            future = self._worker.submit(self._refresh, namespace)
            self._pending[namespace] = future
        future.add_done_callback(lambda _: self._done(namespace))

    def _done(self, namespace: str) -> None:
        with self._lock:
            self._pending.pop(namespace, None)

    def _refresh(self, namespace: str) -> None:
        """Check the namespace's profile against the epoch; recompute it if it moved."""
        try:
            epoch = self.vectors.epoch()
            with self._lock:
                profile = self._profiles.get(namespace)
                if profile is not None and profile.epoch == epoch:
                    profile.checked = time.monotonic()
                    return
                if self._closed:
                    return
            maxima = self._compute(namespace)
            if maxima is _CLOSING:
                return
        except EngramError as exc:  # a closed or failing store: decide without it
            log.warning("store standing of %r not computed: %s", namespace, exc)
            return
        with self._lock:
            if self._closed:
                return
            self.computed += 1
            self._profiles[namespace] = Profile(maxima, epoch, time.monotonic())

    def _compute(self, namespace: str) -> Matrix | None:
        """Each label's best cosine in the namespace, through its own dense search
        (None: the namespace holds no vector; ``_CLOSING``: the store is closing)."""
        labels = label_vectors(self.embedder, self.cache)
        out = np.empty(len(labels), dtype=np.float32)
        for n, label in enumerate(labels):
            if self._closed:
                return _CLOSING
            found = self.index.search(namespace, label, 1)
            if not found:
                return None
            out[n] = found[0][1]
        return out
