"""The neighbour view of the learned injection detector (engram issue 26, round
twenty-six; docs/safety.md): a text the other views pass is compared with every training
text the detector's file keeps, attacks and benign rows alike, and fires when its nearest
attacks are nearer than its nearest benign rows by a margin.

Why a second look of this kind: the network and the word n-gram model each draw one
boundary through the embedding space, fitted on every training row at once, so a new
wording that lies in a pocket of attacks the boundary smooths over is passed. A
k-nearest-neighbour vote reads that pocket directly: "this text sits next to a dozen
attacks and no note". It is the oldest non-parametric classifier and what embedding-based
filters in the field use beside a trained head; it needs no fit, only the rows.

The rows are stored as bits: each row less the rows' mean (``centre``) is turned by a fixed
randomised Hadamard transform (:func:`rotate`: a sign flip per dimension from a fixed
integer hash, then the Walsh-Hadamard matrix; nothing to store) and the sign of its first
``width`` coefficients is kept, so 192 bits (24 bytes) hold a row and several thousand
training texts fit beside the network in 512 KB. A query keeps its full vector, turned
the same way: its similarity to a row is the cosine between the query's coefficients and
the row's signs (an asymmetric binary code, which keeps most of the cosine's ranking).

The file (``injection_neighbours.npz``): ``bits`` (rows x width/8, ``numpy.packbits``),
``attack`` (1 per attack row, 0 per benign one), ``centre`` (dims), ``width``, ``k`` (how
many nearest of each kind are averaged), ``threshold`` (the margin that fires), ``cued``
(1: only a text carrying one of the detector's cues is read) and ``words`` (a text of
fewer words is not read: too short for its neighbours to mean much).

A write reads the rows from their bytes (round twenty-seven): the query makes a table once,
256 entries per byte position, and its similarity to a row is the sum of the entries its
24 bytes pick (:class:`_Layout`), a gather of one index per byte (192 bytes a row as
machine integers) where round twenty-six's float product read the 768 bytes of each row
unpacked to floats, 5 MB a write. The float product (:meth:`Neighbours.margins`) stays
the reference: where the packed margin is within :data:`GUARD` of the threshold, or
fires, the reference decides and gives the margin the reason reports, so the verdicts and
reasons are the reference's exactly. It halves the view's cost, not more: still over the
0.2 ms round twenty-six's rule allows (docs/safety.md, "Round twenty-seven").

What ships (round twenty-eight) is a cheaper cell: ``cued`` set, so only a text carrying
one of the detector's cues (about one real write in seven) reaches the rows and the
median write pays about 0.09 ms more, over a memory pruned to the rows that decide some
verdict near the boundary (6,479 of 6,657). Prototypes (k-means centroids) cost less
still but lost catches or flagged real texts (docs/safety.md, "Round twenty-eight").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # the floors' type only: this module runs without the lexical view
    from engram.injection_lexical import Lexical

#: Rows per matrix product (:meth:`Neighbours.margins`): small enough to stay in one thread.
_BLOCK = 256

#: Values per block whose maximum :func:`_best` reads first.
_RUN = 64

#: How near the threshold a packed margin is handed to the reference. Both are float32
#: sums of at most a few hundred products of unit vectors' coordinates, so each is within
#: about 1e-5 of the exact margin; measured, they differ by at most 3e-7 (docs/safety.md,
#: "Round twenty-seven"). A hundred times the bound leaves no verdict to rounding.
GUARD = 1e-3

#: What spares a text the view (:meth:`Neighbours.admitted`): the network's scores, the
#: lexical view whose floors read them, and the tests for a cue and for an order.
Floors = tuple[np.ndarray, "Lexical | None", Callable[[str], bool], Callable[[str], bool]]

#: The file's keys.
KEYS = ("bits", "attack", "centre", "width", "k", "threshold", "cued", "words")


@dataclass(frozen=True)
class Neighbours:
    """The neighbour view: the training rows' packed signs (``bits``, rows x bytes, the
    first ``width`` bits of a row its signs), which are attacks (``attack``), the rows'
    mean (``centre``), and the view's settings (the module's docstring)."""

    bits: np.ndarray
    attack: np.ndarray
    centre: np.ndarray
    width: int
    k: int
    threshold: float
    cued: bool = False
    words: int = 0
    layout: _Layout = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "layout", _Layout.of(self))

    @classmethod
    def from_arrays(cls, data: Any) -> Neighbours:
        """The view from an ``.npz``'s arrays (:data:`KEYS`); a ``ValueError`` names what
        does not fit."""
        missing = [k for k in KEYS if k not in data]
        if missing:
            raise ValueError(f"the neighbour view's file lacks {', '.join(missing)}")
        centre = np.asarray(data["centre"], np.float32)
        bits = np.asarray(data["bits"], np.uint8)
        attack = np.asarray(data["attack"]).astype(bool)
        width = int(data["width"])
        if centre.ndim != 1 or bits.ndim != 2 or not 8 <= width <= _padded(centre.shape[0]):
            raise ValueError("the neighbour view's width must be 8 to its padded dimensions")
        if bits.shape[1] * 8 < width:
            raise ValueError("the neighbour view's bits do not cover its width")
        if attack.shape != (bits.shape[0],) or attack.all() or not attack.any():
            raise ValueError("the neighbour view needs one label per row, of both kinds")
        k = int(data["k"])
        if not 1 <= k <= min(int(attack.sum()), int((~attack).sum())):
            raise ValueError("the neighbour view's k must be at least 1 and at most each kind")
        return cls(
            np.ascontiguousarray(bits[:, : -(-width // 8)]),
            attack,
            centre,
            width,
            k,
            float(data["threshold"]),
            bool(int(data["cued"])),
            int(data["words"]),
        )

    @cached_property
    def signs(self) -> np.ndarray:
        """The rows' signs unpacked, +-1 over the square root of ``width`` (rows x width,
        float32): the reference's operand (:meth:`margins`), made when first read."""
        signs = np.unpackbits(self.bits, axis=1)[:, : self.width].astype(np.float32) * 2.0 - 1.0
        signs /= math.sqrt(self.width)
        return signs

    @property
    def dimensions(self) -> int:
        """The embedding's dimensions the rows were coded from."""
        return int(self.centre.shape[0])

    def margins(self, vectors: np.ndarray, exclude: np.ndarray | None = None) -> np.ndarray:
        """Per vector, the mean similarity of its ``k`` nearest attack rows less that of
        its ``k`` nearest benign rows, by the float product over the unpacked rows (the
        reference, round twenty-six's). ``exclude`` (rows x texts, True = left out) keeps
        rows out of a text's neighbours (a fit scoring its own rows out of fold)."""
        q = rotate(np.asarray(vectors, np.float32) - self.centre)[:, : self.signs.shape[1]]
        q /= np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-12)
        # Blocks of rows: one product over every row is handed to the BLAS's threads,
        # which on a busy machine took 26 ms a write against 0.3 ms in one thread.
        sims = np.vstack(
            [self.signs[i : i + _BLOCK] @ q.T for i in range(0, len(self.signs), _BLOCK)]
        )
        if exclude is not None:
            sims = np.where(exclude, -np.inf, sims)
        found: np.ndarray = _top(sims[self.attack], self.k) - _top(sims[~self.attack], self.k)
        return found

    def admitted(self, texts: Sequence[str], passed: Sequence[bool], floors: Floors) -> list[int]:
        """The texts the view reads: those the other views passed (``passed[i]``), that no
        floor spares (``floors``: the network's scores, the lexical view whose ``spares``
        reads them, the cue and the order tests), long enough and (with ``cued`` set)
        carrying a cue."""
        network, lexical, cued, ordered = floors
        return [
            i
            for i, (text, free) in enumerate(zip(texts, passed, strict=True))
            if free
            and len(text.split()) >= self.words
            and (not self.cued or cued(text))
            and not (lexical is not None and lexical.spares(float(network[i]), text, cued, ordered))
        ]

    def fires(
        self,
        vectors: np.ndarray,
        texts: Sequence[str],
        passed: Sequence[bool],
        network: np.ndarray,
        floors: Lexical | None,
        cued: Callable[[str], bool],
        ordered: Callable[[str], bool],
    ) -> dict[int, float]:
        """Per text the view reads (:meth:`admitted`), its margin (:meth:`margins`) when
        that reaches ``threshold``."""
        at = self.admitted(texts, passed, (network, floors, cued, ordered))
        if not at:
            return {}
        x = np.asarray(vectors, np.float32)[at]
        fast = self.layout.margins(x, self.centre, self.k)
        # What the packed margin cannot settle (near the threshold) or would fire on goes
        # to the reference, which decides and gives the margin the reason carries.
        near = np.flatnonzero(fast >= self.threshold - GUARD)
        if not len(near):
            return {}
        found = self.margins(x[near])
        return {at[j]: float(m) for j, m in zip(near, found, strict=True) if m >= self.threshold}


@dataclass(frozen=True)
class _Layout:
    """The packed rows laid out for a write (round twenty-seven): attacks first, then
    benign rows (the first ``split``); byte ``b`` of every row in one contiguous run, as
    an index into a query's table (``index``, bytes x rows flattened: ``b * 256 +`` the
    byte); and the part of the rotation a query needs (``turn``: the randomised Hadamard
    matrix's first ``dims`` rows and ``width`` columns)."""

    index: np.ndarray
    split: int
    turn: np.ndarray
    width: int

    @classmethod
    def of(cls, view: Neighbours) -> _Layout:
        order = np.argsort(~view.attack, kind="stable")
        columns = view.bits[order].T.astype(np.intp)
        index = (columns + 256 * np.arange(len(columns))[:, None]).ravel()
        turn = _hadamard(_padded(view.dimensions))[: view.dimensions, : view.width]
        return cls(index, int(view.attack.sum()), np.ascontiguousarray(turn), view.width)

    def margins(self, vectors: np.ndarray, centre: np.ndarray, k: int) -> np.ndarray:
        """:meth:`Neighbours.margins` read from the packed rows: per vector, its table (for
        each byte position and each of the 256 values, the sum of the position's eight
        coordinates signed by the value's bits) and a row's similarity as the sum of its
        bytes' entries."""
        q = (vectors - centre) @ self.turn
        q /= np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-12)
        chunks = -(-self.width // 8)
        padded = np.zeros((len(q), chunks * 8), np.float32)
        padded[:, : self.width] = q / math.sqrt(self.width)  # the rows' signs' scale
        out = np.empty(len(q))
        for n, row in enumerate(padded):
            table = (row.reshape(chunks, 8) @ _BYTE_SIGNS).ravel()
            sims = table.take(self.index).reshape(chunks, -1).sum(axis=0)
            out[n] = _best(sims[: self.split], k) - _best(sims[self.split :], k)
        return out


#: Per byte value (a column), the signs of its eight bits (+1 set, -1 clear), the most
#: significant first as ``numpy.packbits`` stores them.
_BYTE_SIGNS = np.unpackbits(np.arange(256, dtype=np.uint8)[None, :], axis=0) * np.float32(2) - 1


def _top(sims: np.ndarray, k: int) -> np.ndarray:
    """Per column of ``sims``, the mean of its ``k`` highest values."""
    if k == 1:
        return np.asarray(sims.max(axis=0), np.float64)
    part = np.partition(sims, sims.shape[0] - k, axis=0)[-k:]
    return np.asarray(part.mean(axis=0), np.float64)


def _best(sims: np.ndarray, k: int) -> float:
    """The mean of the ``k`` highest of ``sims`` (one text's :func:`_top`). The k-th
    highest of blocks' maxima is at most the k-th highest value, so only the values at
    or above it are partitioned: a few dozen of thousands."""
    blocks = len(sims) // _RUN
    if blocks >= k:
        tops = sims[: blocks * _RUN].reshape(blocks, _RUN).max(axis=1)
        sims = sims[sims >= np.partition(tops, blocks - k)[blocks - k]]
    return float(np.partition(sims, len(sims) - k)[-k:].mean(dtype=np.float64))


def _padded(dims: int) -> int:
    """The Hadamard transform's size for ``dims``: the next power of two."""
    return 1 << max(0, dims - 1).bit_length()


@cache
def _hadamard(size: int) -> np.ndarray:
    """The randomised Hadamard matrix of ``size`` (a power of two): Sylvester's
    construction, its rows' signs flipped by a fixed integer hash (Knuth's multiplicative
    constant), scaled to be orthonormal."""
    h = np.ones((1, 1), np.float32)
    while h.shape[0] < size:
        h = np.block([[h, h], [h, -h]])
    flip = np.where((np.arange(size, dtype=np.uint64) * 2654435761) % 2**32 < 2**31, 1, -1)
    return np.asarray(flip[:, None] * h / math.sqrt(size), np.float32)


def rotate(vectors: np.ndarray) -> np.ndarray:
    """Each row of ``vectors`` padded with zeros to a power of two and turned by the
    randomised Hadamard matrix (the same every run: nothing is stored)."""
    x = np.asarray(vectors, np.float32)
    size = _padded(x.shape[1])
    if size != x.shape[1]:
        x = np.hstack([x, np.zeros((x.shape[0], size - x.shape[1]), np.float32)])
    turned: np.ndarray = x @ _hadamard(size)
    return turned


def packed(vectors: np.ndarray, centre: np.ndarray, width: int) -> np.ndarray:
    """The rows' bits as the file stores them: the signs of the first ``width`` rotated
    coefficients of each row less ``centre``."""
    return np.packbits(rotate(np.asarray(vectors, np.float32) - centre)[:, :width] >= 0, axis=1)
