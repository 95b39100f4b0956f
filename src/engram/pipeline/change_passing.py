"""Changes said in passing (issue 28, FEATURES G2): round eleven's readers.

People tell a change inside a longer turn, with a reason or a complaint around it ("The
roofer found rot in the beams, so the roof budget is 11,500 euros now", "Legal needs
another review, so the launch moved to 18 March", "I switched physios in May, I go to
Dr. Yilmaz now"). What the earlier rounds lacked was mostly the first statement's value
of such slots and the slot said by a plural noun; read here:

- **first values** (:func:`firsts`) of a date something is set for or starts on ("The
  product launch is set for 4 March", "The contractor starts on 3 June"), a budget said
  with a verb ("We budgeted 9,000 euros for the new roof") and a child's school ("My
  daughter Fenna attends the Kastanje primary school");
- **a date that moves** (:func:`date_changes`): a held date slot whose owner the memory
  names, one other date, and a word of moving ("moved", "pushed back", "it's now");
- **the slot said by a plural** (:func:`switched`): "switched dentists", "changed
  schools", "swapped physios" speak of the slot whose word the noun is or opens
  ("physios" of ``physiotherapist``); read by the slot pass
  (:mod:`engram.pipeline.change_slots`) beside the slot's own words;
- **another person's subject** (:func:`others`): "My friend's startup ditched Notion for
  Coda" is the friend's change, and replaces none of ours.

Every check is a guard against a wrong close first: a question, a plan, "could",
"might", "whether", "stays" and the like state nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engram.pipeline import change_events, change_retold
from engram.pipeline.change_words import KNOWN_PERSON
from engram.pipeline.prefilter import gated
from engram.store.protocols.graph import Relation, canonical_name, canonical_relation

#: The speaker's entity (``closing.SPEAKER``).
SPEAKER = "user"
#: A first reading's confidence, as ``change_firsts``' (below a change verb's 0.8).
CONFIDENCE = 0.7
#: Longer memories are not read: a slot and a date a paragraph apart are no statement.
MAX_WORDS = 40

_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
#: A calendar date: "4 March", "the 18th of March", "March 18th".
_DATE = (
    rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?)\b"
)
_DATE_RE = re.compile(rf"\b{_DATE}", re.IGNORECASE)
_OWNER = r"(?P<owner>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
#: "The product launch is set for 4 March.", "Our move is booked for 12 May."
_SET_FOR = re.compile(
    rf"^(?:the|our|my)\s+{_OWNER}\s+(?:is|was)\s+(?:set|scheduled|planned|booked|due|"
    rf"pencilled\s+in)\s+(?:for|on)\s+(?:the\s+)?(?P<value>{_DATE})\s*$",
    re.IGNORECASE,
)
#: "The contractor starts on 3 June.", "The new hire begins on the 2nd of May."
_STARTS_ON = re.compile(
    rf"^(?:the|our|my)\s+{_OWNER}\s+(?P<verb>starts|begins|arrives|opens)\s+on\s+"
    rf"(?:the\s+)?(?P<value>{_DATE})\s*$",
    re.IGNORECASE,
)
#: "We budgeted 9,000 euros for the new roof.", "I set aside £500 for the holiday."
_BUDGETED = re.compile(
    r"^(?:we|i)\s+(?:have\s+|'ve\s+)?(?:budgeted|set\s+aside|put\s+aside|earmarked)\s+"
    r"(?P<value>[£$€]?\d[\d,.]*(?:\s?(?:k|euros?|pounds|dollars))?)\s+for\s+"
    r"(?:the|our|my)\s+(?:new\s+)?(?P<owner>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s*$",
    re.IGNORECASE,
)
#: "My daughter Fenna attends the Kastanje primary school.": a child's school.
_SCHOOL = re.compile(
    r"^(?i:(?:my|our)\s+(?:son|daughter|kid|boy|girl|eldest|youngest)\s+)(?P<owner>[A-Z][a-z]+)\s+"
    r"(?i:(?:attends|goes\s+to|is\s+at)\s+(?:the\s+)?)"
    r"(?P<value>[A-Z][\w'’-]*(?:\s+[\w'’-]+){0,3}?\s+(?i:school|academy|college|nursery))\s*$"
)
_SCHOOL_WORDS = ("school", "academy", "college", "nursery")
_DIGIT = re.compile(r"\d")
#: A word of moving a date: said, the date holds from now on.
_MOVED = gated(
    re.compile(
        r"\b(?:moved|pushed(?:\s+back)?|brought\s+forward|postponed|delayed|slipped|"
        r"rescheduled|shifted|changed|now|instead)\b",
        re.IGNORECASE,
    )
)
#: Not stated as holding: a question, a plan, a maybe, a request, a date that stays.
#: "Change of plan: ..." states the change (round twenty-three: Lisbon's new day).
_NOT_STATED = re.compile(
    r"\?|\b(?:could|might|may\s+(?:move|slip)|maybe|whether|if|asked|ask|propos\w*|"
    r"(?<!change\sof\s)plan(?:s|ned|ning)?|hop(?:e|es|ing)|stays?|stands|still|unless|would|should|"
    r"for\s+(?:the\s+)?(?:one|first|other))\b",
    re.IGNORECASE,
)
#: "switched dentists", "changed schools", "swapped physios", "changed venue": the slot
#: said by its noun after the verb, no article between.
_SWITCHED = re.compile(
    r"\b(?:switched|changed|swapped|moved)\s+(?!(?:the|our|my|his|her|their|its|all|over|"
    r"back|from|to|into|out|up|in|on|it|them)\b)(?P<noun>[a-z]{3,}?)(?:e?s)?\b",
    re.IGNORECASE,
)
#: Another person's subject: "my friend's startup", "our neighbours' kids".
_OTHERS = re.compile(rf"^(?:(?:my|our)\s+)?{KNOWN_PERSON}['’]s?(?:\s|$)", re.IGNORECASE)


def firsts(text: str) -> list[tuple[str, str, str]]:
    """The ``(owner, slot, value)`` a short plain statement of a date, a budget, a
    child's school or the speaker's way to work names, or none."""
    lower = text.lower()
    if (weekly := change_events.weekly(text, lower)) is not None:
        return [weekly]  # "My daughter Lena has swimming lessons every Wednesday at 5pm"
    if found := change_retold.firsts(text):  # "We set the barbecue budget at 300 pounds"
        return [(owner, canonical_relation(slot), value) for owner, slot, value in found]
    # Plain substring tests first: every write runs this, and most say none of these.
    work = any(w in lower for w in _WORK_WORDS)
    school = any(w in lower for w in _SCHOOL_WORDS)
    if not (work or school or _DIGIT.search(text)):
        return []
    sentence = text.strip().rstrip(".!").strip()
    if work:
        commute = _commute(sentence)
        if commute:
            return commute
    if not sentence or len(sentence.split()) > 18 or re.search(r"[.;!?]\s", sentence):
        return []
    said = _SCHOOL.match(sentence) if school else None
    if said is not None:
        return [(said["owner"], "school", said["value"])]
    if not _DIGIT.search(sentence):  # a date and a budget hold a number
        return []
    for pattern, slot in ((_SET_FOR, "date"), (_STARTS_ON, None)):
        match = pattern.match(sentence)
        if match is not None:
            relation = slot or f"{match['verb'].lower()}_on"
            return [(match["owner"], relation, match["value"])]
    budget = _BUDGETED.match(sentence)
    if budget is not None:
        return [(SPEAKER, canonical_relation(f"{budget['owner']} budget"), budget["value"])]
    return []


#: "I drive to the office every day.", "These days I cycle to work": how the speaker gets
#: to work, said in a clause of its own (a habit held one way at a time).
_COMMUTE = re.compile(
    r"^(?:(?:these\s+days|nowadays|now)\s*,?\s+)?(?:i|i['’]m)\s+(?:usually\s+|always\s+|"
    r"mostly\s+|normally\s+|now\s+)?(?P<mode>drive|cycle|bike|walk|run|ride\s+my\s+bike|"
    r"take\s+the\s+(?:train|bus|tram|metro|tube|ferry)|cycling|driving|walking)\s+"
    r"(?:to|into)\s+(?:the\s+office|work|the\s+lab|the\s+studio)"
    r"(?:\s+(?:every\s+day|each\s+day|daily|most\s+days|these\s+days|now|nowadays))?$",
    re.IGNORECASE,
)
_WORK_WORDS = ("to work", "into work", "the office", "the lab", "the studio")
#: A way to work, named by its plain verb.
_MODES = {"cycling": "cycle", "bike": "cycle", "ride my bike": "cycle", "driving": "drive",
          "walking": "walk"}  # fmt: skip


def _commute(sentence: str) -> list[tuple[str, str, str]]:
    """The speaker's way to work said in one clause of ``sentence`` (no hedge: the
    closing plan's readers decline a hedged memory before a first reading counts)."""
    if len(sentence.split()) > MAX_WORDS or re.search(
        r"\b(?:for\s+once|today|if)\b", sentence, re.I
    ):
        return []
    for clause in re.split(r"\s*[,;]\s*|\s+(?:and|so|because|since)\s+", sentence):
        match = _COMMUTE.match(clause.strip())
        if match is not None:
            mode = re.sub(r"\s+", " ", match["mode"].lower())
            return [(SPEAKER, "commutes_by", _MODES.get(mode, mode))]
    return []


class Found(Protocol):
    """A held relation a reader found replaced, and its new value (``DateChange``,
    ``change_firsts.NotesChange``), as the closing plan records it."""

    @property
    def old(self) -> Relation: ...

    @property
    def target(self) -> str: ...


@dataclass(frozen=True, slots=True)
class DateChange:
    """``old`` (a held date) is replaced by ``target`` on the same owner and slot."""

    old: Relation
    target: str


def date_changes(text: str, held: Sequence[Relation]) -> list[DateChange]:
    """The one held date slot ``text`` moves: its owner named (a word of it), one date
    said that is not the held one, a word of moving, nothing hedged. ``held``: the
    namespace's current relations, newest first."""
    if len(text.split()) > MAX_WORDS or not _MOVED.search(text) or _NOT_STATED.search(text):
        return []
    dates = {canonical_name(m.group(0)): m.group(0) for m in _DATE_RE.finditer(text)}
    if len(dates) != 1:
        return []
    ((key, said),) = dates.items()
    words = set(re.findall(r"[a-z]+", text.lower()))
    found = [
        r
        for r in held
        if _DATE_RE.fullmatch(r.target.strip())
        and canonical_name(r.target) != key
        and set(canonical_name(r.source).split()) & words
    ]
    return [DateChange(found[0], said)] if len(found) == 1 else []


def cued(text: str) -> bool:
    """Whether ``text`` may move a held date (read before the graph is)."""
    return (
        _DIGIT.search(text) is not None  # a date holds a number: the cheapest test first
        and _DATE_RE.search(text) is not None
        and _MOVED.search(text) is not None
    )


def switched(text: str, slot: Sequence[str]) -> bool:
    """Whether the memory names the slot by a plural after a verb of changing: the
    noun is the slot's word or opens it ("physios" of ``physiotherapist``)."""
    for match in _SWITCHED.finditer(text):
        noun = match["noun"].lower()
        if any(s == noun or (len(noun) >= 4 and s.startswith(noun)) for s in slot):
            return True
    return False


def before_slot(text: str, value: str, slot: Sequence[str]) -> bool:
    """Whether ``value`` is said right before one of the slot's words ("the Dalton
    school"): of several new names, the slot's value (read by the slot pass)."""
    return any(
        re.search(rf"\b{re.escape(value)}\s+{re.escape(s)}\b", text, re.IGNORECASE) for s in slot
    )


def others(subject: str | None) -> bool:
    """Whether a claim's subject is another person's thing ("friend's startup")."""
    return subject is not None and _OTHERS.match(subject) is not None
