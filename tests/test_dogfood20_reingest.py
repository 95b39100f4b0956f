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
