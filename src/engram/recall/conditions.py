"""Standing instructions' conditions: a second vector for what an instruction is about.

"Always include version numbers when I ask about software dependencies" is asked about
later as a question about dependencies ("Which libraries does this project use?"), not
about version numbers. The whole instruction's vector mixes what to do with when to do
it, so its cosine to such a question is lower than its condition's: on BEAM dev the
condition's topic ("software dependencies") is nearer the later question than the
whole instruction for 14 of the 20 instruction_following questions (median cosine
0.580 against 0.455 on chats 1-5, 0.479 against 0.374 on chats 6-10; issue 24,
docs/benchmarks.md "C1").

A standing instruction (``directives.is_directive``) whose text names its condition
("when I ask about X", "whenever we discuss X", "for questions about X") gets one more
vector, the embedding of X, written at add time beside the memory's own vector in the
chunk table under its own model key (``condition_model``: the embedder's name with a
suffix), so the long-message chunks (``recall.chunk_chars``) and these never mix;
``engram reindex`` writes them for instructions stored before. The dense leg then
scores an instruction by its own cosine and its condition's, pooled as chunks are
(``chunks.PooledDense``: ``own + w × max(0, condition − own)``, ``w`` =
``recall.condition_weight``), and the condition vectors are searched with the memories'
own, so an instruction whose condition matches joins the candidates even when sixty
turns about the chat's subject are nearer by their own vectors.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Iterable, Sequence
from functools import lru_cache

import numpy as np

from engram.config import RecallConfig
from engram.embed.base import Embedder
from engram.recall.chunks import PooledDense, Vector
from engram.recall.directives import is_directive
from engram.records import MemoryRecord
from engram.store.protocols.chunks import ChunkVectorStore, MemoryChunks
from engram.store.protocols.memories import FACTS_HEAD_CHARS
from engram.store.protocols.vectors import VectorSearch

log = logging.getLogger("engram.recall")

#: What tells condition vectors apart from long-message chunks in the chunk table.
SUFFIX = "#condition"

#: The longest condition kept, in characters: a clause, not a paragraph.
MAX_CHARS = 160

#: Seconds a namespace read to hold no condition vector is believed to hold none: the
#: longest an instruction another process wrote into such a namespace goes unread by
#: its condition (this process's own writes count at once).
REFRESH = 5.0

_WHO = r"(?:i|we|you|someone|anyone|the user)"
_ASKING = (
    r"(?:ask|am asking|are asking|talk|am talking|are talking|chat|am chatting|are chatting|"
    r"inquire|enquire|request|discuss|mention|bring up|raise|need help|want help|"
    r"have (?:a )?questions?|work|am working|are working|write|am writing|plan|am planning)"
)
_ABOUT = r"(?:about|for|on|with|regarding|concerning|related to|involving)"
_CONDITION = re.compile(
    # "when I ask about X", "whenever we discuss X", "if you are asked about X"
    rf"\b(?:when(?:ever)?|if|any ?time|each time|every time)\s+{_WHO}\s+"
    rf"(?:{_ASKING}(?:\s+(?:you|me))?(?:\s+(?:questions?|anything))?(?:\s+{_ABOUT})?"
    rf"|(?:am|are|is) asked(?:\s+{_ABOUT})?)\s+(?P<a>[^.!?;\n]+)"
    # "when discussing X", "when it comes to X", "when answering questions about X"
    rf"|\bwhen(?:ever)?\s+(?:discussing|talking about|asking about|it comes to|"
    rf"answering (?:questions )?{_ABOUT}|explaining|working on|writing about)\s+"
    r"(?P<b>[^.!?;\n]+)"
    # "for questions about X", "in any discussion of X", "in answers about X"
    r"|\b(?:for|in|with)\s+(?:any\s+|all\s+|every\s+)?(?:questions?|queries|requests?|"
    r"answers?|responses?|replies|discussions?|conversations?|anything)\s+"
    rf"(?:{_ABOUT}|of)\s+(?P<c>[^.!?;\n]+)",
    re.IGNORECASE,
)
_AFTER_COMMA = re.compile(r",\s+(?!(?:and|or)\b).*$", re.DOTALL)
_TRAIL = re.compile(r"(?:[\s,:\"'”’)\]-]|\bplease\b|\bthanks\b)+$", re.IGNORECASE)


@lru_cache(maxsize=4096)
def condition_of(text: str) -> str | None:
    """The topic of a standing instruction's condition ("software dependencies or
    libraries used" of "Always include version numbers when I ask about software
    dependencies or libraries used."), or None when ``text`` is not a standing
    instruction or names no condition."""
    if not is_directive(text[:FACTS_HEAD_CHARS]):
        return None
    found = _CONDITION.search(text)
    if found is None:
        return None
    topic = found.group("a") or found.group("b") or found.group("c") or ""
    # A condition said first ends at its comma ("whenever I ask about flights, give the
    # times in UTC"); a list inside it ("flights, hotels and trains") keeps its first item.
    topic = _AFTER_COMMA.sub("", topic)
    topic = _TRAIL.sub("", topic[:MAX_CHARS].strip()).lstrip("\"'“‘([")
    return topic if re.search(r"\w\w", topic) else None


def condition_model(embedder_name: str) -> str:
    """The chunk table's model key of ``embedder_name``'s condition vectors."""
    return embedder_name + SUFFIX


def store_conditions(
    embedder: Embedder | None,
    chunks: ChunkVectorStore,
    records: Iterable[MemoryRecord],
    config: RecallConfig,
    holders: Holders | None = None,
) -> int:
    """Embed and store the condition of each standing instruction among ``records``;
    returns how many were stored (and tells ``holders``). A failure is logged and leaves
    the instructions with their own vector only (``reindex`` writes them later)."""
    if embedder is None or config.condition_weight <= 0:
        return 0
    found = [(r, c) for r in records if (c := condition_of(r.content)) is not None]
    if not found:
        return 0
    try:
        vectors = np.asarray(embedder.embed_batch([c for _, c in found]), dtype=np.float32)
        model = condition_model(embedder.name)
        chunks.put(
            MemoryChunks(r.id, model, r.content_hash, vectors[n : n + 1])
            for n, (r, _) in enumerate(found)
        )
    except Exception as exc:  # raw-first: the memory and its own vector are stored
        log.warning("condition vectors of %d instructions not stored: %s", len(found), exc)
        return 0
    if holders is not None:
        holders.added({r.namespace for r, _ in found})
    return len(found)


def fill_conditions(
    embedder: Embedder | None,
    chunks: ChunkVectorStore,
    config: RecallConfig,
    batch_size: int,
    holders: Holders | None = None,
) -> int:
    """Write the conditions of standing instructions stored before (or with the setting
    off); returns how many were stored. ``reindex`` runs it."""
    if embedder is None or config.condition_weight <= 0:
        return 0
    made = 0
    after: str | None = None
    model = condition_model(embedder.name)
    while True:
        batch = chunks.uncovered(embedder.name, model, _OPENERS, after=after, limit=batch_size)
        if not batch:
            return made
        after = batch[-1].id
        made += store_conditions(embedder, chunks, batch, config, holders)


#: Words one of which a standing instruction's opening holds (``directives._DIRECTIVE``):
#: the store reads only the memories whose opening holds one.
_OPENERS: Sequence[str] = ("always", "never", "from now on", "going forward")


class Holders:
    """Which namespaces hold condition vectors, as last read: a namespace read to hold
    none is not asked again for ``REFRESH`` seconds, so an ordinary namespace (no
    standing instruction) costs recall no read of the chunk table, which on PostgreSQL
    is a round trip per dense search and per completion of its scores."""

    def __init__(self, refresh: float = REFRESH) -> None:
        self.refresh = refresh
        self._empty: dict[str, float] = {}
        """namespace -> ``time.monotonic()`` when it was read to hold none."""
        self._lock = threading.Lock()

    def known_empty(self, namespace: str) -> bool:
        """True when ``namespace`` was read to hold no condition less than ``refresh``
        seconds ago and this process wrote none into it since."""
        with self._lock:
            at = self._empty.get(namespace)
        return at is not None and time.monotonic() - at < self.refresh

    def saw(self, namespace: str, holds: bool) -> None:
        """What a search of ``namespace``'s conditions found."""
        with self._lock:
            if holds:
                self._empty.pop(namespace, None)
            else:
                self._empty[namespace] = time.monotonic()

    def added(self, namespaces: Iterable[str]) -> None:
        """This process wrote conditions into ``namespaces``."""
        with self._lock:
            for namespace in namespaces:
                self._empty.pop(namespace, None)


class ConditionDense(PooledDense):
    """The dense leg with standing instructions' conditions pooled in (``PooledDense``
    over the condition vectors), reading none for a namespace ``holders`` knows to
    hold none."""

    def __init__(
        self,
        index: VectorSearch | PooledDense,
        chunks: ChunkVectorStore,
        weight: float,
        holders: Holders,
    ) -> None:
        super().__init__(index, chunks, weight, SUFFIX)
        self.holders = holders

    def search(self, namespace: str, query: Vector, k: int) -> list[tuple[str, float]]:
        if self.holders.known_empty(namespace):
            return self.index.search(namespace, query, k)
        found = self.chunks.search(namespace, self.chunk_model, query, k)
        self.holders.saw(namespace, bool(found))
        if not found:
            return self.index.search(namespace, query, k)
        return self.merged(namespace, query, k, found)

    def scores(self, namespace: str, query: Vector, ids: Sequence[str]) -> dict[str, float]:
        if self.holders.known_empty(namespace):
            return self.index.scores(namespace, query, ids)
        return super().scores(namespace, query, ids)


def dense_leg(
    index: VectorSearch, chunks: ChunkVectorStore | None, cfg: RecallConfig, holders: Holders
) -> VectorSearch | PooledDense:
    """The dense leg: the memories' own vectors, pooled with long memories' chunk vectors
    when ``recall.chunk_pooling`` (issue 13), and with standing instructions' conditions
    when ``recall.condition_weight`` (issue 24)."""
    dense: VectorSearch | PooledDense = index
    if chunks is None:
        return dense
    if cfg.chunk_pooling:
        dense = PooledDense(dense, chunks, cfg.chunk_weight)
    if cfg.condition_weight > 0:
        dense = ConditionDense(dense, chunks, cfg.condition_weight, holders)
    return dense
