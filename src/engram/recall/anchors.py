"""issue 24: the dense query without the names that most of the namespace mentions.

A question such as "What activities does Melanie partake in?" asked of a conversation
between Melanie and Caroline names a speaker whose name opens half of the stored turns
("Melanie: ..."). In the embedding of the question that name weighs as much as the
words that say what is asked, so the dense leg favours turns that look like the
question (any turn by Melanie that talks about activities in general) over the turn
that answers it in passing ("signed up for a pottery class"). A name held by most of
the namespace singles nothing out; the keyword leg still matches it, and the dense leg
embeds the rest of the question.

A name is an *anchor* when the entity graph knows it and more than ``anchor_share`` of
the namespace's live memories mention it (``Entity.mentions``). The names a query could
hold are its capitalised words (a simple proper-noun pass: no model). The query is only
rewritten when at least ``MIN_CONTENT_WORDS`` keywords remain, so "What about Postgres?"
keeps its one topic even in a namespace about Postgres.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engram.store.protocols import MemoryStore
from engram.store.protocols.graph import GraphStore
from engram.store.protocols.memories import ListQuery
from engram.text import STOPWORDS, keywords

#: Memories with a session, forgotten ones too (the count stays on the index
#: ``memories_ns_session``; the judgement leg's test, ``NamespaceSizes.sessioned``).
SESSIONED = ListQuery(has_session=True, include_deleted=True)

log = logging.getLogger("engram.recall")

#: A rewritten query keeps at least this many keywords, or the query stays whole.
MIN_CONTENT_WORDS = 1
#: At most this many capitalised words are looked up (one indexed read each).
MAX_NAMES = 8
#: How long a namespace's memory count is reused. Counting 100,000 memories took 140 ms
#: on the loaded build machine (docs/benchmarks.md, issue 24), too much for every query;
#: a share of 0.2 does not care about a count a minute old.
SIZE_TTL_S = 60.0
#: Reads kept at most (names' mention counts, namespaces' sizes): past it the cache
#: starts again.
MAX_CACHED = 10_000

# A capitalised word, with an optional possessive: "Melanie's", "O'Neil", "Jean-Luc".
_NAME = re.compile(r"\b([A-Z][\w\-]*(?:['’][A-Za-z]+)*?)(?:['’]s)?\b")


@dataclass(frozen=True, slots=True)
class DenseQuery:
    """The text the dense leg embeds, and the anchor names left out of it."""

    text: str
    dropped: tuple[str, ...] = ()


class NamespaceSizes:
    """Live memory counts per namespace, and how many memories mention a name, each
    reused for ``SIZE_TTL_S`` seconds (one per retriever; safe across threads)."""

    def __init__(self, ttl: float = SIZE_TTL_S) -> None:
        self.ttl = ttl
        # (what was read, namespace, name or "") -> (when it was read, the value).
        self._known: dict[tuple[str, str, str], tuple[float, int]] = {}
        self._lock = threading.Lock()

    def _cached(self, key: tuple[str, str, str], read: Callable[[], int]) -> int:
        """The value ``read`` returned for ``key`` less than ``ttl`` ago, else ``read()``
        now (kept for the next call). The store read runs outside the lock: two threads
        that miss together both read, and the later write wins."""
        now = time.monotonic()
        with self._lock:
            known = self._known.get(key)
            if len(self._known) > MAX_CACHED:
                self._known.clear()
        if known is not None and now - known[0] < self.ttl:
            return known[1]
        found = read()
        with self._lock:
            self._known[key] = (now, found)
        return found

    def mentions(self, graph: GraphStore, namespace: str, name: str) -> int:
        """How many memories mention the entity ``name`` names (0: none known), read
        again once ``ttl`` old: a namespace's questions name the same few people, and
        a share test does not care about a count a minute old (issue 24: the graph
        read was most of what the residual leg cost a query at 100k)."""
        return self._cached(
            ("mentions", namespace, name), lambda: mentions_of(graph, namespace, name)
        )

    def sessioned(self, memories: MemoryStore, namespace: str) -> bool:
        """Whether some live memory of the namespace holds a session, read again once
        ``ttl`` old (lat42: the judgement leg ranks sessions, and in a namespace with
        none it ran the model and searched the namespace to change nothing). A namespace's
        first session is seen at most ``ttl`` late."""
        # Forgotten memories count too: the read stays on the index (namespace,
        # session_id), and a leg run for nothing is the old cost, never a wrong answer.
        return (
            self._cached(
                ("sessioned", namespace, ""),
                lambda: memories.count(namespace, query=SESSIONED),
            )
            > 0
        )

    def count(self, memories: MemoryStore, namespace: str) -> int:
        """The namespace's live memory count, read again once it is ``ttl`` old."""
        return self._cached(("count", namespace, ""), lambda: memories.count(namespace))


def capitalised(query: str) -> list[str]:
    """The query's capitalised words that are not stopwords ("What", "Does" are), in
    order, without duplicates or a possessive "'s"."""
    found: dict[str, None] = {}
    for match in _NAME.finditer(query):
        word = match.group(1)
        if word.lower() not in STOPWORDS:
            found[word] = None
    return list(found)[:MAX_NAMES]


def mentions_of(graph: GraphStore, namespace: str, name: str) -> int:
    """How many memories mention the entity ``name`` names (0: none known)."""
    entity = graph.entity(namespace, name)
    return entity.mentions if entity is not None else 0


def without(query: str, names: Sequence[str]) -> str:
    """``query`` with every whole-word occurrence of ``names`` (and its "'s") removed."""
    out = query
    for name in names:
        out = re.sub(rf"\b{re.escape(name)}(?:['’]s)?\b", " ", out)
    return re.sub(r"\s+", " ", out).strip()


def anchor_names(
    graph: GraphStore,
    memories: MemoryStore,
    namespace: str,
    names: Sequence[str],
    share: float,
    sizes: NamespaceSizes | None = None,
) -> list[str]:
    """Those of ``names`` that more than ``share`` of the namespace's memories mention
    (the count from ``sizes`` when given)."""
    known = []
    for name in names:
        if sizes is not None:
            mentions = sizes.mentions(graph, namespace, name)
        else:
            mentions = mentions_of(graph, namespace, name)
        if mentions > 0:
            known.append((name, mentions))
    if not known:
        return []
    # Only read when the query names a known entity.
    total = sizes.count(memories, namespace) if sizes else memories.count(namespace)
    return [name for name, mentions in known if total and mentions > share * total]


def dense_query(
    query: str,
    namespace: str,
    graph: GraphStore | None,
    memories: MemoryStore,
    share: float,
    warnings: list[str],
    sizes: NamespaceSizes | None = None,
) -> DenseQuery:
    """What the dense leg should embed for ``query`` (see the module docstring). Any
    failure of the graph lookup keeps the whole query (and says so)."""
    names = capitalised(query)
    if graph is None or not names:
        return DenseQuery(query)
    try:
        anchors = anchor_names(graph, memories, namespace, names, share, sizes)
    except Exception as exc:  # an optional refinement: never fail recall on it
        message = f"anchor names unavailable, embedding the whole query: {exc}"
        log.warning(message)
        warnings.append(message)
        return DenseQuery(query)
    if not anchors:
        return DenseQuery(query)
    rest = without(query, anchors)
    if len(keywords(rest)) < MIN_CONTENT_WORDS:
        return DenseQuery(query)
    return DenseQuery(rest, tuple(anchors))
