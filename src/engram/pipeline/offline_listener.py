"""What a chat turn says about the listener (offline extractor, issue 28, fourth pass).

Of the gold facts the extractor missed on LoCoMo fold A (conv-26, conv-30, conv-41),
about half cite a turn that speaks to "you", and the rules dropped every clause with
"you" in it, since "you" does not stand alone. When a turn names who it speaks to
("Hey Caroline!", "..., John!"), or a message list shows who spoke last, "you" is that
person, and a sentence that reports the listener's own event is a fact about them:
"You found the perfect spot for your store" -> "Gina found the perfect spot for
Gina's store", "I'm so proud of you for spreading awareness ..." -> "Caroline is
spreading awareness ...", "Congrats on finishing your degree" -> "Maria congratulated
John on finishing John's degree".

Most of what is said to "you" is praise, thanks or encouragement ("Your drive is
awesome", "Your support means a lot", "You got this"). The gold facts record those as
reactions ("Melanie admires Caroline's courage"), but the labelling criteria
(tests/data/extraction_labels.json) count them as trivial; reading them too raised
recall on fold A by 0.023 and put 13 facts in the labelled sample, 1 of them correct
(docs/benchmarks.md, offline extraction, experiment 24). They stay dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engram.pipeline import patterns
from engram.pipeline.person import resolve_person
from engram.pipeline.turns import Message

# A name addressed: at the start of a sentence, after an optional interjection and
# before a comma or "!" ("Hey Caroline!", "Wow, Caroline, ...", "Jon, I ..."), or
# closing a sentence after a comma ("..., Melanie!").
_OPENING_NAME = re.compile(r"(?:^|[.!?]\s+)(?:[A-Za-z]+[\s,!]+){0,2}?([A-Z][a-z]{2,})\s*[,!]")
_NAME_NEXT = re.compile(r"\s*([A-Z][a-z]{2,})\s*[,!]")
_CLOSING_NAME = re.compile(r",\s*([A-Z][a-z]{2,})\s*[.!?]")
# Words that look like a name where a name is addressed, but are not one.
_NOT_LISTENER = patterns.word_set(
    "thanks thank congrats congratulations sorry wow yeah yes yep hey hi hello oh aw "
    "awesome great cool nice sure definitely absolutely totally okay ok agreed right "
    "well hmm omg lol haha good amazing true exactly indeed dude man buddy guys everyone "
    "friend mom dad bye hah heh together cheers woohoo oof sweet wish anyway"
)
# "you" that is not the listener, or a listener's "you" whose claim is the speaker's
# guess, wish or encouragement, not the listener's fact.
_NOT_THE_LISTENERS = re.compile(
    r"\byou(?:'ll|'d|\s+will|\s+would|\s+could|\s+can|\s+should|\s+might|\s+must|"
    r"\s+may|\s+gotta|\s+need|\s+have\s+to|\s+got\s+this|\s+deserve|"
    r"(?:'re|\s+are)\s+(?:gonna|going\s+to)|\s+know|\s+never\s+know|\s+see|\s+mean|"
    r"\s+guys|\s+all|\s+both|\s+two)\b"
    r"|\b(?:all|both|each|any|one|some|most)\s+of\s+you\b|\bif\s+you\b|\bthank\s+you\b"
    r"|\b(?:talk|speak|chat|see|catch|hear)\s+(?:to\s+|with\s+|from\s+)?you\b",
    re.IGNORECASE,
)
_MAY_ADDRESS = re.compile(r"you|congrat", re.IGNORECASE)
_YOU_WORD = re.compile(r"\b(?:you're|you've|you'd|you'll|yourself|yours|your|you)\b", re.I)
# After these a "you" is an object ("proud of you for", "there for you"), and so it is
# before a preposition or at the end of a clause.
_OBJECT_AFTER = re.compile(
    r"(?:of|for|to|with|at|on|about|from|by|like|than|have|having|see|seeing|tell|"
    r"thank|thanks|love|miss|admire|appreciate|help|helped|helps|got|get|give|gave|"
    r"made|make|makes|inspire|inspires|motivate|motivates|remind|reminds|reminded|"
    r"know|meet|met|congratulate|congratulated)\s*$",
    re.IGNORECASE,
)
# Before these (or at a clause's end) a "you" is an object too: "you and your family"
# reads "me and my family", which the first-person reading knows.
_OBJECT_BEFORE = re.compile(r"\s*(?:[,.!;:?]|$|(?:and|for|in|to|with|at|on|about)\b)", re.I)
_SUBJECT_FORMS = {
    "you're": "I'm",
    "you've": "I've",
    "you'd": "I'd",
    "you'll": "I'll",
    "yourself": "myself",
    "yours": "mine",
    "your": "my",
}
# "you are" / "you were" / "you have": the verb for "I".
_YOU_VERB = re.compile(r"\byou\s+(are|were|have|has|do|does|was)\b", re.IGNORECASE)
_I_VERB = {"are": "am", "were": "was", "have": "have", "has": "have", "do": "do", "does": "do"}
_CONGRATS = re.compile(r"^(?:congrats|congratulations)\s+(?:on|for)\s+(?=\S)", re.IGNORECASE)


def listener_in(text: str, speaker: str | None) -> str | None:
    """The name ``text`` addresses ("Hey Caroline!", "Oof, John, ...", "..., John!"),
    not the speaker's own, or None. Of two words before commas ("Woohoo, Maria!") the
    second is the name: the first is an interjection."""
    for pattern in (_OPENING_NAME, _CLOSING_NAME):
        for found in pattern.finditer(text):
            name = found.group(1)
            after = _NAME_NEXT.match(text, found.end())
            if after is not None and _may_be_name(after.group(1), speaker):
                name = after.group(1)  # "Oof, John, ...": the second word is the name
            if _may_be_name(name, speaker):
                return name
    return None


def _may_be_name(word: str, speaker: str | None) -> bool:
    return (
        word.lower() not in _NOT_LISTENER
        and word.lower() not in patterns.INTERJECTIONS
        and word not in (speaker or "").split()
    )


def addressed(said: list[Message], index: int, body: str) -> str | None:
    """Who message ``index`` of ``said`` speaks to: the name its ``body`` addresses,
    else whoever spoke before it (a message list), if that is someone else."""
    if _MAY_ADDRESS.search(body) is None:
        return None  # no "you" and no congratulations: nothing to read for a listener
    speaker = said[index].speaker
    before = said[index - 1].speaker if index else None
    return listener_in(body, speaker) or (before if before != speaker else None)


def speaks_to_listener(sentence: str) -> bool:
    """Whether ``sentence`` says something of "you" that can be read as the listener."""
    return _YOU_WORD.search(sentence) is not None and not _NOT_THE_LISTENERS.search(sentence)


def as_listener(sentence: str, speaker: str | None) -> str:
    """``sentence`` with the speaker's first person resolved and "you" as first person:
    "I'm so proud of you" -> "Melanie is so proud of me", "Your drive is awesome" -> "My
    drive is awesome"; reading it with the listener as "I" then gives the listener's
    fact. "Congrats on your degree" from Maria is "Maria congratulated me on my degree"."""
    text = resolve_person(sentence, speaker) if speaker else sentence
    congrats = _CONGRATS.match(text)
    if congrats is not None:
        who = speaker or "Someone"
        text = f"{who} congratulated you on {text[congrats.end() :]}"
    text = _YOU_VERB.sub(lambda m: "I " + _I_VERB.get(m.group(1).lower(), m.group(1)), text)

    def swap(match: re.Match[str]) -> str:
        word = match.group(0)
        lower = word.lower()
        if lower in _SUBJECT_FORMS:
            return _SUBJECT_FORMS[lower]
        before = _OBJECT_AFTER.search(text, 0, match.start())
        return "me" if before or _OBJECT_BEFORE.match(text, match.end()) else "I"

    swapped = _YOU_WORD.sub(swap, text)
    return swapped[:1].upper() + swapped[1:]


#: The rules whose reading of a listener's sentence is kept: those that read "I" as the
#: subject or object. A view ("it's great to see how passionate you are") is the
#: speaker's, not the listener's, and a "we" statement has no listener.
_KEPT_RULES = frozenset({"first_person", "self_mention", "preference", "decision"})
# The sentences read, each a fact about the listener, not a reaction to it (the labels'
# criteria count praise, thanks and encouragement as trivial, docs/benchmarks.md,
# experiment 24): the listener's own past event ("You found your true self", "You've
# built some awesome connections"), what the speaker is proud of ("I'm so proud of you
# for spreading awareness ..." -> "you are spreading awareness ..."), and a named
# event congratulated ("Congrats on finishing your degree").
_YOU_DID = re.compile(
    r"^you(?:'ve|\s+have)?\s+(?:(?:just|finally|already|recently|also|actually|even|"
    r"totally|really)\s+)*(?P<verb>[a-z]+)\b",
    re.IGNORECASE,
)
# Past forms that praise or encourage rather than report: "You did great", "You got
# this", "You made it", "You've been through a lot", "You've come so far".
_PRAISE_VERBS = patterns.word_set("did done got made earned nailed killed rocked been come")
_PROUD_FOR = re.compile(
    r"^(?:I'm|I\s+am)?\s*(?:(?:so|really|very|super|just|truly)\s+)*(?:proud\s+of|happy\s+for|"
    r"glad\s+for|impressed\s+(?:by|with))\s+you\s+for\s+(?=[a-z]+ing\b)",
    re.IGNORECASE,
)
# What a "congrats on ..." that names no event congratulates.
_VAGUE_NEWS = re.compile(
    r"(?:your\s+|the\s+|all\s+)?(?:success|news|achievement|win|everything|that|this|it|"
    r"recognition|accomplishments?)\b",
    re.IGNORECASE,
)


def _about_listener(text: str) -> str | None:
    """``text`` as a statement about "you" (see above), or None."""
    did = _YOU_DID.match(text)
    if did is not None:
        verb = did.group("verb").lower()
        return text if patterns.past_form(verb) and verb not in _PRAISE_VERBS else None
    proud = _PROUD_FOR.match(text)
    if proud is not None:
        return "You are " + text[proud.end() :]
    congrats = _CONGRATS.match(text)
    if congrats is not None and not _VAGUE_NEWS.match(text, congrats.end()):
        return text
    return None


_TRAILING_NAME = re.compile(r",\s*[A-Z][a-z]+\s*([.!]*)$")

Classify = Callable[[str], "tuple[str, str, str] | None"]


def reading(
    raw: str, trimmed: str, speaker: str | None, classify: Classify
) -> tuple[str, str, str] | None:
    """(rule, type, the sentence to resolve with the listener as "I") for a sentence
    that speaks to the listener, or None. ``trimmed`` is ``raw`` without its opening
    ("Wow, ..."), ``classify`` the extractor's reading of a sentence for the listener."""
    text = raw.strip() if _CONGRATS.match(raw.strip()) else trimmed
    about = _about_listener(_TRAILING_NAME.sub(r"\1", text))
    if about is None or not speaks_to_listener(about):
        return None
    found = classify(as_listener(about, speaker))
    if found is None or found[0] not in _KEPT_RULES:
        return None
    return "listener", found[1], found[2]


# "I'm keen to try your recipe", "I took your recommendation and watched ...", "I noticed
# a pin on your purse": the speaker's own event or plan about a thing of the
# listener's (experiment 45). What the speaker feels about the listener's thing is a
# reaction ("I love your creations", "I appreciate your support"), and a hope or a
# guess about it is no fact: neither is read.
_YOUR = re.compile(r"\byour\b", re.IGNORECASE)
_OWN_EVENT = re.compile(r"^(?:I|I'm|I've|I'll|I'd)\b", re.IGNORECASE)
_REACTING = patterns.word_set(
    "love loved like liked adore admire appreciate appreciated enjoy enjoyed value miss respect "
    "envy hope wish bet think guess know believe agree proud glad happy sorry impressed inspired"
) | patterns.word_set("amazed thank thanks grateful thankful support say said excited pumped")
_REACTING |= patterns.word_set("stoked thrilled curious")
_ADVERB_AFTER_YOUR = re.compile(r"\byour\s+\w+ly\b", re.IGNORECASE)  # "your completely"


def yours(sentence: str, listener: str | None) -> str | None:
    """``sentence`` with "your" as the ``listener``'s, when it is the speaker's own event
    or plan about the listener's thing and says "you" nowhere else; else None."""
    if listener is None or not _OWN_EVENT.match(sentence):
        return None
    words = {w.strip(".,!?;:").lower() for w in sentence.split()}
    if words & _REACTING or _ADVERB_AFTER_YOUR.search(sentence):
        return None
    named = _YOUR.sub(f"{listener}'s", sentence)
    return None if _YOU_WORD.search(named) else named
