"""Two statements of one slot that disagree, found offline (task conflict38).

The planner records "the API rate limit burst is 20", later the coder "the burst is 30".
Neither is told as a change, so the closing plan (:mod:`engram.pipeline.closing`)
rightly closes nothing: which value holds is not the store's to guess. But both facts
stay current relations of one subject and one slot, so an agent recalling the slot got
both with nothing saying they disagree, and no one was asked. This module finds that
state in the graph after a memory's relations are recorded (the ``extract`` job), and
queues one review item naming both memories; recall marks it (:func:`disagreements`).

A pair is a conflict only when every guard holds, since a junk item costs a person's
attention (the project brief: "mining a chat fills the review queue with junk
contradictions"):

1. **one slot**: the same subject entity and relation type, both current, both read
   at least as surely as the closing plan closes on (``MIN_CLOSING_CONFIDENCE``: the
   offline rules' loose reads stay out); never ``talks_about``;
2. **held one at a time**: the slot is declared or known by its noun to hold one value
   (:func:`engram.pipeline.change_slots.one`: "release owner", "staging database",
   "uses_tracker"), or both values are amounts of an attribute not declared many ("the
   burst is 20" / "30"), and the namespace's own data has not learned it many;
3. **other values**: the targets are not one value said twice ("Postgres 15" /
   "PostgreSQL 15", "Jira" / "Jira Cloud");
4. **two statements**: the relations come from two memories, both still current.

The item is ordered by the relations' age (older = target, newer = the memory), so the
jobs of both memories, in either order, name one pair and the queue joins them (one
item per pair, not one per write); a statement of the same value again reinforces the
relation it repeats and makes no new pair, and a third value of a slot already asked
about joins the pending item (a number reported every day is one question, not one a
day). Approving the item lets the newer statement
supersede the older (the UPDATE path of every held proposal); rejecting it keeps both.

**Closed by cardinality alone** (left39). A slot declared one at a time (``lives_in``,
``uses_database``, a schedule) is closed by the closing plan on the newer value even
when nothing says it changed: "The code freeze starts on Thursday." from the planner,
then "The code freeze starts on Monday." from the coder closes Thursday, and no one
learned the two disagreed. When the newer memory closed an older one of another agent
(guards 1 and 3 on the pair, the older stated by another memory, closed at the newer's
time) and its text reads no change (no claim of change, no word of change or "now",
no swap, moved date or notes-form change: :func:`said_as_change`), the same item is
queued, its ``conflict`` naming ``"closed": "one value"``: the graph keeps the newer
value, approving supersedes the older statement, rejecting keeps both memories. One
agent correcting itself is a change it made, not a disagreement: no item.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from engram.pipeline import (
    change_earlier,
    change_firsts,
    change_named,
    change_pairs,
    change_passing,
    change_signals,
    change_slots,
    change_words,
    held_reads,
    vocabulary,
)
from engram.pipeline.apply import mode_of
from engram.pipeline.closing import LEARN_MANY_SHARE, LEARN_MIN_SOURCES, MIN_CLOSING_CONFIDENCE
from engram.pipeline.linker import TALKS_ABOUT
from engram.records import MemoryRecord
from engram.store.protocols import Store
from engram.store.protocols.graph import Relation, canonical_name

if TYPE_CHECKING:
    from engram.core import Core

#: The proposal key that marks a review item as a disagreement (recall reads it).
KIND = "conflict"
#: How many current relations of a subject are read to find the slot's other values.
READ_LIMIT = 200
#: How many pending review items recall reads for disagreements (oldest first).
WARN_READ = 500
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_DIGIT = re.compile(r"\d")


def _words(value: str) -> list[str]:
    return _WORD.findall(canonical_name(value))


def same_value(a: str, b: str) -> bool:
    """Whether two targets say one value: equal words, one's words inside the other's
    ("Jira" / "Jira Cloud"), or word by word one a prefix of the other ("Postgres 15" /
    "PostgreSQL 15")."""
    wa, wb = _words(a), _words(b)
    if not wa or not wb:
        return True  # nothing to compare: never a conflict
    sa, sb = set(wa), set(wb)
    if sa <= sb or sb <= sa:
        return True
    if len(wa) == len(wb):
        return all(x.startswith(y) or y.startswith(x) for x, y in zip(wa, wb, strict=True))
    return False


def _amount(value: str) -> bool:
    return bool(_DIGIT.search(value))


def _one_at_a_time(relation: Relation, other: Relation) -> bool:
    """Guard 2: the slot holds one value at a time."""
    if change_slots.one(relation) or change_slots.one(other):
        return True
    declared = vocabulary.canonical(relation.relation_type, relation.target).one
    return declared is not False and _amount(relation.target) and _amount(other.target)


def _learned_many(core: Core, namespace: str, relation_type: str) -> bool:
    found = core.store.graph_counts.relation_cardinality(namespace, [relation_type])
    counts = found.get(relation_type)
    if counts is None or counts.sources < LEARN_MIN_SOURCES:
        return False
    return counts.multi / counts.sources >= LEARN_MANY_SHARE


def pairs(mine: Relation, held: Iterable[Relation], *, closed: bool = False) -> list[Relation]:
    """The current relations of ``held`` that disagree with ``mine`` (guards 1 to 3);
    ``closed``: the closed ones instead (those a cardinality close ended)."""
    if mine.relation_type == TALKS_ABOUT or mine.confidence < MIN_CLOSING_CONFIDENCE:
        return []
    return [
        r
        for r in held
        if r.id != mine.id
        and r.current != closed
        and mine.current
        and r.source_entity_id == mine.source_entity_id
        and r.relation_type == mine.relation_type
        and r.confidence >= MIN_CLOSING_CONFIDENCE
        and r.source_memory_id is not None
        and r.source_memory_id != mine.source_memory_id
        and not same_value(r.target, mine.target)
        and _one_at_a_time(mine, r)
    ]


def flag(core: Core, source: MemoryRecord, *, now: datetime) -> list[int]:
    """Queue one review item per slot where a relation ``source`` stated disagrees with
    another memory's (the module docstring). The memory's relations are read from the
    graph, not read again from its words: the closing plan that reads them writes (a
    value held until a change, ``change_left``), so a second reading would record it
    twice. Returns the items' ids (joined ones included)."""
    if mode_of(core.config.pipeline) == "shadow":
        return []  # shadow mode writes nothing, the queue included
    ns = source.namespace
    found: list[int] = []
    stated = held_reads.stated(core.store, ns, source.id, current_only=True, limit=READ_LIMIT)
    for entity_id in dict.fromkeys(r.source_entity_id for r in stated):
        held = held_reads.current_facts(
            core.store, ns, entity_id, limit=READ_LIMIT, newest_first=True
        )
        for mine in (r for r in held if r.source_memory_id == source.id):
            others = pairs(mine, held)
            if others and not _learned_many(core, ns, mine.relation_type):
                found.extend(_queue(core, mine, other, now) for other in others)
        found.extend(_closed_silently(core, source, entity_id, now))
    return [i for i in dict.fromkeys(found) if i >= 0]


def said_as_change(text: str) -> bool:
    """Whether ``text`` tells a change in any words the closing plan reads as one."""
    return (
        any(claim.signal == change_signals.CHANGE for claim in change_signals.read(text))
        or change_words.NOW.search(text) is not None
        or change_named.cued(text)
        or change_pairs.stated(text)
        or change_firsts.cued(text)
        or change_passing.cued(text)
        or change_earlier.cued(text)
    )


def _closed_silently(core: Core, source: MemoryRecord, entity_id: int, now: datetime) -> list[int]:
    """The items of the relations of ``entity_id`` that ``source`` closed by the slot's
    cardinality alone, stated by another agent (the module docstring)."""
    if said_as_change(source.content):
        return []
    graph, ns = core.store.graph, source.namespace
    every = graph.relations(
        ns, entity_id=entity_id, current_only=False, at=None, limit=READ_LIMIT, offset=0,
        without=(TALKS_ABOUT,), newest_first=True,
    )  # fmt: skip
    found = []
    for mine in (r for r in every if r.source_memory_id == source.id and r.current):
        closed = [
            r
            for r in pairs(mine, [*every], closed=True)
            if r.valid_to == mine.valid_from and r.source_memory_id is not None
        ]
        if not closed:
            continue
        olds = core.store.memories.get_many(ns, [r.source_memory_id or "" for r in closed])
        for old in closed:
            record = olds.get(old.source_memory_id or "")
            if record is not None and record.agent_id != source.agent_id:
                found.append(_queue(core, mine, old, now, silent=True))
    return found


def _queue(core: Core, a: Relation, b: Relation, now: datetime, *, silent: bool = False) -> int:
    older, newer = sorted((a, b), key=lambda r: (r.valid_from, r.id))
    ns = older.namespace
    got = core.store.memories.get_many(
        ns, [older.source_memory_id or "", newer.source_memory_id or ""]
    )
    old, new = got.get(older.source_memory_id or ""), got.get(newer.source_memory_id or "")
    if old is None or new is None or old.superseded_by or new.superseded_by:
        return -1  # guard 4: a statement gone or already replaced disagrees with nothing
    if (joined := _open_item(core, ns, newer)) is not None:
        return joined  # one question per slot: a third value joins the item asking it
    slot = newer.relation_type.replace("_", " ")
    reason = (
        f"{newer.source} has one {slot}: {older.target!r} and {newer.target!r} are both "
        "current and neither statement says it changes the other"
        if not silent
        else f"{newer.source} has one {slot}: {newer.target!r} closed {older.target!r} only "
        "because the slot holds one value; neither statement says it changes the other"
    )
    proposal: dict[str, Any] = {
        "action": "UPDATE",
        "content": new.content,
        "fact_type": str(new.type),
        "fact_confidence": new.confidence if new.confidence is not None else 1.0,
        "confidence": min(older.confidence, newer.confidence),
        "reason": f"conflicting statements: {reason}",
        "target_id": old.id,
        "decided_by": "syntactic",
        "source_memory_id": new.id,
        KIND: {
            "relations": [older.id, newer.id],
            "subject": newer.source,
            "subject_id": newer.source_entity_id,
            "slot": newer.relation_type,
            "values": [older.target, newer.target],
            "closed": "one value" if silent else None,
        },
        "old": _side(old, older.target),
        "new": _side(new, newer.target),
    }
    item = core.store.review.add(
        ns, new.id, target_id=old.id, action="UPDATE", proposal=proposal, reason=reason, now=now
    )
    return item.id


def _open_item(core: Core, namespace: str, relation: Relation) -> int | None:
    """The pending disagreement item of ``relation``'s subject and slot, if any."""
    for item in core.store.review.select(namespace, status="pending", limit=WARN_READ):
        said = item.proposal.get(KIND)
        if (
            isinstance(said, dict)
            and said.get("subject_id") == relation.source_entity_id
            and said.get("slot") == relation.relation_type
        ):
            return item.id
    return None


def disagreements(store: Store, namespace: str) -> list[tuple[frozenset[str], str]]:
    """Recall's mark: per pending disagreement item of ``namespace``, its two memories
    and a warning naming both, their agents and values; recall keeps the warnings of
    the items a hit is in, so an agent sees the store holds two answers (and, when only
    one is a hit, that another exists)."""
    out: list[tuple[frozenset[str], str]] = []
    for item in store.review.select(namespace, status="pending", limit=WARN_READ):
        said = item.proposal.get(KIND)
        if not isinstance(said, dict):
            continue
        old, new = item.sides["old"], item.sides["new"]
        values = said.get("values") or ["?", "?"]
        slot = str(said.get("slot")).replace("_", " ")
        warning = (
            f"memories disagree on {said.get('subject')} {slot}: "
            f"{values[0]!r} ({_who(old)}, memory {item.target_id}) and {values[1]!r} "
            f"({_who(new)}, memory {item.memory_id}); review item {item.id} is pending"
        )
        out.append((frozenset({item.memory_id, item.target_id or ""}), warning))
    return out


def _who(side: dict[str, Any]) -> str:
    agent = side.get("agent_id")
    return f"agent {agent}" if agent else "no agent"


def _side(record: MemoryRecord, value: str) -> dict[str, Any]:
    return {
        "memory_id": record.id,
        "text": record.content,
        "claim": value,
        "agent_id": record.agent_id,
    }
