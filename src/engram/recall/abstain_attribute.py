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
one line marked low confidence instead of a confident context; never silence. Off
unless ``recall.attribute_floor`` is set (``FLOOR`` with MiniLM): its model call cost
recall x1.24 at 100k (session twenty-five); reading the residual from the question's
token states instead (no model call) separated worse and still cost a measurable 0.2
ms a recall there (session twenty-six, resid28); with ``CEILING`` (session
twenty-seven, abstain29) a 100k recall reads a masked question one time in seven
instead of four in five, and still costs about x1.04 at the median, short of "within
noise" (docs/benchmarks.md, "session twenty-seven, abstain29").

- A hit that shares no keyword with the question, or holds every one, keeps its own
  cosine: nothing is taken away (paraphrases mostly share none).
- A residual is at most the hit's own cosine, so a hit below the floor is never
  embedded for.
- A chat turn (a memory in a session) keeps its own cosine: a turn's words are the
  speaker's name and the topic, its answer often in a neighbouring turn, and taking
  them away left LoCoMo's answered questions below any useful floor
  (docs/benchmarks.md, "Unanswerable questions answered confidently").

Cost: when a confident answer's shown hits share words with the question and none is
at ``CEILING`` or nearer, one model call per masked question until a hit answers (most
often the first), through recall's query vector cache, and one read of that hit's
stored cosine; nothing otherwise.
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
from engram.recall.abstain import Answers, _starts_a_word, stem
from engram.recall.abstain_weights import MODEL
from engram.records import Hit
from engram.store.protocols.vectors import VectorSearch
from engram.text import keywords

#: Issue 24 (abstain27), the value to set with all-MiniLM-L6-v2 (another model's
#: cosines mean otherwise: docs/calibrate-abstain.md): the 0.05 step below every
#: answerable residual known when it was chosen, the tune half of
#: ``engram/data/abstain27.json`` (lowest 0.27) and issue 24's own example, "which web
#: framework does the API use?" beside the Litestar note (0.18, pinned by
#: tests/test_abstain.py); docs/benchmarks.md, "Unanswerable questions answered
#: confidently".
FLOOR = 0.15

#: Issue 24 (abstain29), with all-MiniLM-L6-v2: a confident answer whose best shown hit
#: is at least this near the question is not read, so the test's model call is paid
#: only where it has moved an answer. The 0.05 step above the highest best cosine
#: among the tune half's near misses it marks (0.57); at 100k (sessionless LoCoMo
#: turns sharing a speaker's name with the question) it leaves 27 of 200 recalls
#: reading a masked question instead of 151 (docs/benchmarks.md, "session
#: twenty-seven, abstain29").
CEILING = 0.60

_WORD = re.compile(r"\w+")

#: ``(memory id, namespace, masked question)`` of each hit to measure -> each memory's
#: cosine to its masked question (absent: no stored vector).
Cosines = Callable[[Sequence[tuple[str, str, str]]], dict[str, float]]


def masked(query: str, text: str) -> str | None:
    """``query`` with the keywords ``text`` holds taken out, or None when it holds
    none or all of them (nothing to take away, or nothing left to ask)."""
    terms = keywords(query)
    lower = text.lower()
    shared = {t for t in terms if _starts_a_word(lower, stem(t))}
    if not shared or len(shared) == len(terms):
        return None

    def blank(word: re.Match[str]) -> str:
        folded = unicodedata.normalize("NFKC", word.group(0)).lower()
        return " " if folded in shared else word.group(0)

    return " ".join(_WORD.sub(blank, query).split())


def answers(
    query: str, hits: Sequence[Hit], floor: float, cosines: Cosines, ceiling: float = 1.0
) -> bool:
    """Whether some hit of ``hits`` (those the context would show) still matches the
    question once the words it shares with it are taken away: its residual reaches
    ``floor``. Hits with no cosine are not read; none at all: nothing to judge. A hit
    whose own cosine reaches ``ceiling`` answers without being read (``CEILING``)."""
    sims = [hit.breakdown.sim for hit in hits if hit.breakdown.sim is not None]
    if not sims or max(sims) >= ceiling:
        return True
    asked: list[tuple[str, str, str]] = []
    for hit in hits:
        sim = hit.breakdown.sim
        if sim is None:
            continue
        if sim < floor:
            continue  # a residual is at most the hit's own cosine
        memory = hit.memory
        text = f"{memory.title or ''}\n{memory.content}"
        rest = None if memory.session_id else masked(query, text)
        if rest is None:
            return True
        asked.append((memory.id, memory.namespace, rest))
    # One note at a time, in rank order: the first that answers ends the test (a
    # masked question asked twice is embedded once, through the query vector cache).
    return any(cosines([item]).get(item[0], 0.0) >= floor for item in asked)


class Dense(Protocol):
    """What the test reads recall's dense leg through (``Retriever``'s parts)."""

    @property
    def embedder(self) -> Embedder | None: ...
    @property
    def query_vectors(self) -> QueryVectorCache: ...
    @property
    def index(self) -> VectorSearch | None: ...


def reader(dense: Dense, cfg: RecallConfig) -> Answers | None:
    """The test as ``abstain.screen`` reads it, at ``recall.attribute_floor``, with
    ``CEILING`` when the embedder is the model it was measured on; None when it is off
    (unset or 0) or the dense leg is unavailable."""
    floor = cfg.attribute_floor or 0.0
    if floor <= 0 or dense.embedder is None or dense.index is None:
        return None
    ceiling = CEILING if dense.embedder.name == MODEL["embedder"] else 1.0  # a MiniLM cosine
    cosines = cosines_with(dense.embedder, dense.query_vectors, dense.index)
    return lambda query, hits: answers(query, hits, floor, cosines, ceiling)


def cosines_with(embedder: Embedder, cache: QueryVectorCache, index: VectorSearch) -> Cosines:
    """``Cosines`` read from the stored vectors: the masked questions embedded in one
    call (through recall's query vector cache), each hit's cosine read by id."""

    def measure(asked: Sequence[tuple[str, str, str]]) -> dict[str, float]:
        texts = list(dict.fromkeys(rest for _, _, rest in asked))
        vectors = dict(zip(texts, cache.embed_many(embedder, texts), strict=True))
        out: dict[str, float] = {}
        for memory_id, namespace, rest in asked:
            query = np.asarray(vectors[rest], dtype=np.float32)
            out.update(index.scores(namespace, query, [memory_id]))
        return out

    return measure
