"""Does a confident answer answer what was asked? (issue 24, session twenty-five)

The abstain decision reads how near the best candidates are to the question. A
question about something stored that asks for a detail nothing states ("what colour
is the front door?" beside "Dark theme colours follow Material 3 with the seed colour
#0B5563.", "how much did my cello cost?" beside the orchestra note) reaches a cosine
as high as a real answer: the words the note shares with the question carry it. What
differs is the rest of the question, the attribute it asks for. So once the decision
says related, this test takes from the question the keywords a shown hit holds (the
same stems ``abstain.evidence`` counts) and asks how near the hit is to what remains
("what is the front door?"): the hit's *residual*. A note that answers still matches
the rest of the question; one that only shares the topic does not. When no shown
hit's residual reaches the floor (``recall.attribute_floor``), the answer is given as
one line marked low confidence instead of a confident context; never silence. On by
default for the model its floor was measured with (``FLOORS``); see ``floor_for``.

- A hit that shares no keyword with the question, or holds every one, keeps its own
  cosine: nothing is taken away (paraphrases mostly share none).
- A residual is at most the hit's own cosine, so a hit below the floor is never
  embedded for.
- A chat turn (a memory in a session) keeps its own cosine: a turn's words are the
  speaker's name and the topic, its answer often in a neighbouring turn, and taking
  them away left LoCoMo's answered questions below any useful floor
  (docs/benchmarks.md, "Unanswerable questions answered confidently").

Cost: when a confident answer's shown hits share words with the question, one read of
a hit's stored cosine per hit until one answers (most often the first). With MiniLM the
residual comes from the question's token states, which the model gave with its vector
(``abstain_residual``): no model call. An embedder without token states (Ollama,
OpenAI-compatible) embeds each masked question instead, one model call each.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from engram.config import RecallConfig
from engram.embed.base import Embedder
from engram.embed.cache import QueryVectorCache
from engram.embed.minilm import PACKAGED_NAME
from engram.recall.abstain import Answers, _starts_a_word, stem
from engram.recall.abstain_residual import StatesEmbedder, residual, states_of
from engram.records import Hit
from engram.store.protocols.vectors import VectorSearch
from engram.text import keywords

#: Issue 24 (abstain27, resid28), on all-MiniLM-L6-v2's scale, its residual read from
#: the question's token states: the 0.05 step below every answerable residual known
#: when it was chosen, the tune half of ``engram/data/abstain27.json`` (lowest 0.26) and
#: issue 24's own example, "which web framework does the API use?" beside the Litestar
#: note (0.21 int8, 0.20 fp32; pinned by tests/test_abstain.py); docs/benchmarks.md,
#: "The residual without a second model call".
FLOOR = 0.15
#: The floor each embedder has by default, measured with it; any other: off (0) unless
#: ``recall.attribute_floor`` is set (another model's cosines mean otherwise).
FLOORS = {PACKAGED_NAME: FLOOR}

_WORD = re.compile(r"\w+")

Spans = list[tuple[int, int]]
#: ``(question, memory id, namespace, spans of the words it shares)`` -> the memory's
#: cosine to the rest of the question (0 without a stored vector), or None when there
#: is nothing to take away (it keeps its own cosine).
Cosine = Callable[[str, str, str, Spans], float | None]


def shared_spans(query: str, text: str) -> Spans | None:
    """The character spans of the words of ``query`` whose keyword ``text`` holds, or
    None when it holds none or all of them (nothing to take away, or nothing left to
    ask)."""
    terms = keywords(query)
    lower = text.lower()
    shared = {t for t in terms if _starts_a_word(lower, stem(t))}
    if not shared or len(shared) == len(terms):
        return None
    return [
        (word.start(), word.end())
        for word in _WORD.finditer(query)
        if unicodedata.normalize("NFKC", word.group(0)).lower() in shared
    ]


def blanked(query: str, spans: Spans) -> str:
    """``query`` with the words at ``spans`` taken out."""
    kept, at = [], 0
    for start, end in spans:
        kept.append(query[at:start])
        at = end
    kept.append(query[at:])
    return " ".join(" ".join(kept).split())


def masked(query: str, text: str) -> str | None:
    """``query`` with the keywords ``text`` holds taken out, or None when it holds
    none or all of them."""
    spans = shared_spans(query, text)
    return None if spans is None else blanked(query, spans)


def floor_for(setting: float | None, embedder: Embedder | None) -> float:
    """The floor recall uses: the setting when given, else the one measured for this
    embedder when it gives token states (no model call), else 0 (off).

    A measured default needs both: another model's cosines mean otherwise, and the
    masked-question path costs a model call (x1.24 median recall at 100k, session
    twenty-five), against issue 29's ratio to Chroma."""
    if setting is not None:
        return setting
    states = states_of(embedder)
    return 0.0 if states is None else FLOORS.get(states.name, 0.0)


def answers(query: str, hits: Sequence[Hit], floor: float, cosine: Cosine) -> bool:
    """Whether some hit of ``hits`` (those the context would show) still matches the
    question once the words it shares with it are taken away: its residual reaches
    ``floor``. Hits with no cosine are not read; none at all: nothing to judge."""
    asked: list[tuple[str, str, Spans]] = []
    judged = False
    for hit in hits:
        sim = hit.breakdown.sim
        if sim is None:
            continue
        judged = True
        if sim < floor:
            continue  # a residual is at most the hit's own cosine
        memory = hit.memory
        text = f"{memory.title or ''}\n{memory.content}"
        spans = None if memory.session_id else shared_spans(query, text)
        if spans is None:
            return True
        asked.append((memory.id, memory.namespace, spans))
    if not judged:
        return True
    # One note at a time, in rank order: the first that answers ends the test.
    for memory_id, namespace, spans in asked:
        found = cosine(query, memory_id, namespace, spans)
        if found is None or found >= floor:
            return True
    return False


class Dense(Protocol):
    """What the test reads recall's dense leg through (``Retriever``'s parts)."""

    @property
    def embedder(self) -> Embedder | None: ...
    @property
    def query_vectors(self) -> QueryVectorCache: ...
    @property
    def index(self) -> VectorSearch | None: ...


def reader(dense: Dense, cfg: RecallConfig) -> Answers | None:
    """The test as ``abstain.screen`` reads it, with the floor for recall's embedder;
    None when it is off (a floor of 0) or the dense leg is unavailable."""
    embedder, index = dense.embedder, dense.index
    floor = floor_for(cfg.attribute_floor, embedder)
    if floor <= 0 or embedder is None or index is None:
        return None
    states = states_of(embedder)
    cosine = (
        from_masked(embedder, dense.query_vectors, index)
        if states is None
        else from_states(states, index)
    )
    return lambda query, hits: answers(query, hits, floor, cosine)


def from_states(embedder: StatesEmbedder, index: VectorSearch) -> Cosine:
    """``Cosine`` read from the question's token states (``abstain_residual``): the
    states its own embed kept, so no model call, and the hit's stored vector."""

    def measure(query: str, memory_id: str, namespace: str, spans: Spans) -> float | None:
        rest = residual(embedder.token_states(query), spans)
        if rest is None:
            return None
        return index.scores(namespace, rest, [memory_id]).get(memory_id, 0.0)

    return measure


def from_masked(embedder: Embedder, cache: QueryVectorCache, index: VectorSearch) -> Cosine:
    """``Cosine`` of the masked question embedded (through recall's query vector
    cache: asked twice, embedded once) and the hit's stored vector."""

    def measure(query: str, memory_id: str, namespace: str, spans: Spans) -> float | None:
        vector = np.asarray(cache.embed(embedder, blanked(query, spans)), dtype=np.float32)
        return index.scores(namespace, vector, [memory_id]).get(memory_id, 0.0)

    return measure
