"""One namespace's keyword postings in memory, ranked by BM25 exactly as FTS5 ranks.

FTS5 ranks every document that holds any query term before it can return the best few,
so at 100k-1M memories, where a speaker's name is held by a fifth of them, the keyword
leg cost tens of milliseconds (docs/benchmarks.md, "Beside Chroma"). A
``TermBlock`` holds the same postings as numpy arrays and finds the top k without
touching most of them (MaxScore): terms are taken rarest-first, and once the k-th best
score so far beats everything the remaining terms could add, their long posting lists
are only looked up for the documents already in the running.

Scores are FTS5's ``bm25()`` with engram's column weights (``fts.WEIGHTS``):

    idf(t)  = ln((N - n(t) + 0.5) / (n(t) + 0.5)), and 1e-6 where that is <= 0
    f(t, D) = sum over columns of weight(column) * occurrences of t in it
    score   = sum over query terms of idf(t) * f * (k1 + 1) / (f + k1 * (1 - b + b * |D| / avgdl))

with k1 = 1.2 and b = 0.75 (fts5_aux.c), |D| the document's token count over all
columns. The term-frequency part is computed when a document is indexed, against the
block's average length at its build (``avgdl``, kept until the block is rebuilt), and
``n(t)`` counts documents removed since the build until then: both drift by little
between rebuilds, which the owner (``term_search``) schedules.

The block is derived data: built from the store, appended to as memories are written,
and thrown away and rebuilt whenever in doubt.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from engram.store.protocols.keyword import K1, B, idf
from engram.store.sqlite.term_rank import Ranks
from engram.store.sqlite.tokenize import term_ids, terms_many
from engram.store.sqlite.vector_ids import KeyRows

#: Per-column weights, in ``fts.COLUMNS`` order: content, title, narrative, facts, tags
#: (seed 000 ranks title matches above body matches; the same numbers as ``fts.WEIGHTS``).
WEIGHTS = (1.0, 2.0, 1.0, 1.0, 0.5)
#: Rows looked up in a list at least 1 / DENSE of its length are read through the scratch
#: scores (``TermBlock._values``), fewer by binary search.
DENSE = 4
#: A floor stops the scatter only when it beats what is left by more than float32's
#: rounding of the partial sums, so a document scoring exactly the k-th is never missed.
_SURE = 1.0 + 1e-5

Rows = npt.NDArray[np.int32]
_T = TypeVar("_T", bound=np.generic)
Floats = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Doc:
    """One memory's indexed text: its store sequence number, id and column values."""

    seq: int
    id: str
    columns: tuple[str | None, ...]


class _Growing:
    """Postings of one term for documents appended after the build (rows ascending)."""

    __slots__ = ("n", "rows", "tf")

    def __init__(self) -> None:
        self.rows = np.zeros(8, np.int32)
        self.tf = np.zeros(8, np.float32)
        self.n = 0

    def add(self, row: int, tf: float) -> None:
        if self.n == len(self.rows):
            self.rows = np.concatenate([self.rows, np.zeros(self.n, np.int32)])
            self.tf = np.concatenate([self.tf, np.zeros(self.n, np.float32)])
        self.rows[self.n], self.tf[self.n] = row, tf
        self.n += 1


class TermBlock:
    """BM25 postings of one namespace: built once, appended to, searched by MaxScore."""

    def __init__(self, docs: Sequence[Doc]) -> None:
        n = len(docs)
        # Each row's memory id and store seq, and the latest row of each, as numpy
        # arrays (``vector_ids``): Python lists and dicts were ~15 MB per 100k rows each.
        self.ids: KeyRows[str] = KeyRows.of_ids([d.id for d in docs])
        self.seqs: KeyRows[int] = KeyRows.of_ints([d.seq for d in docs])
        capacity = max(64, n)
        self.alive = np.zeros(capacity, bool)
        self.alive[:n] = True
        self.live = n
        self.vocab: dict[str, int] = {}
        tids, rows, f, lengths = _postings_of(docs, self.vocab)
        total = float(lengths.sum())
        self.avgdl = total / n if n and total else 1.0
        self._lengths = np.zeros(capacity, np.float32)
        self._lengths[:n] = lengths
        self._scratch = np.zeros(capacity, np.float32)
        # Postings of the build, by term id: rows ascending, BM25's term-frequency part.
        self.offsets = np.zeros(len(self.vocab) + 1, np.int64)
        np.cumsum(np.bincount(tids, minlength=len(self.vocab)), out=self.offsets[1:])
        self.rows: Rows = rows
        self.tf: Floats = self._tf(f, self._lengths[rows])
        self.top_tf = np.zeros(len(self.vocab), np.float32)
        if len(rows):
            self.top_tf = np.maximum.reduceat(self.tf, self.offsets[:-1]).astype(np.float32)
        self.grown: dict[str, _Growing] = {}
        self.grown_top: dict[str, float] = {}
        self._planned: tuple[tuple[tuple[str, ...], int, int], list[_Step]] | None = None
        self.built_rows = n
        self.dead = 0
        self._ranks = Ranks(n)

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """A fresh build as arrays (``from_arrays`` reads them back), for persisting."""
        if self.appended or self.dead:
            raise ValueError("only a block as built is saved, before any change")
        terms = [""] * len(self.vocab)
        for term, tid in self.vocab.items():
            terms[tid] = term
        return {
            "ids": self.ids.array(),
            # Saved, so a search asking rows by id after a load needs no sort first.
            "id_order": self.ids.order().astype(np.int32),
            "seqs": self.seqs.array(),
            "lengths": self._lengths[: self.size].copy(),
            "terms": np.array(terms, dtype=str),
            "offsets": self.offsets,
            "rows": self.rows,
            "tf": self.tf,
            "top_tf": self.top_tf,
            "avgdl": np.array([self.avgdl], np.float64),
        }

    @classmethod
    def from_arrays(cls, a: dict[str, npt.NDArray[Any]]) -> TermBlock:
        """The block ``arrays`` described, as it was when built."""
        block = cls([])
        n = len(a["ids"])
        block.ids, block.seqs = KeyRows.of_ids(a["ids"]), KeyRows.of_ints(a["seqs"])
        if "id_order" in a:  # format 1 snapshots have none: made on first lookup
            block.ids.set_order(a["id_order"])
        capacity = max(64, n)
        block.alive = np.zeros(capacity, bool)
        block.alive[:n] = True
        block.live = block.built_rows = n
        block._ranks = Ranks(n)
        block.vocab = {term: tid for tid, term in enumerate(a["terms"].tolist())}
        block.avgdl = float(a["avgdl"][0])
        block._lengths = np.zeros(capacity, np.float32)
        block._lengths[:n] = a["lengths"]
        block._scratch = np.zeros(capacity, np.float32)
        block.offsets, block.rows, block.tf = a["offsets"], a["rows"], a["tf"]
        block.top_tf = a["top_tf"]
        if len(block.offsets) != len(block.vocab) + 1 or len(block.rows) != len(block.tf):
            raise ValueError("the term arrays disagree on their sizes")
        return block

    # -- maintenance ------------------------------------------------------------------
    def live_rows(self, memory_ids: Sequence[str]) -> tuple[list[str], Rows]:
        """Those of ``memory_ids`` that are live here, and their rows."""
        ids, rows = self.ids.live(memory_ids, self.alive)
        return ids, rows.astype(np.int32)

    @property
    def size(self) -> int:
        return len(self.ids)

    def _tf(self, f: Floats, lengths: Floats) -> Floats:
        norm = K1 * (1.0 - B + B * lengths / np.float32(self.avgdl))
        out: Floats = (f * np.float32(K1 + 1.0) / (f + norm)).astype(np.float32)
        return out

    def append(self, docs: Sequence[Doc]) -> None:
        """Index documents written after the build (a seq seen before replaces its row)."""
        if not docs:
            return
        for doc in docs:
            self.remove(doc.seq)
        per_doc, lengths = _doc_terms(docs)
        need = self.size + len(docs)
        if need > len(self.alive):
            capacity = max(need, 2 * len(self.alive))
            self.alive = _grow(self.alive, capacity)
            self._lengths = _grow(self._lengths, capacity)
            self._scratch = np.zeros(capacity, np.float32)
        for doc, counts, length in zip(docs, per_doc, lengths, strict=True):
            row = self.size
            self.ids.append(doc.id)
            self.seqs.append(doc.seq)
            self.alive[row] = True
            self._lengths[row] = length
            self.live += 1
            if not counts:
                continue
            f = np.fromiter(counts.values(), np.float32, len(counts))
            tf = self._tf(f, np.full(len(counts), length, np.float32))
            for term, value in zip(counts, tf.tolist(), strict=True):
                grown = self.grown.get(term)
                if grown is None:
                    grown = self.grown[term] = _Growing()
                grown.add(row, value)
                if value > self.grown_top.get(term, 0.0):
                    self.grown_top[term] = value

    def remove(self, seq: int) -> None:
        """Drop a document (deleted, or about to be re-indexed with new text)."""
        # The seq's latest row: one removed before is dead already, so a second remove
        # changes nothing.
        row = self.seqs.get(seq)
        if row is not None and self.alive[row]:
            self.alive[row] = False
            self.live -= 1
            self.dead += 1

    @property
    def appended(self) -> int:
        """Rows added since the build (re-indexed ones included)."""
        return self.size - self.built_rows

    # -- search ---------------------------------------------------------------------
    def _lists(self, term: str) -> list[_List]:
        """The posting lists of ``term``: the build's and the rows appended since, each
        one's rows ascending, with its highest value."""
        lists: list[_List] = []
        tid = self.vocab.get(term)
        if tid is not None:
            lo, hi = int(self.offsets[tid]), int(self.offsets[tid + 1])
            lists.append(_List(self.rows[lo:hi], self.tf[lo:hi], float(self.top_tf[tid]), tid))
        grown = self.grown.get(term)
        if grown is not None and grown.n:
            lists.append(
                _List(grown.rows[: grown.n], grown.tf[: grown.n], self.grown_top[term], -1)
            )
        return lists

    def _plan(self, query: Iterable[str]) -> list[_Step]:
        """One step per posting list of each distinct query term this block holds, the
        largest bound (weight x the list's highest value) first. A term asked twice
        weighs twice, as in FTS5.

        The last plan is kept while the block is unchanged (its live and total rows):
        recall plans the same query twice, for its top few (``top``) and then for the
        other candidates' scores (``scores``), ~20-60 us each at 100k."""
        terms = tuple(query)
        key = (terms, self.live, self.size)
        kept = self._planned
        if kept is not None and kept[0] == key:
            return kept[1]
        plan: list[_Step] = []
        for term, times in Counter(terms).items():
            lists = self._lists(term)
            df = sum(len(p.rows) for p in lists)
            if not df:
                continue
            # df counts removed rows until the rebuild, so a term in every live row can
            # make N - df + 0.5 negative: an IDF <= 0 either way (FTS5's 1e-6).
            weight = idf(self.live, df) * times
            plan.extend(_Step(weight * p.top, weight, p) for p in lists)
        plan.sort(key=lambda step: -step.bound)
        self._planned = (key, plan)
        return plan

    def top(self, query: Sequence[str], k: int) -> list[tuple[int, float]]:
        """(row, score) of the ``k`` best live documents for the query terms, best first;
        ties by row, oldest first (at the k-th score too)."""
        plan = self._plan(query)
        if not plan or k <= 0:
            return []
        scratch = self._scratch
        remaining = sum(step.bound for step in plan)
        reached = 0.0  # no score so far exceeds the bounds of the lists done
        done: list[Rows] = []
        floor = 0.0
        i = 0
        try:
            while i < len(plan):
                step = plan[i]
                scratch[step.postings.rows] += np.float32(step.weight) * step.postings.tf
                done.append(step.postings.rows)
                remaining -= step.bound
                reached += step.bound
                i += 1
                if i == len(plan) or reached < remaining:
                    continue  # the floor cannot beat what is left yet
                # The k-th best score so far (over the longest list done: its rows are
                # distinct) is a floor under the final k-th best; a document no list
                # done so far holds scores at most ``remaining``: it is left out only
                # when the floor beats that by more than float32's rounding, as one
                # scoring exactly the k-th may rank above by its row.
                widest = max(done, key=len)
                values = scratch[widest]
                floor = _kth(values[self.alive[widest]] if self.dead else values, k)
                if floor > remaining * _SURE:
                    break
            # Each list done is cut down before they are joined: only documents whose
            # partial score plus all that is left could reach the floor stay in the
            # running (all of them when nothing is left), and only live ones. A list's
            # rows are cleared from the scratch once read, so a document held by
            # several lists joins the pool once, from the first (no pass for repeats).
            need = np.float32(floor / _SURE) - np.float32(remaining) if i < len(plan) else None
            kept = []
            for rows in done:
                kept.append(self._keep(rows, need))
                scratch[rows] = 0.0
            done.clear()
            pool = np.concatenate([rows for rows, _ in kept]) if len(kept) > 1 else kept[0][0]
            partial = np.concatenate([p for _, p in kept]) if len(kept) > 1 else kept[0][1]
        finally:
            for rows in done:
                scratch[rows] = 0.0
        rest = plan[i:]
        if not rest:
            best = _best(partial, k, ties=True)
            return _ranked(pool[best], partial[best].astype(np.float64), k)
        # Exact scores, looked up in the lists not done: first for the best partial
        # scores, whose k-th exact score then rules out most of the others.
        first = _best(partial, 4 * k)
        scores = self._complete(rest, pool[first], partial[first])
        floor = _kth(scores, k)
        others = np.ones(len(pool), bool)
        others[first] = False
        others &= partial + np.float32(remaining) >= np.float32(floor / _SURE)
        if others.any():
            rows, more = self._reaching(rest, pool[others], partial[others], floor)
            pool = np.concatenate([pool[first], rows])
            scores = np.concatenate([scores, more])
        else:
            pool = pool[first]
        best = _best(scores, k, ties=True)
        return _ranked(pool[best], scores[best], k)

    def _keep(self, rows: Rows, need: np.float32 | None) -> tuple[Rows, Floats]:
        """The live ones of ``rows`` whose partial score is at least ``need`` (None:
        any) and that no list read before held, and those scores."""
        partial = self._scratch[rows]
        # A row an earlier list held reads 0 here (that list's rows were cleared once
        # read); every other row of ``rows`` holds a partial score above 0.
        reach = partial >= need if need is not None and need > 0 else partial > 0
        keep = reach & self.alive[rows] if self.dead else reach
        return rows[keep], partial[keep]

    def scores(self, query: Sequence[str], rows: Sequence[int] | Rows) -> list[float]:
        """The score of each of ``rows`` (0 for rows that hold no query term)."""
        wanted = np.asarray(rows, np.int32)
        total = self._complete(self._plan(query), wanted, np.zeros(len(wanted), np.float32))
        total[~self.alive[wanted]] = 0.0
        found: list[float] = total.tolist()
        return found

    def _reaching(
        self, steps: Sequence[_Step], rows: Rows, partial: Floats, floor: float
    ) -> tuple[Rows, npt.NDArray[np.float64]]:
        """Those of ``rows`` whose exact score may reach ``floor``, and their scores:
        ``_complete`` a list at a time, each list looked up only for the rows that what
        is still to come could lift to the floor (the same sums, in the same order)."""
        scores = partial.astype(np.float64)
        remaining = sum(step.bound for step in steps)
        for step in steps:
            scores += step.weight * self._values(step.postings, rows)
            remaining -= step.bound
            reach = scores + remaining >= floor / _SURE
            if not reach.all():
                rows, scores = rows[reach], scores[reach]
        return rows, scores

    def _values(self, p: _List, rows: Rows) -> npt.NDArray[np.float64]:
        """What the list holds for each of ``rows``: the longest build lists through
        their bitmaps (``term_rank``), others searched."""
        if self._ranks.wants(p.term, len(p.rows)):
            return self._ranks.lookup(p.term, p.rows, p.tf, rows)
        if len(rows) * DENSE < len(p.rows):
            return _lookup(p, rows)
        # Many rows against a shorter list: writing the list into the (zeroed) scratch
        # scores and reading the rows back costs less than a binary search for each.
        scratch = self._scratch
        scratch[p.rows] = p.tf
        try:
            return scratch[rows].astype(np.float64)
        finally:
            scratch[p.rows] = 0.0

    def _complete(
        self, steps: Sequence[_Step], rows: Rows, partial: Floats
    ) -> npt.NDArray[np.float64]:
        """``partial`` plus what the lists of ``steps`` add for each of ``rows``: the
        longest build lists through their bitmaps (``term_rank``), others searched."""
        scores = partial.astype(np.float64)
        for step in steps:
            scores += step.weight * self._values(step.postings, rows)
        return scores


@dataclass(frozen=True, slots=True)
class _List:
    """One posting list: rows ascending, their term-frequency parts, the largest, and
    the term id of a build's list (-1: rows appended since the build)."""

    rows: Rows
    tf: Floats
    top: float
    term: int


@dataclass(frozen=True, slots=True)
class _Step:
    """A posting list of a query term, its weight (the term's IDF) and bound."""

    bound: float
    weight: float
    postings: _List


def _lookup(postings: _List, wanted: Rows) -> npt.NDArray[np.float64]:
    """The value ``postings`` holds for each of ``wanted`` (0 where absent)."""
    rows, out = postings.rows, np.zeros(len(wanted), np.float64)
    if not len(rows) or not len(wanted):
        return out
    at = np.searchsorted(rows, wanted)
    inside = at < len(rows)
    hit = np.zeros(len(wanted), bool)
    hit[inside] = rows[at[inside]] == wanted[inside]
    out[hit] = postings.tf[at[hit]]
    return out


_EMPTY_ROWS: Rows = np.zeros(0, np.int32)
_EMPTY_TF: Floats = np.zeros(0, np.float32)


def _best(
    scores: npt.NDArray[np.floating[Any]], k: int, ties: bool = False
) -> npt.NDArray[np.intp]:
    """Positions of the ``k`` largest of ``scores`` (all of them when fewer), unordered;
    with ``ties``, also of any equal to the k-th: which of a tie ranks first is then the
    rows' to say (``_ranked``), not ``argpartition``'s."""
    if len(scores) <= k:
        return np.arange(len(scores))
    best: npt.NDArray[np.intp] = np.argpartition(-scores, k - 1)[:k]
    if ties:
        tied = np.flatnonzero(scores == scores[best].min())
        if len(tied) > 1:
            best = np.union1d(best, tied)
    return best


def _ranked(rows: Rows, scores: npt.NDArray[np.float64], k: int) -> list[tuple[int, float]]:
    """(row, score) of the ``k`` best of ``rows`` (``_best`` keeps ties at the k-th),
    best first; ties by row, oldest first."""
    order = np.lexsort((rows, -scores))[:k]
    return [(int(rows[j]), float(scores[j])) for j in order]


def _kth(values: npt.NDArray[np.floating[Any]], k: int) -> float:
    """The k-th largest of ``values`` (0 when there are fewer than k)."""
    if len(values) < k:
        return 0.0
    return float(np.partition(values, len(values) - k)[len(values) - k])


def _grow(array: npt.NDArray[_T], capacity: int) -> npt.NDArray[_T]:
    grown: npt.NDArray[_T] = np.zeros(capacity, array.dtype)
    grown[: len(array)] = array
    return grown


#: Documents aggregated at a time while building: bounds the build's scratch memory
#: (a chunk's (term, document) keys), whatever the namespace's size.
BUILD_CHUNK = 65_536


def _postings_of(docs: Sequence[Doc], vocab: dict[str, int]) -> tuple[Rows, Rows, Floats, Floats]:
    """(term id, row, weighted frequency) of every (term, document) pair, sorted by term
    then row, and each document's token count; ``vocab`` gains the terms' ids.

    Tokens are turned into ids in Python (one dictionary lookup each) and everything
    else is numpy, a chunk of documents at a time, so 1M memories cost little beyond
    tokenizing them and never more than one chunk's scratch arrays."""
    n = len(docs)
    lengths = np.zeros(n, np.float32)
    parts: list[tuple[Rows, Rows, Floats]] = []
    for lo in range(0, n, BUILD_CHUNK):
        chunk = docs[lo : lo + BUILD_CHUNK]
        size = len(chunk)
        keys: list[npt.NDArray[np.int64]] = []
        weights: list[Floats] = []
        for c, weight in enumerate(WEIGHTS):
            ids, counts = term_ids([d.columns[c] or "" for d in chunk], vocab)
            if not len(ids):
                continue
            lengths[lo : lo + size] += counts
            keys.append(ids * size + np.repeat(np.arange(size, dtype=np.int64), counts))
            weights.append(np.full(len(ids), weight, np.float32))
        if not keys:
            continue
        key = np.concatenate(keys)
        order = np.argsort(key, kind="stable")
        key = key[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        f = np.add.reduceat(np.concatenate(weights)[order], starts).astype(np.float32)
        unique = key[starts]
        parts.append(((unique // size).astype(np.int32), (unique % size + lo).astype(np.int32), f))
    if not parts:
        return _EMPTY_ROWS, _EMPTY_ROWS, _EMPTY_TF, lengths
    tids = np.concatenate([p[0] for p in parts])
    # Stable: within a term, chunks (and rows inside each) keep ascending order.
    order = np.argsort(tids, kind="stable")
    rows = np.concatenate([p[1] for p in parts])[order]
    f = np.concatenate([p[2] for p in parts])[order]
    return tids[order], rows, f, lengths


def _doc_terms(docs: Sequence[Doc]) -> tuple[list[dict[str, float]], list[int]]:
    """Per document: the weighted frequency of each term and the token count."""
    columns = [terms_many([d.columns[c] or "" for d in docs]) for c in range(len(WEIGHTS))]
    per_doc: list[dict[str, float]] = []
    lengths: list[int] = []
    for i in range(len(docs)):
        content = columns[0][i]
        counts: dict[str, float] = dict(Counter(content))
        length = len(content)
        for c in range(1, len(WEIGHTS)):
            tokens = columns[c][i]
            if not tokens:
                continue
            length += len(tokens)
            for term, n in Counter(tokens).items():
                counts[term] = counts.get(term, 0.0) + WEIGHTS[c] * n
        per_doc.append(counts)
        lengths.append(length)
    return per_doc, lengths
