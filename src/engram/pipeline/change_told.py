"""Slots told in a chat (mined38): the first values a chat turn states, one sentence
at a time, and an assistant's acknowledgement of the user's change.

:func:`engram.pipeline.change_firsts.firsts` reads one short plain statement ("The
budget is 9k.", "The caterer is Green Fig."), and only when it is the whole memory. A
chat turn is rarely one sentence: "The budget is 9k. The tiles are from Topps Tiles."
or "The plumber is Gareth, he starts on the 14th." held two statements, so neither
was read, and the change said later ("the budget went up to 11k") had no held slot
to close. :func:`firsts` reads each sentence of a short turn alone, and the leading
clause of a sentence whose tail is about the value just named (", he starts on the
14th"), with the same reader; the whole text's reading is used when it gives one.

An assistant's acknowledgement ("Updated the budget to 11k.", "Changed: the caterer is
now Smoke and Salt.", "Got it - pickup now 6:00.") is the most regular text of such a
chat, but it is the assistant's turn: no fact of its own is taken from it. It is read
only as confirming the user's turn just before it: :func:`acknowledged` gives the
slot and value when that turn names the value too, and the write path then reads the
user's turn again as "<slot> is now <value>" (a stated change), so the old value
closes by the same plan as any change.
"""

from __future__ import annotations

import re

from engram.pipeline import change_firsts
from engram.pipeline.change_signals import HEDGE
from engram.pipeline.turns import split_sentences

#: Turns longer than this are not read sentence by sentence: a slot and a value in a
#: long message are seldom its statement (``change_firsts.MAX_WORDS`` a sentence).
MAX_TURN_WORDS = 60
#: A tail that speaks of the value just named, not a second fact of the slot:
#: "The plumber is Gareth, he starts on the 14th" holds "The plumber is Gareth".
_TAIL = re.compile(
    r",\s+(?:he|she|they|who|which|it|a|an)\b(?!.*\b(?:not|instead|now|anymore)\b)", re.I
)

_VERB = re.compile(r"\s(?:is|are|was|were|will|has|have|got|went)\s", re.I)
_AFTER_NUMBER = re.compile(r"(?<=\d)\.\s+(?=[A-Z])")
# "The photographer is Ana and the band is The Quicksteps": two statements of two slots.
_AND_THE = re.compile(r",?\s+and\s+(?=(?:the|my|our)\s+[a-z]+(?:\s+[a-z]+)?\s+(?:is|are)\s)")
_SLOT = r"(?P<slot>(?:[A-Z][\w']*'s\s+)?[a-z][a-z' -]{1,40}?)"
# A value ends at a comma or a full stop, but not one inside a number ("1,080", "2.80").
_VALUE = r"(?P<value>(?:[^,;.!?]|(?<=\d)[,.](?=\d)){1,40}?)"
# "Updated the budget to 11k." / "Updated Mia's swimming lessons to Fridays."
_UPDATED_TO = re.compile(
    rf"^(?:updated|changed|moved)\s+(?:the\s+|your\s+)?{_SLOT}\s+to\s+{_VALUE}\s*[.!]?$", re.I
)
# "Updated: the plumber is now Marek." / "Changed: your ISA is now with Trading 212."
_IS_NOW = re.compile(
    rf"^(?:updated|changed|noted)\s*[:,-]\s*(?:the\s+|your\s+)?{_SLOT}\s+(?:is|are)\s+now\s+"
    rf"(?:with\s+|at\s+|on\s+)?{_VALUE}\s*[.!]?$",
    re.I,
)
# "Got it - pickup now at 6:00." / "Got it - hotel now Ibis Old Town."
_NOW_DASH = re.compile(
    rf"^(?:got it|okay|ok|done)\s*[:,-]+\s*(?:the\s+|your\s+)?{_SLOT}\s+now\s+"
    rf"(?:with\s+|at\s+|on\s+)?{_VALUE}\s*[.!]?$",
    re.I,
)
_ACKS = (_UPDATED_TO, _IS_NOW, _NOW_DASH)

# A sentence's opening words that tell no fact ("Bad news, ...", "Update: ...").
_OPENING = (
    r"^(?:(?:so|and|also|but|ok|okay|right|well|update|heads up|bad news|good news|"
    r"change of plan)\b[\s,:;-]*)*"
)
_OWN = r"(?:the|my|our)\s+"
# A slot's noun: up to three words, none a determiner or a preposition ("my GP bumped
# the sertraline up to 100mg" names no slot "gp bumped the sertraline").
_NOUN = r"(?P<slot>[a-z][a-z-]*(?:\s+(?!(?:the|a|an|my|our|to|of|for|in|on)\b)[a-z][a-z-]*){0,2}?)"
# "the budget went up to 11k", "the launch date slipped to March 17", "the MOT got
# pushed back to June": the held slot's new value by a verb of moving it.
_MOVED = re.compile(
    rf"{_OPENING}{_OWN}{_NOUN}\s+(?:has\s+|have\s+|was\s+|were\s+|got\s+|is\s+|are\s+)?"
    r"(?:gone|went|go(?:es)?|come|came|been)?\s*"
    r"(?:up|down|moved|slipped|bumped|pushed(?:\s+back)?|brought\s+forward|changed(?:\s+over)?|"
    r"switched|increased|decreased|raised|dropped|rose|fell|shifted)\s+(?:up\s+|down\s+|over\s+|back\s+)?"
    rf"to\s+{_VALUE}(?=$|[,;.!?](?!\d)|\s+(?:because|since|as|after|from|now|so)\b)",
    re.I,
)
# "we switched the caterer to Smoke and Salt", "I moved the ISA over to Trading 212":
# the speaker moving their own slot (never "her plumber", someone else's).
_SWITCHED = re.compile(
    rf"{_OPENING}(?:we|i)(?:'ve|\s+have|\s+just)?\s+(?:switched|moved|changed)\s+{_OWN}{_NOUN}"
    rf"\s+(?:over\s+)?to\s+{_VALUE}(?=$|[,;.!?](?!\d)|\s+(?:because|since|as|after|now|so)\b)",
    re.I,
)
# "the fence will be cedar instead of larch": a plan said of the slot, with what it ends.
_INSTEAD = re.compile(
    rf"{_OPENING}{_OWN}{_NOUN}\s+(?:will\s+be|is\s+going\s+to\s+be|is)\s+{_VALUE}"
    r"\s+(?:instead\s+of|rather\s+than)\s+",
    re.I,
)
# "the plumber is now Marek": the slot's value said with "now" (an acknowledgement's
# confirmation is said so too, :func:`confirmed`).
_IS_NOW_SAID = re.compile(
    rf"{_OPENING}{_OWN}{_NOUN}\s+(?:is|are)\s+now\s+{_VALUE}(?=$|[,;.!?](?!\d)|\s+(?:because|since|as|after|so)\b)",
    re.I,
)
_SHAPES = (_MOVED, _SWITCHED, _INSTEAD, _IS_NOW_SAID)


def firsts(text: str) -> list[tuple[str, str, str, float]]:
    """The first values ``text`` states: the whole text's (``change_firsts.firsts``),
    else each sentence's of a short turn, alone or without a tail about its value."""
    whole = change_firsts.firsts(text)
    if (whole and not moved(text)) or len(text.split()) > MAX_TURN_WORDS:
        return whole
    found: list[tuple[str, str, str, float]] = []
    for sentence in _sentences(text):
        said = _moved(sentence)
        if said is None and not _own(sentence):
            continue
        read = change_firsts.firsts(said or sentence)
        if not read and (tail := _TAIL.search(sentence)) is not None:
            read = change_firsts.firsts(sentence[: tail.start()])
        found += [f for f in read if f not in found]
    return found


def moved(text: str) -> bool:
    """Whether a sentence of ``text`` moves a slot of the speaker's own to a new value
    ("the budget went up to 11k"): a change, as "now" says one."""
    return len(text.split()) <= MAX_TURN_WORDS and any(_moved(s) for s in _sentences(text))


def _own(sentence: str) -> bool:
    """Whether a sentence read alone may state a slot of the speaker's: "the / my / our
    <slot> is <value>", not "her name is Pip" (her: someone the turn named before), nor
    "The Clive Road tenant is Mrs Aziz" (a slot of a named thing, not the speaker's)."""
    subject = _VERB.split(sentence.strip(), maxsplit=1)[0].split()
    if not subject or subject[0].lower() not in {"the", "my", "our"}:
        return False  # "Also picked up new skills" states no slot
    return not any(word[:1].isupper() for word in subject[1:])


def _sentences(text: str) -> list[str]:
    """The sentences of ``text``, a number's full stop ending one too ("The launch is
    March 3. The page is on Netlify."; a decimal, "2.50", has no space after it), and
    the statements of one joined by "and the <slot> is"."""
    return [
        p
        for s in split_sentences(text)
        for n in _AFTER_NUMBER.split(s)
        for p in _AND_THE.split(n)
        if p.strip()
    ]


def _moved(sentence: str) -> str | None:
    """The sentence's change said as a statement ("The budget is 11k."), or None."""
    sentence = " ".join(sentence.split())
    for shape in _SHAPES:
        # "will be X instead of Y" decides; elsewhere "will", "might" only plan
        found = shape.match(sentence)
        if found is not None and shape is not _INSTEAD and HEDGE.search(sentence):
            return None
        if found is not None:
            slot, value = found["slot"].strip(), found["value"].strip()
            if value.split()[0].lower() in {
                "the",
                "a",
                "an",
                "my",
                "our",
                "his",
                "her",
            } and not any(c.isupper() or c.isdigit() for c in value):
                return None  # "moved the meeting to the afternoon": no value of a slot
            return f"The {slot} is {value}."
    return None


def acknowledged(reply: str, before: str | None) -> tuple[str, str] | None:
    """The ``(slot, value)`` an assistant's acknowledgement confirms, when the user's
    turn ``before`` it names the value too; None for any other reply."""
    if not before:
        return None
    text = " ".join(reply.split())
    for shape in _ACKS:
        found = shape.match(text)
        if found is None:
            continue
        slot, value = found["slot"].strip(), found["value"].strip()
        if value.lower() in " ".join(before.split()).lower() and slot.lower() not in {
            "it",
            "that",
            "this",
        }:
            return slot, value
    return None


def confirmation(reply: str, before: str) -> str | None:
    """``Core.confirmer``: the change an assistant's ``reply`` confirms of the user's
    turn ``before`` it, said as the user's ("The budget is now 11k."), or None."""
    found = acknowledged(reply, before)
    return None if found is None else confirmed(before, *found)


def confirmed(before: str, slot: str, value: str) -> str:
    """The user's turn as the acknowledgement confirms it: its words, then the slot's
    new value stated as a change ("The budget is now 11k.")."""
    head = slot if re.match(r"[A-Z][\w']*'s\s", slot) else f"The {slot}"
    return f"{head} is now {value}."
