"""A slot's first value the graph never read, found in an earlier memory (issue 28, G2).

Round fifteen (changes36). Fresh wording showed the most common reason a change leaves
the old fact open is not the change's wording but the first statement's: "The book
club meets at the library", "My daughter goes to Hillside Primary", "I write everything
in Vim" give the linker no relation, so when "The book club relocated to the Crown pub"
is read as ``book club uses Crown pub`` there is nothing held to close, and recall and
the graph both keep the library. The change says which slot it is (its one fact's
subject and relation); the old value is in the memories, not in the graph. So, for a
memory whose rules closed nothing, that states a change (a word of change or "now",
and the stated-change guards: no hedge, plan, question, trial, "also", cover or other
person's change), and whose one fact's subject holds no value of that relation:

1. **by the subject**: the newest earlier memory the keyword index finds for the
   subject's name that says the subject, a verb (with its preposition) and a value
   right after it ("the book club meets at *the library*"): that value;
2. **by the category**: else, when the relation or the new value names a category of
   the vocabulary (``uses_editor``, "VS Code" an editor), the newest of the namespace's
   last memories that names exactly one other member of it ("I write everything in
   *Vim*"), told in the first person or the team's, not someone else's.

The old value is recorded on the fact's subject and relation as held from that
memory's time and closed at this one (``change_left.held_until_now``), so the new value
is the one current. Before either: the one value the subject holds of the same slot
under another relation's name (another version of the product, a value of the same
category, a relation naming the other's words) is ended and the new value recorded on
it; and a "we" change read as the speaker's ends the team's one value of the slot.
A value of another shape (a name for a number), one the new value holds, or one the
graph holds already reads nothing: that slot was the rules' to read. An assistant's
turn ("Noted, the book club meets at the library.") is never the earlier statement nor
its relation the held value (left39): the user's turn it echoes is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime

from engram.pipeline import (
    change_again,
    change_kinds,
    change_left,
    change_named,
    change_slots,
    relation_ends,
    vocabulary,
)
from engram.pipeline.change_slots import SPEAKER, SPEAKERS, TEAM
from engram.pipeline.change_words import KNOWN_PERSON, others_thing
from engram.pipeline.held_reads import current_facts
from engram.pipeline.linker import TALKS_ABOUT
from engram.pipeline.patterns import proper_names, word_set
from engram.pipeline.prefilter import gated
from engram.store.protocols import Store
from engram.store.protocols.graph import Relation, Statement, Triple, canonical_name
from engram.store.protocols.memories import ListQuery
from engram.text import STOPWORDS

#: The old value's confidence: read from an earlier memory's frame, as ``change_again``'s.
CONFIDENCE = change_again.CONFIDENCE
#: How many of the namespace's memories before the change the category read looks at.
RECENT = 30
#: A value is a few words: more is a clause, not a slot's value.
MAX_VALUE_WORDS = 4
#: Words of change the stated-change cue lacks that say a slot took a new value
#: ("relocated to", "raised it", "started at").
_MORE_CUES = gated(
    re.compile(r"\b(?:relocat(?:ed|es)|raised|started\s+(?:at|with))\b", re.IGNORECASE)
)
#: Someone else's value: "my brother", "User's brother" (the pipeline's fact).
_SOMEONE = re.compile(rf"(?:\b(?:my|our|his|her|their)|['’]s)\s+{KNOWN_PERSON}\b", re.I)
#: Relation words that name no slot (``change_slots``'s own list).
_NOT_SLOT = word_set("uses has is of the a at in on to for with by")
#: "We" said: a change of the team's slot as much as the speaker's.
_WE = re.compile(r"\b(?:we|we['’]ve|we['’]re|our|us)\b", re.IGNORECASE)
#: Verbs after the subject that tell no value holding now: a past or ended state, a
#: plan, a negation, a second value.
_NOT_HOLDING = word_set(
    "used was were had did didn't doesn't don't isn't aren't never also too might may "
    "could would will should wants want plans planned hopes thinks"
)
#: Words that end a value: what follows is when or why, not the value.
_VALUE_END = (
    r"(?=\s+(?:on|in|at|for|to|with|every|each|since|because|and|but|so|after|before|"
    r"until|from|near|by|twice|once|three|two|most)\b|\s*(?:[,;:!?()]|\.(?!\S))|\s*$)"
)
_DETERMINERS = r"(?:(?:the|a|an|my|our|their|his|her|its|your)\s+)?"
#: First-person or team talk, or the pipeline's fact of the speaker ("User writes
#: everything in Vim."): a category value told of the speaker.
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|my|My|we|We|our|Our|us|User|[Tt]he user)\b")


def cued(text: str) -> bool:
    """Whether ``text`` states a change (read before any graph read)."""
    said = change_named.cued(text) or _MORE_CUES.search(text) is not None
    return said and change_named.guarded(text)


def close(
    store: Store,
    namespace: str,
    text: str,
    statement: Statement,
    read: Sequence[tuple[str, str, str]],
    end: Callable[[Relation], None],
) -> list[Triple]:
    """Find the old value of the one fact ``read`` from ``text`` in an earlier memory,
    record it as held until this memory and end it through ``end`` (see the module
    docstring); the triples the plan adds (the new value on the team's slot when a
    "we" changed it)."""
    if not cued(text):
        return []
    facts = {(canonical_name(s), r): (s, r, t) for s, r, t in change_named.values(read)}
    if len(facts) != 1:
        return []
    source, relation, new = next(iter(facts.values()))
    if (
        relation == TALKS_ABOUT
        or others_thing(text, source)
        or _holds(store, namespace, source, relation, statement)
    ):
        return []
    kin = _kin(store, namespace, source, relation, new, statement)
    if kin is not None:  # the slot held under another relation's name
        end(kin)
        return [(kin.source, kin.relation_type, new, CONFIDENCE)]
    if canonical_name(source) in SPEAKERS:  # the speaker's slot: by its category
        ours = _ours(store, namespace, text, source, relation, new)
        if ours is not None:
            end(ours)
            return [(ours.source, relation, new, CONFIDENCE)]
        found = _by_category(store, namespace, relation, new, statement)
    else:
        found = _by_subject(store, namespace, source, new, statement)
    if found is None:
        return []
    old, memory_id, at = found
    if relation_ends.not_a_thing(source, relation, old) or _held_value(store, namespace, old):
        return []
    since = change_left.Earlier(old, memory_id, at)
    change_left.held_until_now(
        store, namespace, (source, relation, old, CONFIDENCE), since, statement, end
    )
    return []


def _ours(
    store: Store, namespace: str, text: str, source: str, relation: str, new: str
) -> Relation | None:
    """The one value the other of the speaker and the team holds of the slot, when a
    "we" changes it: "The team uses Jira for tickets" is what "We've moved our tickets
    over to Linear" (read as the speaker's) replaces."""
    if not _WE.search(text):
        return None
    # the team as an agent's notes name it, or as "The team uses ..." is read
    others = (TEAM, "team") if canonical_name(source) == SPEAKER else (SPEAKER,)
    held = _users(
        store,
        namespace,
        [
            r
            for entity in filter(None, (store.graph.entity(namespace, o) for o in others))
            for r in store.graph_counts.current_relations(namespace, entity.id, relation)
        ],
    )
    if len(held) != 1 or _same_thing(held[0].target, new) or not change_slots.one(held[0]):
        return None
    return held[0]


def _kin(
    store: Store, namespace: str, source: str, relation: str, new: str, statement: Statement
) -> Relation | None:
    """The one value the subject holds of the same slot under another relation's name:
    another version of the same product ("We run Postgres 14" then "upgraded to
    Postgres 16": ``runs`` and ``uses_database``), a value of the same category of the
    vocabulary (``lives_in Confluence`` and ``uses_docs GitBook``), a relation whose
    name holds the other's words (``wedding_photographer`` and ``photographer``), or,
    when one of the two names no slot of its own (``uses``, ``is_on``), a value of the
    new one's shape and category (``payroll owned_by Sage`` for "Payroll now goes
    through Xero", read as ``payroll uses Xero``). The subject may be held under a
    longer name ("the monthly team lunch" for "team lunch") or as the speaker's slot
    (``user broadband_provider BT`` for "the broadband")."""
    category = vocabulary.category(new)
    words = set(_slot_words(relation))
    found = {
        r.id: r
        for r in _held_slots(store, namespace, source)
        if (r.relation_type != relation or canonical_name(r.source) != canonical_name(source))
        and r.source_memory_id != statement.memory_id
        and canonical_name(r.target) != canonical_name(new)
        and (
            _versions(r.target, new)
            or (category is not None and vocabulary.category(r.target) == category)
            or _kin_names(words, set(_slot_words(r.relation_type)))
            or _unnamed_slot(words, r, new, category)
            or _thing_place(source, words, r)
        )
    }
    kin = _users(store, namespace, list(found.values()))
    return kin[0] if len(kin) == 1 else None


def _users(store: Store, namespace: str, held: list[Relation]) -> list[Relation]:
    """``held`` without the relations recorded from an assistant's (or any other
    role's) turn: its echo restates the user's value, it holds none of its own."""
    ids = list({r.source_memory_id for r in held if r.source_memory_id is not None})
    memories = store.memories.get_many(namespace, ids) if ids else {}
    other = {i for i, m in memories.items() if m.other_role is not None}
    return [r for r in held if r.source_memory_id not in other]


def _held_slots(store: Store, namespace: str, source: str) -> list[Relation]:
    """The current relations that may hold the subject's slot: the subject's own, a
    longer name's of it, and the speaker's relations named by the subject's words."""
    name = canonical_name(source)
    entity = store.graph.entity(namespace, source)
    held = []
    if entity is not None:
        held = [
            r
            for r in current_facts(store, namespace, entity.id, limit=200, newest_first=True)
            if r.source_entity_id == entity.id
        ]
    if name in SPEAKERS or not set(name.split()) - STOPWORDS:
        return held
    stems = {w.removesuffix("s") for w in name.split()} - STOPWORDS
    for r in current_facts(store, namespace, None, limit=200, newest_first=True):
        held_name = canonical_name(r.source)
        slot = {w.removesuffix("s") for w in _slot_words(r.relation_type)}
        longer = held_name.endswith(" " + name)  # "monthly team lunch" for "team lunch"
        speakers = held_name in SPEAKERS and bool(slot) and stems <= slot
        if longer or speakers:
            held.append(r)
    return held


#: Relation words that name a place held: a value of it may be a name or a thing
#: ("meets at Victoria Park", "switched to the canal path").
_PLACE = word_set("venue lives located based meets location address")


def _thing_place(source: str, words: set[str], held: Relation) -> bool:
    """Whether both relations say where a thing (no person) is: "the team lunch moved
    to Thai Orchid" read as ``lives_in`` is the slot ``monthly team lunch venue`` holds.
    A person's home and workplace are two slots, so a person's reading is left out."""
    if not words & _PLACE or not set(_slot_words(held.relation_type)) & _PLACE:
        return False
    names = source.split()
    person = change_kinds.names_person(source.lower()) or (
        names[0][:1].isupper() and all(w[:1].isupper() for w in names[1:])
    )
    return not person


def _unnamed_slot(words: set[str], held: Relation, new: str, category: str | None) -> bool:
    """Whether one of the two relations names no slot (``uses``, ``is_on``) and the held
    value is of the new one's shape (a place's name or thing alike) and of no other
    category of the vocabulary."""
    held_words = set(_slot_words(held.relation_type))
    if words and held_words:
        return False
    other = vocabulary.category(held.target)
    if category is not None and other is not None and other != category:
        return False
    one, two = change_named.shape(held.target), change_named.shape(new)
    if one == two:
        return True
    place = bool(held_words & _PLACE) or bool(words & _PLACE)
    return place and {one, two} == {"name", "thing"}


def _versions(held: str, new: str) -> bool:
    """Two versions of one product: the same first word, a number after it."""
    one, two = canonical_name(held).split(), canonical_name(new).split()
    return (
        len(one) > 1 and len(two) > 1 and one[0] == two[0] and one != two
        and any(c.isdigit() for c in one[1]) and any(c.isdigit() for c in two[1])
    )  # fmt: skip


def _slot_words(relation: str) -> list[str]:
    """A relation's words that name its slot ("uses_ci" is "ci")."""
    return [w for w in re.split(r"[_\s-]+", relation.lower()) if w and w not in _NOT_SLOT]


def _kin_names(one: set[str], two: set[str]) -> bool:
    """Whether one relation's name holds all the other's words ("photographer" of
    ``wedding_photographer``)."""
    return bool(one) and bool(two) and one != two and (one < two or two < one)


def _holds(store: Store, namespace: str, source: str, relation: str, statement: Statement) -> bool:
    """Whether the subject holds a current value of the relation from another memory."""
    entity = store.graph.entity(namespace, source)
    if entity is None:
        return False
    held = store.graph_counts.current_relations(namespace, entity.id, relation)
    return any(r.source_memory_id != statement.memory_id for r in held)


def _held_value(store: Store, namespace: str, value: str) -> bool:
    """Whether the graph holds ``value`` already (the rules read that memory)."""
    entity = store.graph.entity(namespace, value)
    if entity is None:
        return False
    return bool(current_facts(store, namespace, entity.id, limit=5))


def _by_subject(
    store: Store, namespace: str, source: str, new: str, statement: Statement
) -> tuple[str, str, datetime] | None:
    """The value the newest earlier memory gives the subject right after a verb."""
    words = canonical_name(source).split()
    if not words or all(w in STOPWORDS for w in words):
        return None
    # the subject's last word with or without a plural "s" ("Deploys" said as "deploy")
    last = re.escape(words[-1].removesuffix("s")) + "s?"
    subject = r"\s+".join([*(re.escape(w) for w in words[:-1]), last])
    pattern = re.compile(
        # a verb in lower case (a capital continues a name: "Kieran Brennan's email");
        # a dot inside a token ("kieran.brennan@gmail.com", "1.27") is the value's
        # a passive verb after "is" is the verb ("is located on Harbour Street")
        rf"\b{subject}(?P<owns>['’]s)?\s+(?:(?:is|are)\s+(?=[a-z]{{3,}}ed\s))?"
        rf"(?P<verb>(?-i:[a-z])[a-z’']*)(?:\s+(?P<prep>at|in|on|to|"
        rf"with|from|by|for|into|onto|as))?\s+(?P<det>{_DETERMINERS})(?P<value>[^\s,.;:!?()]"
        rf"(?:[^,.;:!?()]|\.(?=\S))*?){_VALUE_END}",
        re.IGNORECASE,
    )
    for memory in reversed(change_again.earlier_memories(store, namespace, source, statement)):
        match = pattern.search(memory.content)
        if match is None:
            continue
        if match["owns"]:  # "Dad's blood pressure tablet is ...": a slot of the subject's
            return None
        value, verb = _bare(match["value"]), match["verb"].lower()
        # a verb, not a preposition or a word that says no value holds now
        said = verb in change_again.COPULAS or verb not in STOPWORDS | _NOT_HOLDING
        if said and _a_value(value, new, verb, match["prep"], match["det"], source):
            return value, memory.id, memory.created_at
        return None  # the newest memory of the subject says no value of this shape
    return None


def _by_category(
    store: Store, namespace: str, relation: str, new: str, statement: Statement
) -> tuple[str, str, datetime] | None:
    """The one other member of the new value's category the newest recent memory names."""
    category = vocabulary.slot_category(relation) or vocabulary.member_category(new)
    if category is None or vocabulary.member_category(new) not in (None, category):
        return None
    recent = store.memories.select(
        namespace, ListQuery(created_before=statement.valid_from, limit=RECENT)
    )
    for memory in recent:
        if memory.id == statement.memory_id or memory.other_role is not None:
            continue
        members = {
            n
            for n in proper_names(memory.content)
            if vocabulary.member_category(n) == category and not _same_thing(n, new)
        }
        if not members:
            continue
        # two members, a question, someone else's: no value of the speaker's slot
        if len(members) > 1 or not _FIRST_PERSON.search(memory.content):
            return None
        if "?" in memory.content or _SOMEONE.search(memory.content):
            return None
        return members.pop(), memory.id, memory.created_at
    return None


#: Words a value is said after, not part of it ("Eva's nursery is Little Acorns",
#: "the newsletter goes out via Mailchimp", "is still called master").
_LEAD = frozenset({"still", "called", "named", "via", "out", "now", "currently"})


def _bare(value: str) -> str:
    """The value without the words it is said after."""
    words = value.split()
    while len(words) > 1 and (words[0].lower() in STOPWORDS or words[0].lower() in _LEAD):
        words = words[1:]
    return " ".join(words)


def _a_value(
    value: str, new: str, verb: str, prep: str | None, det: str | None, source: str
) -> bool:
    """Whether ``value`` may be the slot's old value beside ``new``: a few words, not
    only stopwords, not the new value nor another version of it, and of its shape (a
    name for a name, a number for a number; a thing only for a thing, or a place before
    a named one: "meets at the library" then "relocated to the Crown pub")."""
    words = value.split()
    if not words or len(words) > MAX_VALUE_WORDS:
        return False
    if all(w.lower() in STOPWORDS for w in words):
        return False
    if _same_thing(value, new):
        return False
    old_shape, new_shape = _place_shape(value, prep), _place_shape(new, prep)
    if old_shape == "thing":
        # "a flat": a kind, no named value; "Tariq is the product owner": a role held
        if det and det.split()[0].lower() in ("a", "an"):
            return False
        if verb in change_again.COPULAS and source[:1].isupper():
            return False
        place = prep is not None and prep.lower() in ("at", "in", "to", "into", "onto")
        return new_shape == "thing" or (new_shape == "name" and place)
    return old_shape == new_shape


def _place_shape(value: str, prep: str | None) -> str:
    """A value's shape (``change_named.shape``), where an address said as a place ("at
    14 Mill Lane", "Unit 9 on Canal Road") is a name, not an amount."""
    shape = change_named.shape(value)
    place = prep is not None and prep.lower() in ("at", "in", "on", "to", "into", "onto")
    if shape == "amount" and place and change_named.shape(re.sub(r"\S*\d\S*", "", value)) == "name":
        return "name"
    return shape


def _same_thing(value: str, new: str) -> bool:
    """Whether two values are one, or versions of one ("Go" and "go 1.23")."""
    one, two = canonical_name(value), canonical_name(new)
    if one == two or one in two or two in one:
        return True
    return one.split()[:1] == two.split()[:1]
