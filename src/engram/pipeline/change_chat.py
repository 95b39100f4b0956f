"""How chat says a change, put the way the change rules read it (issue 28, FEATURES G2).

A user tells an assistant "ok so update: we moved to Austin last weekend!!", "Left
Deloitte, I'm at PwC now", "started a new job at Plaid this week!" or "I live in
Denver and work at Stripe": fillers in front, contractions, no subject, two claims
joined by "and". The change rules (:mod:`engram.pipeline.change_signals`) read plain
clauses ("we moved to Austin", "I am at PwC now", "I started a new job at Plaid", "I
live in Denver" + "I work at Stripe"); this module turns the one into the other, with
rules only, so it runs on the write path. It never adds a claim of its own: it only
rewrites a clause so a rule that already exists can read it. Measured on the chat
set (``engram/data/changes_chat.json``, fold C tuned, fold D checked).
"""

from __future__ import annotations

import re

from engram.pipeline import change_retold

# Contractions the rules would otherwise read as part of the subject ("I'm at PwC").
# "'s" stays: it is "is", "has" and the possessive at once. "'ll" and "n't" stay too:
# they are hedges (``change_signals._HEDGE``).
# One pattern, one pass: the write path reads every turn. "im" is "fyi im in Seattle";
# a lower-case "i" is "i work at target".
_CONTRACTION = re.compile(
    r"\b(?:(?P<i>[Ii])['’](?P<iv>m|ve)|(?P<we>[Ww]e|[Tt]hey|[Yy]ou)['’](?P<wev>re|ve)|"
    r"(?P<it>[Ii]t|[Tt]hat)['’]s|(?P<im>im)|(?P<lone>i)(?![.'’]))\b"
)
_SPELLED = {"m": "am", "ve": "have", "re": "are"}


def _spelled(match: re.Match[str]) -> str:
    if match["iv"]:
        return f"I {_SPELLED[match['iv']]}"
    if match["we"]:
        return f"{match['we']} {_SPELLED[match['wev']]}"
    if match["it"]:
        return f"{match['it']} is"
    return "I am" if match["im"] else "I"


# "got a new phone! Pixel 8": the name after the news belongs to the thing.
_NEW_NAMED = re.compile(
    r"\b(got|bought|have|has|picked\s+up)\s+(a|an)\s+new\s+(?!name\b)([a-z]+)\s*[!:,-]+\s+(?=[A-Z0-9])"
)
# An emoji between two statements ends the first ("my Trek got stolen 😭 I'm riding a
# Brompton now").
_EMOJI = re.compile(r"\s*[\U0001F300-\U0001FAFF\u2600-\u27BF]+\s+(?=\w)")
# What a clause opens with that says nothing: "ok so update:", "btw", "heads up",
# "these days", "at work". Stripped one at a time, in front only.
_FILLER = re.compile(
    r"^(?:ok(?:ay)?|so|oh|and|well|btw|hey|hi|yeah|yep|yes|honestly|anyway|actually|lol|haha|"
    r"update|news|big\s+news|good\s+news|heads\s+up|fyi|quick\s+context|fwiw|"
    r"these\s+days|nowadays|lately|at\s+work|at\s+the\s+office|again)\b[\s,:!.-]*",
    re.IGNORECASE,
)
_NOW_LEAD = re.compile(r"^(?:these\s+days|nowadays)\b", re.IGNORECASE)
# "update on the love life lol: I'm dating Chris": a lead that ends in a colon and is
# followed by a clause with a subject (not "new favorite: oat cortado").
_COLON_LEAD = re.compile(
    r"^(?![^:]*\bnew\b)[^:]{1,40}:\s+(?=(?:I|we|my|our|[A-Z]\w+)\b)", re.IGNORECASE
)
# A clause that opens with a change verb has dropped its subject: the speaker said it
# ("Moved to Milwaukee in June", "started a new job at Plaid").
_NO_SUBJECT = re.compile(
    r"^(?:(?:just|finally|recently|officially|also)\s+)?"
    r"(?:moved|relocated|switched|migrated|changed|started|joined|left|quit|upgraded|"
    r"downgraded|renamed|dropped|ditched|replaced|swapped|traded|sold|got|took|accepted|"
    r"cancell?ed|rewrote|rebuilt|reassigned|been\s+at)\b",
    re.IGNORECASE,
)
# "new job at costco, way better pay": news with no verb.
_NEW_JOB = re.compile(r"^(?:a\s+)?new\s+(job|role|position|gig)\s+(at|with)\b", re.IGNORECASE)
# "I live in Denver and work at Stripe": the verb after "and" shares the subject. So
# does a change verb ("I left Siemens and started a new job at Spotify", "Sam left
# Initech and joined Globex": read whole, the subject was "left Siemens"), and a
# present verb after "now" ("I sold my Golf and now drive a Tesla"). Verbs that move a
# thing ("and switched it to FastAPI") are left to ``change_signals._AND_MOVED``, which
# finds their subject in the first part.
_AND_VERB = re.compile(
    r"^(?P<s>I|we|[A-Z][\w-]+|(?:my|our)\s+[\w-]+)\s+(?P<a>.+?),?\s+and\s+"
    r"(?P<b>(?:now\s+)?(?:work|works|live|lives|drive|drives|use|uses|own|owns|am|is|are|"
    r"started|joined|took|accepted)\b.+)$"
)
#: Words that close a chat clause without meaning ("Denver btw", "Plus lol").
TAIL_WORDS = "btw lol haha fwiw tbh imo lmao though anyway finally apparently yet"


def normalized(text: str) -> str:
    """``text`` with its contractions spelled out and a thing's name joined to the news
    of it ("got a new phone, a Pixel 8"), and the shapes :mod:`change_retold` retells."""
    text = _CONTRACTION.sub(_spelled, change_retold.retold(text))
    if not text.isascii():
        text = _EMOJI.sub(". ", text)
    return _NEW_NAMED.sub(r"\1 \2 new \3, a ", text) if "new" in text else text


def clauses(clause: str) -> list[str]:
    """The plain clauses one chat clause states: fillers in front dropped, a dropped
    subject put back, "X and Y" with one subject split in two."""
    now = False
    while True:
        filler = _FILLER.match(clause)
        stripped = clause[filler.end() :] if filler else clause
        lead = _COLON_LEAD.match(stripped) if ":" in stripped else None
        stripped = stripped[lead.end() :] if lead else stripped
        if stripped == clause or not stripped:
            break
        now = now or _NOW_LEAD.match(clause) is not None
        clause = stripped
    if now:  # "these days I live in Portland" says what holds now
        clause = f"{clause} now"
    if clause[:4].lower() in ("new ", "a ne"):
        clause = _NEW_JOB.sub(r"I have a new \1 \2", clause, count=1)
    if _NO_SUBJECT.match(clause):
        clause = f"I {clause[:1].lower()}{clause[1:]}"
    both = _AND_VERB.match(clause)
    if both is None:
        return [clause] if clause else []
    return [f"{both['s']} {both['a']}", f"{both['s']} {both['b']}"]
