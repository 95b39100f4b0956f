"""Text handling shared by the write and read paths.

- content normalisation and the SHA-256 dedup key (seed 004, ``normalizeAndHashContent``);
- keyword extraction and FTS5 query building (seed 000: non-stopword terms, up to 8,
  deduped, OR-joined);
- a cheap token estimate for budget packing;
- sentences, split as the extraction rules and recall's chat echoes both read them.
"""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from dataclasses import dataclass

_WHITESPACE = re.compile(r"\s+")
# seed 004: normalizedContent strips trailing punctuation [.,!?;:]+$
_TRAILING_PUNCT = re.compile(r"[.,!?;:]+$")
# Word characters, keeping inner apostrophes and hyphens out: FTS5's unicode61 tokenizer
# splits on them too, so a query term never spans what the index splits.
_WORD = re.compile(r"\w+", re.UNICODE)

#: seed 000: "up to 8 terms"
MAX_KEYWORDS = 8

STOPWORDS: frozenset[str] = frozenset(
    """
    a about above after again against all am an and any are aren't as at be because been
    before being below between both but by can cannot could couldn did didn do does doesn
    doing don down during each few for from further had hadn has hasn have haven having he
    her here hers herself him himself his how i if in into is isn it its itself just let ll
    me more most mustn my myself no nor not now of off on once only or other ought our ours
    ourselves out over own re s same shan she should shouldn so some such t than that the
    their theirs them themselves then there these they this those through to too under until
    up ve very was wasn we were weren what when where which while who whom why will with
    won would wouldn you your yours yourself yourselves d m o y ain also get got like would
    tell please know think want need could does did say said thing things really much many
    """.split()  # noqa: SIM905 - a word list reads better as prose
)


@dataclass(frozen=True, slots=True)
class NormalizedContent:
    """The three derived values of seed 004's normalisation."""

    storage: str
    """Trimmed, whitespace collapsed, original casing (seed 004's ``storageContent``); engram
    stores the caller's text as given and uses this only to derive the two below."""
    normalized: str
    """Lower-cased storage text without trailing punctuation."""
    content_hash: str
    """64-char hex SHA-256 of ``normalized`` (or of lower-cased storage if that is empty)."""


def normalize_content(text: str) -> NormalizedContent:
    """Apply seed 004's ``normalizeAndHashContent``: collapse, lower, strip, hash."""
    # What _WHITESPACE.sub(" ", text).strip() and _TRAILING_PUNCT.sub("", ...) give, in
    # string methods (several times faster): ``split`` and ``strip`` take the same
    # characters for whitespace as ``\s``, and ``storage`` holds no line break, so the
    # pattern's ``$`` is the end of the text.
    storage = " ".join(text.split())
    normalized = _fold(storage)
    basis = normalized if normalized else storage.lower()
    digest = hashlib.sha256(basis.encode("utf-8")).hexdigest()
    return NormalizedContent(storage=storage, normalized=normalized, content_hash=digest)


def _fold(storage: str) -> str:
    """Seed 004's lower-cased form of collapsed text, without trailing punctuation."""
    return storage.lower().rstrip(".,!?;:")


def normalized_text(text: str) -> str:
    """``normalize_content(text).normalized`` without the hash: the form the store
    keeps in its ``normalized`` column (what recall measures a memory by)."""
    return _fold(" ".join(text.split()))


def keywords(text: str, limit: int = MAX_KEYWORDS) -> list[str]:
    """Non-stopword terms of ``text`` in first-seen order, deduped, at most ``limit``.

    Terms are NFKC-folded and lower-cased; single characters are dropped unless they
    are digits (a year or a version number is a useful keyword).
    """
    folded = unicodedata.normalize("NFKC", text).lower()
    seen: dict[str, None] = {}
    for match in _WORD.finditer(folded):
        term = match.group(0).strip("_")
        if not term or term in STOPWORDS:
            continue
        if len(term) == 1 and not term.isdigit():
            continue
        if term not in seen:
            seen[term] = None
            if len(seen) >= limit:
                break
    return list(seen)


def plural_stem(word: str) -> str:
    """A word with a plural's "s" off ("costs" -> "cost", "lessons" -> "lesson"; "class"
    and short words kept), nothing cleverer: the little stemming review's overlap and a
    write batch's own memories are matched with (both backends' keyword indexes stem
    more). A possessive is not stripped: :func:`keywords` splits at the apostrophe, and
    review's tokens keep "'s" whole, as they always did."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def fts_query(text: str, limit: int = MAX_KEYWORDS) -> str | None:
    """An FTS5 MATCH expression for ``text``, or ``None`` when it has no keywords.

    Every term is emitted as a double-quoted FTS5 string, so operators in user text
    (``NEAR``, ``AND``, ``*``, ``-``, parentheses, stray quotes) are plain words, never
    syntax. Terms come from :func:`keywords`, which keeps only word characters; quotes
    are doubled anyway so the builder stays safe if that ever changes.
    """
    terms = keywords(text, limit)
    if not terms:
        return None
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


_QUOTED = re.compile(r'"((?:[^"]|"")*)"')


def match_terms(match: str) -> list[str]:
    """The keywords of a match expression.

    ``engram.text.fts_query`` writes ``"term" OR "term"``; that form is read back
    exactly (doubled quotes undone). Anything else is treated as plain text and goes
    through ``engram.text.keywords``, so user text never reaches tsquery syntax.
    """
    quoted = _QUOTED.findall(match)
    rest = _QUOTED.sub(" ", match).split()
    if quoted and all(word == "OR" for word in rest):
        return [q.replace('""', '"') for q in quoted if q.strip()]
    return keywords(match)


def estimate_tokens(text: str) -> int:
    """A model-agnostic token estimate: about four characters per token."""
    return max(1, math.ceil(len(text) / 4))


#: Abbreviations whose period does not end a sentence ("Dr.", "e.g.").
ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "st",
        "jr",
        "sr",
        "prof",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "inc",
        "ltd",
        "co",
        "no",
        "approx",
        "dept",
        "est",
        "fig",
        "mt",
    ]
)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n+")
#: An acronym written with dots: single letters, each followed by one ("R.E.M.", "U.S.").
_DOTTED_ACRONYM = re.compile(r"(?:[A-Za-z]\.){2,}")


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text``: split after ``.``, ``!``, ``?`` and at line breaks, but
    not after an abbreviation ("Dr.", "e.g.") or inside a number ("3.5")."""
    pieces = [p for p in _SENTENCE_END.split(text) if p and p.strip()]
    sentences: list[str] = []
    for piece in pieces:
        piece = piece.strip()
        if sentences and _ends_in_abbreviation(sentences[-1], piece):
            sentences[-1] = f"{sentences[-1]} {piece}"
        else:
            sentences.append(piece)
    return sentences


def _ends_in_abbreviation(sentence: str, following: str) -> bool:
    """Whether ``sentence`` stops at an abbreviation, not at its end. A dotted acronym
    goes on when a lower-case word follows ("R.E.M. now", "the U.S. last year"); before
    a capital ("... the U.S. I loved it") it may end the sentence, so it does."""
    token = sentence.rsplit(None, 1)[-1]
    last = token.lower().rstrip(".")
    if not sentence.endswith("."):
        return False
    if last in ABBREVIATIONS or len(last) == 1:
        return True
    return _DOTTED_ACRONYM.fullmatch(token) is not None and following[:1].islower()
