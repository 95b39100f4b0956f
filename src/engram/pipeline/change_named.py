"""A held value named as left behind beside a new fact the rules read (issue 28, G2).

Round twelve (changes30) counted the changes eleven rounds of rules left open by the
stage that dropped them. Of the misses whose old and new values were both read, most
shared one shape whatever the wording: the new memory *names the old value* ("we finally
killed jenkins, CI is on Buildkite", "Replaced Elasticsearch with OpenSearch in the
search cluster", "the builds run on GitHub Actions these days and CircleCI is
cancelled") and the rules read the new value as a fact, but of a subject or a relation
the held fact does not have (``CI uses_ci`` beside ``The team uses_ci``, ``Nadia jumped
uses Nestlé`` beside ``Nadia works_at Unilever``), so the type-by-type close found
nothing to replace. The slot pass (``change_slots``) does not read them either: it
leaves a memory whose rules read a fact of the slot to the rules, and it wants exactly
one capitalised value.

What is read here is the pair, not a verb: one held relation of the namespace whose
value the memory names, and one new value the rules read in the same memory, with a word
of change or "now" said. The new value is recorded on the held subject and slot (the
reader's loose triple of it dropped) and the held one closed. It runs only when nothing
else in the plan closed, and every check below is a guard against a wrong close, which
hides a fact that still holds (the look-alike folds F to AT hold the cases).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engram.pipeline import change_slots, relation_ends, vocabulary
from engram.pipeline.change_signals import ADDITION_WORDS, HEDGE
from engram.pipeline.change_words import KNOWN_PERSON, NOT_LASTING, NOW, joint
from engram.pipeline.linker import TALKS_ABOUT
from engram.pipeline.patterns import proper_names
from engram.pipeline.prefilter import gated
from engram.store.protocols.graph import Relation, Triple, canonical_name

#: The new fact's confidence: read from the pair, below a change verb's 0.8.
CONFIDENCE = 0.7
#: Longer memories are not read: an old value and a new one a paragraph apart are no
#: statement of a change.
MAX_WORDS = 40
#: Who holds a slot said with no owner (``change_slots.SPEAKERS``).
SPEAKERS = frozenset({"user", "the team"})
#: Titles in front of a name: "Dr" names no one by itself.
_TITLES = frozenset(("dr", "mr", "mrs", "ms", "miss", "prof", "st", "sir"))

#: A word of change or of an ending (engram's choice, changes30): said, the memory
#: reports something that no longer holds. Read before any graph read, so most memories
#: cost one pattern.
_CUE = gated(
    re.compile(
        r"\b(?:cancel(?:l?ed|s)?|drop(?:ped|s)?|ditch(?:ed|es)?|kill(?:ed|s)?|left|quit|"
        r"retired|sold|replac(?:ed|es|ing)|switch(?:ed|es)|swap(?:ped|s)|migrat(?:ed|es)|"
        r"moved|gave\s+up|given\s+up|expired|disabled|shut|closed|instead|went\s+with|"
        r"went\s+back|ported|changed|upgraded|downgraded|took\s+over|handed|passed|"
        r"no\s+longer|any\s?more|chop|dumped|got\s+rid|transferred|jumped\s+ship|"
        r"rewrote|renamed|"
        # "came off DigitalOcean onto Hetzner"; a bare "off" or "out" is no change
        # ("Check out the crowd")
        r"off\s+[^,.;]{1,30}?\s+(?:to|onto|for))\b",
        re.IGNORECASE,
    )
)
#: Not stated as holding (the slot pass's and the rules' guards, the ones that hold in
#: any clause): a question, a plan or a hope, a trial, a value that stays or comes back,
#: a change in "-ing" (a plan), a time to come.
_NOT_STATED = re.compile(
    r"\?|['’]d\b|"
    r"\b(?:probably|maybe|might|could|would|should|plan(?:s|ned|ning)?|thinking|"
    r"hop(?:e|es|ed|ing)|trial(?:led|ed)?|tried|try(?:ing)?|still|wish|suppose|imagine|"
    r"if|whether|stay(?:s|ed|ing)?|stick(?:s|ing)?\s+with|stuck\s+with|remain(?:s|ed)?|"
    r"sometimes|occasionally|revert(?:ed|ing|s)?|rolled\s+back|again|borrow(?:ed|ing)?|"
    r"moving|switching|changing|leaving|joining|getting|"
    r"next\s+(?:week|month|term|sprint|quarter|year|time)|"
    # a span of time is a loan, not a change ("handed the pager to Mungo for an hour")
    r"for\s+(?:an?|the|one|two|a\s+few|a\s+couple\s+of)\s+(?:hours?|minutes?|morning|"
    r"afternoon|evening|day|days|night|nights|weekend|week|weeks)|just\s+for|this\s+time)\b",
    re.IGNORECASE,
)
#: Someone the speaker knows, as the one who changed ("my cousin just started at ...").
OTHER_OWNER = re.compile(rf"\b(?:my|our|his|her|their)\s+{KNOWN_PERSON}\b", re.IGNORECASE)
#: A word as the change readers count and compare them (``change_left`` reads it too).
WORD = re.compile(r"[^\W_]+(?:[&'’.-][^\W_]+)*")


@dataclass(frozen=True, slots=True)
class Named:
    """``old`` is replaced by ``target``, which the rules read as ``said``."""

    old: Relation
    target: str
    said: tuple[str, str, str]


def cued(text: str) -> bool:
    """Whether ``text`` says a word of change or "now" (read before the graph)."""
    return bool(_CUE.search(text) or NOW.search(text))


def replacement(
    text: str, held: Sequence[Relation], said: Sequence[tuple[str, str, str]]
) -> Named | None:
    """The one held relation ``text`` names the value of and the one new value the rules
    read in it (``said``: (subject, relation, target)) that replaces it, or None.
    ``held``: the namespace's current relations, newest first, this memory's own left
    out."""
    lower = stated_change(text)
    if lower is None:
        return None
    said = values(said)
    named = [
        r
        for r in held
        if r.relation_type != TALKS_ABOUT
        and names(lower, r.target, r.source)
        # a value the rules read again in this memory is held, not left behind
        and not any(same(r.target, t) for _, _, t in said)
    ]
    if not named:
        return _by_subject(held, said)
    if len({(canonical_name(r.source), r.relation_type) for r in named}) != 1:
        return None  # two slots' values named: a list, not a change
    old = named[0]
    fresh = [s for s in said if not same(s[2], old.target) and not _shares(s[2], old.target)]
    same_slot = [s for s in fresh if s[1] == old.relation_type]
    fresh = same_slot or fresh
    if not said:
        # The rules read no value at all ("British Gas doubled the direct debit, so I
        # switched and Octopus supplies the flat now"): the one other name the memory
        # says is the held slot's new value, as the slot pass reads it, so not on one
        # occasion ("Tobias left early today, so Marisol ran the session").
        if change_slots.one_off(text):
            return None
        fresh = [(old.source, old.relation_type, n) for n in _other_names(text, old)]
    if len({canonical_name(t) for _, _, t in fresh}) != 1:
        return None
    source, relation, target = fresh[0]
    if shape(target) != shape(old.target):
        return None  # "Joost moved to a new desk": a desk is no team lead
    if not _same_holder(text, source, old.source, relation == old.relation_type):
        return None
    # a value of another category is another slot ("Redis" is no cloud)
    category = vocabulary.member_category(target)
    kind = vocabulary.slot_category(old.relation_type)
    if category is not None and kind is not None and category != kind:
        return None
    return Named(old, target, (source, relation, target))


def _other_names(text: str, old: Relation) -> list[str]:
    """The capitalised names ``text`` says that are neither the held value, its holder
    nor a word of either."""
    taken = set(canonical_name(f"{old.source} {old.target}").split())
    return [
        n
        for n in proper_names(text)
        if not set(canonical_name(n).split()) & taken and n.lower() not in _TITLES
    ]


# A text is asked twice in a batch: by the write path (``Core.changes``, batch40), then by
# the closing plan's readers; the answer depends on the text alone.
@functools.lru_cache(maxsize=1024)
def stated_change(text: str) -> str | None:
    """``text``'s words in lower case, one space apart, when it states a change: short,
    a word of change or "now" said, and none of the guards (a hedge, a plan, a question,
    a trial, a value that stays, "also", a cover, another person's change); else None."""
    if not cued(text) or not guarded(text):
        return None
    return " ".join(w.lower() for w in WORD.findall(text))


def guarded(text: str) -> bool:
    """Whether ``text`` is short and passes the guards of a stated change (no hedge,
    plan, question, trial, value that stays, "also", cover or other person's change);
    ``change_swap`` reads its own words of change."""
    words = WORD.findall(text)
    if not words or len(words) > MAX_WORDS:
        return False
    if HEDGE.search(text) or _NOT_STATED.search(text) or ADDITION_WORDS.search(text):
        return False
    # "My husband's and my GP is Dr Shah now" is the speaker's change (``joint``).
    return not (NOT_LASTING.search(text) or OTHER_OWNER.search(joint(text)))


def values(said: Sequence[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The facts the rules read that hold a value: no mention, no reading of a bare
    number or a pronoun as a thing (``relation_ends.not_a_thing``)."""
    return [s for s in said if s[1] != TALKS_ABOUT and not relation_ends.not_a_thing(*s)]


def _by_subject(held: Sequence[Relation], said: Sequence[tuple[str, str, str]]) -> Named | None:
    """The old value left unsaid: the one new fact's subject is a word of exactly one
    held subject of the same relation, held one value at a time ("we moved standup to
    10:00" read as ``standup scheduled`` beside ``Platform team standup scheduled
    9:15``): the rules named the subject short, so their close found nothing."""
    if len({(canonical_name(s), r) for s, r, _ in said}) != 1:
        return None
    source, relation, target = said[0]
    stems = _stems(source)
    if not stems or canonical_name(source) in SPEAKERS:
        return None
    found = [
        r
        for r in held
        if r.relation_type == relation
        and canonical_name(r.source) != canonical_name(source)
        and stems <= _stems(r.source)
        and not same(r.target, target)
        and change_slots.one(r)
    ]
    if len({r.source_entity_id for r in found}) != 1 or len(found) != 1:
        return None
    if shape(target) != shape(found[0].target):
        return None
    return Named(found[0], target, (source, relation, target))


_DAYS = frozenset(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "weekday",
        "weekend",
    ]
)


def shape(value: str) -> str:
    """What kind of value a target is: an amount or time (a digit), a day, a name (a
    capitalised word that is no title), or a thing. A new value of another shape is
    another slot's ("Yoga switched to Fridays" names no new yoga; "I'm a senior
    designer now" no new employer)."""
    words = WORD.findall(value)
    if any(c.isdigit() for c in value):
        return "amount"
    if any(w.lower().rstrip("s") in _DAYS for w in words):
        return "day"
    if any(w[:1].isupper() and w.lower() not in _TITLES for w in words):
        return "name"
    return "thing"


def _stems(name: str) -> set[str]:
    """A subject's words without a plural's "s" and without determiners."""
    return {w.rstrip("s") for w in canonical_name(name).split()} - {"the", "my", "our", ""}


def names(lower: str, value: str, holder: str = "") -> bool:
    """Whether the memory (its words, lower case, one space apart) names ``value``: all
    of it, or its first capitalised word that is no title and no word of its
    ``holder`` ("Jira" of "Jira Cloud", "Hendriks" of "Dr Hendriks", "Hatch" of "third
    floor of the Hatch"; not "Melanie" of Melanie's "how art lets Melanie")."""
    full = " ".join(w.lower() for w in WORD.findall(value))
    if not full:
        return False
    if re.search(rf"(?<!\w){re.escape(full)}(?!\w)", lower):
        return True
    taken = set(canonical_name(holder).split())
    heads = [
        w.lower()
        for w in WORD.findall(value)
        if w[:1].isupper() and w.lower() not in _TITLES and len(w) >= 4
    ]
    head = heads[0] if heads and heads[0] not in taken else None
    return head is not None and re.search(rf"(?<!\w){re.escape(head)}(?!\w)", lower) is not None


def same(a: str, b: str) -> bool:
    return canonical_name(a.replace(".", " ")) == canonical_name(b.replace(".", " "))


def _shares(new: str, old: str) -> bool:
    """Whether the new value is the old one with words added or dropped ("Postgres 16"
    for "Postgres"): a restatement or a version, read by the rules, not here."""
    a, b = set(canonical_name(new).split()), set(canonical_name(old).split())
    return bool(a & b) and (a <= b or b <= a or bool(a & b - _TITLES))


def _same_holder(text: str, new: str, old: str, same_slot: bool) -> bool:
    """Whether the rules' subject of the new value may be the held one's: the same, a
    word of it ("builds" of "build pipeline"), the speaker or the team, or a thing named
    in lower case or as an acronym for a slot the speaker or the team holds ("CI" for
    ``The team uses_ci``). A name the reader takes for a name is someone else's."""
    a, b = canonical_name(new), canonical_name(old)
    if a == b or a in SPEAKERS:
        return True
    if _stems(new) & _stems(old):
        return True
    if new in proper_names(text) and not new.isupper():
        return False  # "Thijs switched to ...": another person's slot
    # A thing named for a slot the speaker or the team holds ("CI" for ``The team
    # uses_ci``, "payroll" for ``user payroll_provider``) is theirs; another thing's
    # slot of the same type is that thing's.
    return b in SPEAKERS and (not same_slot or new[:1].islower() or new.isupper())


def close(
    text: str,
    held: Sequence[Relation],
    said: Sequence[tuple[str, str, str]],
    triples: list[Triple],
    end: Callable[[Relation], None],
) -> tuple[list[Triple], bool]:
    """The plan's triples with the replacement ``text`` names recorded on the held
    subject and slot (the rules' reading of the new value dropped) and the held relation
    ended through ``end``; and whether one closed."""
    found = replacement(text, held, said)
    if found is None:
        return triples, False
    end(found.old)
    new = canonical_name(found.target)
    kept = [t for t in triples if canonical_name(t[2]) != new]
    kept.append((found.old.source, found.old.relation_type, found.target, CONFIDENCE))
    return kept, True
