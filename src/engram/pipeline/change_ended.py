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

from engram.pipeline.change_words import Claim, phrase


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
    r"(?:got|gotten|grown)\s+tired\s+of)\s+(?:(?:drinking|eating|using|liking)\s+)?(?P<old>.+)$"
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
GONE_WORDS = ("s gone", " is gone", " been retired", " is retired", " is history", " is out,",
              "s out,", " was retired", " been gone")  # fmt: skip


def gone(clause: str) -> tuple[str, str | None] | None:
    """The thing ``clause`` says is gone and what is left of the clause to read (None:
    nothing), or None when it says no such thing."""
    match = _GONE.match(clause)
    if match is None or not (match["gone"] or match["rest"]):
        return None
    old = phrase(match["old"])
    return (old, match["rest"]) if old else None


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
    """The speaker's claims (``anyone``: every claim) with ``old`` as the value they
    end, alone (``ends_only``)."""
    me = speaker or "user"
    return [
        replace(c, replaced=old, ends_only=True)
        if c.replaced is None and (anyone or c.source == me)
        else c
        for c in claims
    ]
