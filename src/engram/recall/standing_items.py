"""A request's standing items: the user's instructions and preferences that govern a reply.

"Always give step-by-step explanations with concrete examples when I ask about
probability" and "I prefer simple, minimal dependencies" say how the assistant should
answer every later request on their topic, but a later request ("How do I calculate the
chance of drawing a red card?") is about its own subject: in a namespace about one
subject, sixty turns on that subject are nearer it than the instruction, which no ranking
of the question brings into its first ten (issue 24: BEAM dev's chat 5, docs/benchmarks.md
"BEAM fold A, round two"). So a request for help gets them beside its hits, not among
them: ``Recall.standing`` holds the namespace's ``recall.standing_items`` standing items
nearest the request, and the context carries those its hits do not, under their own
heading.

- A *standing item* is the user's own memory (``coverage.users``) that opens as a
  standing instruction (``directives.is_directive``) or states a preference ("I prefer",
  "I'd rather", "my preference"). At add time each gets its own vector and, for an
  instruction that names its condition, the condition's (``conditions.condition_of``) in
  the chunk table under their own model key (``standing_model``); ``engram reindex``
  writes them for memories stored before (those whose opening shows the cue: the
  store's backfill reads openings).
- A *request* is a question or command asking the assistant for help ("how do I",
  "can you", "walk me through", "what should I", "explain", "suggest") that does not ask
  what the user said or did ("did I", "I mentioned", "how many"): standing items govern
  how to answer, not what was said.
- Nearness is the larger of the item's own and its condition's cosine (the chunk
  search's max over an item's rows): one search over the namespace's few items.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

import numpy as np
import numpy.typing as npt

from engram.config import RecallConfig
from engram.embed.base import Embedder
from engram.recall import coverage
from engram.recall import format as fmt
from engram.recall.conditions import condition_of, fill_extra, put_extra
from engram.recall.directives import is_directive
from engram.recall.request import RecallRequest
from engram.records import Hit, MemoryRecord, Recall, ScoreBreakdown
from engram.store.protocols.chunks import ChunkVectorStore, MemoryChunks
from engram.store.protocols.memories import FACTS_HEAD_CHARS, MemoryStore

#: The chunk table's model key suffix of standing items' vectors.
SUFFIX = "#standing"
HEADING = "Standing instructions and preferences:"

_PREFERS = re.compile(r"\b(?:I\s+prefer|I'd\s+rather|I\s+would\s+rather|my\s+preference)\b", re.I)
# What the store's backfill can find in an opening (it reads the first 64 characters).
_CUES: Sequence[str] = (
    "always",
    "never",
    "make sure",
    "please",
    "don't",
    "do not",
    "whenever",
    "when i ask",
    "prefer",
    "rather",
    "preference",
)
# A request for help, addressed to the assistant ...
_REQUEST = re.compile(
    r"\b(?:how\s+(?:do|can|should|would|could)\s+I|what\s+should\s+I|"
    r"(?:can|could|would|will)\s+you|help\s+me|walk\s+me|show\s+me|"
    r"(?:you|I)\s+(?:suggest|recommend)|explain)\b",
    re.I,
)
# ... and not a question about what the user said or did.
_PAST = re.compile(
    r"\b(?:did|have|had)\s+I\b|\bI\s+(?:mentioned|said|told|asked)\b|\bhow\s+many\b", re.I
)


def standing_model(embedder_name: str) -> str:
    """The chunk table's model key of ``embedder_name``'s standing-item vectors."""
    return embedder_name + SUFFIX


def is_standing(memory: MemoryRecord) -> bool:
    """True when ``memory`` is the user's standing instruction or stated preference."""
    text = memory.content.replace("\u2019", "'")
    if not coverage.users(memory):
        return False
    return is_directive(text[:FACTS_HEAD_CHARS]) or _PREFERS.search(text) is not None


def is_request(query: str) -> bool:
    """True when ``query`` asks the assistant for help, not about what the user said."""
    return _REQUEST.search(query) is not None and _PAST.search(query) is None


def store_standing(
    embedder: Embedder | None,
    chunks: ChunkVectorStore,
    records: Sequence[MemoryRecord],
    vectors: npt.NDArray[np.float32] | None,
    config: RecallConfig,
) -> int:
    """Store the rows of each standing item among ``records`` (``vectors``: their own,
    in order; None: embedded here); returns how many items. A failure is logged and
    leaves them out of the block (``reindex`` writes them later)."""
    if embedder is None or config.standing_items <= 0:
        return 0
    found = [n for n, r in enumerate(records) if is_standing(r)]
    if not found:
        return 0

    def rows() -> list[MemoryChunks]:
        conditions = {n: c for n in found if (c := condition_of(records[n].content))}
        own = (
            vectors[found]
            if vectors is not None
            else _embed(embedder, [records[n].embedding_text() for n in found])
        )
        extra = iter(_embed(embedder, list(conditions.values())))
        model = standing_model(embedder.name)
        out = []
        for k, n in enumerate(found):
            matrix = own[k : k + 1]
            if n in conditions:  # the item's own vector, then its condition's
                matrix = np.vstack([matrix, next(extra)[None, :]])
            out.append(MemoryChunks(records[n].id, model, records[n].content_hash, matrix))
        return out

    # raw-first: on a failure the memories and their own vectors are stored already.
    what = f"standing-item vectors of {len(found)} memories"
    return len(found) if put_extra(chunks, rows, set(), None, what) else 0


def _embed(embedder: Embedder, texts: list[str]) -> npt.NDArray[np.float32]:
    if not texts:
        return np.zeros((0, int(embedder.dimension)), dtype=np.float32)
    return np.asarray(embedder.embed_batch(texts), dtype=np.float32)


def fill_standing(
    embedder: Embedder | None, chunks: ChunkVectorStore, config: RecallConfig, batch_size: int
) -> int:
    """Write the rows of standing items stored before; returns how many. ``reindex``
    runs it."""
    if embedder is None or config.standing_items <= 0:
        return 0
    model = standing_model(embedder.name)
    write = partial(store_standing, embedder, chunks, vectors=None, config=config)
    return fill_extra(chunks, embedder.name, model, _CUES, batch_size, write)


def nearest(
    chunks: ChunkVectorStore | None,
    memories: MemoryStore,
    embedder: Embedder | None,
    namespace: str,
    query_vector: npt.NDArray[np.float32] | None,
    k: int,
) -> list[Hit]:
    """The ``k`` standing items of ``namespace`` nearest ``query_vector``, best first."""
    if chunks is None or embedder is None or query_vector is None or k <= 0:
        return []
    found = chunks.search(namespace, standing_model(embedder.name), query_vector, k)
    records = memories.get_many(namespace, [i for i, _ in found])
    return [
        Hit(records[i], score, ScoreBreakdown(score, None, score, 1.0, 0.0, score, 1.0, score))
        for i, score in found
        if i in records
    ]


def block(
    result: Recall,
    cfg: RecallConfig,
    request: RecallRequest,
    chunks: ChunkVectorStore | None,
    memories: MemoryStore,
    embedder: Embedder | None,
    query_vector: npt.NDArray[np.float32] | None,
) -> Recall:
    """``result`` with its standing block when its query is a request: the items in
    ``Recall.standing``, and in the context after the hits those it does not show (not
    when a token budget bounds the context, nor when recall abstained)."""
    if cfg.standing_items <= 0 or result.abstained or not is_request(result.query):
        return result
    started = time.perf_counter()
    k, namespace = cfg.standing_items, request.namespace
    found = nearest(chunks, memories, embedder, namespace, query_vector, k)
    # The request's own filters (ids, tags, metadata, wing/room) bound the block as they
    # bound the hits, and a flagged memory's text stays out of it as out of the hits.
    kept = request.kept({h.memory.id: h.memory for h in found}) if request.filtered else None
    items = tuple(h for h in found if kept is None or h.memory.id in kept)
    if not items:
        return result
    shown = set(result.shown)
    omit = cfg.flagged_context == "omit"
    extra = [h for h in items if h.memory.id not in shown and not (omit and fmt.flags(h.memory))]
    context = result.context
    if extra and request.budget_tokens is None:
        text = fmt.render(extra, cfg.context_style, None, HEADING)
        context = f"{context}\n\n{text}" if context else text
    timings = dict(result.timings)
    spent = (time.perf_counter() - started) * 1000
    timings["standing"] = spent
    timings["total"] = timings.get("total", 0.0) + spent
    return replace(result, standing=items, context=context, timings=timings)
