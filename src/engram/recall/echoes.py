"""A chat's assistant turns and the user's own questions in a recall's head (now26).

The chat proxy mines every exchange: the user's turn and the assistant's reply each
become a memory (``metadata.role`` ``user`` / ``assistant``). Two kinds of those turns
tell the model nothing the block does not already hold, yet share the question's words:

- **the reply to a turn**: "Understood. I live in Bergen." answers "I live in Bergen.";
  it says what that turn said. When the turn stated a fact since closed and the query
  asks about now (``current.closed``), its reply is as old as it is, and is demoted by
  the same ``recall.stale_fact_factor`` (round sixteen: the echo of the old city ranked
  first once the statement itself was demoted);
- **a question the user asked**: "What car do I drive?" is no statement of anything.
  Asked "What car do I have now?", it and its reply outrank "I sold the Corolla and
  bought a Tesla" on words alone (round sixteen: both took the block's first two lines).
  For a query that is a question, a user turn made only of questions, and the
  assistant's reply to one, are multiplied by ``QUESTION_FACTOR``.

And they are left out of the candidates (``demoted``'s pool): the user's earlier
question and the reply to it are no evidence of anything the user told, and asked
again, the query's cosine to them (0.9 and more) kept them above the relative floor
whatever their score, so when nothing answered they filled the block (mend29: 24 of
the 57 context lines of 12 second asks). A query about the user's own questions ("what
did I ask about the vet?") keeps the questions, and one about what the assistant said
("what did you tell me about ...", ``said.asks_what_you_said``) keeps the replies.

A turn that is only small talk ("thanks!", "ok cool", "You're welcome!":
:func:`engram.recall.small_talk.small_talk`) is no evidence of anything either, and
no query asks for it back: it is always left out of the candidates (round twenty-one:
141 such lines in a week's 94 blocks before, 0 after).

Only memories that carry a chat role (``user`` / ``assistant``, as the proxy and
``mine_conversation`` with roles file them) are touched: a transcript whose turns are
named by their speakers (LoCoMo's "Caroline") is left as it was. The factors join
post-fusion dampening (``dampening.factors``): order only, never membership.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import partial

from engram.config import RecallConfig
from engram.recall import said
from engram.recall.context import Sessions
from engram.recall.request import RecallRequest
from engram.recall.small_talk import small_talk
from engram.records import MemoryRecord
from engram.store.protocols import MemoryStore
from engram.text import split_sentences

#: How much a question-only turn (and the reply to one) keeps of its score when the
#: query is a question. Chosen on the tune fold of now26's stories (docs/benchmarks.md,
#: "2026-11-30, the new value in a proxy's context"; 1.0 / 0.5 / 0.3 / 0.2 / 0.1: the
#: new value in the block's first 4 lines 6 / 12 / 13 / 13 / 13 of 13, echo or question
#: lines above it 22 / 15 / 9 / 5 / 3). The turn stays findable when nothing outranks it
#: (a question nothing answered still comes back), only below the statements.
QUESTION_FACTOR = 0.1
#: The roles the chat proxy's mining writes.
USER, ASSISTANT = "user", "assistant"

#: A query that opens as a question does ("which city do I live in", no mark needed).
_ASKS = re.compile(
    r"^\s*(?:what|which|who|whom|whose|where|when|why|how|do|does|did|is|are|am|was|"
    r"were|can|could|should|will|would|have|has)\b",
    re.IGNORECASE,
)


#: A sentence that asks to be told something ("Remind me which channel the handover is
#: in.", "Tell me where the state is stored."): a question without its mark. dogfood19:
#: asked twice through the proxy, 3 of 6 such requests lost their answer from the block
#: to the first ask and its echo (0 of 3 asked as questions). Only a request for a
#: wh-clause: "Remind me to call Marit", "Remind me that my passport expires in May" and
#: "Tell me a joke" state or ask for something else.
_REQUESTS = re.compile(
    r"^\s*(?:please\s+)?(?:(?:can|could|would)\s+you\s+)?(?:please\s+)?"
    r"(?:(?:remind|tell|show)\s+(?:me|us)\s+(?:again\s+)?"
    r"(?:what|which|who|whom|whose|where|when|why|how|if|whether)\b|do\s+you\s+remember\b)",
    re.IGNORECASE,
)


#: A query about what the user asked before ("what did I ask you about the vet?", "my
#: last question"): the user's earlier questions are then its answer, not echoes.
_ABOUT_ASKING = re.compile(
    r"\b(?:I|we)\s+(?:\w+\s+){0,2}?ask(?:ed)?\b|\b(?:my|our)\s+(?:\w+\s+)?questions?\b",
    re.IGNORECASE,
)


def asking(text: str) -> bool:
    """Whether a sentence or query asks: it ends with "?", opens as a question does, or
    asks to be told something (``_REQUESTS``)."""
    return (
        text.rstrip().endswith("?")
        or _ASKS.match(text) is not None
        or _REQUESTS.match(text) is not None
    )


def role_of(memory: MemoryRecord) -> str | None:
    """The chat role a mined turn carries, or None."""
    role = memory.metadata.get("role") if memory.metadata else None
    return role if role in (USER, ASSISTANT) else None


def only_questions(text: str) -> bool:
    """Whether every sentence of ``text`` is a question ("What car do I drive?") or a
    request to be told something ("Remind me which car I drive.")."""
    # Cut as the extraction rules cut: "Is Dr. Patel in on Fridays?" is one question.
    sentences = [s for s in split_sentences(text) if s.strip(" \t\n.!?")]
    return bool(sentences) and all(
        s.endswith("?") or _REQUESTS.match(s) is not None for s in sentences
    )


def factors(
    query: str,
    pool: Sequence[str],
    records: Mapping[str, MemoryRecord],
    previous: Callable[[str], str | None],
    fetch: Callable[[list[str]], Mapping[str, MemoryRecord]],
    old: Collection[str],
    stale_factor: float,
    echoed: set[str] | None = None,
) -> dict[str, float]:
    """Multipliers for the chat turns of ``pool``: an assistant's reply to a turn in
    ``old`` gets ``stale_factor`` (``old`` is empty unless the query asks about now);
    for a question query, a user turn of questions only, and the reply to one,
    ``QUESTION_FACTOR`` (their ids also added to ``echoed``, when given). ``previous``
    names the turn before a memory in its session; ``fetch`` reads the ones not in
    ``records``."""
    asked = asking(query)
    turns = {i: r for i in pool if (r := records.get(i)) is not None and role_of(r)}
    if not turns:
        return {}
    before = {
        i: p for i, r in turns.items() if role_of(r) == ASSISTANT and (p := previous(i)) is not None
    }
    known = dict(records)
    missing = [p for p in before.values() if p not in known]
    if missing and asked:
        known.update(fetch(missing))
    out: dict[str, float] = {}

    def asks(memory_id: str) -> bool:
        memory = known.get(memory_id)
        return memory is not None and role_of(memory) == USER and only_questions(memory.content)

    for i, memory in turns.items():
        factor, question = 1.0, False
        if role_of(memory) == USER:
            question = asked and only_questions(memory.content)
        elif (p := before.get(i)) is not None:
            if p in old:
                factor = stale_factor
            else:
                question = asked and asks(p)
        if question:
            factor = QUESTION_FACTOR
            if echoed is not None:
                echoed.add(i)
        if factor != 1.0:
            out[i] = factor
    return out


def chatter(memory: MemoryRecord) -> bool:
    """Whether ``memory`` is a chat turn of small talk only (see the module's note)."""
    return role_of(memory) is not None and small_talk(memory.content)


def evidence(
    query: str, pool: Sequence[str], echoed: Collection[str], records: Mapping[str, MemoryRecord]
) -> list[str]:
    """``pool`` without its small talk (:func:`chatter`) and the question echoes in
    ``echoed`` (see the module's note): a user's question stays when the query asks about
    the user's own questions, a reply when it asks what the assistant said."""
    pool = [i for i in pool if (r := records.get(i)) is None or not chatter(r)]
    if not echoed:
        return pool
    keep_questions = _ABOUT_ASKING.search(query) is not None
    keep_replies = said.asks_what_you_said(query)

    def kept(memory_id: str) -> bool:
        if memory_id not in echoed:
            return True
        user = role_of(records[memory_id]) == USER
        return keep_questions if user else keep_replies

    return [i for i in pool if kept(i)]


def demoted(
    damp: Mapping[str, float],
    request: RecallRequest,
    pool: Sequence[str],
    records: Mapping[str, MemoryRecord],
    sessions: Sessions,
    memories: MemoryStore,
    old: Collection[str],
    cfg: RecallConfig,
) -> tuple[dict[str, float], list[str]]:
    """``damp`` (the dampening stages' multipliers) with :func:`factors`' for ``pool``
    multiplied in, and ``pool`` without its small talk and question echoes
    (:func:`evidence`): each turn's previous is read from ``sessions`` as stored (before
    ``Sessions.without`` took the closed statements out)."""
    echoed: set[str] = set()
    extra = factors(
        request.query,
        pool,
        records,
        lambda i: sessions.neighbours(i)[0],
        partial(memories.get_many, request.namespace),
        old,
        cfg.stale_fact_factor,
        echoed,
    )
    out = dict(damp)
    for i, factor in extra.items():
        out[i] = out.get(i, 1.0) * factor
    return out, evidence(request.query, pool, echoed, records)
