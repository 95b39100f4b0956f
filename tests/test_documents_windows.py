"""Round twenty-two of the new-user pass (docs/benchmarks.md): a document chunk is
2,000 characters and the embedder reads about the first 1,000 (256 word pieces), so
the dense leg never saw a chunk's second half. A chunk now gets a vector per window
past its head (recall/doc_windows.py), and recall pools them where a namespace holds
some. And no chunk begins or ends inside a word (pipeline/chunk_windows.py)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.embed.base import Vectors

#: What the embedder reads of a text, as MiniLM reads its first 256 word pieces.
READS = 1000
HEAD = "The harbour survey covered the north quay and the old slipway in spring. " * 14
TAIL = (
    "Soil moisture was logged every fifteen minutes by buried capacitance probes. "
    "Each probe logged soil moisture at two depths; the logging interval stayed fixed. "
    "Capacitance probes need no calibration per soil, and moisture logging ran unattended."
)
QUERY = "soil moisture logging interval of capacitance probes"


class ReadsTheHead(HashEmbedder):
    """The hash embedder reading only a text's first ``READS`` characters."""

    def __init__(self) -> None:
        super().__init__(dimension=512)  # few collisions: unrelated words stay apart

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        return super().embed_batch([t[:READS] for t in texts])


@pytest.fixture
def mem(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=ReadsTheHead()) as m:
        yield m


def _ingest(mem: Memory, text: str, user: str = "ana") -> str:
    doc = mem.documents.ingest(text, title="survey notes", user_id=user)
    done = mem.documents.process(doc.id, user_id=user)
    assert done.status == "done" and done.chunk_count == 1
    return mem.documents.chunks(done.id, user_id=user)[0].memory_id


def test_the_dense_leg_reads_a_document_chunks_tail(mem: Memory) -> None:
    text = HEAD + TAIL  # one chunk of about 1,300 characters: the tail past what is read
    assert len(text) < 2000 and text.index(TAIL) > READS
    chunk = _ingest(mem, text)
    recall = mem.recall(QUERY, user_id="ana", limit=4)
    (hit,) = [h for h in recall.hits if h.id == chunk]
    # On the base the chunk's only vector is its head's: the query's words are not there.
    head_only = float(np.dot(*mem._core.embedder.embed_batch([QUERY, text])))
    assert head_only < 0.1
    assert hit.breakdown.dense is not None and hit.breakdown.dense > head_only + 0.2
    assert recall.shown[:1] == (chunk,)


def test_a_namespace_without_documents_keeps_the_plain_dense_leg(mem: Memory) -> None:
    mem.add(HEAD + TAIL, user_id="ben")
    _ingest(mem, HEAD + TAIL + " Also the east pier.", user="ana")
    retriever = mem._core.retriever
    assert retriever.windowed.holds("user:ana")
    assert not retriever.windowed.holds("user:ben")
    (hit,) = mem.recall(QUERY, user_id="ben", limit=4, abstain=False).hits
    assert hit.breakdown.dense is not None and hit.breakdown.dense < 0.1


def test_a_deleted_documents_windows_find_nothing(mem: Memory) -> None:
    _ingest(mem, HEAD + TAIL)
    (doc,) = mem.documents.list(user_id="ana")
    mem.documents.delete(doc.id, user_id="ana")
    assert mem.recall(QUERY, user_id="ana", limit=4, abstain=False).hits == ()


def test_reindex_gives_windows_to_chunks_ingested_before_them(mem: Memory) -> None:
    chunk = _ingest(mem, HEAD + TAIL)
    model = mem._core.embedder.name + "#window"
    assert mem._core.store.chunks.count(model) == 1
    mem._core.store.chunks.delete(model)  # as a store written before this version
    mem.add("The north quay was resurfaced in 2019.", user_id="ana")  # not a document
    mem.admin.reindex()
    assert mem._core.store.chunks.count(model) == 1
    recall = mem.recall(QUERY, user_id="ana", limit=4)
    assert recall.shown[:1] == (chunk,)
