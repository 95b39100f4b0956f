"""Round twenty of the new-user pass: a researcher's vault ingested again and again.
A note ingested a second time as it is stores nothing new; an edited note replaces its
earlier chunks (the old text leaves recall, its history stays); both backends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, Memory

ALICE = "user:alice"
NOTE = (
    "---\ntitle: Supervisor meetings\ntags: [admin]\n---\n# Supervisor meetings\n\n"
    "I meet Professor Okafor every second Tuesday at 2 pm in her office, room 3.12.\n"
)


@pytest.fixture
def docs(config: Config, store_location: str) -> Iterator[Memory]:
    cfg = config.with_overrides(documents={"chunk_size": 200, "chunk_overlap": 20})
    with Memory(store_location, config=cfg, embedder=HashEmbedder()) as m:
        yield m


def ingested(mem: Memory, path: Path, **kw: str) -> str:
    doc = mem.documents.ingest(path=path, namespace=ALICE, **kw)
    return mem.documents.process(doc.id, namespace=ALICE).id


def test_an_unchanged_file_ingested_again_stores_nothing(docs: Memory, tmp_path: Path) -> None:
    note = tmp_path / "Supervisor meetings.md"
    note.write_text(NOTE, encoding="utf-8")
    first = ingested(docs, note)
    again = docs.documents.ingest(path=note, namespace=ALICE)
    assert again.id == first and again.status == "done"
    assert docs.documents.count(namespace=ALICE) == 1
    assert sum(docs.jobs.counts(kind="document_ingest", namespace=ALICE).values()) == 1
    # A new title is a change the caller asked for: it is ingested again.
    titled = docs.documents.ingest(path=note, title="Meetings", namespace=ALICE)
    assert titled.id != first and titled.status == "queued"


def test_an_edited_file_replaces_its_earlier_chunks(docs: Memory, tmp_path: Path) -> None:
    note = tmp_path / "Supervisor meetings.md"
    tail = " ".join(
        f"Agenda item {i}: read the chapter draft and bring questions." for i in range(6)
    )
    # The fact ends the note, so the windows before it are cut the same way both times.
    note.write_text(tail + "\n" + NOTE, encoding="utf-8")
    first = ingested(docs, note)
    old_chunks = docs.documents.chunks(first, namespace=ALICE)
    assert len(old_chunks) > 2
    note.write_text(
        tail
        + "\n"
        + NOTE.replace("every second Tuesday at 2 pm in her office, room 3.12", "every Thursday"),
        encoding="utf-8",
    )
    second = ingested(docs, note)
    assert [d.id for d in docs.documents.list(namespace=ALICE)] == [second]
    texts = [r.content for r in docs.get_all(namespace=ALICE)]
    assert not any("room 3.12" in t for t in texts)
    assert any("every Thursday" in t for t in texts)
    kept = {c.memory_id for c in docs.documents.chunks(second, namespace=ALICE)}
    for chunk in old_chunks:
        if chunk.memory_id in kept:  # the unchanged text: one memory, now the new document's
            record = docs.get(chunk.memory_id, namespace=ALICE)
            assert record.document_id == second and record.metadata["document_id"] == second
        else:  # the edited text left recall; its history stays
            events = [h.event for h in docs.history(chunk.memory_id, namespace=ALICE)]
            assert events[-1] == "delete"
    old_ids = {c.memory_id for c in old_chunks}
    assert old_ids & kept and old_ids - kept  # some chunks moved, the edited one went
    hits = docs.recall("when do I meet Professor Okafor?", namespace=ALICE, min_relevance=0)
    assert not any("room 3.12" in h.memory.content for h in hits.hits)
    # Deleting the new document takes every chunk with it, the moved ones too.
    docs.documents.delete(second, namespace=ALICE)
    assert docs.get_all(namespace=ALICE) == []


def test_deleting_a_renamed_notes_old_document_keeps_the_new_ones_text(
    docs: Memory, tmp_path: Path
) -> None:
    old = tmp_path / "Home office.md"
    old.write_text(NOTE, encoding="utf-8")
    first = ingested(docs, old)
    new = old.rename(tmp_path / "Printer.md")
    second = ingested(docs, new)
    [chunk] = docs.documents.chunks(second, namespace=ALICE)
    # The renamed note's text is the memory the first document stored: linked, not copied.
    assert [c.memory_id for c in docs.documents.chunks(first, namespace=ALICE)] == [chunk.memory_id]
    docs.documents.delete(first, namespace=ALICE)
    record = docs.get(chunk.memory_id, namespace=ALICE)  # still there, now the new note's
    assert record.document_id == second and record.metadata["document_id"] == second
    assert [c.memory_id for c in docs.documents.chunks(second, namespace=ALICE)] == [record.id]
    docs.documents.delete(second, namespace=ALICE)
    assert docs.get_all(namespace=ALICE) == []
