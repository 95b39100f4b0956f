"""Change claims about habits and places (changes20, FEATURES G2): a routine ("I run in
the evenings", then "I run in the mornings now"; "I commute by bus", then "by bike
now"), where a site is ("our office is in Shoreditch", then "our office moved to Canary
Wharf") and a kind of thing changed without naming the old one ("I changed gyms, I'm
at Anytime Fitness now"). Read by :func:`engram.pipeline.change_signals.read` with the
same words (:mod:`engram.pipeline.change_words`).

A routine is one value at a time only when the text says so: "I run on Tuesdays" and
"I swim on Thursdays as well" both hold, and "I run in the mornings" beside "I run in
the evenings" is read plainly (many until the namespace's data says one); "now" makes
it a change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from engram.pipeline.change_words import CHANGE, CHANGE_CONFIDENCE, Claim, phrase, signal_of
from engram.pipeline.patterns import word_set

# The activities a routine is said of; the verb names the relation ("run when",
# "commute by"). A short list: "I work in sales" is no time of day.
_VERBS = (
    r"run|jog|walk|swim|cycle|bike|commute|train|work\s+out|exercise|study|cook|shop|"
    r"meditate|lift|climb|go\s+running|go\s+to\s+the\s+gym|do\s+yoga|get\s+to\s+work|"
    r"travel\s+to\s+work|go\s+to\s+work"
)
_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days"
_ROUTINE = re.compile(
    r"^(?P<s>I|we|(?-i:[A-Z][a-z]+))\s+(?:(?:usually|mostly|always|now|normally|generally|also)\s+)?"
    rf"(?P<v>{_VERBS})(?:e?s)?\s+(?:"
    r"(?:in\s+the\s+)?(?P<part>mornings?|evenings?|afternoons?|nights)|at\s+(?P<at>night|lunch(?:time)?)|"
    rf"(?P<around>before|after)\s+work|on\s+(?P<day>weekdays|weekends|{_DAYS})|"
    r"by\s+(?P<by>[a-z]+(?:\s+(?!now\b|these\b|most\b|every\b)[a-z]+)?))\b",
    re.IGNORECASE,
)
#: Places a thing is at, not software it runs on: a site moves, "the newsletter moved
#: to Buttondown" does not.
SITES = word_set(
    "office offices headquarters hq studio shop store restaurant cafe clinic lab warehouse "
    "factory bakery salon workshop practice surgery branch"
)
_NAME = r"(?-i:[A-Z])[\w'’.-]*"
_SITE_IN = re.compile(
    r"^(?:(?:my|our|the|his|her|their)\s+|(?P<own>[\w-]+)['’]s\s+)(?P<s>(?:[\w-]+\s+)?(?:"
    + "|".join(sorted(SITES))
    + rf"))\s+(?:is|are)(?:\s+now)?\s+(?:in|on|at)\s+(?P<o>{_NAME}(?:\s+{_NAME})*)",
    re.IGNORECASE,
)
#: The words a clause needs for either rule to be tried.
WORDS = (
    " morning", " evening", " afternoon", " nights", " at night", " lunch", " work ",
    "days", " by ", *(f" {site}" for site in SITES),
)  # fmt: skip


def routine(clause: str, speaker: str | None) -> Claim | None:
    """ "I run in the mornings now" -> (user, run when, mornings, change)."""
    match = _ROUTINE.match(clause)
    if match is None:
        return None
    verb = " ".join(match["v"].lower().split())
    who = match["s"]
    source = (speaker or "user") if who.lower() in ("i", "we") else who
    if match["by"]:
        target, relation = phrase(match["by"]), f"{verb} by"
    else:
        when = match["part"] or match["at"] or match["day"]
        target = when or f"{match['around'].lower()} work"
        relation = f"{verb} when"
    if not target:
        return None
    return Claim(source, relation, target, signal_of(clause, False))


def site(clause: str, speaker: str | None) -> Claim | None:
    """ "Our office is in Shoreditch" -> (office, located in, Shoreditch)."""
    match = _SITE_IN.match(clause)
    target = phrase(match["o"]) if match is not None else None
    if match is None or not target:
        return None
    owner = match["own"]
    source = f"{owner} {match['s']}" if owner else match["s"].lower()
    return Claim(source, "located in", target, signal_of(clause, False))


# "I changed gyms", "we switched vets", "changed dentists": the kind that changed,
# with nothing after it; the claim beside it names the new one.
_CHANGED_KIND = re.compile(
    r"^(?:I|we)\s+(?:have\s+)?(?:just\s+)?(?:changed|switched|swapped)\s+(?P<n>[a-z]+?)(?P<ies>ies|e?s)$",
    re.IGNORECASE,
)
# A job is what "works at" says already ("I switched jobs, I work at Bosch now").
_JOBS = frozenset(("job", "role", "position", "career", "employer", "company", "team"))
# Verbs that say where the speaker is or what they use, and say nothing of the kind.
_GENERIC = frozenset(("works at", "uses", "migrated to", "joined", "dating"))


def changed_kind(clause: str, lower: str) -> str | None:
    """ "gym" for "I changed gyms" (nothing else said), else None (``lower``: the
    clause in lower case, padded with spaces)."""
    if " changed " not in lower and " switched " not in lower and " swapped " not in lower:
        return None
    match = _CHANGED_KIND.match(clause.strip())
    if match is None:
        return None
    kind = match["n"].lower() + ("y" if match["ies"].lower() == "ies" else "")  # pharmacies
    return None if kind in _JOBS else kind


def of_kind(claims: Sequence[Claim], kind: str, speaker: str | None) -> list[Claim]:
    """The speaker's claims said with a generic verb, as the new value of ``kind``
    ("I changed gyms, I'm at Anytime Fitness now": the gym is Anytime Fitness)."""
    me = speaker or "user"
    return [
        replace(c, relation=kind, signal=CHANGE, confidence=CHANGE_CONFIDENCE)
        if c.source == me and c.relation in _GENERIC and c.replaced is None
        else c
        for c in claims
    ]
