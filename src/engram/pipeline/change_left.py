"""A value a change names as left behind that no fact of the graph holds (issue 28, G2).

Round twelve (changes30) counted eleven rounds' open changes by the stage that dropped
them. The largest stage was the extractor: the first statement's wording gave no fact
("All of the finance team's reporting tables sit in a Redshift cluster", "I listen to
podcasts on Spotify"), so when the change came ("the warehouse is on Snowflake now,
since the Redshift bill got out of hand") the new value was read and nothing was there
to close. Rules per phrasing of first statements generalise poorly: fold after fold
brings new ones. What the misses share is that the change itself says which value it
left behind, by name, and an earlier memory of the namespace mentioned that name (the
linker records every name a memory mentions).

So the change is read from the pair: a memory that states a change
(``change_named.stated_change``), with exactly one new value the rules read in it and
exactly one other name it says that an earlier memory mentioned and no relation holds,
of the same shape and category as the new value, records the old value on the new fact's
subject and slot, from the earlier memory's time, closed at this memory. The graph then
answers "what did we use before Snowflake?" and the time the old value held, and the
new value holds alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from engram.pipeline import change_named, relation_values, vocabulary
from engram.pipeline.held_reads import current_facts
from engram.pipeline.linker import TALKS_ABOUT
from engram.pipeline.patterns import proper_names
from engram.store.protocols import Store
from engram.store.protocols.graph import Relation, Statement, Triple, canonical_name
from engram.text import STOPWORDS

#: Verbs of being: no word of a slot's name ("lunch money is").
_COPULAS = frozenset({"is", "are", "was", "were", "am", "be"})

#: The old value's confidence: read from the pair, below the new fact's.
CONFIDENCE = 0.65
#: At most this many words after a word of change are looked up as a name said in
#: lower case ("cancelled spotify", "got rid of comcast").
_AFTER_CUE = 3
#: A value's first mentions read for the first in the user's words (an assistant's
#: echo of it comes right after).
_MENTIONS = 5


@dataclass(frozen=True, slots=True)
class Earlier:
    """Where a name was first mentioned: the entity's name, that memory and its time."""

    name: str
    memory_id: str
    at: datetime


@dataclass(frozen=True, slots=True)
class Left:
    """``old`` held ``(source, relation)`` from ``earlier`` until this memory; ``target``
    holds now."""

    source: str
    relation: str
    target: str
    old: Earlier


def left_behind(
    text: str,
    said: Sequence[tuple[str, str, str]],
    earlier: Callable[[str], Earlier | None],
) -> Left | None:
    """The value ``text`` names as left behind beside the one new value the rules read in
    it (``said``), when ``earlier`` (a name -> its first mention by another memory, or
    None) finds exactly one such name; else None."""
    lower = change_named.stated_change(text)
    if lower is None:
        return None
    said = change_named.values(said)
    if len({canonical_name(t) for _, _, t in said}) != 1:
        return None
    source, relation, target = said[0]
    told = set(canonical_name(f"{source} {target}").split())
    found: dict[str, Earlier] = {}
    for name in _candidates(text):
        if set(canonical_name(name).split()) & told:
            continue  # the subject or the new value, or a word of them
        if re.search(rf"&\s*{re.escape(name)}\b|\b{re.escape(name)}\s*&", text):
            continue  # a part of a firm's name ("Halvorsen & Co"), which no part names
        mention = earlier(name)
        if mention is not None and canonical_name(mention.name) not in told:
            found.setdefault(canonical_name(mention.name), mention)
    if len(found) != 1:
        return None  # none named, or two: which one was left is not said
    old = next(iter(found.values()))
    if change_named.shape(old.name) != change_named.shape(target):
        return None  # "Purina" left for "his tummy" is no food
    if not change_named.names(lower, old.name):
        return None
    kinds = {vocabulary.member_category(old.name), vocabulary.member_category(target)}
    if len(kinds - {None}) > 1:
        return None  # a database left beside a new cloud: two slots
    category = vocabulary.slot_category(relation)
    if category is not None and vocabulary.member_category(old.name) not in (None, category):
        return None
    return Left(source, relation, target, old)


def _candidates(text: str) -> list[str]:
    """The names a change may leave behind: the capitalised names, and the words right
    after a word of change, which chat writes in lower case ("cancelled spotify")."""
    found = list(proper_names(text))
    words = change_named.WORD.findall(text)
    for n, word in enumerate(words):
        if not change_named.cued(word):
            continue
        for after in words[n + 1 : n + 1 + _AFTER_CUE]:
            if len(after) >= 3 and after.lower() not in STOPWORDS and after not in found:
                found.append(after)
    return found


def close(
    store: Store,
    namespace: str,
    text: str,
    statement: Statement,
    said: Sequence[tuple[str, str, str]],
    end: Callable[[Relation], None],
) -> bool:
    """Record the value ``text`` leaves behind (``left_behind``) as held from its first
    mention until this memory, ended through ``end``; whether one was recorded."""

    def earlier(name: str) -> Earlier | None:
        entity = store.graph.entity(namespace, name)
        if entity is None:
            return None
        seen = store.graph.timeline(namespace, entity.id)
        # a holder of facts ("Eli goes to ...") is no value left either
        if any(r.relation_type != TALKS_ABOUT for r in seen):
            # a value a fact holds or held: the held one is ``change_named``'s to read,
            # and a closed one's change was read already
            return None
        ids = [m.memory_id for m in store.graph.mentions(namespace, entity.id)]
        ids = [i for i in ids if i != statement.memory_id][:_MENTIONS]
        found = store.memories.get_many(namespace, ids)
        # the first mention in the user's words: an assistant's echo holds no value (left39)
        first = next((m for i in ids if (m := found.get(i)) and m.other_role is None), None)
        if first is None:
            return None
        return Earlier(entity.name, first.id, first.created_at)

    found = left_behind(text, said, earlier)
    if found is None:
        return False
    triple = (found.source, found.relation, found.old.name, CONFIDENCE)
    held_until_now(store, namespace, triple, found.old, statement, end)
    return True


def held_until_now(
    store: Store,
    namespace: str,
    triple: Triple,
    since: Earlier,
    statement: Statement,
    end: Callable[[Relation], None],
) -> None:
    """Record ``triple`` as held from ``since`` (the memory that said it) and end it
    through ``end`` at ``statement`` (``change_again`` records its old value so too).
    A value that only names its type or subject ("... is my GP" read as ``user gp GP``)
    was no value held: nothing is recorded or ended (task close37)."""
    kind = vocabulary.canonical(triple[1], triple[2]).relation_type
    if relation_values.self_valued(triple[0], triple[1], kind, triple[2]):
        return
    held = _held_longer(store, namespace, triple)
    if held is not None:  # held already, by a longer name of the subject: end that
        end(held)
        return
    if _held_shorter(store, namespace, triple):
        return  # "uses Slack for chat" held as ``uses_chat Slack``: the rules' slot
    old = Statement(
        memory_id=since.memory_id,
        triples=[triple],
        valid_from=since.at,
        now=statement.now,
        single_valued=frozenset(),
    )
    recorded = store.graph.record(namespace, [old], single_valued=frozenset())
    for relation in recorded[0].relations if recorded else ():
        if relation.valid_to is None:
            end(relation)


def _held_longer(store: Store, namespace: str, triple: Triple) -> Relation | None:
    """The one current relation to the old value whose subject is a longer name of the
    triple's ("weekly sprint demo scheduled Tuesdays" for "the sprint demo is on
    Tuesdays"), or whose subject and relation say every word of the triple's ("user
    her_lunch_money 2.50 a day" for "lunch money is 2.50 a day"): the graph holds the
    value, so it is not recorded again."""
    entity = store.graph.entity(namespace, triple[2])
    if entity is None:
        return None
    subject, value = canonical_name(triple[0]), canonical_name(triple[2])
    slot = _slot_words(triple[0], triple[1])
    found = [
        r
        for r in current_facts(store, namespace, entity.id, limit=20)
        if canonical_name(r.target) == value
        and (
            canonical_name(r.source).endswith(" " + subject)
            or (bool(slot) and slot <= _slot_words(r.source, r.relation_type))
        )
    ]
    return found[0] if len(found) == 1 else None


def _slot_words(source: str, relation: str) -> frozenset[str]:
    """The words naming a slot, its subject's and relation's, no copula or stopword:
    "lunch money is" holds {lunch, money}, ``user her_lunch_money`` holds them and more
    (batch40: the said-again reader's name of a slot the rules read into the speaker's)."""
    words = re.split(r"\W+|_", f"{source} {relation}".lower())
    return frozenset(w for w in words if w and w not in _COPULAS and w not in STOPWORDS)


def _held_shorter(store: Store, namespace: str, triple: Triple) -> bool:
    """Whether the subject holds, under another relation, a current value the old value
    opens with and says more after ("Slack" of "Slack for chat"): the rules read that
    memory into its slot, and what the frame adds is no value of its own."""
    entity = store.graph.entity(namespace, triple[0])
    if entity is None:
        return False
    value = canonical_name(triple[2])
    held = current_facts(store, namespace, entity.id, limit=50)
    return any(
        r.source_entity_id == entity.id
        and r.relation_type != triple[1]
        and value.startswith(canonical_name(r.target) + " ")
        for r in held
    )
