"""Changes of a plan said in passing (round twenty-two, FEATURES G2): an appointment or
a lesson named by what it is for ("the dentist" for "my dentist appointment") and a day
said with its date ("Thursday the 17th").

A personal assistant's user says "Actually the dentist moved to Thursday the 17th" of
"My dentist appointment is on Tuesday the 15th": the rules read "moved to" of a person
as a new home (``lives_in``) and the subject "the dentist" as another thing than the
appointment, so nothing closed and the old day ranked above the new one.
"""

from __future__ import annotations

import re

from engram.pipeline.patterns import word_set

#: The nouns an event is named by after what it is for: "the dentist" is "the dentist
#: appointment" when the graph holds that and no "dentist" (``closing._Reads.resolve``).
EVENT_HEADS = ("appointment", "lessons", "lesson", "practice", "class", "session")

_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_ORDINAL = r"\d{1,2}(?:st|nd|rd|th)"
#: A day said with its date: "Thursday the 17th", "the 17th", "January 13", "13 January",
#: "Friday 18 December".
DAY_DATE = (
    rf"(?:(?:{_WEEKDAY},?\s+)?(?:the\s+{_ORDINAL}(?:\s+of\s+{_MONTH})?|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?))"
)

#: What an event is called: a wedding or a dinner is at a place and works at none ("The
#: wedding is at Quinta da Regaleira" read as ``wedding works_at ...``). Its ``lives_in``
#: is left: "Noor's swimming lessons moved to the Oost pool" closes the old pool by it
#: (the held change fold AD). Round twenty-four widened it from general English (the
#: common nouns of a social or a work event), not from the folds: "Tomas's birthday meal
#: is at Casa Lupo" was ``works_at Casa Lupo`` and its day unrecorded.
_EVENTS = word_set(
    """wedding party dinner lunch breakfast brunch meeting appointment ceremony reception
    concert gig class lesson lessons practice session check-up checkup funeral barbecue
    christening baptism graduation recital rehearsal interview
    meal supper drinks picnic match game show workshop conference retreat seminar
    lecture festival fair tournament race screening exhibition premiere webinar meetup
    """
)


def is_event(subject: str) -> bool:
    """Whether ``subject`` names an event by its head noun ("wedding", "team dinner")."""
    words = subject.lower().split()
    return bool(words) and words[-1] in _EVENTS


#: What a weekly event is called by: "swimming lessons", "football practice".
_WEEKLY_HEADS = (*EVENT_HEADS, "classes", "training", "club")
#: "My daughter Lena has swimming lessons every Wednesday at 5pm", "I have piano lessons
#: on Mondays": the lesson's day, a first value ``change_passing.firsts`` reads, so "Lena's
#: swimming moved to Thursdays now" has a day to close (round twenty-one recorded only
#: ``Lena has_lesson swimming lessons``, and the change as a subject of its own).
_WEEKLY = re.compile(
    r"^(?:(?:[Mm]y|[Oo]ur)\s+[a-z]+\s+)?(?P<owner>I|[Ww]e|[A-Z][\w-]*)\s+(?:has|have)\s+"
    rf"(?P<what>(?:[a-z-]+\s+){{1,2}}?(?:{'|'.join(_WEEKLY_HEADS)}))\s+(?:every|on)\s+"
    rf"(?P<day>(?-i:[A-Z])?(?i:{_WEEKDAY})s?)\b"
)
_SPEAKERS = frozenset(("I", "we", "We"))


def weekly(text: str, lower: str) -> tuple[str, str, str] | None:
    """``(the event, "scheduled", its day)`` of a weekly event a statement names
    (:data:`_WEEKLY`), or None. The speaker's event is named as "my piano lessons" is
    read (the event alone); another person's with their name ("Lena's swimming lessons")."""
    if "day" not in lower or not any(h in lower for h in _WEEKLY_HEADS):
        return None  # a plain substring test first: every write runs this
    match = _WEEKLY.match(text.strip())
    if match is None:
        return None
    owner, what = match["owner"], match["what"]
    return (what if owner in _SPEAKERS else f"{owner}'s {what}", "scheduled", match["day"])
