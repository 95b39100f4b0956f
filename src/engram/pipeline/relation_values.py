"""What a read relation's value says beside the thing it names (task junk32).

Mined chats and proxy turns say how much, how often and how firmly beside a value, and
a reader that cuts the value at the clause's end keeps those words in it (round thirty's
new-user passes; ``relation_ends`` reads the rest of a relation's ends):

- **an adverbial tail** names no part of the thing: "I work at Deliveroo part time"
  was read as ``works_at Deliveroo part time``, "I ride a Brompton most days" as
  ``rides Brompton most days``, "Lena is in the ops squad basically" as ``lives_in ops
  squad basically`` (which also hid the work group from ``relation_ends``'s home test).
  The tail goes, in lower case only, so a title ("Full Time", "Every Day") stays;
- **a quantity** is how much of a thing, never the thing: "the kettle uses 1.5 kW"
  read as ``kettle uses 1.5 kW`` names nothing used (:func:`is_quantity`, which
  ``relation_ends.not_a_thing`` asks beside its bare numbers); "I use about 3 litres of
  oat milk a week" uses oat milk (:func:`bare` drops "3 litres of");
- **a name in a type**: "I have two cats called Miso and Tofu" was read as ``user
  has_miso Miso``, a type that is its value again; the text names the noun, so it is
  the owner's cat, ``user cat Miso`` (:func:`has_named`), said in passing (it closes
  nothing, as ``relation_ends._named_type``'s readings);
- **a role word naming someone the text introduces**: "a recruiter called Hannah" was
  read as ``recruiter named Hannah``, an entity "recruiter" shared by every chat's
  recruiters; it names nobody, as ``relation_ends`` drops "a guy called ..."
  (:func:`naming`). "My cat is called Luna" keeps ``cat named Luna`` (a later "the cat
  is called Mochi now" closes it by its type: read into ``user cat Luna`` it closed
  nothing, change stories C-change-018 and C-change-038), and so does "a side project
  called Tasker" (a thing, no role);
- **a type holding "called" or a request** ("lessons with a teacher called Marco" read
  as ``lessons has_called teacher called``, "remind me my dentist is Dr. Okafor" as
  ``remind_me_my_dentist``): a cut clause, no relation, or the slot the request names
  (``dentist``), said in passing;
- **a value that is its own type's noun or its subject again** (task close37): "Leo
  has lessons with Mr Adeyemi now" was read as ``Leo has_lesson lessons`` (the type
  is made of a bare noun had), "I have standup at 9" as ``user has_standup standup``;
  a change reader then took "lessons" for the slot's new value and closed ``Leo
  has_lesson piano``. Such a value names nothing (:func:`self_valued`, asked by
  ``relation_ends.not_a_thing``): it is not recorded and closes nothing, and neither
  does a value that is its subject or its subject's head ("Mrs Greaves named
  Greaves"). A thing had said with an article ("Linda has a whippet") is kept in
  passing (``relation_ends.had_thing``).
"""

from __future__ import annotations

import functools
import re

from engram.pipeline.patterns import word_set
from engram.store.protocols.graph import Triple

#: How often, how much of one's time, how firmly, and the chat's fillers: said beside a
#: value, never part of it (lower case; a title keeps its words).
_TAIL = re.compile(
    r"(?:\s+(?:full[\s-]time|part[\s-]time|most\s+days|every\s+(?:single\s+)?day|each\s+day|"
    r"every\s+(?:week|weekend|morning|evening|night)|on\s+weekends|daily|"
    r"most\s+of\s+the\s+time|all\s+the\s+time|pretty\s+much|basically|mostly|mainly|"
    r"usually|normally|generally|at\s+the\s+moment|atm|right\s+now|for\s+now|a\s+lot|"
    r"lol|lmao|haha|tbh|btw|tho|though|too|as\s+well))+$"
)
#: An amount before what it counts: "about 3 litres", "£95", "1.5 kW", "6 kg".
_HEDGE = (
    r"(?:(?:about|around|roughly|approx\.?|approximately|nearly|almost|over|under|up\s+to|"
    r"~)\s*)?"
)
_AMOUNT = rf"{_HEDGE}[$€£]?\d[\d,.]*(?:\s*[-–]\s*\d[\d,.]*)?"
#: Units of measure and money, and the counted words a quantity ends in.
_UNIT = (
    r"(?:k|km|kms|mi|miles?|metres?|meters?|m|cm|mm|kg|kgs|kilos?|g|grams?|mg|lbs?|"
    r"pounds?|stone|oz|litres?|liters?|l|ml|cl|gallons?|pints?|cups?|kw|kwh|w|watts?|v|"
    r"volts?|amps?|mah|ah|bar|psi|gb|mb|tb|kb|gbps|mbps|kbps|hz|khz|mhz|ghz|fps|dpi|rpm|"
    r"°\s?c|°\s?f|degrees?|%|percent|per\s?cent|euros?|eur|dollars?|usd|gbp|quid|bucks|"
    r"hours?|hrs?|h|minutes?|mins?|seconds?|secs?|ms|days?|weeks?|months?|years?|yrs?|"
    r"people|persons|times|calories|kcal)"
)
#: "a day", "per transaction", "an hour": the rate a quantity is given at.
_RATE = r"(?:\s*(?:/|a|an|per|each|every)\s*[a-z]+)?"
_QUANTITY = re.compile(
    rf"^(?:{_AMOUNT}\s*{_UNIT}|{_HEDGE}[$€£]\d[\d,.]*(?:k|m|bn)?(?:\s*{_UNIT})?)\.?{_RATE}$",
    re.IGNORECASE,
)
#: "3 litres of oat milk": the amount before what is counted.
_COUNTED = re.compile(rf"^{_AMOUNT}\s*{_UNIT}\s+of\s+(?P<rest>[a-z].*)$", re.IGNORECASE)
#: People a role word names without saying who they are: "a teacher called Marco" is
#: Marco; an entity "teacher" named Marco is no one (``relation_ends._SOMEONE``'s
#: "guy", "woman" ..., the trades one hires or meets).
_ROLES = word_set(
    """
    teacher tutor coach trainer instructor recruiter photographer plumber electrician
    builder contractor doctor dentist therapist vet lawyer solicitor accountant mechanic
    agent landlord landlady nurse cleaner nanny babysitter driver guide
    """
)
#: A naming type a clause was cut into: ``has_called``, ``is_named``.
_NAMING_WORDS = frozenset({"called", "named"})
#: A request read into a type: "remind me my dentist is Dr. Okafor" read as
#: ``remind_me_my_dentist``; the slot is what follows "my".
_ASKED = re.compile(r"^(?:remind|tell|note|remember|ask)_(?:me_|that_)*(?:(?P<slot>my_\w+))?")
#: What is left of an amount: "25k total", "40 GB left".
_LEFT = re.compile(r"\s+(?:in\s+)?(?:total|left|spare|remaining|saved|free)$", re.IGNORECASE)
#: How much of a quality, read as a value: "my kitchen is pretty cold" read as ``user
#: kitchen pretty cold``, "our flat is really small".
_DEGREE = re.compile(
    r"^(?:pretty|very|really|quite|so|too|super|fairly|rather|kinda|kind\s+of|a\s+bit|"
    r"a\s+little|extremely|incredibly|way\s+too)\s+[a-z]+$"
)
#: A negation left where a subject goes: "I no longer drive the Golf" read as ``no
#: longer drives Golf``.
_NEGATION = re.compile(r"(?:^|\s)(?:no\s+longer|never|not|no\s+more)$", re.IGNORECASE)


def bare(target: str, relation: str) -> str:
    """``target`` without an adverbial tail, or for a thing used (``relation`` uses*) a
    counted amount before it (module docstring); the target as read when nothing names
    a thing after the cut. A part's amount is its value ("has_memory 4 GB of memory")."""
    if " " not in target:
        return target
    cut = _TAIL.sub("", target)
    counted = _COUNTED.match(cut) if relation.startswith("uses") else None
    if counted is not None:
        cut = counted["rest"]
    return cut if cut.strip() and any(c.isalpha() for c in cut) else target


def is_quantity(target: str) -> bool:
    """Whether ``target`` is only an amount of something ("1.5 kW", "£95 a day", "12%")."""
    return _QUANTITY.match(target.strip()) is not None


def cut_type(relation: str) -> str | None:
    """The type a clause cut into a type means: None for a naming word in a type other
    than ``named`` (``has_called``) or a request with no slot, the slot of "remind me my
    dentist" (``dentist``), the type itself otherwise."""
    words = relation.lower().split("_")
    if relation != "named" and any(w in _NAMING_WORDS for w in words):
        return None
    asked = _ASKED.match(relation.lower())
    if asked is None:
        return relation
    return asked["slot"].removeprefix("my_") if asked["slot"] else None


#: Words beside a noun that name no thing of their own ("the lessons", "my standup").
_FILLER = word_set("a an the my our your his her their its some any new old own this that")
_WORDS = re.compile(r"[a-z0-9]+")


def _stem(word: str) -> str:
    """A word without its plural's or possessive's ending ("lessons", "classes",
    "hobbies", "Leo's") or a final "e", so a value and a type name compare as one
    noun."""
    word = word.removesuffix("'s").removesuffix("’s")
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "ches", "shes", "zes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    # The type's noun is cut at its last "s" alone (``has_classe``, ``has_hobbie``).
    if len(word) > 4 and word.endswith("ie"):
        return word[:-2] + "y"
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def _stems(phrase: str) -> list[str]:
    """``phrase``'s words as stems, without the words that name no thing."""
    return [_stem(w) for w in _WORDS.findall(phrase.lower()) if w not in _FILLER]


def self_valued(source: str, relation: str, kind: str, target: str) -> bool:
    """Whether ``target`` only repeats the relation's own noun (``relation`` as read, or
    ``kind``, the type it is stored as: ``has_lesson lessons``, ``has_football
    football``, ``has_stand_up stand-up``) or its subject, whole or its head noun
    (``Mrs Greaves named Greaves``): a value that names nothing (module docstring)."""
    value = _stems(target)
    if not value:
        return False
    for name in (relation, kind):
        named = _stems(name.replace("_", " "))
        joined = "".join(value)  # "stand-up" of ``has_standup``, "standup" of ``stand_up``
        if set(value) <= set(named) or any("".join(named[i:]) == joined for i in range(len(named))):
            return True
    subject = _stems(source)  # all of it, or its head alone ("Greaves" of "Mrs Greaves")
    return bool(subject) and (value == subject or value == subject[-1:])


def no_value(source: str, relation: str, target: str) -> bool:
    """Whether a relation's value is no thing at all: an amount had ("we have 25k
    total": ``has_total 25k total``; "8 GB" of ``has_memory`` is the memory's), a
    degree of a quality ("pretty cold"), or a subject that is a negation ("no longer
    drives Golf")."""
    if _NEGATION.search(source.strip()):
        return True
    bare_has = relation == "has" or _LEFT.fullmatch(" " + relation.removeprefix("has_"))
    if bare_has and is_quantity(_LEFT.sub("", target.strip())):
        return True  # a part's amount is its value: "has_memory 8 GB" stays
    return _DEGREE.match(target.strip()) is not None


def naming(triple: Triple, text: str) -> Triple | None:
    """A ``named`` triple read from the text: None when a role word names a person the
    text introduces ("a teacher called Marco"), the triple itself otherwise ("my cat is
    called Luna" stays ``cat named Luna``: a later "the cat is called Mochi now" closes
    it by its type)."""
    source, target = triple[0].strip(), triple[2].strip()
    if not source.islower() or source.split()[-1] not in _ROLES:
        return triple  # "Bella named ...": a name's own naming
    introduced = re.search(
        rf"\b(?:a|an)\s+{re.escape(source)}\s+(?:called|named)\s+{re.escape(target)}\b",
        text,
        re.IGNORECASE,
    )
    return None if introduced is not None else triple


def has_named(triple: Triple, text: str) -> Triple:
    """``(user, has_miso, Miso)`` from "I have two cats called Miso and Tofu": the type
    is the name again; the owner's slot is the noun the text names, ``(user, cat,
    Miso)``. The triple itself when the type is not its target's name or no noun is
    found."""
    target = triple[2].strip()
    if triple[1].lower() != "has_" + "_".join(target.lower().split()):
        return triple
    found = _had_pattern(target).search(text)
    if found is None:
        return triple
    return (triple[0], found["noun"].lower(), target, triple[3])


@functools.lru_cache(maxsize=256)
def _had_pattern(target: str) -> re.Pattern[str]:
    """ "I have a dog named Rex", "we have two cats called Miso and Tofu": the noun the
    owner has, named ``target``."""
    return re.compile(
        r"\b(?:I|we)\s+(?:have|got|own)\s+(?:a|an|one|two|three|four|\d+)\s+"
        r"(?P<noun>[a-z]+?)s?\s+(?:called|named)\s+(?:[A-Z][\w'-]*\s+and\s+)?"
        rf"{re.escape(target)}\b",
        re.IGNORECASE,
    )


def reread(triple: Triple, text: str) -> Triple | None:
    """``triple`` (its type canonical) as the text means it (module docstring): None
    when it names no thing, the owner's noun for a name in a type, the triple
    otherwise."""
    source, relation, target = triple[0], triple[1], triple[2]
    cut = cut_type(relation)
    if cut is None or no_value(source, cut, target):
        return None
    if cut != relation:  # "remind me my dentist is ...": the dentist
        triple = (source, cut, target, triple[3])
    if cut == "named":
        return naming(triple, text)
    if cut.startswith("has_"):
        return has_named(triple, text)
    return triple
