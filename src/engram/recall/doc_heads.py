"""Document chunks' head windows, read only for a question that names the document.

A PDF is cut page by page, so a contract's page 2 ("the Client will pay each invoice
within thirty days") never says the party page 1 names ("Northwind"), and "How long
does Northwind have to settle a bill?" missed it (rounds twenty-four and twenty-five,
docs/benchmarks.md). Each chunk past its document's first carries a head
(``document_head`` in its metadata: the document's name and title and page 1's names,
``pipeline.chunk_source.document_head``), and gets one more vector at add time: that
head before the chunk's opening (``head_window``), under its own model key (the
embedder's name with ``SUFFIX``). Round twenty-five pooled such a vector into every
recall and showed more lines for questions no document answers (a later page's head
window is nearer any question about its document); here the dense leg reads it only
for the chunks whose head shares a word with what the question names (``named``: its
capitalised words past a sentence's first, and any word of the document's file name),
as ``max(own, head window)`` (``HeadGate``). A question that names nothing of a
document ranks as before, and a namespace without head windows keeps the plain dense
leg (``Holders``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from pathlib import PurePath

import numpy as np

from engram.embed.base import Embedder
from engram.recall import doc_windows
from engram.recall.chunks import PooledDense, Vector
from engram.recall.conditions import Holders, put_extra
from engram.recall.format import HEAD_KEY, SOURCE_KEY
from engram.recall.request import RecallRequest
from engram.records import MemoryRecord, MemoryType
from engram.store.protocols.chunks import ChunkVectorStore, MemoryChunks
from engram.store.protocols.vectors import VectorSearch

#: What tells a document chunk's head window apart in the chunk table.
SUFFIX = "#head"
#: Reads the records of a namespace's ids (``MemoryStore.get_many``).
Reader = Callable[[str, Sequence[str]], dict[str, MemoryRecord]]

_WORD = re.compile(r"[^\W_]+")
#: Words of a file's name or a URL that name no document ("contract.pdf"'s "pdf").
_NOT_NAMES = frozenset(
    ["com", "docx", "htm", "html", "http", "https", "md", "net", "org", "pdf", "txt", "www"]
)
#: Shorter words (initials, "Ltd"'s kin) match too much to gate on.
MIN_CHARS = 3


def holders(
    chunks: ChunkVectorStore | None,
    embedder: Embedder | None,
    submit: Callable[[Callable[[str], None], str], Future[None]],
    read: Reader,
) -> tuple[Holders, HeadHolders]:
    """Which namespaces hold document chunks' windows (``doc_windows``), and which
    hold head windows (recall's ``windowed`` and ``headed``)."""
    return doc_windows.holders(chunks, embedder, submit), HeadHolders(
        chunks, embedder, submit, read
    )


class HeadHolders(Holders):
    """``Holders`` of head windows, with the records' reader the gate needs."""

    def __init__(
        self,
        chunks: ChunkVectorStore | None,
        embedder: Embedder | None,
        submit: Callable[[Callable[[str], None], str], Future[None]],
        read: Reader,
    ) -> None:
        super().__init__(chunks, embedder, submit, suffix=SUFFIX)
        self.read = read
        self.cache: tuple[str, Vector] | None = None
        """The last question less its names and its vector."""


def words(text: str) -> set[str]:
    """``text``'s words of ``MIN_CHARS`` or more, lower-cased."""
    return {w.lower() for w in _WORD.findall(text) if len(w) >= MIN_CHARS}


def named(query: str) -> set[str]:
    """The words ``query`` names something with: capitalised, and not a sentence's
    first word ("How", "Can"), lower-cased."""
    out: set[str] = set()
    opening = True
    for raw in query.split():
        word = raw.strip(",.;:!?()[]\"'“”‘’")
        if not opening and word[:1].isupper():
            out |= words(word)
        opening = raw.endswith((".", "!", "?"))
    return out


def names_document(query: str, names: set[str], record: MemoryRecord) -> bool:
    """Whether a question (``names``: ``named(query)``) names ``record``'s document:
    one of its names is a word of the chunk's head, or the question says a word of the
    document's file name ("the lease" for ``lease.pdf``)."""
    head = record.metadata.get(HEAD_KEY)
    if not isinstance(head, str) or not head:
        return False
    if names & words(head):
        return True
    source = record.metadata.get(SOURCE_KEY)
    if not isinstance(source, str):
        return False
    stem = words(PurePath(source).stem if "/" not in source else source) - _NOT_NAMES
    return bool(stem & words(query))


def head_window(record: MemoryRecord) -> str | None:
    """A chunk's head window: its head and the chunk's opening, cut at a word to
    ``doc_windows.WINDOW_CHARS`` (about what the embedder reads); none without a head."""
    head = record.metadata.get(HEAD_KEY)
    if record.type is not MemoryType.DOCUMENT_CHUNK or not isinstance(head, str) or not head:
        return None
    text = f"{head} {record.content}"
    size = doc_windows.WINDOW_CHARS
    if len(text) > size:
        text = text[: size + 1].rsplit(" ", 1)[0] or text[:size]
    return text


def store_heads(
    embedder: Embedder | None,
    chunks: ChunkVectorStore,
    records: Iterable[MemoryRecord],
    holders: Holders | None = None,
) -> int:
    """Embed and store the head windows of the document chunks among ``records``;
    returns how many were stored (and tells ``holders``). A failure is logged and leaves
    the chunks without (``reindex`` writes them later)."""
    if embedder is None:
        return 0
    found = [(r, w) for r in records if (w := head_window(r)) is not None]
    if not found:
        return 0

    def rows() -> list[MemoryChunks]:
        vectors = np.asarray(embedder.embed_batch([w for _, w in found]), dtype=np.float32)
        model = embedder.name + SUFFIX
        return [
            MemoryChunks(r.id, model, r.content_hash, vectors[n : n + 1])
            for n, (r, _) in enumerate(found)
        ]

    what = f"head windows of {len(found)} document chunks"
    namespaces = {r.namespace for r, _ in found}
    return len(found) if put_extra(chunks, rows, namespaces, holders, what) else 0


def gated(dense: VectorSearch | PooledDense, headed: HeadHolders, request: RecallRequest) -> Dense:
    """``dense``, reading the question less its names in a namespace with heads."""
    if headed.chunks is None or headed.embedder is None or not named(request.query):
        return dense
    if not headed.holds(request.namespace):
        return dense
    return HeadGate(dense, headed, request.query)


def unnamed(query: str) -> str:
    """``query`` less the words it names something with (``named``)."""
    out: list[str] = []
    opening = True
    for raw in query.split():
        word = raw.strip(",.;:!?()[]\"'“”‘’")
        if opening or not word[:1].isupper():
            out.append(raw)
        opening = raw.endswith((".", "!", "?"))
    return " ".join(out)


class HeadGate:
    """The dense leg for a question naming a document (variant two): a chunk whose
    head holds one of the question's names scores ``max(own, own for the question less
    its names)``, since the page never says them; any other memory as the leg it
    wraps. Same ``search``/``scores`` calls and ``model`` as ``VectorSearch``."""

    def __init__(self, index: VectorSearch | PooledDense, headed: HeadHolders, query: str) -> None:
        self.index, self.headed, self.query = index, headed, query
        self.names = named(query)
        self.model: str = index.model

    def _vector(self) -> Vector:
        """The question less its names, embedded (once per question)."""
        cache = self.headed.cache
        if cache is None or cache[0] != self.query:
            assert self.headed.embedder is not None
            vector = np.asarray(
                self.headed.embedder.embed_batch([unnamed(self.query)])[0], np.float32
            )
            cache = self.headed.cache = (self.query, vector.reshape(-1))
        return cache[1]

    def _gate(self, namespace: str, found: dict[str, float]) -> dict[str, float]:
        """The scores of ``found`` whose document the question names."""
        if not found:
            return {}
        records = self.headed.read(namespace, list(found))
        return {
            i: s
            for i, s in found.items()
            if (r := records.get(i)) is not None and self.names & words(head_of(r))
        }

    def search(self, namespace: str, query: Vector, k: int) -> list[tuple[str, float]]:
        """The ``k`` best memories: the leg's, and the named chunks' for the question
        less its names."""
        ranked = dict(self.index.search(namespace, query, k))
        alt = self._gate(namespace, dict(self.index.search(namespace, self._vector(), k)))
        if alt:
            missing = [i for i in alt if i not in ranked]
            if missing:
                ranked.update(self.index.scores(namespace, query, missing))
            for i, score in alt.items():
                ranked[i] = max(ranked.get(i, 0.0), score)
        return sorted(ranked.items(), key=lambda item: (-item[1], item[0]))[:k]

    def scores(self, namespace: str, query: Vector, ids: Sequence[str]) -> dict[str, float]:
        """Scores of specific memories; ids with no vector at all are absent."""
        out = dict(self.index.scores(namespace, query, ids))
        alt = self._gate(namespace, self.index.scores(namespace, self._vector(), ids))
        for i, score in alt.items():
            out[i] = max(out.get(i, 0.0), score)
        return out


def head_of(record: MemoryRecord) -> str:
    """A chunk's head, or ``""``."""
    head = record.metadata.get(HEAD_KEY)
    return head if isinstance(head, str) else ""


#: The dense leg as recall reads it.
Dense = VectorSearch | PooledDense | HeadGate
