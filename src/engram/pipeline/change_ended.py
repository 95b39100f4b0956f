"""Old values a text says have ended (new-user pass, round eleven; FEATURES G2): "I
don't like sushi any more, I prefer ramen now", "I used to drink tea every morning,
now it's coffee", "these days I prefer coffee in the morning, not tea", "I've gone off
sushi". The value that ended is the ``replaced`` of the claim the same text makes
(:func:`engram.pipeline.change_signals.read`), marked ``ends_only``: the closing plan
closes that one relation, not every relation of its type, because a taste is one of
many ("I like sushi" and "I like hiking" both hold until one of them is said to end).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from engram.pipeline import change_events
from engram.pipeline.change_words import CHANGE, CHANGE_CONFIDENCE, Claim, phrase


def _said(pattern: str) -> re.Pattern[str]:
    """A clause the speaker says of themselves ("I ...", "we ..."; the subject is group
    ``s``), in any case."""
    return re.compile(r"^(?P<s>I|we)\s+" + pattern, re.IGNORECASE)


# "I don't like sushi any more", "we no longer use Slack": "don't" needs "any more" (a
# plain "I don't like sushi" says nothing ended).
_NO_MORE = _said(
    r"(?P<neg>do\s+not|don['’]t|no\s+longer)\s+(?:really\s+)?"
    r"(?:like|love|enjoy|drink|eat|use|prefer)\s+(?P<old>.+?)(?P<more>\s+(?:any\s*more))?$"
)
# "I've stopped drinking tea", "I gave up on Notion", "I've gone off sushi".
_GONE_OFF = _said(
    r"(?:have\s+)?(?:stopped|given\s+up(?:\s+on)?|gave\s+up(?:\s+on)?|gone\s+off|went\s+off|"
    r"(?:got|gotten|grown)\s+tired\s+of)\s+(?:(?:drinking|eating|using|liking|seeing)\s+)?(?P<old>.+)$"
)
# "I used to drink tea every morning, now it's coffee": the old value, and what holds now
# said again as a plain clause ("I drink coffee now"). "Used to" with no "now" is past
# narration: ``change_signals._HEDGE`` reads nothing from it.
_USED_TO = _said(
    r"used\s+to\s+(?P<v>[a-z]+)\s+(?P<old>[^,]+?),?\s+(?:but\s+)?"
    r"(?:now|these\s+days|nowadays)\s*,?\s+(?P<rest>.+)$"
)
# "Dropped LastPass, using Bitwarden now" (the subject put back by ``change_chat``):
# the old value, and what is used now said as a plain clause ("I am using Bitwarden now").
_DROPPED = _said(
    r"(?:have\s+)?(?:dropped|ditched|dumped|quit|cancell?ed|stopped\s+using)\s+(?P<old>[^,]+?),\s+"
    r"(?:and\s+)?(?:(?:I\s+am|we\s+are)\s+)?(?P<v>using|on)\s+(?P<rest>[^,]+\bnow\b.*)$"
)
_IT_IS = re.compile(r"^(?:it|that)\s+is\s+(?P<o>.+)$", re.IGNORECASE)
# "I prefer coffee in the morning, not tea".
_NOT_OLD = re.compile(r",\s*(?:but\s+)?not\s+(?P<old>[^,]+)$", re.IGNORECASE)
#: The words a clause needs for any pattern here to be tried.
WORDS = (" no longer ", "n't ", " not ", " stopped ", " gave up ", " given up ", " gone off ",
         " went off ", " tired of ", " used to ", " dropped ", " ditched ", " dumped ", " quit ",
         " cancelled ", " canceled ")  # fmt: skip


# "Ocado's gone, we use Tesco delivery now", "Bitrise is gone, mobile builds run on
# Codemagic", "Vitest is out, the suite runs under Jest": a thing said to be gone, and
# what holds now in the rest. Said of the thing, so the claim it ends may be anyone's
# (:func:`mark` with ``anyone``); "out" only with a rest ("the album is out" ends nothing).
_GONE = re.compile(
    r"^(?P<old>(?-i:[A-Z0-9][\w.'’&-]*)(?:\s+(?-i:[A-Z][\w.'’&-]*)){0,2})"
    r"(?:['’]s|\s+is|\s+has\s+been|\s+was)\s+(?:(?P<gone>gone|retired|history)|out)"
    r"(?:\s*,\s*(?:and\s+|so\s+)?(?P<rest>.+))?$",
    re.IGNORECASE,
)
# "On-call moved off Opsgenie, we use incident.io now", "We migrated away from Jira;
# work is tracked in Linear now" (the lead's change check, session thirty-one: nothing
# closed): leaving a named thing is saying it is gone. The thing must be a name (a
# capital), so "switched off the lights" says nothing; the rest, when there is one, is
# read for what holds now, as `_GONE`'s is.
_MOVED_OFF = re.compile(
    r"^(?:[\w'’-]+\s+){0,4}?(?:have\s+|has\s+)?(?:moved|migrated|switched|come|came)\s+"
    r"(?:off(?:\s+of)?|away\s+from)\s+"
    r"(?P<old>(?-i:[A-Z0-9][\w.'’&-]*)(?:\s+(?-i:[A-Z][\w.'’&-]*)){0,2})"
    r"(?:\s*[,;]\s*(?:and\s+|so\s+)?(?P<rest>.+))?$",
    re.IGNORECASE,
)
# "Kwame moved abroad, so Lucia trains me now", "Gareth left the company, my new boss is
# Yolanda", "Rosa retired": a person named as gone from the role they held. Only the
# leaving itself ("left early today" is no departure), and never the speaker's ("I left
# the company" is a job ended, read by the change rules).
_LEFT = re.compile(
    r"^(?P<old>(?:(?:Dr|Mr|Mrs|Ms|Miss|Prof)\.?\s+)?(?!(?:I|We|He|She|They|It|You)\b)"
    r"[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2})\s+(?:has\s+|had\s+|just\s+)?"
    r"(?:left(?:\s+(?:the\s+(?:company|team|firm|practice|school|club|business|group)|us))?|"
    r"retired|quit|resigned|stepped\s+down|moved\s+(?:abroad|away|on)|emigrated)"
    r"(?:\s*[,;]\s*(?:and\s+|so\s+)?(?P<rest>.+)|\s+(?:and|so)\s+(?P<rest2>.+))?$"
)
#: What a successor's clause says so: the one named holds the role now.
_NOW_HOLDS = re.compile(r"\b(?:now|new|instead|these\s+days|going\s+forward|took\s+over)\b", re.I)
_SUCCESSOR = re.compile(
    r"(?<![\w.])(?:(?:Dr|Mr|Mrs|Ms)\.?\s+)?[A-Z][a-z][\w'’-]*(?:\s+[A-Z][a-z][\w'’-]*)?"
)
_NOT_SUCCESSORS = frozenset(("I", "My", "Our", "The", "So", "And", "Now", "She", "He", "They",
                             "We", "Since", "From", "A", "An", "Her", "His", "Their"))  # fmt: skip
GONE_WORDS = ("s gone", " is gone", " been retired", " is retired", " is history", " is out,",
              "s out,", " was retired", " been gone", " left", " retired", " quit", " resigned",
              " stepped down", " moved abroad", " moved away", " moved on", " emigrated",
              " ended", " expired", " lapsed", " ran out", " moved off ", " migrated off ",
              " switched off ", " away from ")  # fmt: skip


# "Akamai contract ended and the CDN is Cloudflare going forward", "LaunchDarkly seats
# expired": the thing whose contract ran out is gone.
_LAPSED = re.compile(
    r"^(?:the\s+|our\s+)?(?P<old>(?-i:[A-Z0-9][\w.'’&-]*)(?:\s+(?-i:[A-Z][\w.'’&-]*)){0,2})(?:['’]s)?\s+"
    r"(?:contract|subscription|licen[cs]es?|seats?|plan)\s+(?:has\s+|have\s+)?"
    r"(?:ended|expired|lapsed|ran\s+out)(?:\s*[,;]\s*|\s+(?:and|so)\s+)?(?P<rest>.+)?$",
    re.IGNORECASE,
)


def gone(clause: str) -> tuple[str, str | None] | None:
    """The thing ``clause`` says is gone and what is left of the clause to read (None:
    nothing), or None when it says no such thing."""
    match = _GONE.match(clause)
    if match is not None and (match["gone"] or match["rest"]):
        old = phrase(match["old"])
        return (old, match["rest"]) if old else None
    moved = _MOVED_OFF.match(clause)
    if moved is not None:
        old = phrase(moved["old"])
        return (old, moved["rest"]) if old else None
    lapsed = _LAPSED.match(clause)
    if lapsed is not None:
        old = phrase(lapsed["old"])
        return (old, lapsed["rest"]) if old else None
    left = _LEFT.match(clause)
    if left is None:
        return None
    old = phrase(left["old"])
    return (old, left["rest"] or left["rest2"]) if old else None


def successor(old: str, after: Sequence[str]) -> str | None:
    """The one person named as holding now what ``old`` held, in the clauses ``after``
    a departure ("Kwame moved abroad, so Lucia trains me now": Lucia), or None."""
    olds = set(old.replace(".", " ").split())
    names = {
        name.replace(".", "")
        for clause in after
        if _NOW_HOLDS.search(clause)
        for name in _SUCCESSOR.findall(clause)
        if name.split()[0] not in _NOT_SUCCESSORS and not olds & set(name.replace(".", " ").split())
    }
    return names.pop() if len(names) == 1 else None


def ended(clause: str) -> tuple[str | None, str | None]:
    """The old value ``clause`` says ended (or None), and what is left of the clause to
    read for a claim (None: nothing)."""
    match = _NO_MORE.match(clause)
    if match is not None:
        if match["more"] or match["neg"].lower().startswith("no"):
            return phrase(match["old"]), None
        return None, clause
    match = _DROPPED.match(clause)
    if match is not None:
        verb = "am" if match["s"].lower() == "i" else "are"
        return phrase(match["old"]), f"{match['s']} {verb} {match['v']} {match['rest']}"
    match = _GONE_OFF.match(clause)
    if match is not None:
        return phrase(match["old"]), None
    match = _USED_TO.match(clause)
    if match is not None:
        it = _IT_IS.match(match["rest"])
        rest = f"{match['s']} {match['v']} {it['o']}" if it else match["rest"]
        return phrase(match["old"]), f"{rest} now"
    match = _NOT_OLD.search(clause)
    if match is not None and len(clause[: match.start()].split()) >= 3:
        return phrase(match["old"]), clause[: match.start()]
    return None, clause


def mark(
    claims: Sequence[Claim], old: str, speaker: str | None, *, anyone: bool = False
) -> list[Claim]:
    """The speaker's claims and an event's (``anyone``: every claim) with ``old`` as the
    value they end, alone (``ends_only``): "the team dinner is at Rosa's Kitchen now, not
    Bellini" ends the dinner's Bellini."""
    me = speaker or "user"
    return [
        replace(c, replaced=old, ends_only=True)
        if c.replaced is None
        and (anyone or c.source == me or change_events.is_event(c.source or ""))
        else c
        for c in claims
    ]


def after_gone(
    claims: Sequence[Claim], old: str, after: Sequence[str], speaker: str | None
) -> list[Claim]:
    """The claims of a text that said ``old`` is gone: each replaces it (whoever's it
    is); with none, the one successor the clauses ``after`` name holds what ``old`` held
    ("Kwame moved abroad, so Lucia trains me now")."""
    heir = None if claims else successor(old, after)
    if heir is not None:
        return [Claim(None, "held_by", heir, CHANGE, old, CHANGE_CONFIDENCE)]
    return mark(claims, old, speaker, anyone=True)
