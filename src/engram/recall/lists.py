"""A question that lists three or more things is also asked once per thing.

"Considering my cover letter deadlines, the Zoom call with the creative director, and my
interview clarity improvements, how should I prioritize?" names three threads, each
said in its own session; one ranking of the whole question fills its head with whichever
thread it matches best (issue 24: BEAM's multi_session_reasoning questions name two to
four such things). With ``recall.list_parts`` on, each item of the list is also ranked
on its own (the item's words alone: the asking sentence around it pulled the item's
ranking back to the whole question's), and the rankings are interleaved as
``recall.decompose`` interleaves them, the whole question's first (docs/recall.md,
"Lists", and docs/benchmarks.md, "BEAM in two folds", T2).

A list, in general English: three or more short phrases joined by commas and a final
"and" (the Oxford comma optional), in the sentence that asks (a statement before it is
context: "I'm adding login, income tracking and analytics. Which libraries fit?"). Not
a list of things asked about:

- a choice, joined by "or" ("which came first: A, B or C"), or a pair ("between
  A and B", whose A may hold a list);
- what describes one thing, in a relative clause ("the dessert that has a crust,
  ganache and raspberries");
- examples of one thing, after "like", "such as", "including", "e.g.", "for example"
  ("sections like the header, navigation and footer" asks about sections);
- a thread question's list (``recall.coverage``: its spread covers the thread).
"""

from __future__ import annotations

import re
from functools import lru_cache

from engram.config import RecallConfig
from engram.recall import coverage, decompose
from engram.text import keywords

#: Items longer than this are clauses, not the short phrases a list names.
MAX_ITEM_WORDS = 8

_ITEM = r"[^,;:?.!]{2,80}?"
_NEXT = r"(?!\s*(?:and|or)\b)[^,;:?.!]{2,80}?"  # a middle item: "and" or "or" ends a list
_LIST = re.compile(
    rf"(?P<head>{_ITEM}(?:,\s*{_NEXT})+),?\s+and\s+(?P<last>{_ITEM})"
    r"(?=\s*(?:[,?.;!]|$)|\s+(?:how|what|which|when|where|why|who|to|that|so|in order)\b)",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"[^.!?]*[?]")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")  # "3,600 words" is one number
# The words that open a list of things asked about ("Considering my X, Y and Z",
# "about X, Y and Z"): the first item starts after the last of them; without one the
# list is not the question's topic.
_LEAD = re.compile(
    r"^.*\b(?:considering|given|regarding|about|on|for|with|from|between|of|in|into|"
    r"during|across|after|before|and)\s+",
    re.IGNORECASE,
)
# "a dessert that has a crust, ganache and raspberries": a relative clause's list
# describes the one thing asked about.
_RELATIVE = re.compile(r"\s*(?:that|which|who|whose|where)\b", re.IGNORECASE)
# "between X and Y" pairs two things, and a list inside X is part of the first.
_PAIR = re.compile(r"\bbetween\b", re.IGNORECASE)
_EXAMPLES = re.compile(
    r"\b(?:like|such as|including|include|includes|e\.g\.|for example|for instance)\b",
    re.IGNORECASE,
)


def bad(item: str) -> bool:
    """An item too long to be a phrase, holding "and" (the list is not what it seemed),
    or with too few words to be ranked on its own (``decompose.MIN_PART_KEYWORDS``:
    "achievements" alone matches everything)."""
    too_few = len(keywords(item)) < decompose.MIN_PART_KEYWORDS
    return len(item.split()) > MAX_ITEM_WORDS or " and " in item or too_few


@lru_cache(maxsize=4096)
def items(query: str) -> tuple[str, ...]:
    """The things ``query`` lists as what it asks about, or () when it lists none."""
    if "," not in query or " and " not in query.lower() or coverage.shape(query) is not None:
        return ()
    asked = _SENTENCE.findall(_THOUSANDS.sub("", query))
    sentence = asked[-1] if asked else query
    found = _LIST.search(sentence)
    if found is None:
        return ()
    head = found.group("head").split(",")
    first = head[0]
    before = sentence[: found.start()]
    lead = _LEAD.match(first)
    if lead is None:  # "What dessert has a crust, ...": the list is not what is asked about
        return ()
    named = [first[lead.end() :], *head[1:], found.group("last")]
    if _RELATIVE.match(named[0]):
        return ()
    if _EXAMPLES.search(first) or _EXAMPLES.search(before[-24:]) or _PAIR.search(before + first):
        return ()
    named = [re.sub(r"^\s*(?:and|or)\s+", "", n).strip() for n in named]
    if any(bad(n) for n in named):
        return ()
    return tuple(named) if len(named) >= 3 else ()


def parts(query: str, cfg: RecallConfig) -> list[str]:
    """The parts recall also ranks ``query`` as: its list's items (``recall.list_parts``),
    the two things it asks what lies between (``recall.between_parts``), else its two
    sides (``recall.decompose``); empty for most questions."""
    if cfg.list_parts and (named := items(query)):
        return list(named)
    if cfg.between_parts and (two := decompose.between(query)):
        return two
    return decompose.subqueries(query) if cfg.decompose else []
