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
("when I ask about X", "whenever we discuss X", "for questions about X", or said first:
"When I ask about X, always ...", "For anything about X, ...") gets one more
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

import contextlib
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from functools import lru_cache

import numpy as np

from engram.config import RecallConfig
from engram.embed.base import Embedder
from engram.errors import EngramError
from engram.recall.chunks import PooledDense
from engram.recall.directives import is_directive, leading_condition
from engram.records import MemoryRecord
from engram.store.protocols.chunks import ChunkVectorStore, MemoryChunks
from engram.store.protocols.memories import FACTS_HEAD_CHARS
from engram.store.protocols.vectors import VectorSearch

log = logging.getLogger("engram.recall")

#: What tells condition vectors apart from long-message chunks in the chunk table.
SUFFIX = "#condition"

#: The longest condition kept, in characters: a clause, not a paragraph.
MAX_CHARS = 160

#: Words one of which a standing instruction's opening holds (``directives._DIRECTIVE``,
#: and a condition said first: ``directives.leading_condition``): ``reindex`` reads only
#: the memories whose opening holds one.
_OPENERS: Sequence[str] = (
    "always",
    "never",
    "from now on",
    "going forward",
    "when",
    "if ",
    "time ",
    "for any",
    "for all",
    "for every",
    "for question",
    "for quer",
    "for request",
    "in any",
    "in all",
    "with any",
    "on any",
)

#: Seconds between two checks of whether a namespace holds condition vectors: about the
#: longest an instruction another process wrote into a namespace without any goes
#: unread by its condition (this process's own writes count at once).
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
    # A condition said first ends at its comma, which may lie past the opening recall
    # reads (``FACTS_HEAD_CHARS``): the whole text is at hand here (issue 24, C2).
    topic = leading_condition(text)
    if topic is None:
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
    model = condition_model(embedder.name)
    return fill_uncovered(
        chunks,
        embedder.name,
        model,
        _OPENERS,
        batch_size,
        lambda batch: store_conditions(embedder, chunks, batch, config, holders),
    )


def fill_uncovered(
    chunks: ChunkVectorStore,
    embedder_name: str,
    model: str,
    words: Sequence[str],
    batch_size: int,
    write: Callable[[list[MemoryRecord]], int],
) -> int:
    """Page through the memories whose opening holds one of ``words`` and that have no
    rows of ``model`` yet, ``write``-ing each page; returns what ``write`` counted."""
    made = 0
    after: str | None = None
    while True:
        batch = chunks.uncovered(embedder_name, model, words, after=after, limit=batch_size)
        if not batch:
            return made
        after = batch[-1].id
        made += write(batch)


class Holders:
    """Which namespaces hold condition vectors, so that recall reads them only where there
    are some: a namespace without standing instructions keeps the plain dense leg (on
    PostgreSQL its reads ride along the dense search's round trip: ``FactsAlong``).
    Checked at a namespace's first recall (one read), then again off recall's wait
    (``submit``: recall's worker threads) at most once per ``refresh`` seconds; this
    process's own writes count at once (``added``)."""

    def __init__(
        self,
        chunks: ChunkVectorStore | None,
        embedder: Embedder | None,
        submit: Callable[[Callable[[str], None], str], Future[None]],
        refresh: float = REFRESH,
    ) -> None:
        self.chunks, self.embedder, self.refresh = chunks, embedder, refresh
        self._submit = submit
        self._state: dict[str, tuple[bool, float]] = {}
        """namespace -> (holds conditions, ``time.monotonic()`` of the check)."""
        self._lock = threading.Lock()
        self.last: Future[None] | None = None
        """The last check started in the background (tests wait for it)."""

    def holds(self, namespace: str) -> bool:
        """Whether ``namespace`` held condition vectors at its last check (made now when
        there was none; started in the background when it is older than ``refresh``)."""
        if self.chunks is None or self.embedder is None:
            return False
        now = time.monotonic()
        with self._lock:
            found = self._state.get(namespace)
            stale = found is not None and now - found[1] >= self.refresh
            if found is not None and stale:  # one check at a time: the last answer serves
                self._state[namespace] = (found[0], now)
        if found is None:
            self._check(namespace)  # the first time: on this recall, so it ranks as later ones
            with self._lock:
                found = self._state.get(namespace)
        elif stale:
            with contextlib.suppress(EngramError):  # closing: the last answer serves
                self.last = self._submit(self._check, namespace)
        return found is not None and found[0]

    def added(self, namespaces: Iterable[str]) -> None:
        """This process wrote conditions into ``namespaces``."""
        with self._lock:
            for namespace in namespaces:
                self._state[namespace] = (True, time.monotonic())

    def _check(self, namespace: str) -> None:
        assert self.chunks is not None and self.embedder is not None
        # Any unit vector finds a row when there is one.
        probe = np.zeros(int(self.embedder.dimension), dtype=np.float32)
        probe[0] = 1.0
        started = time.monotonic()
        try:
            found = self.chunks.search(namespace, condition_model(self.embedder.name), probe, 1)
        except EngramError as exc:  # a closed or failing store: none until the next check
            log.debug("conditions of %r not checked: %s", namespace, exc)
            found = []
        with self._lock:
            if self._state.get(namespace, (False, started))[1] <= started:  # none added since
                self._state[namespace] = (bool(found), time.monotonic())


def dense_leg(
    index: VectorSearch,
    chunks: ChunkVectorStore | None,
    cfg: RecallConfig,
    holders: Holders,
    namespace: str,
) -> VectorSearch | PooledDense:
    """The dense leg of ``namespace``: the memories' own vectors, pooled with long
    memories' chunk vectors when ``recall.chunk_pooling`` (issue 13), and with standing
    instructions' conditions when ``recall.condition_weight`` and the namespace holds
    some (issue 24)."""
    dense: VectorSearch | PooledDense = index
    if chunks is None:
        return dense
    if cfg.chunk_pooling:
        dense = PooledDense(dense, chunks, cfg.chunk_weight)
    if cfg.condition_weight > 0 and holders.holds(namespace):
        dense = PooledDense(dense, chunks, cfg.condition_weight, SUFFIX)
    return dense
