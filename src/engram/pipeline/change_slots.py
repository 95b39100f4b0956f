"""A new value said of a slot the subject holds one value of (issue 28, FEATURES G2):
the second pass of change reading, after the rules of ``change_signals``.

The rules read a change by its wording: a verb of their table, a shape they know. Fresh
wording escapes them ("Marco's salon shut, so Bea does my hair now", "Monitoring went
over to Grafana Cloud at renewal", "Noah is our goalkeeper since Liam broke his
wrist"). What those sentences share is not a word but a situation: the subject holds
one value of a slot now (a hairdresser, a monitoring tool, a goalkeeper), and the new
memory speaks of that slot, by its old value or by the slot's own words, and names
exactly one other value of the same shape. That is read here from the graph, not
from the verb:

1. **the slot**: a current relation of a subject the memory speaks of (the speaker
   when it speaks in the first person, an entity it names), held one value at a time
   by declaration or by the noun's kind (:mod:`engram.pipeline.vocabulary`,
   :func:`engram.pipeline.change_kinds.attribute_one`);
2. **addressed**: the memory names the old value, or the slot's words outside any
   name ("monitoring" for ``uses_monitoring``, "line manager", "goalkeeper");
3. **one new value of the same shape**: exactly one name the memory mentions that is
   neither the subject, the old value nor a word of the slot (a capitalised name for
   a named value, a number for an amount, a time for a time, a frequency for a
   cadence);
4. **stated, not told around**: no hedge, plan, negation, question, "also / another",
   "still", and no one-off time ("today", "last week") unless the memory says the
   value holds now ("now", "these days", "since", "new"); an owner other than the
   subject ("my brother", "Sasha's husband") speaks of someone else's slot.

The rules stay the precise first pass: this reads only a memory whose rules closed
nothing and stated no fact of that slot. Every check is a guard against a wrong close,
which hides a fact that still holds (held-out folds J, K and L hold the look-alikes).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from engram.pipeline import change_clause, change_kinds, change_passing, change_plain, vocabulary
from engram.pipeline.change_signals import ADDITION_WORDS, HEDGE
from engram.pipeline.change_words import KNOWN_PERSON, NOT_LASTING
from engram.pipeline.patterns import COMMON_OPENERS, NOT_NAMES, proper_names, word_set
from engram.pipeline.prefilter import gated
from engram.store.protocols.graph import Entity, Relation, canonical_name
from engram.text import STOPWORDS

#: Words a subject may be named with or without ("billing" is "the billing service",
#: "the mobile team" is "the mobile squad"); the closing plan's too, which imports them.
GENERIC_HEADS = (
    "service", "app", "application", "system", "project", "team", "squad", "api", "site",
)  # fmt: skip

#: The speaker's entity (``closing.SPEAKER``).
SPEAKER = "user"
#: The team an agent's note says "we" for (``offline_notes.TEAM``): held slots of its own.
TEAM = "The team"
#: Who holds a slot said with no owner: the speaker, or the team of an agent's notes.
SPEAKERS = frozenset({SPEAKER, canonical_name(TEAM)})
#: Longer memories are not read: a slot and a value a paragraph apart are no statement.
MAX_WORDS = 40
#: The new fact's confidence: a reading of the slot, below a change verb's 0.8.
SLOT_CONFIDENCE = 0.7


class Reads(Protocol):
    """The graph reads the closing plan makes once per memory."""

    def entity(self, name: str) -> Entity | None: ...

    def resolve(self, name: str, *, first_name: bool = False) -> Entity | None: ...

    def around(self, entity: Entity) -> list[Relation]: ...

    def recent(self) -> list[Relation]: ...


@dataclass(frozen=True, slots=True)
class Replacement:
    """``old`` is replaced by ``target`` on the same source and relation."""

    old: Relation
    target: str


# What the rules' hedge words (``change_signals.HEDGE``, read first) let through that
# still states nothing yet or states around the slot: a question, "I'd", a plan or a
# hope said alone, a trial, "still / again / stayed / kept", a past anecdote, a trip,
# an occasional use, reported speech, and a change verb in "-ing" (a plan: "Tom's
# moving to Bristol").
_NOT_STATED = re.compile(
    r"\?|['’]d\b|"
    r"\b(?:probably|plan(?:s|ned|ning)?|thinking|hop(?:e|es|ed|ing)|trial|still|"
    # "again" says a value came back, unless a change verb says it changed once more
    r"(?<!switched\s)(?<!changed\s)(?<!moved\s)again|"
    r"instead\s+of\s+\w+ing|wish|suppose|imagine|"
    r"grew\s+up|back\s+in|ago|once|visit(?:ed|ing)?|trip|holiday|vacation|"
    r"borrow(?:ed|ing)?|rent(?:ed|ing)\s+a|stay(?:s|ed|ing)?|kept|keep(?:s|ing)?|"
    r"stick(?:s|ing)?\s+with|stuck\s+with|remain(?:s|ed)?|sometimes|occasionally|"
    r"for\s+testing|for\s+a\s+test|revert(?:ed|ing|s)?|rolled\s+back|"
    r"said|says|told|tells|heard|thinks|ask(?:s|ed)?|"
    # a value for a time to come is no value yet ("Tomas is on call next week"), unless
    # it holds from then on ("it's at 16:00 from next week")
    r"(?<!from\s)next\s+(?:week|month|term|sprint|quarter|year|time)|"
    r"moving|switching|changing|leaving|joining|getting)\b",
    re.IGNORECASE,
)
#: One-off times: "Lars was off sick so Bea ran the meeting today" is a day, not a change.
_ONE_OFF = gated(
    re.compile(
        r"\b(?:today|tonight|yesterday|this\s+(?:morning|afternoon|evening|week)|"
        r"last\s+(?:night|week|weekend|month|year)|for\s+(?:the|a)\s+(?:day|weekend|week|"
        r"wedding|conference|meeting)|"
        # One occasion named as the thing done ("Augustin left the meeting, so Philippa
        # chaired it"): what happened at it, not who holds the slot.
        r"(?:left|ran|chaired|led|hosted|missed|skipped)\s+(?:the|this|that|today['’]s|"
        r"tonight['’]s)\s+(?:meeting|session|call|standup|class|lesson|game|match|party|"
        r"demo|workshop|retro|review))\b",
        re.IGNORECASE,
    )
)
#: A state said in the past: "I lived in Lyon for 3 years", "I used Emacs in grad
#: school" tell what held then, not what holds now.
_PAST_STATE = gated(re.compile(r"\b(?:lived|used|was|were|had|worked)\b", re.IGNORECASE))
#: Words that say the value holds from now on.
_HOLDS_NOW = gated(
    re.compile(
        r"\b(?:now|these\s+days|nowadays|since|from\s+now|new|anymore|any\s+more|no\s+longer)\b",
        re.IGNORECASE,
    )
)
_INSTEAD = re.compile(r"\binstead\b(?!\s+of)", re.IGNORECASE)
#: Someone the speaker knows, as an owner in front of the slot ("my brother's", "my mum",
#: "my best friend's": an adjective may stand between).
_OTHER_OWNER = re.compile(rf"\b(?:my|our)\s+{KNOWN_PERSON}\b", re.IGNORECASE)
#: "... is no longer", "... isn't": what follows an owner that names the ended value.
_ENDED_AFTER = re.compile(r"\s+(?:is|was)\s+(?:no\s+longer|not)\b|\s+isn['’]t\b", re.I)
_POSSESSIVE = re.compile(r"\b(?P<o>[\w.-]+)['’]s?\s+(?P<n>[a-z][\w-]*)", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+(?:[&'’.-][^\W_]+)*")
#: An amount, with a unit written onto it ("512Mi", "30s", "100MB") or after it.
_AMOUNT = re.compile(
    r"[£$€]?\d[\d,.]*(?:[a-z]{1,3}\b)?(?:\s\d[\d,.]*)*\s*(?:k|m|%|percent|pounds|dollars|euros)?\b",
    re.I,
)
_TIME = re.compile(r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\b\d{1,2}:\d{2}\b", re.I)
_FREQUENCY = re.compile(
    r"\b(?:daily|weekly|fortnightly|biweekly|monthly|quarterly|yearly|annually|nightly|"
    r"every\s+(?:day|week|two\s+weeks|month|other\s+week|\d+\s+\w+))\b",
    re.I,
)
#: Titles in front of a name: "Dr." names no one by itself.
_TITLES = word_set("dr mr mrs ms miss prof st sir")
#: Relation words that name no slot ("uses_ci" is read by "ci").
_NOT_SLOT = word_set("uses has is of the a at in on to for with by")
#: Determiners a subject named in lower case follows ("our CI", "the data team").
_DETERMINED = re.compile(
    r"\b(?:the|our|my|their|his|her)\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?)", re.IGNORECASE
)


def replacements(
    reads: Reads, text: str, said: Iterable[tuple[str, str, str]]
) -> list[Replacement]:
    """The slots ``text`` gives a new value (see the module docstring). ``said``: the
    (subject, relation, target) facts the rules read in it: their slots are left to
    them, and a value they gave another subject is that subject's."""
    words = _WORD.findall(text)
    if not words or len(words) > MAX_WORDS:
        return []
    if HEDGE.search(text) or _NOT_STATED.search(text) or ADDITION_WORDS.search(text):
        return []
    if NOT_LASTING.search(text):  # a cover, an increment, a one-off: the slot holds
        return []
    if one_off(text):
        return []
    # A past state beside "instead" is what happened before the new value ("Wiebe had a
    # family emergency, so on-call went to Marloes instead"), read in the value's clause.
    past = _PAST_STATE.search(change_clause.stated(text))
    if past and not (_HOLDS_NOW.search(text) or _INSTEAD.search(text)):
        return []
    names = _names(text)
    if not names and not re.search(r"\d", text) and not _FREQUENCY.search(text):
        return []  # no value of any shape to be the new one: no read
    lower = {part for w in words for part in re.split(r"['’]", w.lower()) if part}
    said = list(said)
    said_keys = {(canonical_name(s), r) for s, r, _ in said}
    elsewhere = {_plain(t): canonical_name(s) for s, _, t in said if s[:1].isupper()}
    found: dict[int, Replacement] = {}
    for subject, held in _held(reads, text, [*names, *_known_openers(reads, text, names)]):
        if (canonical_name(held.source), held.relation_type) in said_keys:
            continue
        new = _new_value(text, lower, names, subject, held)
        # A value the rules read as another subject's ("Mr. Kowalski's letting agent
        # is Mrs. Osei") is theirs.
        owner = elsewhere.get(_plain(new)) if new is not None else None
        if owner is not None and owner != canonical_name(held.source):
            continue
        if new is not None:
            found.setdefault(held.id, Replacement(held, new))
    # One slot per memory: two slots given values at once is a list, not a change.
    return list(found.values()) if len(found) == 1 else []


def one_off(text: str) -> bool:
    """One occasion ("today", "ran the meeting"), not a value said to hold from now."""
    return bool(_ONE_OFF.search(text)) and not _HOLDS_NOW.search(text)


def _plain(name: str) -> str:
    """A name compared without its dots ("Mrs. Osei" is "Mrs Osei")."""
    return canonical_name(name.replace(".", " "))


def _held(reads: Reads, text: str, names: Sequence[str]) -> list[tuple[Entity, Relation]]:
    """The current relations the memory may speak of: those of its subjects, and those
    whose value it names ("Irene handed checkout over to Bruno": checkout's lead)."""
    found: dict[int, tuple[Entity, Relation]] = {}
    for subject in _subjects(reads, text, names):
        for held in reads.around(subject):
            if held.source_entity_id == subject.id and held.relation_type != "talks_about":
                found.setdefault(held.id, (subject, held))
    for name in names:
        value = reads.entity(name)
        if value is None:
            continue
        for held in reads.around(value):
            if held.target_entity_id != value.id or held.relation_type == "talks_about":
                continue
            source = reads.entity(held.source)
            if source is not None:
                found.setdefault(held.id, (source, held))
    if re.search(r"\d", text):
        for held in _by_slot_word(reads, text):
            source = reads.entity(held.source)
            if source is not None:
                found.setdefault(held.id, (source, held))
    return list(found.values())


def _by_slot_word(reads: Reads, text: str) -> list[Relation]:
    """The current relations whose slot a memory names by its own word after a
    determiner, the subject left unsaid ("we moved the cron to 0 3" for the
    exporter's ``cron_schedule``): read only when the memory gives a number and a
    determined word that names no entity, and kept only when exactly one relation has
    that word, so a word two slots share names neither."""
    heads = {
        m.group(1).split()[0].lower()
        for m in _DETERMINED.finditer(text)
        if m.group(1).split()[0].lower() not in _NOT_SLOT and reads.entity(m.group(1)) is None
    }
    if not heads:
        return []
    matched = [
        held
        for held in reads.recent()
        if heads & set(_slot_words(held.relation_type)) and one(held)
    ]
    return matched if len(matched) == 1 else []


def _subjects(reads: Reads, text: str, names: Sequence[str]) -> list[Entity]:
    """The entities the memory may speak of: the speaker, the names, and subjects named
    in lower case after a determiner ("our CI", "the data team")."""
    found: dict[int, Entity] = {}
    # The speaker, said or not: "Monitoring went over to Grafana Cloud" is ours.
    named = [SPEAKER, TEAM, *(n.removesuffix("'s").removesuffix("’s") for n in names)]
    for name in named:
        entity = reads.resolve(name)
        if entity is not None:
            found.setdefault(entity.id, entity)
    # A subject in lower case is read by its own name (one indexed read each), and
    # with its generic head swapped only when it ends in one ("the mobile team" for
    # "the mobile squad"): every memory the rules closed nothing on comes here.
    for match in _DETERMINED.finditer(text):
        phrase = match.group(1)
        words = phrase.split()
        tries = [phrase, words[0]] if len(words) > 1 else [phrase]
        for name in tries:
            entity = (
                reads.resolve(name)
                if name.split()[-1].lower() in GENERIC_HEADS
                else reads.entity(name)
            )
            if entity is not None:
                found.setdefault(entity.id, entity)
    return list(found.values())


def one(held: Relation) -> bool:
    """Whether the held relation's slot holds one value at a time."""
    kind = vocabulary.canonical(held.relation_type, held.target)
    if kind.one is not None:
        return kind.one
    return change_kinds.attribute_one(held.relation_type.replace("_", " "), held.target) is True


def _slot_words(relation: str) -> list[str]:
    return [w for w in re.split(r"[_\s-]+", relation.lower()) if w and w not in _NOT_SLOT]


def _new_value(
    text: str, lower: set[str], names: Sequence[str], subject: Entity, held: Relation
) -> str | None:
    if not one(held):
        return None
    old_words = set(canonical_name(held.target).split())
    subject_words = set(canonical_name(subject.name).split()) | {SPEAKER}
    slot = _slot_words(held.relation_type)
    # The name reader's names only: an opener taken as a name ("Search sits on ...")
    # may be the slot's own word.
    outside = _outside_names(text, [n for n in proper_names(text) if n.lower() not in slot])
    # The old value is named by its own words: a name's capitalised ones, an amount's
    # number ("300" of "300 pounds": another budget in pounds names no old value).
    marked = {
        w.lower().rstrip(".")
        for w in held.target.split()
        if (w[:1].isupper() or w[:1].isdigit()) and w.lower().rstrip(".") not in _TITLES
    }
    by_old = bool((marked or old_words) & lower) and not old_words <= subject_words
    by_slot = (
        bool(slot)
        and all(any(w == s or (len(s) > 3 and w.startswith(s)) for w in outside) for s in slot)
        and _plain_slot(text, slot)
    ) or _phrased(text, held.relation_type)
    # "the padlock code" for ``shed_padlock_code``: a slot's last two words (changes36)
    by_slot = by_slot or (len(slot) >= 3 and _plain_slot(text, slot[-2:]))
    # "switched physios", "changed schools": the slot said by a plural (round eleven).
    by_slot = by_slot or change_passing.switched(text, slot)
    # A time kept by a thing the memory names ("The Monday review clashed with the
    # client calls, so it's at 16:00 from next week"): its one time slot, said by the
    # thing itself (round eleven).
    by_slot = by_slot or (
        bool(_TIME.fullmatch(held.target.strip()))
        and canonical_name(subject.name) not in SPEAKERS
        and set(canonical_name(subject.name).split()) <= lower
    )
    kind = vocabulary.slot_category(held.relation_type)
    if _someone_else(text, subject, slot, _named_slot(slot, held.relation_type)):
        return None
    named = held.target[:1].isupper()
    fresh = [
        v
        for v in _values(text, names, held.target)
        if canonical_name(v) != canonical_name(held.target)
        # a name sharing a word with the old value or the subject is one of them
        # ("Tomás" for "Tomás Ortega"); numbers share digits and stay apart
        and not (named and set(canonical_name(v).split()) & (old_words | subject_words) - set(slot))
        and not set(canonical_name(v).split()) <= set(slot)
        and not change_kinds.kin_names(v)
        # a value of another category is another slot ("Redis" is no cloud)
        and vocabulary.member_category(v) in (None, kind)
    ]
    # Nor is a common noun written in capitals ("the tokens PR from Keanu") or a thing
    # the old value owns ("Keanu's Figma file"): the old value still acts in the memory.
    fresh = [v for v in fresh if v not in _CAPITAL_NOUNS and not _owned_by(text, held.target, v)]
    if len(fresh) > 1:
        # Of several names, the one that is or is said before the slot's noun is its value
        # ("the Montessori school on the Laan", "the Vrije School in Zeist": not the place).
        own = [v for v in fresh if canonical_name(v).split()[-1] in slot]
        fresh = own or [v for v in fresh if change_passing.before_slot(text, v, slot)] or fresh
    if len(fresh) != 1:
        return None
    # A value of the slot's own category says the slot by itself ("React" for
    # ``uses_framework``).
    member = kind is not None and vocabulary.member_category(fresh[0]) == kind
    return fresh[0] if by_old or by_slot or member else None


#: Common nouns work notes write in capitals (engram's choice, changes26): a pull or
#: merge request, a design or decision record, a change list, status words. They name
#: no one and nothing a slot holds; matched as written, so "Mr" stays a title.
_CAPITAL_NOUNS = frozenset(
    [
        "PR",
        "PRs",
        "MR",
        "MRs",
        "RFC",
        "RFCs",
        "ADR",
        "ADRs",
        "CL",
        "CLs",
        "ETA",
        "FYI",
        "TODO",
        "TODOs",
        "ASAP",
        "OOO",
        "EOD",
        "EOW",
        "WIP",
        "LGTM",
    ]
)
#: Words between an owner's "'s" and a value that make the value the owner's successor,
#: not the owner's thing ("Keanu's replacement Ilse").
_SUCCESSOR = word_set("replacement successor stand-in cover new")


def _owned_by(text: str, old: str, value: str) -> bool:
    """Whether the memory says ``value`` as the old value's own thing: "Keanu's indexing
    Figma file" (up to three words between)."""
    owner = re.escape(old.split()[-1]) if old.split() else ""
    if not owner:
        return False
    if re.match(rf"{owner}['’]s\b", value):  # the name reader's "Keanu's Figma"
        return True
    pattern = rf"\b{owner}['’]s\s+((?:[\w-]+\s+){{0,3}}){re.escape(value)}\b"
    match = re.search(pattern, text)
    return match is not None and not (set(match.group(1).lower().split()) & _SUCCESSOR)


def _named_slot(slot: Sequence[str], relation: str) -> set[str]:
    """The slot's words and the one-word names the vocabulary gives it: "my manager"
    speaks of ``reports_to`` itself, not of the manager's own slot."""
    return {*slot, *(n for n in vocabulary.relation_names(relation) if " " not in n)}


#: Where a subject is, said with "be": the way a place slot ("based in") is said too.
_WHERE = re.compile(r"(?:\bis|\bare|['’]s|['’]re)\s+(?:now\s+)?in\s+(?-i:[A-Z])", re.IGNORECASE)


def _phrased(text: str, relation: str) -> bool:
    """Whether the memory names the slot the way the vocabulary lists it: a phrase of
    two words or more read as :func:`vocabulary.key` reads them ("moved to", "based in"
    for ``lives_in``, in any tense), a one-word name as the slot itself (not "work
    phone" for the phone)."""
    said = f"_{vocabulary.key(text).rstrip('.')}_"
    names = vocabulary.relation_names(relation)
    if "based in" in names and _WHERE.search(text):  # a place slot: "Mum is in York"
        return True
    for name in names:
        words = name.split()
        if len(words) > 1:
            if f"_{vocabulary.key(name)}_" in said:
                return True
        elif len(name) >= 3 and _plain_slot(text, words):
            return True
    return False


def _outside_names(text: str, names: Sequence[str]) -> set[str]:
    """The memory's words outside its names, lower case, hyphens split ("on-call")."""
    rest = text
    for name in sorted(names, key=len, reverse=True):
        rest = re.sub(rf"\b{re.escape(name)}\b", " ", rest)
    return {w.lower() for w in re.findall(r"[^\W_]+", rest)}


#: Words a slot may follow and stay the same slot ("my new optician"); any other word
#: in front makes another slot ("my work phone" is not "my phone").
_SAME_SLOT = word_set("my our the a an his her their its your new current different")


def _plain_slot(text: str, slot: Sequence[str]) -> bool:
    """Whether the slot's words are said as that slot, not qualified into another:
    after a determiner, "new", a possessive or nothing."""
    said = r"[\s-]+".join(re.escape(w) for w in slot)
    for match in re.finditer(rf"(?:^|(?P<before>[\w'’]+)[\s-]+|\W\s*){said}\b", text, re.I):
        before = (match.group("before") or "").lower()
        if not before or before in _SAME_SLOT or before.endswith(("'s", "’s", "s'")):
            return True
    return False


def _someone_else(text: str, subject: Entity, slot: Sequence[str], names: set[str]) -> bool:
    """Whether the memory speaks of another owner's slot: "my brother" when the slot is
    the speaker's, "Sasha's husband" when it is Sasha's and the slot is not a husband."""
    if canonical_name(subject.name) in SPEAKERS:
        # "my manager left for HP" is the manager's job, unless the slot is the manager.
        # "My manager is no longer Joost" says whose slot ended, not the manager's own.
        if any(
            m.group("n").lower() not in names and not _ENDED_AFTER.match(text, m.end())
            for m in _OTHER_OWNER.finditer(text)
        ):
            return True
        # "the kids' dentist", "Ana's manager": an owner named in front of the slot.
        said = r"[\s-]+".join(re.escape(w) for w in slot)
        if slot and re.search(rf"(?<!\bit)(?<!\bthat)['’]s?\s+{said}\b", text, re.I):
            return True
    own = canonical_name(subject.name).split()
    # "The mobile app's CI": another owner's thing of the subject's name.
    named = r"\s+".join(re.escape(w) for w in own)
    if re.search(rf"(?<!\bmy)(?<!\bour)['’]s?\s+{named}\b", text, re.I):
        return True
    for match in _POSSESSIVE.finditer(text):
        owner, noun = match.group("o").lower(), match.group("n").lower()
        if match.group(0).lower().startswith(("it's", "that's", "what's", "there's")):
            continue
        if owner in own and noun not in slot and noun not in _FOLLOWS_NAME:
            return True
    return False


#: Words a possessive "'s" is read as "is" or "has" before ("Rosa's in Lisbon").
_FOLLOWS_NAME = word_set("""
    in at on now out with been got gone moved left off back up down a an the
    """)


#: A name after a title: "Dr. Moreau" is one name, not "Dr." and a new sentence.
_TITLED = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Prof|St)\.?\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?")
#: A clause's first word, capitalised, and the word after it.
_OPENER = re.compile(r"(?:^|[.!?;:]\s+|,\s+(?:so|and|but)\s+)(?P<w>[A-Z][\w-]*)\s+(?P<v>[a-z]+)\b")
#: Sentence-initial words that are no name, on top of the name reader's own.
_NOT_OPENERS = NOT_NAMES | STOPWORDS | COMMON_OPENERS


def _names(text: str) -> list[str]:
    """The names the memory mentions (:func:`patterns.proper_names`), with a leading
    past-tense or "-ing" word left out ("Cancelled Virgin" names Virgin) and a lone
    capitalised word opening a clause taken as a name when a verb of the present
    follows it ("Buildkite runs our CI", "Noah is our goalkeeper"): the name reader
    leaves every lone opener out, as "Painting helps" is no name."""
    found: list[str] = [m.group(0) for m in _TITLED.finditer(text)]
    for name in proper_names(text):
        first, _, rest = name.partition(" ")
        if rest and text.find(name) in _openings(text):
            connector, _, after = rest.partition(" ")
            if connector in ("the", "of") and after:  # "Sold the Jazz": the Jazz
                name = after
            elif first.lower().endswith(("ed", "ing")):  # "Cancelled Virgin": Virgin
                name = rest
        if not any(name in titled for titled in found) and name.lower() not in _TITLES:
            found.append(name)
    for match in _OPENER.finditer(text):
        word, verb = match.group("w"), match.group("v")
        lone = word.lower()
        if lone in _NOT_OPENERS or lone.endswith(("ed", "ing", "ly")):
            continue
        if (verb == "is" or (verb.endswith("s") and not verb.endswith("ss"))) and word not in found:
            found.append(word)
    return found


def _known_openers(reads: Reads, text: str, names: Sequence[str]) -> list[str]:
    """A lone capitalised word opening a clause that names a known entity ("Fenna
    changed schools", "Wiebe had a family emergency"): the name reader leaves every
    lone opener out, so the slots of the person said first are read only this way
    (round eleven); a word no entity has ("Painting") stays out."""
    found = []
    for start in _openings(text):
        # not a possessive: "Elif's best friend changed schools" is the friend's slot
        match = re.match(r"(?-i:[A-Z][a-z]+)\b(?![\s-]+[A-Z]|['’])", text[start:])
        if match is None or match.group(0) in names or match.group(0).lower() in _NOT_OPENERS:
            continue
        if reads.entity(match.group(0)) is not None:
            found.append(match.group(0))
    return found


def _openings(text: str) -> set[int]:
    """Where the memory's clauses open."""
    return {0} | {m.end() for m in re.finditer(r"[.!?;:]\s+", text)}


def _values(text: str, names: Sequence[str], old: str) -> list[str]:
    """The values of the old value's shape the memory states."""
    if _TIME.search(old):
        return _TIME.findall(text)
    if _FREQUENCY.search(old):
        return [m.group(0) for m in _FREQUENCY.finditer(text)]
    if any(w[:1].isupper() for w in old.split()):  # "2015 Honda Jazz" is a name
        # A day, month or holiday says when ("changed schools at Easter"), not what.
        named = [n.removesuffix("'s").removesuffix("’s") for n in names]
        return [n for n in named if not change_plain.when_not(n, old)]
    if old[:1].isdigit() or old[:1] in "£$€":
        return [m.group(0).strip() for m in _AMOUNT.finditer(text)]
    return []


#: Words a held slot's name carries beside the thing it is of ("infra_budget_owner" is
#: the infra budget's owner, "qa_lead" leads QA).
_ROLE_WORDS = frozenset(("owner", "lead", "head", "manager", "owned", "by", "person"))


def handed(reads: Reads, thing: str, exclude: Sequence[str] = ()) -> Relation | None:
    """The one held slot a thing handed over names by its words (round ten): "Payments
    on-call" names ``payments service on_call`` (its slot's words, and the rest its
    holder's), "the infra budget" names ``user infra_budget_owner``, "QA" names ``user
    qa_lead``. None when no slot or several do; ``exclude``: types that are no slot."""
    said = set(canonical_name(thing.replace("-", " ")).split()) - {"the", "our", "my"}
    found = []
    recent = reads.recent()
    # A hand-over passes a thing from its one holder: a slot holding several values
    # (two people on call at once) is not the one handed.
    size = Counter((r.source_entity_id, r.relation_type) for r in recent)
    for held in recent:
        if held.relation_type in exclude or held.relation_type.startswith("uses"):
            continue
        slot = set(held.relation_type.lower().replace("-", "_").split("_")) - _ROLE_WORDS
        rest = said - slot
        holder = set(canonical_name(held.source).split())
        single = size[held.source_entity_id, held.relation_type] == 1
        if slot and slot <= said and rest <= holder | {SPEAKER} and single:
            found.append(held)
    return found[0] if len(found) == 1 else None
