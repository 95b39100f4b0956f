"""The write path's inline linking (FEATURES G3): each new memory's rule-read triples
through the closing plan into the graph, in the memory's transaction, and P9's
decisions protected (moved out of :mod:`engram.write`, which calls :func:`link`).

A mined chat is one batch: its later turns are read against the relations its earlier
turns stated (mined38), and an assistant's acknowledgement confirms the user's turn
before it (``Core.confirmer``, :mod:`engram.pipeline.change_told`), never as the
assistant's own fact.
"""

from __future__ import annotations

import itertools
import logging
import operator
from collections.abc import Mapping, Sequence
from typing import Any

from engram.core import Core
from engram.records import MemoryRecord, utcnow
from engram.store.batch_reads import BatchReads
from engram.store.protocols.graph import SINGLE_VALUED, Statement, Triple
from engram.text import keywords

log = logging.getLogger("engram.write")
#: A batch's memory that says a change has the batch's earlier statements recorded first
#: when one of them shares this many of its keywords, none of the batch's common ones (batch40).
SHARED_WORDS = 1


def link(core: Core, records: Sequence[MemoryRecord]) -> None:
    """FEATURES G3: record what each record's text names (speaker, names, rule-read
    triples) in the graph, a namespace's run in one ``GraphStore.record`` call, in the
    open transaction (the batch's plans read through one ``BatchReads``)."""
    assert core.linker is not None
    statements: list[tuple[str, Statement]] = []
    decided: list[tuple[MemoryRecord, list[str], tuple[str, float]]] = []
    # The plans' graph reads, each made once a batch, and the batch's own memories (an
    # earlier turn's text, which the keyword index may not see before the commit).
    reads = BatchReads(core.store, records)
    before: MemoryRecord | None = None
    sessions = {r.id: r.session_id for r in records}
    for record in records:
        if _told_earlier(core, record, before, statements, sessions, reads):
            # A chat's turn reads the slots its earlier turns stated (mined38): what the
            # batch read so far is recorded first, and the remembered reads forgotten.
            _record(core, statements)
            statements = []
            reads.forget()
        try:
            # An assistant's turn is read as one (task x22): the names it mentions, no
            # relation and no change of the user's ("Noted: ..." names no one).
            triples, types = core.linker(record.spoken())
            statement = linked(core, record, triples, types, reads)
            confirms = _confirmed(core, record, before, reads)
            if confirms is not None:
                statements.append((record.namespace, confirms))
            protected = core.protector(record.content) if core.protector else None
        except Exception:  # noqa: BLE001
            # The rules are a convenience on the write path: a bug in them must never
            # cost the caller their memory. The extract job reads the same text later.
            log.warning(
                "inline linker failed on memory %s; stored it unlinked", record.id, exc_info=True
            )
            continue
        if statement.triples or statement.entity_types:
            statements.append((record.namespace, statement))
            if protected is not None:
                named = [*types, *(end for t in triples for end in (t[0], t[2]))]
                decided.append((record, list(dict.fromkeys(named)), protected))
        before = record
    _record(core, statements)
    for record, names, (clause, importance) in decided:
        protect(core, record, names, clause, importance)


def _record(core: Core, statements: Sequence[tuple[str, Statement]]) -> None:
    # Records of one namespace in a row share a call; order is kept across namespaces,
    # so entities and relations get the ids recording one by one gives them.
    for namespace, run in itertools.groupby(statements, key=operator.itemgetter(0)):
        core.store.graph.record(
            namespace, [statement for _, statement in run], single_valued=SINGLE_VALUED
        )


def _told_earlier(
    core: Core,
    record: MemoryRecord,
    before: MemoryRecord | None,
    statements: Sequence[tuple[str, Statement]],
    sessions: Mapping[str, str | None],
    reads: BatchReads,
) -> bool:
    """Whether ``record`` is a turn of a session an earlier statement of the batch,
    not yet recorded, read a relation of: a mined chat's later turn that may change it
    (the user's, or an assistant's acknowledging the turn before it; any other
    assistant's turn reads no relation, so it needs no fresh reads); or, outside a
    session, a memory that says a change after a statement of the batch that read one."""
    if not statements:
        return False
    if record.session_id is None:
        # Outside a chat, a batch's memory that says a change (batch40: "The boiler is
        # serviced by Octopus now." after "... by British Gas." in one ``add_many``) reads
        # what the batch's earlier memories stated, as told one ``add`` at a time, when one
        # that read a relation shares an uncommon word with it (recording costs a graph write).
        if record.other_role is not None or core.changes is None:
            return False
        stating = {s.memory_id for _, s in statements if s.triples}
        if not stating or not core.changes(record.content):
            return False
        shared = reads.sharing(record.namespace, keywords(record.content))
        return any(r.id in stating and n >= SHARED_WORDS for r, n in shared)
    if record.other_role is not None and (
        core.confirmer is None
        or before is None
        or core.confirmer(record.content, before.content) is None
    ):
        return False
    return any(s.triples and sessions.get(s.memory_id) == record.session_id for _, s in statements)


def _confirmed(
    core: Core, record: MemoryRecord, before: MemoryRecord | None, reads: Any
) -> Statement | None:
    """The user's turn ``before`` an assistant's acknowledgement of it ("Updated the
    budget to 11k."), read again as the change it confirms (``change_told``); the
    relation is the user's turn's, never the assistant's own fact."""
    if (
        record.other_role is None
        or core.closer is None
        or core.confirmer is None
        or before is None
        or before.other_role is not None
        or before.session_id != record.session_id
        or before.session_id is None
    ):
        return None
    text = core.confirmer(record.content, before.content)
    if text is None:
        return None
    # "The budget is now 11k.": the closing plan reads it as the slot's change.
    statement = Statement(before.id, [], before.created_at, utcnow())
    statement = core.closer(reads, before.namespace, text, statement)
    return statement if statement.triples else None


def linked(
    core: Core,
    record: MemoryRecord,
    triples: Sequence[Triple],
    types: Mapping[str, str],
    store: Any = None,
) -> Statement:
    """``record``'s triples through the closing plan and relation ends (``core.closer`` on
    ``store``, or the core's), or none from an assistant's turn: one gate for all (x24)."""
    assistant = record.other_role is not None
    statement = Statement(
        record.id, [] if assistant else list(triples), record.created_at, utcnow(), dict(types)
    )
    if assistant or core.closer is None:
        return statement
    return core.closer(store or core.store, record.namespace, record.content, statement)


#: P9 at write time protects at most this many entities a decision names (a memory
#: naming dozens is a list, not a decision about each).
MAX_PROTECTED = 8


def protect(
    core: Core, record: MemoryRecord, names: Sequence[str], clause: str, importance: float
) -> None:
    """FEATURES P9 (seed 004): ``clause``, a decision ``record`` states, becomes a
    ``constraint`` attribute of each entity it names, in the open transaction, so the
    decision is protected the moment the memory is committed."""
    now = utcnow()
    seen: set[int] = set()
    for name in names[:MAX_PROTECTED]:
        entity = core.store.graph.entity(record.namespace, name)
        if entity is None or entity.id in seen:
            continue
        seen.add(entity.id)
        core.store.aspects.add_attribute(
            record.namespace,
            entity.id,
            record.id,
            clause,
            aspect_id=None,
            kind="constraint",
            importance=importance,
            now=now,
        )
