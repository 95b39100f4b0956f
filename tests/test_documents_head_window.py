"""Round twenty-five of the new-user pass (docs/benchmarks.md, experiment): a PDF is cut
page by page, so a later page's chunk lacks the names only page 1 says (a contract's
parties). Each chunk past the first gets a head (its document's name and the
capitalised words of the first chunk's opening) in its metadata, and one more window
vector, the head then the chunk's opening (recall/doc_windows.py), which the dense leg
pools like any window. The chunk's text stays verbatim and its own vector unchanged."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from pdf_maker import pdf_bytes

PAGE_1 = (
    "CONSULTING SERVICES AGREEMENT\n"
    "This agreement is made on 3 November 2026 between Northwind Analytics Ltd\n"
    "(the Client) and Dana Whitfield (the Consultant). The Consultant will review\n"
    "the churn models, interview staff and deliver a written report with advice."
)
PAGE_2 = (
    "Invoicing and payment\n"
    "The Consultant will invoice at the end of each calendar month for the days\n"
    "worked in that month. The Client will pay each invoice within thirty days of\n"
    "receiving it. Late payments carry interest at four percent above base rate."
)
QUERY = "Northwind Analytics Ltd invoice"


@pytest.fixture
def mem(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder(dimension=512)) as m:
        yield m


def _chunks(mem: Memory) -> list[str]:
    doc = mem.documents.ingest(
        data=pdf_bytes([PAGE_1, PAGE_2]), filename="contract.pdf", user_id="ana"
    )
    done = mem.documents.process(doc.id, user_id="ana")
    assert done.status == "done" and done.chunk_count == 2
    return [c.memory_id for c in mem.documents.chunks(done.id, user_id="ana")]


def test_a_later_page_carries_its_documents_names(mem: Memory) -> None:
    first, second = (mem.get(i, user_id="ana") for i in _chunks(mem))
    assert first is not None and second is not None
    assert "document_head" not in first.metadata  # page 1 says them itself
    head = second.metadata["document_head"]
    assert head.startswith("contract.pdf CONSULTING SERVICES AGREEMENT")
    assert "Northwind Analytics Ltd" in head and "Dana Whitfield" in head
    assert len(head) <= 200
    assert "Northwind" not in second.content  # the chunk's text stays the page's


def test_a_question_naming_the_party_finds_the_later_page(mem: Memory) -> None:
    _, page_2 = _chunks(mem)
    recall = mem.recall(QUERY, user_id="ana", limit=4, abstain=False)
    (hit,) = [h for h in recall.hits if h.id == page_2]
    record = mem.get(page_2, user_id="ana")
    assert record is not None
    embedder = mem._core.embedder
    assert embedder is not None
    own = float(np.dot(*embedder.embed_batch([QUERY, record.embedding_text()])))
    # The page's own vector lacks "northwind"; its head window holds it.
    assert hit.breakdown.dense is not None and hit.breakdown.dense > own + 0.05
