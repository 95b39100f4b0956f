"""The word-overlap heuristic of novelty assessment (FEATURES H6), used when no
embedder is configured or it fails.

Seed 000 names its known gap: a plain word-overlap score "could return misleading
novelty scores when the research context and new results share domain vocabulary but
differ in substance". This one narrows that gap three ways, each checked by
tests/test_novelty.py:

- **Features, not just words.** A text's features are its content words (lower-cased,
  stop words out, a plural ``s`` off), the bigrams of consecutive content words, and
  its numbers. "cost fell 40%" and "cost rose 15%" share the word "cost" but not the
  bigram "cost fell" or the number 40: the substance is in the combinations.
- **Negation counts.** "no", "not", "never" ... are kept (the shared stop-word list
  drops them), so "X is not effective" is not a duplicate of "X is effective".
- **Domain vocabulary weighs less.** Each feature is weighted by its inverse document
  frequency over the texts at hand (what is known plus the results), so words that
  every text shares ("LLM", "inference") count for little and the rest decide.

A result's novelty is the weighted share of its features that nothing known contains:
0 for a duplicate (or one that only repeats what is known), 1 for a text that shares
nothing. It stays a heuristic: a true paraphrase (other words, same meaning) reads as
novel. The embedding path (``engram.review.novelty``) is the one to trust.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engram.text import STOPWORDS, plural_stem

#: Kept as features although the shared stop-word list drops them: they flip meaning.
_NEGATION_WORDS = (
    "no not nor never cannot can't don't doesn't didn't isn't aren't wasn't weren't won't "
    "wouldn't shouldn't couldn't hasn't haven't hadn't without"
)
NEGATIONS = frozenset(_NEGATION_WORDS.split())
_STOP = STOPWORDS - NEGATIONS
#: Numbers (with a decimal part, a percent sign or a unit glued on) are substance.
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*%?|[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE)
#: A number weighs this many times its inverse document frequency.
NUMBER_WEIGHT = 2.0


def features(text: str) -> set[str]:
    """Content words, bigrams of consecutive content words (``a b``) and numbers
    (``#40%``) of ``text``."""
    words: list[str] = []
    out: set[str] = set()
    for token in _TOKEN.findall(text.lower()):
        if token[0].isdigit():
            number = "#" + token.replace(",", "")
            out.add(number)
            words.append(number)
            continue
        if token in _STOP or len(token) < 2:
            continue
        words.append(plural_stem(token))
    out.update(w for w in words if not w.startswith("#"))
    out.update(f"{a} {b}" for a, b in zip(words, words[1:], strict=False))
    return out


@dataclass(frozen=True, slots=True)
class Overlap:
    """How much of a result the known texts already contain."""

    novelty: float
    closest: int | None
    """Index of the known text that contains most of the result, or None."""
    similarity: float
    """That text's weighted containment of the result, in [0, 1]."""


def assess(results: Sequence[str], known: Sequence[str]) -> list[Overlap]:
    """Novelty of each result against ``known`` and the results before it (a repeated
    result adds nothing the first did not)."""
    result_features = [features(t) for t in results]
    known_features = [features(t) for t in known]
    documents = known_features + result_features
    df = Counter(f for doc in documents for f in doc)
    n = len(documents)

    def weight(feature: str) -> float:
        idf = math.log(1.0 + n / df[feature])
        return idf * NUMBER_WEIGHT if feature.startswith("#") else idf

    out: list[Overlap] = []
    seen: set[str] = set().union(*known_features) if known_features else set()
    for index, mine in enumerate(result_features):
        total = sum(weight(f) for f in mine)
        if total == 0:  # nothing to say: adds nothing
            out.append(Overlap(0.0, None, 0.0))
            continue
        covered = sum(weight(f) for f in mine & seen)
        novelty = max(0.0, min(1.0, 1.0 - covered / total))
        best, best_share = None, 0.0
        for k, theirs in enumerate(known_features + result_features[:index]):
            share = sum(weight(f) for f in mine & theirs) / total
            if share > best_share:
                best, best_share = k, share
        out.append(Overlap(round(novelty, 4), best, round(best_share, 4)))
        seen |= mine
    return out
