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
0.7104 -> 0.7090, turn R@1 0.3182 -> 0.3189). A later change of another kind than asked
goes below the earlier statement that holds what is asked (``_sidesteps``).
``recall.stale_fact_factor`` 1.0 turns this off with the demotion.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from engram.config import RecallConfig
from engram.recall.abstain import stem
from engram.recall.current import asks_now, asks_place, asks_time
from engram.recall.echoes import ASSISTANT, role_of
from engram.records import Hit
from engram.text import keywords

#: How many of the first hits may be reordered: the context's four lines and one.
HEAD = 5
#: How far below the earlier hit's dense cosine the later one may be and still be about
#: the question as much (chosen on the lead's change checks; LoCoMo dev unchanged).
MARGIN = 0.15
#: A statement that says something changed ("instead of failing" says what a thing
#: does: the quickstart's "reports mode=keyword instead of failing" is no change).
CHANGE = re.compile(
    r"\b(?:now|nowadays|these\s+days|from\s+now\s+on|any\s*more|no\s+longer|"
    r"instead(?!\s+of\s+\w+ing\b)|"
    r"chang(?:ed|es)|switched|swapped|moved|relocated|migrated|replaced|updated|rebuilt|"
    r"raised|lowered|bumped|went\s+(?:up|down)|dropped|cancell?ed|new|"
    r"rescheduled|postponed|pushed|brought\s+forward|delayed)\b",
    re.IGNORECASE,
)
#: The kinds of value a question may ask (``_of_kind``); any other kind is "".
TIME, PLACE = "time", "place"
#: Words of a reply or a change that name no slot: two statements that share only
#: "noted" or "updated" are not about one thing.
_NO_SLOT = frozenset({"noted", "updated", "update", "saved", "actually", "new", "okay", "ok"})


#: A word of a sentence, possessive dropped: "Rosa's" gives "Rosa".
_NAME = re.compile(r"[A-Za-z][A-Za-z-]*")


@functools.lru_cache(maxsize=1024)
def _terms(text: str) -> tuple[tuple[str, str], ...]:
    """``text``'s keywords (recall's own: "Lena's" gives "lena") that may name a slot,
    each with its stem; cached, as every pair of the head reads each text again."""
    return tuple((t, stem(t)) for t in keywords(text, limit=64) if t not in _NO_SLOT and len(t) > 1)


def _one(a: str, b: str) -> bool:
    """Whether two stems are one word ("swimm" of "swimming", "swim" of "swims")."""
    return a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a)))


@functools.lru_cache(maxsize=1024)
def _stems(text: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """``text``'s slot stems, as a set and sorted (``_held``)."""
    held = frozenset(s for _, s in _terms(text))
    return held, tuple(sorted(held))


def _held(stem_: str, stems: tuple[frozenset[str], tuple[str, ...]]) -> bool:
    """``any(_one(stem_, s) for s in stems)``, by lookups: a prefix of ``stem_`` of four
    letters or more in the set, or the first sorted stem from ``stem_`` on starting with
    it, rather than every pair (each recall asked about now reads the head's pairs)."""
    held, ordered = stems
    if stem_ in held:
        return True
    if len(stem_) < 4:
        return False
    if any(stem_[:k] in held for k in range(4, len(stem_))):
        return True
    i = bisect.bisect_left(ordered, stem_)
    return i < len(ordered) and ordered[i].startswith(stem_)


def _added(text: str, other: str) -> tuple[list[str], bool]:
    """``text``'s slot words (change words left out) that ``other`` lacks, and whether the
    two share one (the same thing)."""
    before = _stems(other)
    terms = [(t, s) for t, s in _terms(text) if CHANGE.fullmatch(t) is None]
    added = [t for t, s in terms if not _held(s, before)]
    return added, len(added) < len(terms)


def _change(later: Hit, earlier: Hit) -> tuple[list[str], list[str]] | None:
    """The words ``later`` adds to ``earlier`` and the values among them (``_values``),
    when it was stored after it, says a change and shares a content word with it."""
    if later.memory.created_at <= earlier.memory.created_at:
        return None
    text = later.memory.content
    if CHANGE.search(text) is None:
        return None
    added, shared = _added(text, earlier.memory.content)
    return (added, _values(text, added)) if shared else None


def _of_kind(added: Sequence[str], values: Sequence[str], kind: str) -> bool:
    """Whether a change that adds ``added`` (``values`` among them) answers a query that
    asks a time, a place (``kind`` ``TIME``, ``PLACE``) or something else.

    "What time is the team dinner?": "the team dinner is at Rosa's Kitchen" moved the
    venue, not the time (new-user week C). "Which dentist am I seeing?": "the dentist is
    now on Thursday the 17th" moved a time, not the dentist (weeks A and B), and "Mia's
    ballet class got moved to Thursdays" a day, not Rivergate (weeks C to F), as
    ``current.untimed`` leaves a closed time. "Where is Noah's party?": "Updated: the
    party budget is 250 pounds." moved an amount, not the trampoline park (week C)."""
    if kind == TIME:
        # A number may be a date ("moved to the 3rd of next month"), and a value "may" is
        # the month: it is a value only when capitalised inside a sentence ("May 3"),
        # where ``asks_time`` leaves the verb out.
        return not values or any(asks_time(t) or _number(t) or t == "may" for t in values)
    if kind == PLACE and values and all(_number(t) for t in values):
        return False
    return not added or not all(asks_time(t) for t in (values or added))


def _number(word: str) -> bool:
    return any(c.isdigit() for c in word)


def _close(a: Hit, b: Hit) -> bool:
    """Whether ``a`` is about as related to the query as ``b`` (dense cosines)."""
    sa, sb = a.breakdown.sim, b.breakdown.sim
    return sa is not None and sb is not None and sa >= sb - MARGIN


def _names_slot(later: Hit, earlier: Hit, asked: frozenset[str]) -> bool:
    """Whether two turns of a chat both name a slot the question asks ("budget" in "what's
    the kitchen budget?", "Budget is about 18k ..." and "Updated the budget to 21k"), the
    later one in lower case (a thing, not a name every turn of a transcript shares).

    A chat tells a change tersely, leaning on what was said before: its cosine to the
    question sits far below the first statement's, which holds the question's other
    words (the lead's mined-chat check, session thirty-four: 0.28 against 0.76), so the
    dense margin alone never lets it answer."""
    if role_of(later.memory) is None or role_of(earlier.memory) is None:
        return False
    # The same word in both ("club" is not "clubs", nor "book" "booked": "Updated: book
    # club is at The Lamb." is no change of "Mia's school clubs are booked at ...", week D).
    lower = {w for w in _slot_words(later.memory.content) if w.islower()}
    said = {w.lower() for w in _slot_words(earlier.memory.content)}
    return any(t in lower and t in said and s in asked for t, s in _terms(later.memory.content))


#: A link, or a number with the unit after it: words that say no slot ("pounds" in "350
#: pounds" is the value's, not the budget's: week F; "book" of ".../book" no book club's).
_NOT_SLOT = re.compile(r"\S*(?:://|www\.)\S*|\d\S*(?:\s+[A-Za-z]+)?")


@functools.lru_cache(maxsize=1024)
def _slot_words(text: str) -> tuple[str, ...]:
    """``text``'s words, links and numbers with their units left out."""
    return tuple(_NAME.findall(_NOT_SLOT.sub(" ", text)))


def _restates(later: Hit, earlier: Hit, kind: str, asked: frozenset[str]) -> bool:
    """Whether ``later`` tells a change of what ``earlier`` says, of the kind asked."""
    change = _change(later, earlier)
    return (
        change is not None
        and (_close(later, earlier) or _names_slot(later, earlier, asked))
        and _of_kind(*change, kind)
    )


def _sidesteps(later: Hit, earlier: Hit, kind: str) -> bool:
    """Whether ``later`` tells a change of another kind than asked while ``earlier`` holds
    a value of the kind asked that ``later`` lacks ("where is pottery class?" and
    "Pottery class moved to Thursdays" above "Pottery class: Wednesdays at 6pm at the Clay
    Barn": the lead's check, session thirty-three)."""
    change = _change(later, earlier)
    if change is None or not change[1] or _of_kind(*change, kind) or not _close(earlier, later):
        return False
    # What only the earlier says, a common noun among it: "in the boardroom".
    kept = _added(earlier.memory.content, later.memory.content)[0]
    return any(asks_time(t) == (kind == TIME) for t in kept)


def _values(text: str, added: Sequence[str]) -> list[str]:
    """The words of ``added`` that say a value: a number, a time, or a name (capitalised
    inside a sentence), not a common noun that only says the thing again ("class",
    "lessons", "training")."""
    named = _named(text)
    return [t for t in added if asks_time(t) or _number(t) or any(_one(stem(t), n) for n in named)]


@functools.lru_cache(maxsize=1024)
def _named(text: str) -> frozenset[str]:
    """The stems of ``text``'s words capitalised inside a sentence."""
    return frozenset(
        stem(w.lower())
        for part in re.split(r"[.!?:;\n]+", text)
        for w in _NAME.findall(part)[1:]
        if w[0].isupper()
    )


def ordered(query: str, hits: Sequence[Hit], cfg: RecallConfig) -> list[Hit]:
    """``hits`` with each later change-telling statement of the head moved just above the
    first earlier hit it restates, then each earlier hit just above a later change of
    another kind than asked (``_sidesteps``), when ``query`` asks about now."""
    out = list(hits)
    if cfg.stale_fact_factor >= 1.0 or len(out) < 2 or not asks_now(query):
        return out
    head, kind = _head(out), TIME if asks_time(query) else PLACE if asks_place(query) else ""
    asked = frozenset(s for _, s in _terms(query))
    _move(out, head, lambda hit, other: _restates(hit, other, kind, asked))
    _move(out, head, lambda hit, other: _sidesteps(other, hit, kind))
    return out


def _head(hits: Sequence[Hit]) -> int:
    """How many of the first hits may be reordered: ``HEAD``, not counting a chat
    assistant's replies among them ("Updated the start date to 21 January." after the
    user's "it's the 21st of January now"): a chat tells each thing twice, so five hits
    hold two or three statements (the lead's mined-chat check, session thirty-four). A
    transcript without roles (LoCoMo) keeps ``HEAD``."""
    told = 0
    for i, hit in enumerate(hits):
        told += role_of(hit.memory) != ASSISTANT
        if told == HEAD:
            return i + 1
    return len(hits)


def _move(out: list[Hit], head: int, above: Callable[[Hit, Hit], bool]) -> None:
    """Move each hit of the first ``head`` just above the first hit before it that
    ``above(hit, that one)`` says it belongs above, scored between it and its neighbour."""
    for j in range(1, head):
        hit = out[j]
        at = next((i for i in range(j) if above(hit, out[i])), None)
        if at is not None:
            moved, earlier = out.pop(j), out[at]
            # the first move names the statement it answers over (the floor reads it)
            restates = moved.breakdown.restates or earlier.id
            why = replace(moved.breakdown, restates=restates)
            out.insert(at, replace(moved, score=_between(out, at), breakdown=why))


def _between(hits: Sequence[Hit], at: int) -> float:
    """A score just above ``hits[at]``'s and below the one before it."""
    ceiling = hits[at - 1].score if at > 0 else hits[at].score + 1e-6
    return (hits[at].score + ceiling) / 2 if at > 0 else ceiling
