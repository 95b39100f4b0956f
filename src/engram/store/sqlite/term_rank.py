"""Constant-time lookups in a namespace's longest posting lists (a bitmap and its rank).

After MaxScore has scattered the rarer terms' lists (``TermBlock.top``), the lists it
did not read, a query's most common terms (a fifth to two thirds of a 1M namespace each),
are looked up for each document still in the running: a binary search per document,
~20 dependent reads through a list of up to 660,000 rows, 1-2 ms a recall at 1M
(docs/benchmarks.md, "The keyword search's long lists"). For such a list a bitmap of
the rows holding the term, with each 64-bit word's count of the set bits before it,
answers the same lookup with three reads: whether the row is set, and its position in
the list (the word's prefix count plus the set bits below the row's in its word), the
same value the binary search finds.

Made for a list on its first lookup and kept for the block's life (the build's lists
never change: removals clear ``alive``, appended rows have lists of their own), in
memory only: N / 8 + N / 16 bytes a list (190 KB at 1M memories), for the lists of at
least ``SHARE`` of the build's rows.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Rows = npt.NDArray[np.int32]
Floats = npt.NDArray[np.float32]

#: Lists holding at least this share of the build's rows get a bitmap: from there the
#: bitmap and counts are smaller than the list's own 8 bytes a posting.
SHARE = 1 / 16
#: Nor below this many postings, where a binary search is as quick.
MIN_POSTINGS = 1024
#: The bits below each bit of a word.
_BELOW = np.array([(1 << bit) - 1 for bit in range(64)], np.uint64)
#: Set bits of each byte, for numpy releases without ``bitwise_count`` (before 2.0).
_BYTE_BITS = np.array([bin(v).count("1") for v in range(256)], np.int64)


def _popcount(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.int64]:
    counts: npt.NDArray[np.int64]
    if hasattr(np, "bitwise_count"):
        counts = np.bitwise_count(words).astype(np.int64)
    else:
        counts = _BYTE_BITS[words.view(np.uint8)].reshape(-1, 8).sum(axis=1)
    return counts


class Ranks:
    """The bitmaps of one block's long build lists, by term id."""

    def __init__(self, rows: int) -> None:
        self._rows = rows
        self._made: dict[int, tuple[npt.NDArray[np.uint64], npt.NDArray[np.int32]]] = {}

    def wants(self, term: int, postings: int) -> bool:
        """Whether a build list (``term`` >= 0) of ``postings`` rows is looked up here."""
        return term >= 0 and postings >= max(SHARE * self._rows, MIN_POSTINGS)

    def lookup(self, term: int, rows: Rows, tf: Floats, wanted: Rows) -> npt.NDArray[np.float64]:
        """The value the list (``rows`` ascending, ``tf``) holds for each of ``wanted``,
        0 where it holds none: what a binary search of ``rows`` gives."""
        words, before = self._bitmap(term, rows)
        out = np.zeros(len(wanted), np.float64)
        inside = wanted < len(words) * 64
        at = wanted[inside].astype(np.int64)
        word = words[at >> 6]
        bit = (at & 63).astype(np.uint64)
        held = ((word >> bit) & np.uint64(1)).astype(bool)
        position = before[at >> 6] + _popcount(word & _BELOW[bit.astype(np.intp)])
        found = np.flatnonzero(inside)[held]
        out[found] = tf[position[held]]
        return out

    def _bitmap(
        self, term: int, rows: Rows
    ) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
        made = self._made.get(term)
        if made is None:
            words_n = (self._rows + 63) // 64
            mask = np.zeros(words_n * 64, bool)
            mask[rows] = True
            words = np.packbits(mask, bitorder="little").view(np.uint64)
            before = np.zeros(words_n, np.int32)  # a list's positions fit 32 bits
            np.cumsum(_popcount(words)[:-1], out=before[1:])
            made = self._made[term] = (words, before)
        return made
