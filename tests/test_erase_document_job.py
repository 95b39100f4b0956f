"""A document-ingest job running while an erase takes its namespace is swept (left42;
pass40 noted it): the job reads its document, then writes the chunks as memories with
no transaction open; an erase that commits in between cannot see them, and the chunks
("Priya's returns address: 12 Elm Row") stayed in the erased namespace. The worker's
sweep took only jobs with a memory id."""

from __future__ import annotations

from typing import Any

import pytest

from engram import Memory
from engram.pipeline import documents

TEXT = "Priya's returns address is 12 Elm Row, Leeds. Her order number is 40-7781."


def _ingest_erased_before(mem: Memory, monkeypatch: pytest.MonkeyPatch, step: str) -> None:
    """Ingest ``TEXT`` for priya and run the job, an erase of priya's namespace
    committing just before the job's ``documents.<step>`` runs."""
    original = getattr(documents, step)

    def erase_then(*args: Any, **kwargs: Any) -> Any:
        mem.erasure.erase(user_id="priya", actor="dpo")
        return original(*args, **kwargs)

    monkeypatch.setattr(documents, step, erase_then)
    mem.documents.ingest(TEXT, title="returns", user_id="priya")
    mem.jobs.process_pending()


def test_chunks_a_running_ingest_writes_after_the_erase_are_erased(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    mem.add("Bob likes oolong tea", user_id="bob")
    _ingest_erased_before(mem, monkeypatch, "add_batch")
    left = mem.get_all(user_id="priya", include_deleted=True, limit=100)
    assert [r.content for r in left] == []
    assert mem.search("Elm Row", user_id="priya") == []
    sweeps = [a for a in mem.erasure.audit(user_id="priya") if a.actor == "pipeline"]
    assert sweeps and sweeps[0].memories >= 1
    assert list(sweeps[0].filters) == ["document_id"]  # an opaque id, as a memory sweep's
    assert [r.content for r in mem.get_all(user_id="bob")] == ["Bob likes oolong tea"]


def test_an_ingest_with_no_erase_keeps_its_chunks(mem: Memory) -> None:
    mem.documents.ingest(TEXT, title="returns", user_id="priya")
    mem.jobs.process_pending()
    assert any("Elm Row" in r.content for r in mem.get_all(user_id="priya"))
    assert [a for a in mem.erasure.audit(user_id="priya")] == []


def test_an_erase_before_any_chunk_was_written_audits_nothing_more(
    mem: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The erase commits after the job read its document but before it wrote a chunk:
    the sweep finds no chunk, so it erases nothing and writes no audit row of 0 (tidy43;
    the erase's own row is the only one)."""
    _ingest_erased_before(mem, monkeypatch, "extract")
    assert mem.get_all(user_id="priya", include_deleted=True, limit=100) == []
    assert [a.actor for a in mem.erasure.audit(user_id="priya")] == ["dpo"]
