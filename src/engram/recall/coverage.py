"""Questions about a whole thread: a summary, the order of events, a running total.

"Give me a summary of how my budget app developed", "in what order did I bring up A, B
and C", "how many cards do I have in total so far" want the thread covered over time,
not the ten memories most similar to a generic question, which cluster in one session
(issue 24: BEAM's summarization, event_ordering and multi_session_reasoning gold spans
three of a chat's three to five batches). ``shape`` recognises such a question from a
few regular expressions of general English; ``spread`` then reorders the ranked head so
that each time bucket (a session, or a day when memories have no session) gives its best
hit in turn, round by round, instead of one bucket filling the head. Every other
question keeps the ordinary ranking (docs/recall.md, "Questions about a whole thread").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from functools import lru_cache

from engram.config import RecallConfig
from engram.recall import packing
from engram.recall.diversity import session_of
from engram.records import NOT_THE_USER, Hit, MemoryRecord

# Measured on BEAM dev (docs/benchmarks.md, "BEAM in two folds", T1), tuned on chats 1-5
# and checked on 6-10: a hit under half the best score waits until after the rounds
# (0 to 0.5 tie at a head of 50; 0.6 and 0.7 lose on chats 1-5), and for an order
# question the assistant's turns count half (1.0 loses 0.009 / 0.002 R@10).
FLOOR = 0.5
OTHERS = 0.5


class Shape(StrEnum):
    """What a thread question asks for."""

    SUMMARY = "summary"  # how something developed, what was covered
    ORDER = "order"  # the sequence in which things came up
    TOTAL = "total"  # a count or sum over every mention


# The cue words, from general English rather than any benchmark's wording, and why each
# means "the whole thread":
# - summary: "summarize/summarise", "a summary / an overview / a recap of", "sum up",
#   "catch me up (on)" ask to condense everything said (a bare noun is not a request:
#   "when do the written summaries go up?"); "how has/have/did X develop/progress/evolve/
#   change/grow/advance" asks for a trajectory, which needs its start and its end
#   ("improve" is left out: "how much did my score improve" compares two points).
_SUMMARY = re.compile(
    r"\bsummari[sz](?:e|es|ed|ing)\b|\b(?:summary|summaries|overview|recap) of\b"
    r"|\bsum(?:s|med)? up\b|\bcatch me up\b"
    r"|\bhow (?:has|have|had|did)\b[^?.!]{0,80}?"
    r"\b(?:develop|progress|evolv|chang|grow|grew|advanc)\w*",
    re.IGNORECASE,
)
# - order: "in what order", "the order in which", "in order" at the end of a request,
#   "in what sequence", "chronolog(ical/ically)", "timeline" name a sequence of events
#   (a bare "sequence" is often advice: "how should I sequence my updates"). A choice
#   between two things ("which came first") is a comparison, left to the ordinary
#   ranking (and ``recall.decompose``).
_ORDER = re.compile(
    r"\b(?:in (?:what|which) order|the order (?:in which|that|of)|order in which"
    r"|in (?:chronological )?order\b|in (?:what|which) sequence|the sequence (?:in which|of)"
    r"|chronolog\w*|timeline)",
    re.IGNORECASE,
)
# - total: "in total", "total", "altogether", "all together", "in all", "running total",
#   "add(s) up" ask for a sum of every instance; "how many/much" with a
#   span ("so far", "across/throughout/over ... conversations/sessions/chats") asks to
#   count every mention, wherever it was made ("combined" is left out: "the combined
#   impact" is one judgement, not a count).
_TOTAL = re.compile(
    r"\b(?:in total|total|altogether|all together|in all|add(?:s|ed)? up)\b",
    re.IGNORECASE,
)
_COUNT = re.compile(r"\bhow (?:many|much)\b", re.IGNORECASE)
# - a span over the whole thread: "so far", "over time", "across / throughout / over
#   (all) our/my conversations, sessions, chats, discussions, messages", "since we
#   started", "over the past (few) weeks/months".
_SPAN = re.compile(
    r"\b(?:so far|over time|since (?:we|i) (?:started|began)"
    r"|(?:across|throughout|over|in) (?:all |the course of )?(?:of )?(?:our|my|these|the) "
    r"(?:\w+ )?(?:conversations?|sessions?|chats?|discussions?|messages?|requests?|questions?)"
    r"|over the (?:past|last) (?:few |several |couple of )?(?:days|weeks|months|years))\b",
    re.IGNORECASE,
)


# Every cue above holds one of these (lower-cased): most questions hold none, and a few
# substring tests cost a fraction of the regular expressions (docs/benchmarks.md, T1).
_STEMS = (
    *("summar", "overview", "recap", "sum up", "sums up", "summed up", "catch me up"),
    *("how has", "how have", "how had", "how did", "how many", "how much"),
    *("order", "sequence", "chronolog", "timeline"),
    *("total", "altogether", "all together", "in all", "add up", "adds up", "added up"),
)


@lru_cache(maxsize=256)
def shape(query: str) -> Shape | None:
    """The thread shape ``query`` asks for, or None for an ordinary question. Order
    wins over summary (a timeline of events is asked as a sequence), summary over total.
    Cached for the three asks of one recall (2 µs each): 256 queries hit as often as
    4096 did, 2 in 3, on the 100k bench's questions and a chat-proxy run, since a query
    seldom comes back later (docs/benchmarks.md, "mend29")."""
    lowered = query.lower()
    if not any(stem in lowered for stem in _STEMS):
        return None
    if _ORDER.search(query):
        return Shape.ORDER
    if _SUMMARY.search(query):
        return Shape.SUMMARY
    if _TOTAL.search(query) or (_COUNT.search(query) and _SPAN.search(query)):
        return Shape.TOTAL
    return None


def users(memory: MemoryRecord) -> bool:
    """True when the memory holds the user's own words: no other role in its metadata
    and no other speaker's prefix (``"assistant: ..."``) on its content."""
    if memory.other_role is not None:
        return False
    head, colon, _ = memory.content[:16].partition(":")
    return not (colon and head.strip().lower() in NOT_THE_USER)


def bucket_of(hit: Hit) -> str:
    """The time bucket of a hit: its session, else the day it was written."""
    session = session_of(hit)
    if session is not None:
        return "s:" + session
    return "d:" + hit.memory.created_at.date().isoformat()


def spread(
    hits: Sequence[Hit],
    asked: Shape,
    *,
    top_n: int,
    floor: float = FLOOR,
    others: float = OTHERS,
) -> list[Hit]:
    """``hits`` (best first) with the head of ``top_n`` reordered round by round: each
    round takes every bucket's best remaining hit, best first. Hits under ``floor`` x the
    best score wait until after the rounds. For an ``ORDER`` question, a hit that is not
    the user's own words counts ``others`` x its score (the order asked about is the
    order in which the user raised things)."""
    head = list(hits[:top_n])
    if len(head) < 3:
        return list(hits)

    def weight(hit: Hit) -> float:
        if asked is Shape.ORDER and not users(hit.memory):
            return hit.score * others
        return hit.score

    head.sort(key=weight, reverse=True)
    best = weight(head[0])
    kept = [h for h in head if weight(h) >= floor * best]
    low = [h for h in head if weight(h) < floor * best]
    queues: dict[str, list[Hit]] = {}
    for hit in kept:
        queues.setdefault(bucket_of(hit), []).append(hit)
    out: list[Hit] = []
    depth = 0
    while len(out) < len(kept):
        layer = [q[depth] for q in queues.values() if len(q) > depth]
        out.extend(sorted(layer, key=weight, reverse=True))
        depth += 1
    return [*out, *low, *hits[top_n:]]


def floor(hits: Sequence[Hit], share: float) -> list[Hit]:
    """The relative floor (``recall.relative_floor``, issue 24's padding) as a thread
    question meets it (:func:`floor_kept`). Order is kept."""
    sims = [h.breakdown.sim for h in hits]
    fused = [h.breakdown.fused for h in hits]
    buckets = [bucket_of(h) for h in hits]
    return [
        hits[i] for i in floor_kept(sims, fused, share, buckets, [packing.setter(h) for h in hits])
    ]


def floor_kept(
    sims: Sequence[float | None],
    fused: Sequence[float],
    share: float,
    buckets: Sequence[str] | None = None,
    setters: Sequence[bool] | None = None,
) -> list[int]:
    """Indices of the hits the relative floor keeps, given each hit's cosine, fused
    relevance and, for a thread question, time bucket (``bucket_of``; None: the floor
    against the best hit alone, ``packing.floor_kept``). For a thread question, the
    floor against the best hit says which buckets hold the thread (a bucket takes part
    when its best hit passes), and inside a bucket that takes part each hit is judged
    against that bucket's best, since every session's mentions of a thread are weaker
    than its single best mention overall (docs/benchmarks.md, "BEAM in two folds", T2).
    A bucket whose best fails stays out, so another project's sessions do not pad the
    answer; one bucket is the ordinary floor. Recall (:func:`relative_floor`) and the
    offline re-score of ``engram bench abstain`` both read the floor here."""
    whole = packing.floor_kept(sims, fused, share, setters)
    if buckets is None:
        return whole
    passing = {buckets[i] for i in whole}
    groups: dict[str, list[int]] = {}
    for i, bucket in enumerate(buckets):
        if bucket in passing:
            groups.setdefault(bucket, []).append(i)
    kept = {
        idx[j]
        for idx in groups.values()
        for j in packing.floor_kept(
            [sims[i] for i in idx],
            [fused[i] for i in idx],
            share,
            None if setters is None else [setters[i] for i in idx],
        )
    }
    return sorted(kept)


def thread(query: str, cfg: RecallConfig) -> bool:
    """Whether recall treats ``query`` as a thread question (its floor and depth are
    per session): ``recall.coverage_top_n`` is on and the query asks for a thread."""
    return bool(cfg.coverage_top_n) and shape(query) is not None


def relative_floor(query: str, cfg: RecallConfig, hits: Sequence[Hit], share: float) -> list[Hit]:
    """``hits`` under the relative floor: per bucket (``floor``) for a thread question
    when ``recall.coverage_top_n`` is on, else against the best hit alone."""
    if thread(query, cfg):
        return floor(hits, share)
    return packing.relative_floor(hits, share)


def depth(query: str, cfg: RecallConfig) -> int:
    """How many ranked candidates recall keeps for ``query``: ``recall.coverage_top_n``
    for a thread question (its spread needs the sessions' hits), else 0."""
    return cfg.coverage_top_n if thread(query, cfg) else 0


def apply(query: str, cfg: RecallConfig, hits: list[Hit]) -> list[Hit]:
    """``hits`` spread over time for a thread question; unchanged for any other, or when
    ``recall.coverage_top_n`` is 0."""
    asked = shape(query) if cfg.coverage_top_n else None
    return hits if asked is None else spread(hits, asked, top_n=cfg.coverage_top_n)
