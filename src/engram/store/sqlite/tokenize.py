"""FTS5's ``porter unicode61 remove_diacritics 2`` tokenizer, outside FTS5.

The term index (``term_index``) ranks a large namespace's memories outside FTS5 with
BM25 as FTS5 computes it, so it has to cut text into the terms FTS5 does:

- ASCII text (nearly all of it) is cut here: runs of letters and digits, lower-cased,
  then M. F. Porter's 1980 suffix-stripping algorithm as FTS5's porter tokenizer runs
  it (the reference C implementation's rules, with its "bli" -> "ble" and "logi" ->
  "log", and FTS5's length guards); tokens under 3 or over 64 bytes pass unstemmed;
- any other text is cut by FTS5 itself, in a private in-memory table: unicode61 folds
  case and diacritics and separates words by Unicode 6.1's tables, which Python's
  newer Unicode data cannot reproduce (an emoji newer than 6.1 is a token there, a
  final sigma folds to "σ"), so asking SQLite is the only exact way.

Agreement with FTS5 is checked token by token on real text by the tests
(``tests/test_term_index.py``). Stems are cached: a corpus repeats its words.
"""

from __future__ import annotations

import itertools
import re
import sqlite3
import threading
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

_ASCII_WORD = re.compile(r"[a-z0-9]+")
#: FTS5 passes tokens shorter than this through unstemmed (FTS5_PORTER_MIN_TOKEN).
MIN_STEM = 3
#: ... and tokens longer than this (FTS5_PORTER_MAX_TOKEN, in bytes).
MAX_STEM = 64
TOKENIZE = "porter unicode61 remove_diacritics 2"
#: Marks a stem FTS5 made, in ``term_ids``' word list (no ASCII word holds it).
_MADE = "\x00"


def terms(text: str) -> list[str]:
    """The terms FTS5 would index for ``text``, in order, repeats kept."""
    return terms_many([text])[0]


def terms_many(texts: Sequence[str]) -> list[list[str]]:
    """``terms`` of each text; the non-ASCII ones go to FTS5 in one batch."""
    out: list[list[str]] = []
    other: list[int] = []
    stems = _STEMS
    for i, text in enumerate(texts):
        if not text:
            out.append([])
        elif text.isascii():
            words = _ASCII_WORD.findall(text.lower())
            try:
                out.append(list(map(stems.__getitem__, words)))
            except KeyError:
                out.append([stems[w] if w in stems else _stem(w) for w in words])
        else:
            out.append([])
            other.append(i)
    if other:
        for i, found in zip(other, _by_fts5([texts[i] for i in other]), strict=True):
            out[i] = found
    return out


def term_ids(
    texts: Sequence[str], vocab: dict[str, int]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every term of every text as its id in ``vocab`` (new terms get the next ids),
    flattened in text order, and how many terms each text has.

    The bulk path of ``terms_many`` for building an index: words are found, mapped and
    counted by C-level loops, and each distinct word is stemmed once."""
    lowered = [t.lower() if t.isascii() else "" for t in texts]
    per_text: list[list[str]] = list(map(_ASCII_WORD.findall, lowered))
    other = [i for i, t in enumerate(texts) if t and not lowered[i]]
    stem_of: dict[str, str] = {}
    if other:
        for i, found in zip(other, _by_fts5([texts[i] for i in other]), strict=True):
            # Stems already (FTS5 made them), marked so that none is taken for a word
            # of the same spelling ("meaning" is the stem of "meaningful", and a word
            # that stems to "mean").
            per_text[i] = [_MADE + stem for stem in found]
            stem_of.update((_MADE + stem, stem) for stem in found)
    counts = np.fromiter(map(len, per_text), np.int64, len(per_text))
    flat = list(itertools.chain.from_iterable(per_text))
    for word in set(flat).difference(stem_of):
        stem_of[word] = _STEMS[word] if word in _STEMS else _stem(word)
    for stem in set(stem_of.values()):
        vocab.setdefault(stem, len(vocab))
    word_id = {w: vocab[s] for w, s in stem_of.items()}
    return np.fromiter(map(word_id.__getitem__, flat), np.int64, len(flat)), counts


#: ASCII word -> its stem; a corpus repeats its words, so each is stemmed once. Bounded
#: by ``_STEM_CACHE`` entries (cleared when full: the next words refill it).
_STEMS: dict[str, str] = {}
_STEM_CACHE = 500_000


def _stem(word: str) -> str:
    stem = word if len(word) < MIN_STEM or len(word) > MAX_STEM else porter(word)
    if len(_STEMS) >= _STEM_CACHE:
        _STEMS.clear()
    _STEMS[word] = stem
    return stem


_local = threading.local()


def _by_fts5(texts: Sequence[str]) -> list[list[str]]:
    """Terms of each text as SQLite's own tokenizer makes them (one connection per
    thread: a private in-memory FTS5 table, emptied after each batch)."""
    conn: sqlite3.Connection | None = getattr(_local, "conn", None)
    if conn is None:
        conn = sqlite3.connect(":memory:")
        conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(c, tokenize='{TOKENIZE}')")
        conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
        _local.conn = conn
    found: list[list[tuple[int, str]]] = [[] for _ in texts]
    with conn:
        conn.executemany("INSERT INTO t(rowid, c) VALUES (?, ?)", enumerate(texts))
        for term, doc, offset in conn.execute("SELECT term, doc, offset FROM v"):
            found[doc].append((offset, term))
        conn.execute("DELETE FROM t")
    return [[term for _, term in sorted(row)] for row in found]


def porter(word: str) -> str:
    """Porter's stem of a lower-case ``word`` (the reference C implementation's rules)."""
    return _Stemmer(word).stem()


_STEP2 = {
    "a": (("ational", "ate"), ("tional", "tion")),
    "c": (("enci", "ence"), ("anci", "ance")),
    "e": (("izer", "ize"),),
    "g": (("logi", "log"),),
    "l": (("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous")),
    "o": (("ization", "ize"), ("ation", "ate"), ("ator", "ate")),
    "s": (("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous")),
    "t": (("aliti", "al"), ("iviti", "ive"), ("biliti", "ble")),
}
_STEP3 = {
    "e": (("icate", "ic"), ("ative", ""), ("alize", "al")),
    "i": (("iciti", "ic"),),
    "l": (("ical", "ic"), ("ful", "")),
    "s": (("ness", ""),),
}
_STEP4 = {
    "a": ("al",),
    "c": ("ance", "ence"),
    "e": ("er",),
    "i": ("ic",),
    "l": ("able", "ible"),
    "n": ("ant", "ement", "ment", "ent"),
    "o": ("ion", "ou"),
    "s": ("ism",),
    "t": ("ate", "iti"),
    "u": ("ous",),
    "v": ("ive",),
    "z": ("ize",),
}


class _Stemmer:
    """One word being stemmed: ``b`` holds it, ``k`` is its current last index and
    ``j`` the end of the stem before a matched suffix (Porter's own names)."""

    __slots__ = ("b", "j", "k")

    def __init__(self, word: str) -> None:
        self.b = list(word)
        self.k = len(word) - 1
        self.j = 0

    def stem(self) -> str:
        self._step1ab()
        if self.k > 0:
            self._step1c()
            self._step2()
            self._step3()
            self._step4()
            self._step5()
        return "".join(self.b[: self.k + 1])

    # -- conditions -------------------------------------------------------------------
    def _cons(self, i: int) -> bool:
        ch = self.b[i]
        if ch in "aeiou":
            return False
        if ch == "y":
            return i == 0 or not self._cons(i - 1)
        return True

    def _past(self, i: int, consonant: bool) -> int:
        """The first index from ``i`` up to ``j`` whose letter is not of the kind named
        (a consonant or a vowel), or -1 when the run reaches past ``j``."""
        while i <= self.j:
            if self._cons(i) != consonant:
                return i
            i += 1
        return -1

    def _m(self) -> int:
        """The measure of b[0..j]: how many vowel-consonant sequences it holds."""
        n = 0
        i = self._past(0, True)  # the first vowel, past any leading consonants
        while i >= 0:
            i = self._past(i + 1, False)  # a vowel run ends at a consonant: one more VC
            if i < 0:
                return n
            n += 1
            i = self._past(i + 1, True)
        return n

    def _vowel_in_stem(self) -> bool:
        return any(not self._cons(i) for i in range(self.j + 1))

    def _double_c(self, j: int) -> bool:
        return j >= 1 and self.b[j] == self.b[j - 1] and self._cons(j)

    def _cvc(self, i: int) -> bool:
        if i < 2 or not self._cons(i) or self._cons(i - 1) or not self._cons(i - 2):
            return False
        return self.b[i] not in "wxy"

    def _ends(self, suffix: str) -> bool:
        n = len(suffix)
        if n > self.k + 1 or "".join(self.b[self.k - n + 1 : self.k + 1]) != suffix:
            return False
        self.j = self.k - n
        return True

    def _set_to(self, text: str) -> None:
        self.b[self.j + 1 : self.k + 1] = list(text)
        self.k = self.j + len(text)

    def _r(self, text: str) -> None:
        if self._m() > 0:
            self._set_to(text)

    # -- steps ----------------------------------------------------------------------
    def _step1ab(self) -> None:
        # FTS5's step 1a and 1b keep a non-empty stem before "sses", "ies", "eed" and
        # "at"/"bl"/"iz" (its length checks), where the C reference allows an empty one.
        b, n = self.b, self.k + 1
        if b[self.k] == "s":
            if n > 1 and b[self.k - 1] == "e":
                if (n > 4 and b[self.k - 3] == "s" and b[self.k - 2] == "s") or (
                    n > 3 and b[self.k - 2] == "i"
                ):
                    self.k -= 2
                else:
                    self.k -= 1
            elif n > 1 and b[self.k - 1] != "s":
                self.k -= 1
        n = self.k + 1
        stripped = False
        if n > 3 and self._ends("eed"):
            if self._m() > 0:
                self.k -= 1
        elif ((n > 2 and self._ends("ed")) or (n > 3 and self._ends("ing"))) and (
            self._vowel_in_stem()
        ):
            self.k = self.j
            stripped = True
        if not stripped:
            return
        if self.k + 1 > 2 and (self._ends("at") or self._ends("bl") or self._ends("iz")):
            self._set_to(b[self.j + 1] + b[self.k] + "e")  # at -> ate, bl -> ble, iz -> ize
        elif b[self.k] not in "aeioulsz" and self.k >= 1 and b[self.k] == b[self.k - 1]:
            self.k -= 1
        else:
            self.j = self.k
            if self._m() == 1 and self._cvc(self.k):
                self._set_to("e")

    def _step1c(self) -> None:
        if self._ends("y") and self._vowel_in_stem():
            self.b[self.k] = "i"

    def _step2(self) -> None:
        for suffix, replacement in _STEP2.get(self.b[self.k - 1], ()):
            if self._ends(suffix):
                self._r(replacement)
                return

    def _step3(self) -> None:
        for suffix, replacement in _STEP3.get(self.b[self.k], ()):
            if self._ends(suffix):
                self._r(replacement)
                return

    def _step4(self) -> None:
        for suffix in _STEP4.get(self.b[self.k - 1], ()):
            if self._ends(suffix):
                if suffix == "ion" and not (self.j >= 0 and self.b[self.j] in "st"):
                    continue
                break
        else:
            return
        if self._m() > 1:
            self.k = self.j

    def _step5(self) -> None:
        self.j = self.k
        if self.b[self.k] == "e":
            a = self._m()
            if a > 1 or (a == 1 and not self._cvc(self.k - 1)):
                self.k -= 1
        if self.b[self.k] == "l" and self._double_c(self.k) and self._m() > 1:
            self.k -= 1
