"""Events moved and placed, said in passing (round twenty-three, FEATURES G2).

A personal assistant's user says "They rescheduled my physio to 2pm on Wednesday" or
"the vet pushed Biscuit's check-up to Friday the 18th": the thing moved is the object,
the one who moved it a third party, and the verbs ("rescheduled", "pushed", "bumped",
"brought forward") are no verbs of moving a home or a tool, so the change rules read
nothing (round twenty-two's fold C). An event said on a day with what it is at or with
("Biscuit's check-up at the vet is on Monday the 14th") had no day to close either, and
an event's place ("The team dinner is at Bellini on Friday") no relation at all.

Read here, each a claim the closing plan records like any other:

- **an event moved** (:func:`moved`): an agent (anyone, "they", "the salon") and a
  verb of moving a time, then the event and "to" a day, a date or an hour; or the event
  said first ("Tomas's meal has been brought forward to the 19th"). Only a time is
  read as the new value: "pushed the budget to 400" is no reschedule;
- **an event's first day** (:func:`placed`): "<event> [at / with ...] is on <day>";
- **a trip's day**: "I'm flying to Lisbon on January 14" (changed with "instead");
- **an event's venue** (:func:`placed`): "<event> is at <Name> [on <day>]", and "<event>
  is at <Name> now, not <Old>" as a change whose old value is said.
"""

from __future__ import annotations

import re

from engram.pipeline import change_events
from engram.pipeline.change_words import (
    CHANGE,
    CHANGE_CONFIDENCE,
    LEAD,
    NP,
    PLAIN,
    Claim,
    phrase,
    signal_of,
    subject,
)

_HOUR = r"\d{1,2}(?::\d{2})?\s?[ap]m|\d{1,2}:\d{2}|noon|midday"
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
#: A time something moves to: an hour (with its day), a day with its date, a weekday.
_WHEN = (
    rf"(?:(?:{_HOUR})(?:\s+on\s+(?:{change_events.DAY_DATE}|{_WEEKDAY}))?|"
    rf"{change_events.DAY_DATE}|{_WEEKDAY}(?:\s+at\s+(?:{_HOUR}))?)"
)
#: Verbs that move a time (said of an event, by someone else or by the speaker).
_VERB = (
    r"(?:rescheduled|re-scheduled|moved|pushed(?:\s+back)?|bumped|brought\s+forward|"
    r"shifted|postponed|delayed|changed)"
)
_EVENT = rf"(?P<s>(?!(?:it|them|that|this)\b){NP})"
_MOVED = re.compile(
    rf"{LEAD}(?P<agent>{NP})\s+(?:has\s+|have\s+|just\s+)?{_VERB}\s+{_EVENT}\s+"
    rf"(?:back\s+|forward\s+)?to\s+(?P<o>{_WHEN})\b",
    re.I,
)
_MOVED_PASSIVE = re.compile(
    rf"{LEAD}{_EVENT}\s+(?:has\s+been|have\s+been|was|were|got|is|has\s+got)\s+{_VERB}\s+"
    rf"(?:back\s+|forward\s+)?to\s+(?P<o>{_WHEN})\b",
    re.I,
)
#: The verbs the move rules (``change_signals``) read of a thing said first.
_PLAIN_MOVE = re.compile(r"\b(?:moved|shifted|changed)\s+(?:back\s+|forward\s+)?to\b", re.I)
#: "Biscuit's check-up at the vet is on Monday the 14th", "My haircut appointment with
#: Carla is on Thursday the 10th": what the event is at or with is no part of its name.
_ON_DAY = re.compile(
    rf"{LEAD}{_EVENT}(?:\s+(?:at|with)\s+[^,]+?)?\s+(?:is|are)\s+on\s+"
    rf"(?P<o>{change_events.DAY_DATE}|{_WEEKDAY})\b",
    re.I,
)
#: A place's name: capitalised words, a particle between two ("Quinta da Regaleira").
_PARTICLE = r"(?:da|de|di|do|du|del|della|van|von|der|la|le)"
_NAME = rf"[A-Z][\w'’&-]*(?:\s+(?:{_PARTICLE}\s+)?[A-Z][\w'’&-]*){{0,3}}"
#: "The team Christmas dinner is at Bellini on Friday", "the team dinner is at Rosa's
#: Kitchen now, not Bellini": a place named (capitalised) after "is at".
_AT = re.compile(
    rf"{LEAD}{_EVENT}\s+(?P<verb>is|are|meets|meet)\s+(?:now\s+)?at\s+(?P<o>(?-i:{_NAME}))"
    rf"(?:\s+now)?(?:,?\s+(?:not|instead\s+of)\s+(?:at\s+)?(?P<old>(?-i:{_NAME})))?(?:[\s,].*)?$",
    re.I,
)
#: A group that meets somewhere ("Our book club meets at The Crown"): where it meets is
#: its venue, as an event's (round twenty-five: read as ``uses``, its close demoted the
#: first statement for "What time is book club?").
_MEETING_GROUPS = frozenset(("club", "choir", "group", "society", "circle", "band", "orchestra"))
#: ... at a place named whole: its name ends the clause or a day or time follows ("at
#: Nina's flat", "at Foyles cafe" name more than the capitals: the rules read them).
_MET_AT = re.compile(
    rf"\bmeets?\s+(?:now\s+)?at\s+(?-i:{_NAME})\s*(?:$|[,.;]|now\b|on\b|at\b|every\b|each\b|"
    r"this\b|next\b|from\b|until\b)",
    re.I,
)
#: "I'm flying to Lisbon on January 14", "We're driving to Edinburgh on December 27": the
#: trip's day ("Change of plan: I'm flying to Lisbon on January 13 instead" moves it).
_TRIP = re.compile(
    r"^(?:I\s+am|we\s+are)\s+(?:flying|driving|travell?ing|going|heading|leaving|taking\s+the\s+"
    rf"(?:train|ferry|bus))\s+(?:back\s+)?to\s+(?P<place>(?-i:{_NAME}))\s+on\s+"
    rf"(?P<o>{change_events.DAY_DATE}|{_WEEKDAY})\b",
    re.I,
)
_CHANGED = re.compile(r"\b(?:instead|now|rather\s+than|not)\b", re.I)
#: The words a clause needs for any rule here to be tried.
WORDS = (" to ", " on ", " at ")
_MOVE_WORDS = ("schedul", "moved", "pushed", "bumped", "forward", "shifted", "postponed",
               "delayed", "changed")  # fmt: skip
#: The words a clause needs to be read by any change rule for this module's sake (beside
#: the other rules' words, ``change_signals._ANY_WORD``): a reschedule, a trip.
CUES = (*_MOVE_WORDS, " flying ", " driving ", "travel", " heading ", " is at ", " are at ",
        " meets at ", " meet at ")  # fmt: skip


def said(clause: str, lower: str, speaker: str | None) -> list[Claim]:
    """The claims of an event moved, or of its first day and venue (see above)."""
    if " to " in lower and any(w in lower for w in _MOVE_WORDS):
        return moved(clause, speaker)
    if " to " in lower and " on " in lower and (trip := _TRIP.match(clause)) is not None:
        signal = CHANGE if _CHANGED.search(clause) else PLAIN
        return [Claim(f"{trip['place']} trip", "scheduled", trip["o"], signal)]
    if " is " in lower or " are " in lower or " meet" in lower:
        return placed(clause, speaker)
    return []


def moved(clause: str, speaker: str | None) -> list[Claim]:
    """(event, "scheduled", new time) of "they rescheduled my physio to 2pm"."""
    for regex in (_MOVED, _MOVED_PASSIVE):
        match = regex.match(clause)
        if match is None:
            continue
        event_noun = change_events.is_event(match["s"])
        mine = regex is _MOVED and subject(match["agent"], speaker) == (speaker or "user")
        if mine and not event_noun and "schedul" not in clause.lower():
            continue  # "I moved my notes to Monday": only an event is rescheduled
        if regex is _MOVED_PASSIVE and not event_noun and _PLAIN_MOVE.search(clause):
            continue  # "the feature freeze got moved to the 14th": the move rules read it
        event = subject(match["s"], speaker)
        if event and event != (speaker or "user"):
            return [Claim(event, "scheduled", match["o"], CHANGE, None, CHANGE_CONFIDENCE)]
    return []


def placed(clause: str, speaker: str | None) -> list[Claim]:
    """An event's first day ("is on Monday the 14th") and its venue ("is at Bellini")."""
    found: list[Claim] = []
    at = _AT.match(clause)
    if at is not None and (
        change_events.is_event(at["s"])
        if at["verb"].lower() in ("is", "are")
        else at["s"].lower().split()[-1] in _MEETING_GROUPS and _MET_AT.search(clause)
    ):
        event, venue = subject(at["s"], speaker), phrase(at["o"])
        if not (event and venue):
            return []
        old = phrase(at["old"]) if at["old"] else None
        if old:  # "is at Rosa's Kitchen now, not Bellini": the venue changed
            return [Claim(event, "venue", venue, CHANGE, old, CHANGE_CONFIDENCE)]
        found.append(Claim(event, "venue", venue, signal_of(clause, False)))
        day = re.search(rf"\bon\s+(?P<o>{change_events.DAY_DATE}|{_WEEKDAY})\b", clause, re.I)
        if day is not None:  # "... is at Bellini on Friday the 18th": its day too
            found.append(Claim(event, "scheduled", day["o"], found[0].signal))
        return found
    on = _ON_DAY.match(clause)
    if on is not None and change_events.is_event(on["s"]):
        event = subject(on["s"], speaker)
        if event:
            found.append(Claim(event, "scheduled", on["o"], signal_of(clause, False)))
    return found
