"""A later statement of the same thing, told as a change, answers before the earlier one
(the brief: "a changed fact rarely closes the old one"; FEATURES G2).

The graph closes an old fact only when the change reader parses the change, and then
``current.demoted`` ranks the old statement down. Often it does not parse it: "Actually
they raised it, it's 52 pounds from this year." says which slot only through "it"; "These
days I catch the 8:10 instead." names no train; an assistant's "Updated: padlock code
9012." is a reply. Both statements then reach the head of the ranking with the old one
first, since it holds more of the question's words: of 8 changes told inside a mined
chat, the new value came first in 2 (the lead's check, session thirty-two).

So, asked about now (``current.asks_now``), a hit of the head stored after another one
goes above it when it says a change (``CHANGE``: "now", "changed", "switched", "instead",
"raised", "updated", "from now on" ...), is about as related to the question (its dense
cosine at most ``MARGIN`` below the other's) and shares a content word with it (the same
slot, not just the same question). It is given a score just above the other's, so every
later merge by score (``shared.merge``) keeps the order; ``breakdown.final`` stays the
pipeline's, as a reranker's blend leaves it.

Only the order within the first ``HEAD`` hits changes: which hits are returned, and any
recall@k for k >= ``HEAD``, never do (LoCoMo dev: R@5 and R@10 identical, session R@1
0.7104 -> 0.7095, turn R@1 0.3182 -> 0.3189). ``recall.stale_fact_factor`` 1.0 turns this
off with the demotion.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from engram.config import RecallConfig
from engram.recall.abstain import stem
from engram.recall.current import asks_now, asks_time
from engram.records import Hit
from engram.text import keywords

#: How many of the first hits may be reordered: the context's four lines and one.
HEAD = 5
#: How far below the earlier hit's dense cosine the later one may be and still be about
#: the question as much (chosen on the lead's change checks; LoCoMo dev unchanged).
MARGIN = 0.15
#: A statement that says something changed.
CHANGE = re.compile(
    r"\b(?:now|nowadays|these\s+days|from\s+now\s+on|any\s*more|no\s+longer|instead|"
    r"chang(?:ed|es)|switched|swapped|moved|relocated|migrated|replaced|updated|rebuilt|"
    r"raised|lowered|bumped|went\s+(?:up|down)|dropped|cancell?ed|new)\b",
    re.IGNORECASE,
)
#: Words of a reply or a change that name no slot: two statements that share only
#: "noted" or "updated" are not about one thing.
_NO_SLOT = frozenset({"noted", "updated", "update", "saved", "actually", "new", "okay", "ok"})


#: A word of a sentence, possessive dropped: "Rosa's" gives "Rosa".
_NAME = re.compile(r"[A-Za-z][A-Za-z-]*")


def _terms(text: str) -> list[str]:
    """``text``'s keywords (recall's own: "Lena's" gives "lena") that may name a slot."""
    return [t for t in keywords(text, limit=64) if t not in _NO_SLOT and len(t) > 1]


def _one(a: str, b: str) -> bool:
    """Whether two stems are one word ("swimm" of "swimming", "swim" of "swims")."""
    return a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a)))


def _restates(later: Hit, earlier: Hit, timed: bool) -> bool:
    """Whether ``later`` tells a change of what ``earlier`` says, of what a query asks:
    with ``timed`` False (it asks no time), a change of a time only does not count."""
    if later.memory.created_at <= earlier.memory.created_at:
        return False
    new, old = later.breakdown.sim, earlier.breakdown.sim
    if new is None or old is None or new < old - MARGIN:
        return False
    text = later.memory.content
    if CHANGE.search(text) is None:
        return False
    before = {stem(t) for t in _terms(earlier.memory.content)}
    terms = [t for t in _terms(text) if CHANGE.fullmatch(t) is None]
    added = [t for t in terms if not any(_one(stem(t), b) for b in before)]
    if len(added) == len(terms):  # no word in common: another thing
        return False
    values = _values(text, added)
    moved_time = any(asks_time(t) for t in values)
    if timed:
        # "What time is the team dinner?": "the team dinner is at Rosa's Kitchen" moved
        # the venue, not the time (new-user week C), so a change without a time does
        # not answer it.
        return moved_time or not values
    # "Which dentist am I seeing?": "the dentist is now on Thursday the 17th" moved a
    # time, not the dentist (new-user weeks A and B); "Mia's ballet class got moved to
    # Thursdays" a day, not Rivergate (weeks C to F): as ``current.untimed`` leaves it.
    return not added or not all(asks_time(t) for t in (values or added))


def _values(text: str, added: Sequence[str]) -> list[str]:
    """The words of ``added`` that say a value: a number, a time, or a name (capitalised
    inside a sentence), not a common noun that only says the thing again ("class",
    "lessons", "training")."""
    named = {
        stem(w.lower())
        for part in re.split(r"[.!?:;\n]+", text)
        for w in _NAME.findall(part)[1:]
        if w[0].isupper()
    }
    return [
        t
        for t in added
        if asks_time(t) or any(c.isdigit() for c in t) or any(_one(stem(t), n) for n in named)
    ]


def ordered(query: str, hits: Sequence[Hit], cfg: RecallConfig) -> list[Hit]:
    """``hits`` with each later change-telling statement of the head moved just above the
    first earlier hit it restates, when ``query`` asks about now."""
    out = list(hits)
    if cfg.stale_fact_factor >= 1.0 or len(out) < 2 or not asks_now(query):
        return out
    head, timed = min(HEAD, len(out)), asks_time(query)
    for j in range(1, head):
        hit = out[j]
        above = next((i for i in range(j) if _restates(hit, out[i], timed)), None)
        if above is None:
            continue
        # Just above the hit it restates: a score between it and the one before it.
        ceiling = out[above - 1].score if above > 0 else out[above].score + 1e-6
        score = (out[above].score + ceiling) / 2 if above > 0 else ceiling
        out.insert(above, replace(out.pop(j), score=score))
    return out
