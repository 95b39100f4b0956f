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

# Contractions the rules would otherwise read as part of the subject ("I'm at PwC").
# "'s" stays: it is "is", "has" and the possessive at once. "'ll" and "n't" stay too:
# they are hedges (``change_signals._HEDGE``).
_CONTRACTIONS = (
    (re.compile(r"\b(I|i)['’]m\b"), "I am"),
    (re.compile(r"\b(I|i)['’]ve\b"), "I have"),
    (re.compile(r"\b([Ww]e|[Tt]hey|[Yy]ou)['’]re\b"), r"\1 are"),
    (re.compile(r"\b([Ww]e|[Tt]hey|[Yy]ou)['’]ve\b"), r"\1 have"),
    (re.compile(r"\b([Ii]t|[Tt]hat)['’]s\b"), r"\1 is"),
    (re.compile(r"\bim\b"), "I am"),  # "fyi im in Seattle"
    (re.compile(r"\bi\b(?![.'’])"), "I"),  # lower-case chat: "i work at target"
)
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
    r"^(?:ok(?:ay)?|so|oh|and|well|btw|hey|hi|yeah|yep|yes|honestly|anyway|lol|haha|"
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
# "I live in Denver and work at Stripe": the verb after "and" shares the subject.
_AND_VERB = re.compile(
    r"^(?P<s>I|we|[A-Z][\w-]+|(?:my|our)\s+[\w-]+)\s+(?P<a>.+?),?\s+and\s+"
    r"(?P<b>(?:work|works|live|lives|drive|drives|use|uses|own|owns|am|is|are)\b.+)$"
)
#: Words that close a chat clause without meaning ("Denver btw", "Plus lol").
TAIL_WORDS = "btw lol haha fwiw tbh imo lmao though anyway finally apparently yet"


def normalized(text: str) -> str:
    """``text`` with its contractions spelled out and a thing's name joined to the news
    of it ("got a new phone, a Pixel 8")."""
    for pattern, spelled in _CONTRACTIONS:
        text = pattern.sub(spelled, text)
    text = _EMOJI.sub(". ", text)
    return _NEW_NAMED.sub(r"\1 \2 new \3, a ", text)


def clauses(clause: str) -> list[str]:
    """The plain clauses one chat clause states: fillers in front dropped, a dropped
    subject put back, "X and Y" with one subject split in two."""
    now = False
    while True:
        stripped = _COLON_LEAD.sub("", _FILLER.sub("", clause, count=1), count=1)
        if stripped == clause or not stripped:
            break
        now = now or _NOW_LEAD.match(clause) is not None
        clause = stripped
    if now:  # "these days I live in Portland" says what holds now
        clause = f"{clause} now"
    clause = _NEW_JOB.sub(r"I have a new \1 \2", clause, count=1)
    if _NO_SUBJECT.match(clause):
        clause = f"I {clause[:1].lower()}{clause[1:]}"
    both = _AND_VERB.match(clause)
    if both is None:
        return [clause] if clause else []
    return [f"{both['s']} {both['a']}", f"{both['s']} {both['b']}"]
