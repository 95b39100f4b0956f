"""Change claims said of a thing (issue 28, FEATURES G2): its name ("the project is
now called Flowly", "we renamed Beacon to Lumen"), when it happens ("standup is at
9:30"), its price ("landlord raised my rent to $1650") and who owns it ("the login bug
is assigned to Ken", "Tom handed the release over to Bea"). Read by
:func:`engram.pipeline.change_signals.read` before its other rules, with the same
words (:mod:`engram.pipeline.change_words`).
"""

from __future__ import annotations

import re

from engram.pipeline import change_events, change_kinds, change_reschedule
from engram.pipeline.change_verbs import HAPPENING, RAISING, RISING, alternation, words
from engram.pipeline.change_words import (
    ADDITION,
    ADV,
    CHANGE,
    CHANGE_CONFIDENCE,
    DETERMINER,
    FIRST_PERSON,
    LEAD,
    NOW,
    NP,
    PLAIN,
    STOP,
    SUBJ,
    Claim,
    has,
    phrase,
    signal_of,
    subject,
)

# Names: "the project is now called Flowly", "my cat's name is Luna", "we renamed the
# repo to core-api", "Brightline Labs rebranded as Northwind", "the podcast has a new
# name: Slow Burn"; a name in passing ("a side project called Tasker") is read too.
_NAMED = re.compile(
    rf"{LEAD}{SUBJ}{ADV}\s+(?:is|are)(?:\s+now)?\s+(?:called|named|known\s+as)\s+(?P<o>.+)$", re.I
)
_RENAMED = re.compile(
    rf"{LEAD}(?:(?P<agent>{NP}){ADV}\s+)?(?:(?:has|have|got|was|were)\s+)?(?:renamed|rebranded|"
    r"changed\s+(?:the\s+|our\s+|my\s+|its\s+|their\s+)?(?P<of>[\w-]+)(?:['’]s)?\s+name)"
    rf"(?:\s+(?P<s>(?!to\b|as\b){NP}))?\s+(?:to|as)\s+(?P<o>.+)$",
    re.I,
)
_NEW_NAME = re.compile(rf"{LEAD}{SUBJ}\s+(?:has|got)\s+a\s+new\s+name\s*[:,-]?\s+(?P<o>.+)$", re.I)
_CALLED = re.compile(
    r"\b(?:a|an|the|my|our)\s+(?:[\w-]+\s+)?(?P<s>[a-z][\w-]*)\s+(?:called|named)\s+"
    r"(?P<o>[A-Z#][\w#.-]*(?:\s+[A-Z][\w.-]*)*)"
)
# When a thing happens: "standup is at 9:30", "sprint review is on Friday now".
_WHEN = (
    r"(?:\d{1,2}:\d{2}(?:\s?[ap]m)?|\d{1,2}\s?[ap]m|noon|midnight|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?)"
)
# A target that is a time or a day, also a day with its date ("Thursday the 17th",
# "the 17th", "January 13", "13 January"): a thing moved to it is rescheduled, not
# relocated (round twenty-two: "the dentist moved to Thursday the 17th" read as a home).
IS_WHEN = re.compile(rf"^(?:{_WHEN}|{change_events.DAY_DATE})$", re.I)
# The verbs are ``change_verbs.HAPPENING``: "book club meets on Sundays now", "the
# nightly backup now runs at 3am" say when, as "is at" does; a person is no event ("I
# run on Tuesdays" is a routine, ``change_habits``).
_SCHEDULED = re.compile(
    rf"{LEAD}(?!(?:I|we|you|he|she|they)\s){SUBJ}(?:\s+now)?\s+{alternation(HAPPENING)}(?:\s+now)?\s+(?:at|on)\s+"
    rf"(?P<o>{_WHEN})\b.*$",
    re.I,
)
# "new favorite: oat cortado", "new GP: Dr. Chen": the news names the attribute.
_NEW_ATTRIBUTE = re.compile(r"^new\s+(?P<a>[a-z]+(?:\s+[a-z]+)?)\s*:\s*(?P<o>.+)$", re.I)
# A price raised: "landlord raised my rent to $1650", "my rent went up to $1800".
# The verbs are ``change_verbs.RAISING`` (someone sets it) and ``RISING`` (it moves).
_RAISED = re.compile(
    rf"{LEAD}(?:(?P<agent>{NP})\s+)?{alternation(RAISING)}\s+"
    r"(?P<s>(?:my|our|the|his|her|their|[\w-]+['’]s)\s+[\w\s]+?)(?:\s+from\s+[$£€]?\d[\w.,]*)?"
    r"\s+(?:up\s+|down\s+)?to\s+(?P<o>[$£€]?\d.*)$|"
    rf"{LEAD}(?P<s2>{NP})\s+(?:has\s+|have\s+)?{alternation(RISING)}"
    r"(?:\s+from\s+[$£€]?\d[\w.,]*)?\s+(?:up\s+|down\s+)?to\s+(?P<o2>[$£€]?\d.*)$",
    re.I,
)
# Who owns a thing, said of the thing: "the login bug is assigned to Ken", "Marco owns
# the billing service", "Tom handed the release over to Bea", "Lena took over the design
# review from Kim". Stored as the thing's ``owned by``, one at a time.
_OWNED = re.compile(
    rf"{LEAD}{SUBJ}{ADV}\s+(?:(?:is|are|was|were|got)(?:\s+now)?\s+(?:(?:owned|led|run|maintained|"
    r"managed|handled)\s+by|(?P<re>re)?assigned\s+to)|(?:now\s+)?belongs?\s+to)\s+(?P<o>.+)$",
    re.I,
)
_HANDED = re.compile(
    rf"{LEAD}(?P<o>{NP}){ADV}\s+(?:(?P<v>owns|leads|maintains|manages|chairs)|(?:took|has\s+taken)\s+over)\s+"
    r"(?P<s>the\s+[^,]+?)(?:\s+from\s+[^,]+)?(?:,.*)?$|"
    rf"{LEAD}{NP}\s+(?:reassigned|handed|passed)\s+(?P<s2>(?:the|our|my)\s+.+?)\s+"
    r"(?:over\s+|off\s+)?to\s+(?P<o2>.+)$|"
    # Said of the thing, who handed it left out: "The Tuesday retro was handed over to
    # Bilal", "On-call handed to Tomas" (a note drops the verb's "was").
    rf"{LEAD}(?P<s3>{NP})\s+(?:(?:was|were|got|has\s+been|have\s+been)\s+)?(?:reassigned|handed|"
    r"passed)\s+(?:over\s+|off\s+)?to\s+(?P<o3>.+)$",
    re.I,
)
# "Hiroshi took over as release manager from Benedikt": the role Benedikt held is
# Hiroshi's; the closing plan finds whose role it was from the old holder.
_TOOK_OVER_AS = re.compile(
    rf"{LEAD}(?P<o>{NP}){ADV}\s+(?:has\s+)?(?:took|taken)\s+over\s+as\s+(?:the\s+|our\s+)?"
    r"(?P<role>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})\s+from\s+"
    r"(?P<old>(?-i:[A-Z][\w.'’-]*)(?:\s+(?-i:[A-Z][\w.'’-]*))?)\s*$",
    re.I,
)

# An attribute of a thing said with "for" or "of" ("my budget for the garden is 300
# pounds now", "the deadline for the grant application moved to May 3"): the attribute
# names a value a thing has one of at a time, so only these heads are read ("the rest
# of the team is happy" is no attribute).
_ATTRIBUTE_HEADS = (
    "budget", "deadline", "date", "price", "cost", "rent", "salary", "fee", "limit", "target",
    "goal", "venue", "location", "address", "lead", "owner", "manager", "time", "day",
    "length", "size", "capacity", "rate", "schedule",
)  # fmt: skip
_OF_ATTRIBUTE = re.compile(
    rf"{LEAD}(?:(?:and\s+)?also\s+)?(?P<own>my|our|the|[\w.-]+['’]s)\s+"
    r"(?P<a>(?:[a-z-]+\s+)?(?:" + "|".join(_ATTRIBUTE_HEADS) + r"))\s+(?:for|of)\s+"
    r"(?:(?:the|my|our|this|that)\s+)?(?P<t>[\w-]+(?:\s+[\w-]+){0,2}?)\s+"
    r"(?:(?:is|are)(?:\s+(?:now|currently))?|(?:(?:has|have|was|were|got|just)\s+)*"
    r"(?P<v>moved|changed|shifted|slipped|pushed(?:\s+back)?|extended|went\s+(?:up|down)|"
    r"increased|decreased|rose|dropped|raised|lowered|cut|bumped(?:\s+up)?|reduced)\s+to)\s+"
    r"(?P<o>.+)$",
    re.I,
)
_OF_WORDS = tuple(f" {head}" for head in _ATTRIBUTE_HEADS)

NAME_WORDS = ("called", "named", "known as", "renamed", "rebranded", " name ", "new name")
_WHEN_WORDS = (" at ", " on ")
_RAISE_WORDS = words(RAISING + RISING)
_OWNER_WORDS = (
    " by ", "assigned", " belongs ", " belong ", " owns ", " leads ", "maintains", "manages",
    "took over", "taken over", "handed", "passed", " chairs ",
)  # fmt: skip
#: The words a clause needs for any rule here to be tried on it.
WORDS = NAME_WORDS + _RAISE_WORDS + _OWNER_WORDS + (" new ",) + _OF_WORDS + change_reschedule.CUES


def said_of_things(clause: str, lower: str, speaker: str | None) -> list[Claim]:
    """A name, a time, a price or an owner said of a thing (the patterns above), or an
    event moved or placed (:mod:`engram.pipeline.change_reschedule`), read first."""
    if has(lower, change_reschedule.WORDS):
        events = change_reschedule.said(clause, lower, speaker)
        if events:
            return events
    said = _said_of_things(clause, lower, speaker)
    return [said] if said is not None else []


def _said_of_things(clause: str, lower: str, speaker: str | None) -> Claim | None:
    if has(lower, NAME_WORDS):
        for regex in (_RENAMED, _NEW_NAME, _NAMED):
            match = regex.match(clause)
            if match is None:
                continue
            target = phrase(match["o"])
            raw = match["s"] or (match.groupdict().get("of")) or match.groupdict().get("agent")
            source = subject(raw, speaker)
            if not target or not source:
                continue
            changed = regex is not _NAMED or NOW.search(clause) is not None
            # "Weekly Bytes is now called Byte Sized": the old name is the subject.
            old = source if source[:1].isupper() and regex is not _NEW_NAME else None
            signal = CHANGE if changed else PLAIN
            return Claim(None if old else source, "named", target, signal, old, CHANGE_CONFIDENCE)
    news = _NEW_ATTRIBUTE.match(clause) if lower.startswith(" new ") else None
    target = phrase(news["o"]) if news is not None else None
    if news is not None and target:
        return Claim(speaker or "user", news["a"].lower(), target, CHANGE, None, CHANGE_CONFIDENCE)
    if (" for " in lower or " of " in lower) and has(lower, _OF_WORDS):
        attribute = _of_attribute(clause, speaker)
        if attribute is not None:
            return attribute
    if has(lower, _WHEN_WORDS):
        match = _SCHEDULED.match(clause)
        source = subject(match["s"], speaker) if match else None
        if match is not None and source:
            return Claim(source, "scheduled", match["o"], signal_of(clause, False))
    if has(lower, _RAISE_WORDS):
        match = _RAISED.match(clause)
        if match is not None:
            owner, relation = _owned(match["s"] or match["s2"], speaker, match["agent"])
            target = phrase(match["o"] or match["o2"])
            # An amount with no currency is read of an owner's attribute only ("my
            # running budget went up to 80"): "the heat went up to 30" is no price.
            if owner and target and (_MONEY.search(target) or relation != "costs"):
                return Claim(owner, relation, target, CHANGE, None, CHANGE_CONFIDENCE)
    if has(lower, _OWNER_WORDS):
        took = _TOOK_OVER_AS.match(clause) if " over as " in lower else None
        heir = phrase(took["o"]) if took is not None else None
        if took is not None and heir:
            return Claim(
                None, took["role"].lower(), heir, CHANGE, phrase(took["old"]), CHANGE_CONFIDENCE
            )
        for regex in (_OWNED, _HANDED):
            match = regex.match(clause)
            if match is None:
                continue
            groups = match.groupdict()
            thing = subject(groups["s"] or groups.get("s2") or groups.get("s3") or "", speaker)
            person = phrase(groups["o"] or groups.get("o2") or groups.get("o3") or "")
            if thing and person:
                said = regex is _OWNED and not match["re"] or bool(match.groupdict().get("v"))
                signal = signal_of(clause, not said)
                return Claim(thing, "owned by", person, signal, None, CHANGE_CONFIDENCE)
    return None


def _of_attribute(clause: str, speaker: str | None) -> Claim | None:
    """ "my budget for the garden is 300 pounds now" -> (user, garden budget, 300 pounds),
    as "my garden budget is" reads; "the deadline for the grant application moved to
    May 3" -> (grant application, deadline, May 3)."""
    match = _OF_ATTRIBUTE.match(clause)
    if match is None:
        return None
    own, attribute, thing = match["own"].lower(), match["a"].lower(), match["t"].lower()
    target = phrase(match["o"])
    if target is None or thing in STOP:
        return None
    if own == "the":
        source: str | None = subject(match["t"], speaker)
    else:
        source = subject(match["own"], speaker)  # "my" / "our": the speaker
        attribute = f"{thing} {attribute}"
    if source is None:
        return None
    if match["v"]:
        return Claim(source, attribute, target, CHANGE, None, CHANGE_CONFIDENCE)
    return Claim(source, attribute, target, signal_of(clause, False))


def _owned(raw: str, speaker: str | None, agent: str | None = None) -> tuple[str | None, str]:
    """("user", "rent") for "my rent", ("neighbor", "rent") for "my neighbor's rent",
    ("user", "grocery budget") for "we bumped the grocery budget", (thing, "costs") for
    "the hosting"."""
    words = raw.split()
    if (
        agent is not None
        and agent.lower() in FIRST_PERSON
        and len(words) > 1
        and words[0].lower() == "the"
        and words[-1].lower() in change_kinds.MEASURES
    ):
        # The speaker sets an amount of theirs: "we bumped the grocery budget to 450".
        return speaker or "user", " ".join(words[1:]).lower()
    # "my neighbor's rent", "my sister's food budget": the owner ends in "'s".
    owned = [i for i, w in enumerate(words[:-1]) if w.lower().endswith(("'s", "’s"))]
    if owned:
        cut = owned[-1] + 1
        return subject(" ".join(words[:cut]), speaker), " ".join(words[cut:]).lower()
    if words and words[0].lower() in FIRST_PERSON and len(words) >= 2:
        return speaker or "user", " ".join(words[1:]).lower()
    if len(words) > 1 and words[-1].lower() in _PRICE_WORDS:
        words = words[:-1]  # "the gym membership price" is what the gym membership costs
    return subject(" ".join(words), speaker), "costs"


#: Nouns that name what a thing costs.
_PRICE_WORDS = frozenset(("price", "cost", "fee", "fees"))
#: An amount of money: a currency sign or word.
_MONEY = re.compile(r"[$£€]|\b(?:pounds?|dollars?|euros?|quid|bucks|usd|gbp|eur)\b", re.I)


def called(clause: str) -> list[Claim]:
    """ "a side project called Tasker" -> (project, named, Tasker), as an addition: a
    name in passing closes nothing, a rename later closes it."""
    return [
        Claim(m["s"], "named", m["o"], ADDITION)
        for m in _CALLED.finditer(clause)
        if m["s"].lower() not in STOP
    ]


# "an efoil with a 12V20Ah battery": the thing has the part.
_WITH = re.compile(r"\b(?P<s>[\w-]+)\s+with\s+(?:a|an|the)\s+(?P<o>[\w.-]+\s+[a-z]+)\b", re.I)


def parts(clause: str) -> list[Claim]:
    """ "an efoil with a 12V20Ah battery" -> (efoil, has, 12V20Ah battery)."""
    found = []
    for match in _WITH.finditer(clause):
        owner, part = match["s"], phrase(match["o"])
        if part and owner.lower() not in DETERMINER and owner.lower() not in STOP:
            found.append(Claim(owner, "has", part, signal_of(clause, False)))
    return found
