"""Novelty assessment (FEATURES H6, seed 000's ``assess_novelty``): how much a batch
of new search results adds to what is already known.

What is known is the ``context`` you pass (text you already have: a draft, notes, the
research so far) and, unless ``use_memories=False``, the namespace's stored memories.
A result that repeats an earlier result of the same batch adds nothing either.

With an embedder, each result's novelty is ``1 - max(0, cosine)`` against its closest
known text: the context's paragraphs are embedded with the memory's own embedder, and
stored memories are searched through the store's dense index (no ephemeral collection,
unlike the seed's). Without an embedder, or when it fails, the word-overlap heuristic
of ``engram.review.overlap`` answers and ``method`` says so. The batch's ``score`` is
the mean novelty of its results (0 for an empty batch).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from engram.core import Core, Scope
from engram.errors import EmbeddingError, InvalidInputError
from engram.records import Hit, MemoryRecord
from engram.review import overlap
from engram.store.protocols.record import Record
from engram.text import fts_query

#: Keys of a search-result dict whose text is read, in this order.
TEXT_KEYS = ("title", "snippet", "summary", "content", "text", "body", "narrative")
#: The most results one call assesses.
MAX_RESULTS = 200
#: Context is embedded in pieces of about this many characters (a paragraph or so), so
#: one long context does not blur into one vector.
PIECE_CHARS = 600
#: Stored memories compared per result by the heuristic (keyword matches).
HEURISTIC_MEMORIES = 5


@dataclass(frozen=True, slots=True)
class ResultNovelty(Record):
    """One result's novelty and the known text it is closest to."""

    index: int
    novelty: float
    """In [0, 1]: 0 repeats what is known, 1 shares nothing with it."""
    closest: str | None
    """``context:<n>`` (a context piece), ``memory:<id>`` or ``result:<n>``, or None."""
    similarity: float
    """Similarity to ``closest``: cosine (embedding) or weighted containment (heuristic)."""


@dataclass(frozen=True, slots=True)
class Novelty(Record):
    """What ``mem.review.assess_novelty`` returns."""

    score: float
    """Mean novelty of the results, in [0, 1]; 0 when there are none."""
    method: str
    """"embedding" or "heuristic"."""
    note: str | None
    """Why the heuristic answered, or None."""
    results: tuple[ResultNovelty, ...]


def result_text(result: object) -> str:
    """The text of one search result: a string, a dict with ``title``/``snippet``/
    ``content``... keys, a ``Hit`` or a ``MemoryRecord``."""
    if isinstance(result, str):
        return result
    if isinstance(result, Hit):
        return result.memory.embedding_text()
    if isinstance(result, MemoryRecord):
        return result.embedding_text()
    if isinstance(result, Mapping):
        parts = [result[k] for k in TEXT_KEYS if isinstance(result.get(k), str)]
        return "\n".join(dict.fromkeys(p for p in parts if p.strip()))
    raise InvalidInputError(
        f"a search result is a string, a dict with one of {', '.join(TEXT_KEYS)}, a Hit or "
        f"a MemoryRecord; got {type(result).__name__}"
    )


def context_pieces(context: str | Sequence[str] | None) -> list[str]:
    """The context as paragraphs of at most about ``PIECE_CHARS`` characters."""
    if context is None:
        return []
    if isinstance(context, str):
        texts = [context]
    elif isinstance(context, Sequence) and all(isinstance(c, str) for c in context):
        texts = list(context)
    else:
        raise InvalidInputError("context is a string or a list of strings (what is known)")
    pieces: list[str] = []
    for text in texts:
        for paragraph in re.split(r"\n\s*\n", text):
            current = ""
            for sentence in re.split(r"(?<=[.!?])\s+", paragraph.strip()):
                if current and len(current) + len(sentence) > PIECE_CHARS:
                    pieces.append(current)
                    current = ""
                current = f"{current} {sentence}".strip()
            if current:
                pieces.append(current)
    return pieces


def assess(
    core: Core,
    scope: Scope,
    results: Sequence[object],
    context: str | Sequence[str] | None,
    *,
    use_memories: bool,
) -> Novelty:
    """Score ``results`` against ``context`` (and the namespace's memories)."""
    if isinstance(results, str | bytes) or not isinstance(results, Sequence):
        raise InvalidInputError("results is a list of search results (strings or dicts)")
    if len(results) > MAX_RESULTS:
        raise InvalidInputError(f"assess at most {MAX_RESULTS} results per call")
    texts = [result_text(r) for r in results]
    pieces = context_pieces(context)
    if core.embedder is not None:
        try:
            return _by_embedding(core, scope, texts, pieces, use_memories)
        except EmbeddingError as exc:
            note = f"the embedder failed ({exc}): word-overlap heuristic"
            return _by_overlap(core, scope, texts, pieces, use_memories, note)
    note = "no embedder is configured: word-overlap heuristic (see docs/review.md)"
    return _by_overlap(core, scope, texts, pieces, use_memories, note)


def _summary(items: list[ResultNovelty], method: str, note: str | None) -> Novelty:
    score = round(sum(i.novelty for i in items) / len(items), 4) if items else 0.0
    return Novelty(score=score, results=tuple(items), method=method, note=note)


def _by_embedding(
    core: Core, scope: Scope, texts: list[str], pieces: list[str], use_memories: bool
) -> Novelty:
    assert core.embedder is not None
    todo = [t for t in texts if t.strip()] + pieces
    try:
        vectors = core.embedder.embed_batch(todo) if todo else np.zeros((0, 1), np.float32)
    except EmbeddingError:
        raise
    except Exception as exc:  # a model or its server failing: degrade loudly
        raise EmbeddingError(str(exc)) from exc
    norms = np.linalg.norm(vectors, axis=1, keepdims=True) if len(todo) else None
    unit = vectors / np.where(norms == 0, 1.0, norms) if norms is not None else vectors
    result_rows = iter(range(len(todo) - len(pieces)))
    context = unit[len(todo) - len(pieces) :]
    index = core.index if use_memories else None
    items: list[ResultNovelty] = []
    earlier: list[tuple[int, np.ndarray]] = []
    for i, text in enumerate(texts):
        if not text.strip():
            items.append(ResultNovelty(i, 0.0, None, 0.0))
            continue
        vec = unit[next(result_rows)]
        best, label = -1.0, None
        for n, sim in enumerate(context @ vec if len(context) else []):
            if sim > best:
                best, label = float(sim), f"context:{n}"
        if index is not None:
            for memory_id, sim in index.search(scope.namespace, vec.astype(np.float32), 1):
                if sim > best:
                    best, label = float(sim), f"memory:{memory_id}"
        for n, other in earlier:
            sim = float(other @ vec)
            if sim > best:
                best, label = sim, f"result:{n}"
        earlier.append((i, vec))
        novelty = 1.0 - max(0.0, min(1.0, best)) if label else 1.0
        items.append(ResultNovelty(i, round(novelty, 4), label, round(max(best, 0.0), 4)))
    return _summary(items, "embedding", None)


def _by_overlap(
    core: Core,
    scope: Scope,
    texts: list[str],
    pieces: list[str],
    use_memories: bool,
    note: str,
) -> Novelty:
    known = list(pieces)
    labels = [f"context:{n}" for n in range(len(pieces))]
    if use_memories:
        ids: list[str] = []
        for text in texts:
            match = fts_query(text)
            if match:
                found = core.store.keyword.search(scope.namespace, match, HEURISTIC_MEMORIES)
                ids.extend(memory_id for memory_id, _ in found)
        memories = core.store.memories.get_many(scope.namespace, list(dict.fromkeys(ids)))
        for memory_id, record in memories.items():
            known.append(record.embedding_text())
            labels.append(f"memory:{memory_id}")
    scored = overlap.assess(texts, known)
    items = []
    for i, found_overlap in enumerate(scored):
        closest = found_overlap.closest
        if closest is None:
            label = None
        elif closest < len(labels):
            label = labels[closest]
        else:
            label = f"result:{closest - len(labels)}"
        items.append(ResultNovelty(i, found_overlap.novelty, label, found_overlap.similarity))
    return _summary(items, "heuristic", note)
