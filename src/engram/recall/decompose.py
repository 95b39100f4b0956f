"""issue 24: a question that joins two things is also asked as two sub-questions.

"What do Jon and Gina both have in common?" needs a turn about Jon and a turn about
Gina, usually from different sessions; "What did Maria do after the charity run and
before the road trip?" needs both events. One ranking of the whole question tends to
fill its head with whichever half matches best. With ``recall.decompose`` on, such a
question is split (rules, no model), each part is ranked on its own, and the three
rankings (the whole question first) are interleaved: the first hit of each, then the
second of each, and so on, each memory once.

A question is split when it:

- joins two capitalised names with "and" ("Jon and Gina"): one part per name, with
  "both" left out ("What do Jon have in common?" is clumsy text but a good query);
- or says "both", "compare", "before" or "after": it is cut at its first connective
  ("and", "before", "after", "compared to/with", "versus"), and each side that keeps at
  least ``MIN_PART_KEYWORDS`` keywords is a part.

Fewer than two parts: the question is not split.

Apart from ``recall.decompose``, a question about what lies between two things ("How
many days are there between the writing session I missed and the submission deadline?")
is split with ``recall.between_parts`` (on; issue 24, C2): the two things after
"between", cut at its "and", each of at least ``MIN_PART_KEYWORDS`` keywords. Each is
one event the answer needs, said in its own session, and one ranking of the whole
question finds the nearer first and the other past the first ten. A span between two
times ("between August 11 and August 15 2023": every keyword a month, a weekday, a
number ...) is a period, which the time leg reads (``temporal``), not two things: not
split.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.recall.temporal import MONTHS
from engram.records import Hit
from engram.text import keywords

#: A part needs this many keywords to be worth its own ranking.
MIN_PART_KEYWORDS = 2

_NAME_PAIR = re.compile(r"\b([A-Z][\w\-]*)\s+and\s+([A-Z][\w\-]*)\b")
_JOINS = re.compile(r"\b(?:both|compare[sd]?|comparing|before|after)\b", re.IGNORECASE)
_CONNECTIVE = re.compile(
    r"\s+(?:and|before|after|compared\s+(?:to|with)|versus|vs\.?)\s+", re.IGNORECASE
)
_BOTH = re.compile(r"\bboth\s+", re.IGNORECASE)


def subqueries(query: str) -> list[str]:
    """The parts ``query`` is asked as besides itself (see the module docstring);
    empty when it is not split."""
    pair = _NAME_PAIR.search(query)
    if pair is not None and pair.group(1) != pair.group(2):
        whole = _BOTH.sub("", query)
        return [whole.replace(pair.group(0), name) for name in pair.groups()]
    if _JOINS.search(query) is None:
        return []
    sides = [s.strip() for s in _CONNECTIVE.split(query, maxsplit=1)]
    parts = [s for s in sides if len(keywords(s)) >= MIN_PART_KEYWORDS]
    return parts if len(parts) == 2 else []


_BETWEEN = re.compile(r"\bbetween\s+(.+?)\s+and\s+(.+?)\s*[?.!]*\s*$", re.IGNORECASE | re.DOTALL)


#: Words that name a time, not a thing (with numbers: "August 11", "Monday morning").
_TIME_WORDS = frozenset(MONTHS) | frozenset(
    "monday tuesday wednesday thursday friday saturday sunday today yesterday tomorrow "  # noqa: SIM905
    "morning afternoon evening night noon midnight week weekend month year day".split()
)


def _a_time(side: str) -> bool:
    """``side`` names only a time ("August 15 2023", "Monday morning"), no thing ("the
    quiz I took on April 5" is a thing)."""
    return all(w in _TIME_WORDS or w[:1].isdigit() for w in keywords(side))


def between(query: str) -> list[str]:
    """The two things ``query`` asks what lies between ("the writing session I missed",
    "the submission deadline"); empty when it asks no such thing."""
    found = _BETWEEN.search(query)
    if found is None:
        return []
    parts = [p.strip() for p in found.groups()]
    if any(len(keywords(p)) < MIN_PART_KEYWORDS or _a_time(p) for p in parts):
        return []
    return parts


def interleave(rankings: Sequence[Sequence[Hit]]) -> list[Hit]:
    """The rankings taken in turns (the first hit of each, then the second...), each
    memory once, at its first place."""
    seen: set[str] = set()
    out: list[Hit] = []
    longest = max((len(r) for r in rankings), default=0)
    for at in range(longest):
        for ranking in rankings:
            if at < len(ranking) and ranking[at].memory.id not in seen:
                seen.add(ranking[at].memory.id)
                out.append(ranking[at])
    return out
