"""Round twenty-six of the new-user pass (docs/benchmarks.md, docs/documents.md): a PDF
is cut page by page, so a later page's chunk lacks the names only page 1 says (a
contract's parties). Each chunk past the first carries a head (its document's name and
page 1's names) and one more vector, the head then the chunk's opening
(recall/doc_heads.py), which the dense leg reads only for a question that names a word
of the head or of the file's name; any other question ranks as before."""

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
    "(the Client) and Dana Whitfield (the Consultant). Keep this copy. The Consultant\n"
    "will review the churn models, interview staff and deliver a written report."
)
PAGE_2 = (
    "Invoicing and payment\n"
    "The Consultant will invoice at the end of each calendar month for the days\n"
    "worked in that month. The Client will pay each invoice within thirty days of\n"
    "receiving it. Late payments carry interest at four percent above base rate."
)


@pytest.fixture
def mem(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(store_location, config=config, embedder=HashEmbedder(dimension=512)) as m:
        yield m


def _pages(mem: Memory) -> list[str]:
    doc = mem.documents.ingest(
        data=pdf_bytes([PAGE_1, PAGE_2]), filename="contract.pdf", user_id="ana"
    )
    done = mem.documents.process(doc.id, user_id="ana")
    assert done.status == "done" and done.chunk_count == 2
    return [c.memory_id for c in mem.documents.chunks(done.id, user_id="ana")]


def _dense_and_own(mem: Memory, query: str, memory_id: str) -> tuple[float, float]:
    recall = mem.recall(query, user_id="ana", limit=4, abstain=False)
    (hit,) = [h for h in recall.hits if h.id == memory_id]
    record = mem.get(memory_id, user_id="ana")
    embedder = mem._core.embedder
    assert record is not None and embedder is not None and hit.breakdown.dense is not None
    own = float(np.dot(*embedder.embed_batch([query, record.embedding_text()])))
    return hit.breakdown.dense, own


def test_a_later_page_carries_page_ones_names_not_its_openers(mem: Memory) -> None:
    first, second = (mem.get(i, user_id="ana") for i in _pages(mem))
    assert first is not None and second is not None
    assert "document_head" not in first.metadata  # page 1 says them itself
    head = second.metadata["document_head"]
    assert head.startswith("contract.pdf CONSULTING SERVICES AGREEMENT")
    assert "Northwind Analytics Ltd" in head and "Dana Whitfield" in head
    # A sentence's first word and a clause's opener name nothing (round twenty-five).
    assert not {"This", "Keep", "The"} & set(head.split())
    assert len(head) <= 200
    assert "Northwind" not in second.content  # the chunk's text stays the page's


def test_page_ones_names_end_at_a_word() -> None:
    from engram.pipeline.chunk_source import HEAD_CHARS, page_names

    text = "Report " + "x" * (HEAD_CHARS - 12) + " Albarino grapes"
    assert page_names(text) == []  # "Albarino" is cut off whole, not as "Alba"
    assert page_names("ACME Ltd. Then Quay Street") == ["ACME", "Ltd", "Quay", "Street"]


def test_a_question_naming_the_party_reads_the_head_window(mem: Memory) -> None:
    _, page_2 = _pages(mem)
    dense, own = _dense_and_own(mem, "When must Northwind pay an invoice?", page_2)
    # The page's own vector lacks "northwind"; its head window holds it.
    assert dense > own + 0.01  # on main: its own cosine


def test_a_question_naming_the_file_reads_the_head_window(mem: Memory) -> None:
    _, page_2 = _pages(mem)
    dense, own = _dense_and_own(mem, "Dana Whitfield contract invoice", page_2)
    assert dense > own + 0.01  # on main: its own cosine


def test_a_question_naming_nothing_of_the_document_ranks_as_before(mem: Memory) -> None:
    _, page_2 = _pages(mem)
    dense, own = _dense_and_own(mem, "How much interest do late payments carry?", page_2)
    assert dense == pytest.approx(own, abs=1e-4)


def test_reindex_gives_chunks_ingested_before_their_head(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    import engram.pipeline.documents as documents

    with monkeypatch.context() as patch:  # ingested as before round twenty-six
        patch.setattr(documents, "document_head", lambda *_: None)
        _, page_2 = _pages(mem)
    query = "When must Northwind pay an invoice?"
    record = mem.get(page_2, user_id="ana")
    assert record is not None and "document_head" not in record.metadata
    dense, own = _dense_and_own(mem, query, page_2)
    assert dense == pytest.approx(own, abs=1e-4)
    mem.reindex()
    record = mem.get(page_2, user_id="ana")
    assert record is not None
    assert record.metadata["document_head"].startswith("contract.pdf CONSULTING")
    assert "Northwind" not in record.content
    dense, own = _dense_and_own(mem, query, page_2)
    assert dense > own + 0.01
