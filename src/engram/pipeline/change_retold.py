"""Changes said in passing in shapes the readers lack, retold in shapes they read
(issue 28, FEATURES G2; round twenty-five of the new-user week, docs/benchmarks.md).

A user tells an assistant "Rosa has a new email, rosa@fintrove.com", "The gardener came
back with 260 pounds instead", "Let's make the barbecue budget 350 pounds" or "Let's go
up to 80 pounds for the leaving gift". The change reader
(:mod:`engram.pipeline.change_signals`) already reads "Rosa's new email is ...", "The
gardener's quote is 260 pounds now" and "Our barbecue budget is now 350 pounds"; as
:mod:`engram.pipeline.change_chat` does for chat, :func:`retold` puts the one into the
other, with rules only (the write path reads every turn), and adds no claim of its own:

- **a new address or number** said with "has/got a new ..., Y" (not "I have": the
  speaker's own is said with "my");
- **a quote that came back** "with/at" an amount "instead": the trade's or firm's quote
  is that amount now; and its first value, "X quoted N for ...", the quote it gives;
- **an imperative budget** ("let's make / set / raise the X budget N", "actually make
  ...") and **a cap** ("let's go up to N for the X", "spend up to N on the X"): the
  X budget is N now.

:func:`firsts` reads a budget's first value said with a verb of agreeing on it ("We set
the barbecue budget at 300 pounds", "We agreed 50 pounds for the leaving gift"), so the
later change has a value to close.

Every rule needs its amount or address after the words: "Let's make the party fun",
"Nadia quoted Keats", "we might go up to the lake" are no value.
"""

from __future__ import annotations

import re

#: The speaker's entity (``closing.SPEAKER``).
SPEAKER = "user"

#: An amount of money: "540 pounds", "£1,200", "2000 euros", "3.5k".
_AMOUNT = r"(?:[£$€]\s?\d[\d,.]*k?|\d[\d,.]*\s?(?:k\b|euros?\b|pounds\b|quid\b|dollars\b|bucks\b))"
#: A thing a budget is for, two or three plain words ("barbecue", "leaving gift").
_THING = r"[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?"
#: Who: "the roofer", "our gardener", or a name ("Kestrel Builders", "Dr Kowal").
_WHO = (
    r"(?P<who>(?:[Tt]he|[Oo]ur|[Mm]y)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?|"
    r"(?!I\b)[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2})"
)

# "Rosa has a new email, rosa@fintrove.com", "Dr Marsh got a new number: 07700 900202":
# "Rosa's new email is ..." (read already). "e-mail" is said "email" (``uses_email``).
_NEW_CONTACT = re.compile(
    rf"\b{_WHO}\s+(?:has|got|has\s+got)\s+a\s+new\s+(?P<what>e-?mail(?:\s+address)?|"
    r"(?:phone\s+|mobile\s+)?number|mobile|phone|address)\s*(?:[,:]|\s[-–—]|\s+(?:which\s+"
    r"is|now|it(?:'|’)?s))\s*(?=[\w+(])"
)
# "The gardener came back with 260 pounds instead", "Kestrel's quote came back at
# 3,700 pounds instead": the quote is that amount now. "instead" is needed: "came back
# at 300 pounds" alone may be a first quote.
_CAME_BACK = re.compile(
    rf"\b{_WHO}(?:['’]s?\s+(?:quote|estimate|price))?\s+came\s+back\s+(?:with|at)\s+"
    rf"(?:a\s+(?:new\s+|lower\s+|higher\s+)?(?:quote|price|estimate)\s+of\s+)?"
    rf"(?P<amount>{_AMOUNT})(?:\s+for\s+[\w\s'’-]{{1,40}}?)?\s+instead\b(?P<comma>\s*,)?"
)
# "The electrician quoted 620 pounds to rewire the garage": its quote.
_QUOTED = re.compile(rf"\b{_WHO}\s+quoted\s+(?:us\s+|me\s+)?(?P<amount>{_AMOUNT})")
#: An imperative: said after "let's" or at a sentence's start (fillers in front).
_IMPERATIVE = (
    r"(?:\blet(?:['’]s|\s+us)\s+|(?:^|(?<=[.!?]\s))(?:(?:actually|ok(?:ay)?|so|right|"
    r"oh)[\s,]+)*)"
)
# "Let's make the barbecue budget 350 pounds", "Actually, raise the gift budget to 400
# euros".
_MAKE_BUDGET = re.compile(
    rf"{_IMPERATIVE}(?:make|set|put|raise|bump\s+up|increase|lower|cut|reduce|drop)\s+"
    rf"(?:the|our|my)\s+(?P<what>{_THING}\s+budget)\s+(?:at\s+|to\s+)?"
    rf"(?P<amount>{_AMOUNT})(?P<comma>\s*,)?",
    re.IGNORECASE,
)
# "Let's go up to 80 pounds for the leaving gift", "Spend up to 150 pounds on the
# party": a cap, the thing's budget.
_UP_TO = re.compile(
    rf"{_IMPERATIVE}(?:go|spend)\s+up\s+to\s+(?P<amount>{_AMOUNT})\s+(?:for|on)\s+"
    rf"(?:the|our|my)\s+(?P<what>{_THING})(?:(?P<comma>\s*,)|\s*(?=[.!?;]|$))",
    re.IGNORECASE,
)
# "We set the barbecue budget at 300 pounds", "We agreed 50 pounds for the leaving
# gift": a first value, as ``change_passing._BUDGETED`` reads "We budgeted ...".
_SET_BUDGET = re.compile(
    r"^(?:we|i)\s+(?:set|fixed|agreed(?:\s+on)?)\s+(?:the|our|my)\s+"
    rf"(?P<what>{_THING})\s+budget\s+(?:at|to|as)\s+(?P<amount>{_AMOUNT})\s*$",
    re.IGNORECASE,
)
_AGREED_FOR = re.compile(
    rf"^(?:we|i)\s+(?:agreed(?:\s+on)?|settled\s+on)\s+(?P<amount>{_AMOUNT})\s+for\s+"
    rf"(?:the|our|my)\s+(?P<what>{_THING})\s*$",
    re.IGNORECASE,
)
#: A street address: a number, one to three capitalised words and a street word ("12 King
#: Street", "40 Quay Road", "7b Mill Lane").
_STREET = (
    r"\d+[a-z]?\s+(?:[A-Z][\w'’-]*\s+){1,3}?(?:Street|St|Road|Rd|Lane|Avenue|Ave|Way|Place|"
    r"Square|Drive|Close|Court|Row|Terrace|Crescent|Hill|Gardens|Walk|Quay|Wharf|Parade|Yard)\b"
)
#: Premises a team or a person keeps an address for.
_PREMISES = r"(?:office|studio|shop|clinic|surgery|warehouse|workshop|HQ|headquarters)"
# "Our office is at 12 King Street", "The studio is now on 3 Canal Walk": the premises'
# address (the lead's change check, session thirty-one: "Our office is at ..." stated
# nothing, and "We've moved offices to ..." read ``offices uses ...``, closing nothing).
# "Our office address is ..." is read already, a single value a later one closes.
_PREMISES_AT = re.compile(
    rf"\b(?:[Oo]ur|[Mm]y|[Tt]he)\s+(?P<place>{_PREMISES})\s+is\s+(?P<now>now\s+)?(?:at|on)\s+"
    rf"(?P<address>{_STREET})"
)
# "We've moved offices to 40 Quay Road", "I moved my studio to 3 Canal Walk", "The
# clinic has moved to 18 Harbour Road", "Office relocated to 40 Bread Street".
_PREMISES_MOVED = re.compile(
    rf"(?:\b(?:[Ww]e|I)(?:['’]ve|\s+have)?\s+(?:just\s+)?(?:moved|relocated)\s+"
    rf"(?:(?:our|my|the)\s+)?(?P<place>{_PREMISES})s?|"
    rf"(?:^|\b(?:[Oo]ur|[Mm]y|[Tt]he)\s+)(?P<subject>(?i:{_PREMISES}))\s+(?:has\s+|have\s+)?"
    r"(?:just\s+)?(?:moved|relocated))"
    rf"\s+to\s+(?P<address>{_STREET})"
)
#: Cheap tests first: most turns say none of these words.
_CUES = ("new", "came back", "quoted", "budget", "up to", " is at ", " is on ", " is now ",
         "moved ", "relocated ")  # fmt: skip


def _contact(match: re.Match[str]) -> str:
    """The reader's noun: "email" ("e-mail" is another relation), "phone" for a phone
    or mobile number (it reads no "phone number"), "number" as said."""
    what = re.sub(r"^e-mail", "email", match["what"])
    what = "phone" if what.startswith(("phone", "mobile")) else what
    return f"{match['who']}'s new {what} is "


def retold(text: str) -> str:
    """``text`` with each shape above put the way the change reader reads it."""
    lower = text.lower()
    if not any(cue in lower for cue in _CUES):
        return text
    if "new" in lower:
        text = _NEW_CONTACT.sub(_contact, text)
    if "came back" in lower:
        text = _CAME_BACK.sub(lambda m: _said(m, f"{_owner(m['who'])}'s quote is", "now"), text)
    if "quoted" in lower:
        text = _QUOTED.sub(lambda m: _said(m, f"{_owner(m['who'])}'s quote is"), text)
    if "budget" in lower:
        text = _MAKE_BUDGET.sub(lambda m: _said(m, f"{_budget(m['what'])} is now"), text)
    if "up to" in lower:
        text = _UP_TO.sub(lambda m: _said(m, f"Our {m['what']} budget is now"), text)
    if " is " in lower:
        text = _PREMISES_AT.sub(lambda m: _premises(m, bool(m["now"])), text)
    if "moved " in lower or "relocated " in lower:
        text = _PREMISES_MOVED.sub(lambda m: _premises(m, True), text)
    return text


def _premises(match: re.Match[str], now: bool) -> str:
    """The premises' address as the reader reads a single value: "Our office address is
    (now) 40 Quay Road"."""
    place = (match["place"] or match.groupdict().get("subject") or "").lower()
    place = place.upper() if place == "hq" else place
    return f"Our {place} address is {'now ' if now else ''}{match['address']}"


def _said(match: re.Match[str], head: str, tail: str = "") -> str:
    """``head``, the amount (its thousands unseparated: the reader cuts "3,700" at the
    comma) and ``tail``; a comma after it ends the clause ("Our gift budget is now 400
    euros, the one we want costs more" read only the second clause)."""
    amount = re.sub(r"(?<=\d),(?=\d{3}\b)", "", match["amount"])
    said = " ".join(w for w in (head, amount, tail) if w)
    return f"{said}." if match.groupdict().get("comma") else said


def _budget(what: str) -> str:
    """The budget as the reader names its owner: "the Faro holiday budget" is "The
    holiday budget for Faro" (read ``Faro holiday_budget``, as the first statement "The
    holiday budget for Faro is ..." is); a budget of no name is the speaker's."""
    words = what.split()
    if len(words) > 2 and words[0][:1].isupper():
        return f"The {' '.join(words[1:])} for {words[0]}"
    return f"Our {what}"


def _owner(who: str) -> str:
    """The subject "the roofer" is said of, with a capital in front ("The roofer")."""
    return who[:1].upper() + who[1:]


def firsts(text: str) -> list[tuple[str, str, str]]:
    """The ``(owner, slot, value)`` of a budget's first value said with a verb of
    setting or agreeing on it, or none."""
    if "budget" not in text.lower() and "agreed" not in text.lower():
        return []
    sentence = text.strip().rstrip(".!").strip()
    for pattern in (_SET_BUDGET, _AGREED_FOR):
        match = pattern.match(sentence)
        if match is not None:
            words = match["what"].split()
            if len(words) > 1 and words[0][:1].isupper():  # as :func:`_budget` names it
                return [(words[0], f"{' '.join(words[1:]).lower()} budget", match["amount"])]
            return [(SPEAKER, f"{' '.join(words).lower()} budget", match["amount"])]
    return []
