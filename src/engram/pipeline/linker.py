"""The inline entity linker (FEATURES G3; seed 004's inline-entity-linker).

At write time, inside the transaction that stores a memory, the memory's text is read
by rules, with no model and no network (seed 004: "no network calls inside the write
transaction"), and what it names goes into the knowledge graph through
``GraphStore.record``:

- the **speaker** of a chat turn (``"Name: text"``), as a ``person``;
- the **entity triples** the offline extractor reads in it
  (:func:`engram.pipeline.offline.analyse`, the same rules the ``extract`` job uses
  without an LLM): "Caroline went to the LGBTQ support group" ->
  ``(Caroline, attended, LGBTQ support group)``;
- the **capitalised names** it mentions (:func:`engram.pipeline.patterns.proper_names`):
  "the Valorant tournament" -> ``Valorant``; with a speaker, each is linked to them as
  ``(speaker, talks_about, name)``, so the speaker's timeline shows what they talked
  about and when, and a query naming the speaker reaches those names in one hop.

P9 (seed 004's "Decision Auto-Protection"): the linker "runs a 14-pattern regex
battery on memory content at write time" and marks what a decision states as a
``constraint`` of importance 0.85. :func:`protection` finds the memory's decision
clauses; the write path files them as a ``constraint`` attribute of each entity the
memory names, in the memory's transaction, before any job runs (the ``extract`` job's
own facts get the same kind later, ``engram.pipeline.classify``).

The ``extract`` job later deepens the graph for the same memory (with an LLM, better
triples); ``record`` is idempotent per memory, so an entity both name counts one
mention of that memory, and a triple both state one statement.
"""

from __future__ import annotations

from engram.pipeline import offline, patterns, turns
from engram.pipeline.classify import CONSTRAINT_IMPORTANCE
from engram.store.protocols.graph import UNKNOWN_TYPE, Triple, canonical_name

#: The relation a speaker gets to each name they mention.
TALKS_ABOUT = "talks_about"
#: Its confidence: a mention says the speaker talked about the thing, nothing more
#: (the offline rules' weakest triple is 0.45; a bare mention ranks below them).
TALKS_ABOUT_CONFIDENCE = 0.4
#: Text longer than this is read only up to here: the linker runs inside the write
#: transaction, and a long document chunk's names are the chunk's, found by the
#: ``extract`` job off the write path.
MAX_CHARS = 4000


def links(text: str) -> tuple[list[Triple], dict[str, str]]:
    """The triples ``text`` states and the entities it names (name -> type), ready for
    ``GraphStore.record``; two empty collections when it names nothing."""
    analysis = offline.analyse(text[:MAX_CHARS])
    speaker = analysis.speaker
    triples: list[Triple] = [
        (t.source, t.relationship, t.target, t.confidence) for t in analysis.triples
    ]
    types: dict[str, str] = {}
    if speaker is not None:
        types[speaker] = "person"
    own = canonical_name(speaker) if speaker else None
    # Each message's names, after its role and speaker: an assistant's turn
    # ("assistant: Noted: ...", :meth:`MemoryRecord.spoken`) names what it mentions,
    # never its label as a person, and talks about nothing on the user's behalf.
    for message in turns.messages(text[:MAX_CHARS]):
        for name in patterns.proper_names(message.text):
            if canonical_name(name) == own:
                continue
            types.setdefault(name, UNKNOWN_TYPE)
            if speaker is not None and message.from_user:
                triples.append((speaker, TALKS_ABOUT, name, TALKS_ABOUT_CONFIDENCE))
    return triples, types


def protection(text: str) -> tuple[str, float] | None:
    """P9: the sentences of ``text`` that hold decision language (seed 004's battery,
    :func:`~engram.pipeline.patterns.is_decision_content`), joined, with a constraint's
    importance (0.85); None when it decides nothing."""
    _, body = offline.split_speaker(text[:MAX_CHARS])
    if not patterns.is_decision_content(body):
        return None
    clauses = [s.strip() for s in offline.split_sentences(body)]
    decided = [s for s in clauses if s and patterns.is_decision_content(s)]
    # A decision spread over sentences ("We weighed X. Decided: Y") matches only as a
    # whole: the whole body is the clause then.
    return " ".join(decided or [" ".join(body.split())]), CONSTRAINT_IMPORTANCE
