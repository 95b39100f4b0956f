"""A namespace's mean vector, kept by the dense search beside its vectors (task centre43).

Recall's centred cosines (``engram.recall.centred``) take a namespace's mean vector off
the question's and each candidate's. The mean must cost the read path nothing: no pass
over the namespace's vectors and no write. So it is kept where the vectors already are,
by the object that searches them (``VectorSearch``), the same split the dense search has:
SQLite's in-process index keeps a running float64 sum and count beside each namespace's
matrix, updated by the write hooks it already has; PostgreSQL's search keeps a sum read
with ``sum(vector)`` and refreshes it on a worker thread once enough writes have gone
by (``engram.store.postgres.centres``). A mean a few writes stale is fine for a ranking
lever; each implementation says how stale it can be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt


@dataclass(frozen=True, slots=True)
class Centre:
    """The sum and the count of some live vectors: a union of namespaces adds up."""

    total: npt.NDArray[np.float64]
    count: int

    def mean(self) -> npt.NDArray[np.float64] | None:
        return None if self.count <= 0 else self.total / self.count

    def __add__(self, other: Centre) -> Centre:
        return Centre(self.total + other.total, self.count + other.count)


def direction(centre: Centre | None) -> tuple[npt.NDArray[np.float32], float] | None:
    """The mean's unit direction and length; None without a mean or with a zero one."""
    mean = None if centre is None else centre.mean()
    if mean is None:
        return None
    r = float(np.linalg.norm(mean))
    return None if r <= 0 else ((mean / r).astype(np.float32), r)


@dataclass(frozen=True, slots=True)
class Centred:
    """What centred cosines need of some candidates, read in one call: the mean's
    length ``r`` and direction ``unit``, the question's cosine with it ``g``, and each
    found id's cosine with the question (``a[i]``) and with ``unit`` (``b[i]``)."""

    ids: list[str]
    a: npt.NDArray[np.float64]
    b: npt.NDArray[np.float64]
    g: float
    r: float
    count: int
    """How many vectors the mean is of."""


@runtime_checkable
class VectorCentres(Protocol):
    """A dense search that keeps each namespace's vector sum off the read path."""

    def centre(self, namespaces: Sequence[str]) -> Centre | None:
        """The sum and count of the live vectors of ``namespaces`` together (this
        search's model); None when nothing is known of them."""
        ...

    def centred(
        self,
        namespace: str,
        on: Sequence[str],
        query: npt.NDArray[np.float32],
        ids: Sequence[str],
    ) -> Centred | None:
        """The live ``ids`` of ``namespace`` against the unit ``query`` and the mean
        of the namespaces ``on``, in one pass over their rows (ids without a vector are
        left out); None without a mean (no vectors, or a zero sum)."""
        ...
