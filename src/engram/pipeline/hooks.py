"""The write path's rule hooks, handed to ``Core`` by ``Memory``: ``core`` sits below the
pipeline in the layers, so it cannot import them itself."""

from __future__ import annotations

from functools import partial

from engram.core import Core
from engram.pipeline import change_named, change_told, relation_ends, slot_conflicts
from engram.pipeline.change_words import UNDONE
from engram.pipeline.closing import plan
from engram.pipeline.linker import links, protection
from engram.recall.echoes import only_questions
from engram.store.protocols import Store
from engram.store.protocols.graph import Statement


def wire(core: Core) -> None:
    """Hand ``core`` the inline linker (FEATURES G3; run when ``[pipeline] linker``), the
    closing plan that decides which linked facts close old ones (issue 28, G2), the
    decision protection written with them (P9), recall's reader of disagreements
    (task conflict38), the reading of an assistant's acknowledgement of a change
    (mined38) and of a text that says a change (batch40)."""
    core.linker = links
    core.closer = sound_plan
    core.protector = protection
    core.retriever.disagreements = partial(slot_conflicts.disagreements, core.store)
    core.confirmer = change_told.confirmation
    core.changes = change_named.stated_change


def sound_plan(store: Store, namespace: str, text: str, statement: Statement) -> Statement:
    """The closing plan's statement with only the triples whose ends name entities
    (:mod:`engram.pipeline.relation_ends`, task x22): the change reader's "he" or
    "sister says I" is no entity of the graph. A text that only asks (questions, or
    requests to be told: "Remind me what's happening with the kitchen tap.") states no
    fact and no change, so the plan reads none from its words: new-user round twenty-one
    found ``happening has_tap kitchen tap`` recorded from that request), and neither does
    a change undone in the same text ("..., then went back": ``change_words.UNDONE``)."""
    said = "" if only_questions(text) or UNDONE.search(text) else text
    statement, had = relation_ends.held_back(statement, text)  # "has a cat": in passing
    planned = relation_ends.sound(plan(store, namespace, said, statement), text)
    return relation_ends.with_held_back(planned, had)
