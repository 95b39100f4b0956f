"""Row ↔ key maps of the derived blocks (vector and term), held as numpy arrays.

A block used to keep its memory ids as a Python list and a dict of id → row (and the
term block its sequence numbers the same way): about 15 MB per 100k rows for each list
and dict, ~150 MB per block at 1M, and a cold load spent a quarter of a second at 300k
making the dict (docs/benchmarks.md, "Cold start everywhere"). A ``KeyRows`` keeps the
keys of the rows a block was built or loaded with as one numpy array (memory ids as
UTF-8 bytes, 32 bytes a row; sequence numbers as int64), which a snapshot's file can
give back as it is; key → row is a binary search over a sort order made on the first
lookup (or read from the snapshot). Rows appended later go to a small Python tail,
folded into the array once it grows past a share of it.

A key written twice (a row re-indexed under the same sequence number) answers with its
latest row; callers that need a live row check their own alive mask.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Generic, TypeVar, cast

import numpy as np
import numpy.typing as npt

K = TypeVar("K", str, int)

#: The tail is folded into the array once it holds ``max(FOLD_MIN, len(array) //
#: FOLD_SHARE)`` keys: the fold costs a copy and a new sort order on the next lookup.
FOLD_MIN = 50_000
FOLD_SHARE = 4
#: From this many keys, ``rows`` searches a sorted copy of the keys (made on its second
#: call: the first, a cold first recall's, does not wait for the ~0.1 s copy of a 1M
#: block) instead of the keys through their sort order: at 1M memory ids, 100 lookups
#: read half the memory at random, 0.13-0.15 ms instead of 0.29 (recall completes both
#: legs' scores this way), for 32 bytes a row (docs/benchmarks.md, "Recall's facts
#: as arrays").
SORTED_MIN = 50_000


def encode_ids(ids: Iterable[str]) -> npt.NDArray[np.bytes_]:
    """Memory ids as a fixed-width UTF-8 bytes array (how blocks keep and save them)."""
    return np.array([i.encode() for i in ids], dtype=np.bytes_)


def id_hashes(ids: npt.NDArray[np.bytes_]) -> npt.NDArray[np.uint64]:
    """Each id's bytes, zero-padded to whole 8-byte words, folded into one word by XOR:
    the same for an id in arrays of any width (the padding adds zero words)."""
    n, width = len(ids), ids.dtype.itemsize
    raw = np.zeros((n, -(-width // 8) * 8), np.uint8)
    if n and width:
        raw[:, :width] = np.ascontiguousarray(ids).view(np.uint8).reshape(n, width)
    folded: npt.NDArray[np.uint64] = np.bitwise_xor.reduce(raw.view(np.uint64), axis=1)
    return folded


class IdHashes:
    """An id array's rows by ``id_hashes``, for finding ids by integer search.

    Recall looks up its candidates in the term index's and the vector index's ids (~70
    ids among 100k for the keyword scores of the dense leg's candidates). A binary
    search of the sorted ids (32 bytes a row) reads a string at each of its ~17 steps,
    on pages the model's run pushed out of the caches; over the ids' hashes, sorted (8
    bytes a row), it reads integers, and each id found is checked once against the
    array: the term index's lookup 86 -> 60 us at 100k, answers identical
    (docs/benchmarks.md, "lat38"). engram's ids start with their creation time, so
    their leading bytes alone cannot stand for them: the hash folds in every byte.
    16 bytes a row (a hash and a row), made instead of the 32 of a sorted copy."""

    __slots__ = ("hashes", "rows")

    def __init__(self, ids: npt.NDArray[np.bytes_]) -> None:
        hashes = id_hashes(ids)
        # Stable: the rows of one hash ascending, so the last is the latest of equal ids.
        order = np.argsort(hashes, kind="stable")
        self.hashes = hashes[order]
        self.rows = order.astype(np.int64)

    @property
    def nbytes(self) -> int:
        return int(self.hashes.nbytes + self.rows.nbytes)

    def find(
        self, ids: npt.NDArray[np.bytes_], probes: npt.NDArray[np.bytes_]
    ) -> npt.NDArray[np.int64]:
        """The last row of ``ids`` (the array these hashes are of) equal to each of
        ``probes``, or -1. The last row of a probe's hash is its last equal id when it
        holds the probe (an equal id has the same hash and an earlier row); when it does
        not, other ids share the hash, and that run of rows is compared whole."""
        want = id_hashes(probes)
        at = np.searchsorted(self.hashes, want, side="right").astype(np.int64) - 1
        safe = np.maximum(at, 0)
        rows = self.rows[safe]
        hit = (at >= 0) & (ids[rows] == probes)
        if hit.all():  # recall's candidates: every one found
            return rows
        unsure = np.flatnonzero(~hit & (at >= 0) & (self.hashes[safe] == want))
        for k in unsure.tolist():  # a shared hash: ~1 pair among 100k random ids
            start = int(np.searchsorted(self.hashes, want[k], side="left"))
            run = self.rows[start : at[k] + 1]
            equal = run[ids[run] == probes[k]]
            if len(equal):
                rows[k], hit[k] = equal.max(), True
        return np.where(hit, rows, -1)


def id_array(array: npt.NDArray[Any]) -> npt.NDArray[np.bytes_]:
    """A snapshot's ids as bytes: files written before this module hold str (``<U``)."""
    if array.dtype.kind == "S":
        return array
    try:  # ASCII ids (engram's own are hex) convert in C
        return array.astype(np.bytes_)
    except UnicodeEncodeError:
        return encode_ids(array.tolist())


class KeyRows(Generic[K]):
    """The key of each row of a block, and the latest row of each key."""

    __slots__ = (
        "_base",
        "_hashes",
        "_order",
        "_searched",
        "_sorted",
        "_tail",
        "_tail_rows",
        "_text",
    )

    def __init__(self, base: npt.NDArray[Any], *, text: bool) -> None:
        self._base = base
        self._text = text
        self._order: npt.NDArray[np.int64] | None = None
        self._sorted: npt.NDArray[Any] | None = None
        self._hashes: IdHashes | None = None
        """Memory ids' rows by hash, made instead of ``_sorted`` for text keys."""
        self._searched = False
        self._tail: list[K] = []
        self._tail_rows: dict[K, int] = {}

    @classmethod
    def of_ids(cls, ids: Sequence[str] | npt.NDArray[Any]) -> KeyRows[str]:
        """Memory ids: a list of str, or a bytes or str array (a snapshot's file)."""
        base = id_array(ids) if isinstance(ids, np.ndarray) else encode_ids(ids)
        return KeyRows[str](base, text=True)

    @classmethod
    def of_ints(cls, keys: Sequence[int] | npt.NDArray[Any]) -> KeyRows[int]:
        return KeyRows[int](np.asarray(keys, dtype=np.int64), text=False)

    def set_order(self, order: npt.NDArray[Any]) -> None:
        """Use a sort order saved with the keys (``argsort`` of the array, stable)."""
        if len(order) != len(self._base):
            raise ValueError("the sort order and the keys disagree on their sizes")
        self._order = np.asarray(order, dtype=np.int64)
        self._sorted = None

    def order(self) -> npt.NDArray[np.int64]:
        """The array's stable sort order (made now if it was not yet)."""
        if self._order is None:
            self._order = np.argsort(self._base, kind="stable").astype(np.int64)
        return self._order

    def __len__(self) -> int:
        return len(self._base) + len(self._tail)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __getitem__(self, row: int) -> K:
        n = len(self._base)
        if row < 0:
            row += len(self)
        if row >= n:
            return self._tail[row - n]
        value = self._base[row]
        return cast(K, value.decode() if self._text else int(value))

    def __iter__(self) -> Iterator[K]:
        return iter(self.take(range(len(self))))

    def take(self, rows: Iterable[int]) -> list[K]:
        """The keys of ``rows``: those of the array gathered and converted at once (a
        search's ~50 result ids one numpy scalar at a time cost ~1 us each)."""
        wanted = [int(r) for r in rows]
        n = len(self._base)
        if not all(0 <= r < n for r in wanted):
            return [self[r] for r in wanted]
        values = self._base[np.asarray(wanted, dtype=np.int64)].tolist()
        return cast(list[K], [v.decode() for v in values] if self._text else values)

    def get(self, key: K) -> int | None:
        """The latest row of ``key``, or None."""
        row = self._tail_rows.get(key)
        if row is not None:
            return row
        base = self._base
        if not len(base):
            return None
        probe = key.encode() if isinstance(key, str) else key
        order = self.order()
        # The last of equal keys (side right) is the latest row: the order is stable.
        at = int(np.searchsorted(base, probe, side="right", sorter=order)) - 1
        if at < 0:
            return None
        row = int(order[at])
        # A probe longer than the array's width is cut to it by the search: compare.
        return row if base[row] == probe else None

    def rows(self, keys: Sequence[K]) -> list[int | None]:
        """The latest row of each of ``keys`` (None: absent), with one binary search for
        all of them: recall scores ~100 ids a query, and a search per id cost ~5 us."""
        return [None if row < 0 else row for row in self.row_array(keys).tolist()]

    def live(
        self, keys: Sequence[K], alive: npt.NDArray[np.bool_]
    ) -> tuple[list[K], npt.NDArray[np.int64]]:
        """Those of ``keys`` whose latest row is ``alive``, in their order, and those
        rows: what ``rows`` and a check of each row give, the check made on the array
        (recall completes ~50 ids a leg this way)."""
        rows = self.row_array(keys)
        ok = rows >= 0
        ok[ok] = alive[rows[ok]]
        return [k for k, good in zip(keys, ok.tolist(), strict=True) if good], rows[ok]

    def row_array(self, keys: Sequence[K]) -> npt.NDArray[np.int64]:
        """``rows`` as an array, -1 where a key is absent."""
        out = np.full(len(keys), -1, dtype=np.int64)
        tail = self._tail_rows
        wanted: Sequence[K] = keys
        rest: npt.NDArray[np.intp] | None = None
        if tail:  # a key in the tail is answered by it: its latest row
            out[:] = [tail.get(k, -1) for k in keys]
            rest = np.flatnonzero(out < 0)
            wanted = [keys[i] for i in rest.tolist()]
        base = self._base
        if not len(wanted) or not len(base):
            return out
        big = self._searched and len(base) >= SORTED_MIN
        self._searched = True
        if self._text and big:  # memory ids: by hash, not by the sort order
            if self._hashes is None:
                self._hashes = IdHashes(base)
            got = self._hashes.find(base, encode_ids(map(str, wanted)))
            if rest is None:
                return got
            out[rest] = got
            return out
        probes = encode_ids(map(str, wanted)) if self._text else np.asarray(wanted, np.int64)
        order = self.order()
        if self._sorted is None and big:
            self._sorted = base[order]
        ordered = self._sorted
        if ordered is not None:
            at = np.maximum(np.searchsorted(ordered, probes, side="right") - 1, -1)
            rows = order[np.maximum(at, 0)]
            # Compared whole: a probe wider than the array is cut by the search.
            hit = (at >= 0) & (ordered[np.maximum(at, 0)] == probes)
        else:
            at = np.searchsorted(base, probes, side="right", sorter=order) - 1
            rows = order[np.maximum(at, 0)]
            hit = (at >= 0) & (base[rows] == probes)
        got = np.where(hit, rows, -1)
        if rest is None:
            return got.astype(np.int64, copy=False)
        out[rest] = got
        return out

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str | int) and self.get(key) is not None  # type: ignore[arg-type]

    def append(self, key: K) -> int:
        """Give ``key`` the next row; returns it."""
        row = len(self)
        self._tail.append(key)
        self._tail_rows[key] = row
        if len(self._tail) >= max(FOLD_MIN, len(self._base) // FOLD_SHARE):
            self._fold()
        return row

    def _fold(self) -> None:
        tail = encode_ids(map(str, self._tail)) if self._text else np.asarray(self._tail, np.int64)
        self._base = np.concatenate([self._base, tail])
        self._order = None
        self._sorted = self._hashes = None
        self._tail, self._tail_rows = [], {}

    def array(self) -> npt.NDArray[Any]:
        """Every row's key as one array (bytes for memory ids), for saving."""
        if self._tail:
            self._fold()
        return self._base

    def nbytes(self) -> int:
        """Bytes the array, its sort order and sorted copy (or hashes) hold (the tail's
        Python objects aside)."""
        order = 0 if self._order is None else self._order.nbytes
        ordered = 0 if self._sorted is None else self._sorted.nbytes
        hashes = 0 if self._hashes is None else self._hashes.nbytes
        return int(self._base.nbytes) + order + ordered + hashes
