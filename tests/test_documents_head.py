"""A document chunk knows which document it is in (round twenty-four): a PDF is cut
page by page, so a page's chunk seldom names what page 1 names (a contract's parties, a
paper's title); the document's name and opening are embedded and keyword-indexed with
every later chunk, while the chunk's content stays as the document says it."""

from __future__ import annotations

from pathlib import Path

from engram import Memory
from engram.records import DOCUMENT_HEAD_KEY, MemoryRecord, MemoryType
from pdf_maker import pdf_bytes

ALICE = "user:alice"
PAGES = [
    "SERVICES AGREEMENT between Northwind Analytics Ltd (the Client) and Whitfield "
    "Research (the Consultant). The Consultant reviews the churn models.",
    "Invoicing. The Client pays each invoice within thirty days of receiving it. Late "
    "payments carry interest at four percent above the base rate.",
    "Termination. Either party may end this agreement with twenty days written notice "
    "to the other party, sent to its registered office address.",
]


def chunks_of(mem: Memory, tmp_path: Path) -> list[MemoryRecord]:
    path = tmp_path / "contract.pdf"
    path.write_bytes(pdf_bytes(PAGES))
    doc = mem.documents.ingest(path=str(path), namespace=ALICE)
    assert mem.documents.process(doc.id, namespace=ALICE).status == "done"
    return [
        mem.get(c.memory_id, namespace=ALICE) for c in mem.documents.chunks(doc.id, namespace=ALICE)
    ]


def test_a_pages_chunk_is_found_by_the_party_its_first_page_names(
    small_docs: Memory, tmp_path: Path
) -> None:
    chunks = chunks_of(small_docs, tmp_path)
    assert [c.content for c in chunks] == PAGES  # verbatim: no head in the text
    hits = small_docs.search("Northwind", namespace=ALICE, strategy="bm25")
    found = {h.memory.id for h in hits}
    # Page 2 and page 3 never say "Northwind"; their document's opening does.
    assert {c.id for c in chunks} <= found


def test_the_head_is_the_documents_name_and_opening_embedded_first(
    small_docs: Memory, tmp_path: Path
) -> None:
    first, second, _ = chunks_of(small_docs, tmp_path)
    # The first chunk holds the opening already: its head is the file's name alone.
    assert first.metadata[DOCUMENT_HEAD_KEY] == "contract.pdf"
    head = second.metadata[DOCUMENT_HEAD_KEY]
    assert head.startswith("contract.pdf SERVICES AGREEMENT between Northwind Analytics")
    assert len(head) <= 200 and PAGES[0].startswith(head.removeprefix("contract.pdf "))
    assert second.embedding_text() == f"{head}\n{PAGES[1]}"
    assert head in second.tags


def test_a_memory_that_is_no_chunk_embeds_as_before() -> None:
    record = MemoryRecord(
        id="m1",
        namespace=ALICE,
        content="I pay invoices on Fridays",
        content_hash="h",
        type=MemoryType.FACT,
        metadata={DOCUMENT_HEAD_KEY: "contract.pdf Northwind"},
    )
    assert record.embedding_text() == "I pay invoices on Fridays"
