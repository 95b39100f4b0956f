"""A change that names its old and its new value in one sentence (issue 28, G2).

Round fourteen (changes32) read the open changes of folds A to AC: of the ones whose
change names both values, most say them in one of a few frames whatever the slot: "We
swapped Google Photos for iCloud", "Replaced my Galaxy S21 with a Pixel 8", "PagerDuty
replaced Opsgenie for on-call", "DNS moved from Route 53 to Cloudflare", "Secrets
migrated out of Vault into AWS Secrets Manager", "We instructed Moss & Co instead of
Carters", "IT gave me a MacBook Air to replace the ThinkPad", "Agnes took over as lead
from Viggo", "we ditched lastpass, everyone's on 1Password now". The relation readers
read the new value as a fact of another subject or relation than the held one (``user
uses iCloud`` beside ``user photos Google Photos``), or read no fact at all, and the
pair readers want the rules to have read the new value.

Here the sentence alone gives the pair: the span after "swapped" and the one after its
"for", "replaced" ... "with", "from" ... "to" after a verb of moving, a name before
"instead of" and the span after it. Which held fact the old value is (``change_pairs``)
is read from the graph or the earlier memory that said it. The guards of a stated change
hold (``change_named.guarded``: a hedge, a plan, a question, a trial, "also", a cover,
another person's), so "we considered swapping KPN for Delta" or "might replace Airtable
with Notion next year" read nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engram.pipeline import change_named
from engram.pipeline.change_words import NOW
from engram.pipeline.prefilter import gated
from engram.text import STOPWORDS

#: A value is at most this many words ("AWS Secrets Manager", "Novablast 4").
MAX_VALUE_WORDS = 4

# A value's span ends at a clause's end; "." only as a sentence's end ("Mr. Davies").
_SPAN = r"(?:[^,.;:!?()—–]|\.(?=\S))+"
_VERBS_OF_MOVING = (
    r"moved|migrated|switched|ported|relocated|changed|transferred|shifted|went|came|"
    r"took|increased|raised|bumped|scaled|extended|lowered|reduced|cut|upgraded|downgraded"
)
#: Each frame names the old and the new value (engram's choice, changes32).
_FRAMES = (
    re.compile(rf"\b(?:swapped|swaps|swap|traded)\s+(?:in\s+)?(?P<old>{_SPAN}?)\s+(?:in\s+)?"
               rf"for\s+(?P<new>{_SPAN})", re.I),
    re.compile(rf"\btraded\s+(?:in\s+)?(?P<old>{_SPAN}?)\s+and\s+(?:got|picked\s+up|bought)\s+"
               rf"(?P<new>{_SPAN})", re.I),
    re.compile(rf"(?P<new>\b[A-Z][\w&'’.-]*(?:\s+[A-Z][\w&'’.-]*)*)\s+(?i:took\s+over)\b"
               rf"[^,.;:!?]{{0,40}}?\s(?i:from)\s+(?P<old>{_SPAN})"),
    re.compile(rf"\breplac(?:ed|es)\s+(?P<old>{_SPAN}?)\s+with\s+(?P<new>{_SPAN})", re.I),
    re.compile(rf"(?P<new>\b[A-Z][\w&'’.-]*(?:\s+(?:&\s+)?[A-Z][\w&'’.-]*)*)\s+"
               rf"(?i:replaced)\s+(?P<old>{_SPAN})"),
    re.compile(rf"\b(?:{_VERBS_OF_MOVING})\b(?:[^,.;:!?]{{0,40}}?\s)?"
               rf"(?:from|out\s+of|off)\s+(?P<old>{_SPAN}?)\s+(?:over\s+)?(?:to|into|onto)\s+"
               rf"(?P<new>{_SPAN})", re.I),
)  # fmt: skip
_INSTEAD = re.compile(
    rf"(?P<before>{_SPAN}?)\b(?:instead\s+of|to\s+replace)\s+(?P<old>{_SPAN})", re.I
)
# An old value dropped, the new one said in another clause ("we ditched lastpass,
# everyone's on 1Password"): the new one named (a capital or a digit) after the words
# that say what holds now.
_DROPPED = re.compile(rf"\b(?:dropped|ditched|cancell?ed|stopped|quit)\s+(?P<old>{_SPAN})", re.I)
_HOLDS_NOW = re.compile(
    rf"\b(?:(?:moved|switched|went)\s+(?:over\s+)?to|signed\s+up\s+(?:for|with)|"
    rf"(?:it|we|everyone|i)(?:['’]s|['’]re|['’]m|\s+are|\s+is)\s+(?:all\s+)?(?:on|with|using)?)"
    rf"\s*(?P<new>{_SPAN})",
    re.I,
)
_NAME = re.compile(r"\b[A-Z][\w&'’.-]*(?:\s+(?:&\s+)?[A-Z0-9][\w&'’.-]*)*")
_WORD = re.compile(r"[^\W_]+(?:[&'’.:/-][^\W_]+)*|&")
# Left off a value's front: they say whose, not which.
_FRONT = frozenset(
    {"the", "a", "an", "my", "our", "his", "her", "their", "your", "its", "this", "that",
     "some", "one", "new", "old", "second-hand", "used"}
)  # fmt: skip
# A value ends before these: a purpose, a time, a reason, a place the value is said at.
_END = frozenset(
    {"for", "with", "to", "as", "at", "in", "on", "because", "since", "after", "last",
     "yesterday", "today", "this", "that", "from", "when", "so", "and", "but", "now",
     "instead", "recently", "over", "across", "back", "which", "who", "it", "they", "we",
     "i", "is", "are", "was", "were", "way", "then", "during", "before", "until", "by",
     "of", "into", "onto", "these", "every", "each", "all"}
)  # fmt: skip
# No value: who or what said it, not a thing held.
_NOT_VALUE = frozenset(
    {"i", "we", "you", "he", "she", "they", "it", "them", "him", "us", "me", "everyone",
     "everything", "team", "company", "finance", "it's", "we're", "i'm"}
)  # fmt: skip
# Every frame's verb: most memories say none, and cost this one pattern (the frames'
# lazy spans are the dear part).
_CUE = gated(
    re.compile(
        rf"\b(?:swap(?:ped|s)?|traded|replac(?:ed|es)|instead\s+of|to\s+replace|"
        rf"took\s+over|dropped|ditched|cancell?ed|stopped|quit|{_VERBS_OF_MOVING})\b",
        re.I,
    )
)
# A title before a name is read with it ("Mr. Davies"); its point is no sentence's end.
_TITLE = re.compile(r"\b(Mr|Mrs|Ms|Dr|Prof|St)\.(?=\s)")


@dataclass(frozen=True, slots=True)
class Swap:
    """The change says ``old`` gave way to ``new``."""

    old: str
    new: str


def swap(text: str) -> Swap | None:
    """The old and new value ``text`` names in one frame, when it states a change and
    exactly one frame gives a pair of differing values; else None."""
    if not _CUE.search(text) or not change_named.guarded(text):
        return None
    text = _TITLE.sub(lambda m: m.group(1) + " ", text)
    found: set[tuple[str, str]] = set()
    for frame in _FRAMES:
        for m in frame.finditer(text):
            pair = _value(m.group("old")), _value(m.group("new"))
            if pair[0] and pair[1]:
                found.add((pair[0], pair[1]))
    for m in _INSTEAD.finditer(text):
        names = [n.group() for n in _NAME.finditer(m.group("before"))]
        names = [n for n in names if n.split()[0].lower() not in STOPWORDS | _NOT_VALUE]
        old = _value(m.group("old"))
        if names and old:
            found.add((old, _value(names[-1]) or ""))
    for m in _DROPPED.finditer(text):
        old = _value(m.group("old"))
        said = [_value(n.group("new")) or "" for n in _HOLDS_NOW.finditer(text)]
        news = {n for n in said if any(c.isupper() or c.isdigit() for c in n)}
        # a thing dropped in lower case is a name only when "now" says what holds
        # ("dropped the kids at school, it's Monday" is no change)
        named = old is not None and (old != old.lower() or NOW.search(text) is not None)
        if old and named and len(news) == 1:
            found.add((old, news.pop()))
    pairs = {(o, n) for o, n in found if n and not change_named.same(o, n)}
    if len(pairs) != 1:
        return None  # none, or two: which value gave way is not said
    old, new = next(iter(pairs))
    if old.split()[0].lower() == new.split()[0].lower():
        return None  # "Postgres 15 with Postgres 16": a version, the rules' to read
    return Swap(old, new)


def _value(span: str) -> str | None:
    """The value a span opens with: its front words left off, cut before a word that
    ends it; None when that is no value (a pronoun, stopwords, a verb in "-ing")."""
    words = _WORD.findall(span)
    while words and words[0].lower() in _FRONT:
        words = words[1:]
    kept: list[str] = []
    for word in words:
        if word.lower() in _END:
            break
        kept.append(word)
    if not kept or len(kept) > MAX_VALUE_WORDS:
        return None
    if kept[0].lower() in _NOT_VALUE or kept[0].lower().endswith("ing"):
        return None
    if all(w.lower() in STOPWORDS for w in kept):
        return None
    return " ".join(kept)
