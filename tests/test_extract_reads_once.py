"""The extract job reads the write path's relations from the graph, not by running the
closing plan again (session thirty-five, the lead).

The closing plan writes as it reads (``change_left.held_until_now`` records a value held
until the change it reads, and ends it), so the job's second run of it on the same memory
recorded those values again, against the graph as it then was: conflict38's merge
recorded a ``swim_in evenings`` beside the write path's closed ``swim_when evenings``.
Both backends (``mem``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engram import Memory
from engram.pipeline import extract_job

SAID = (
    "My mother lives in Hull.",
    "Mum moved to Whitby.",
    "I swim in the evenings.",
    "I swim in the mornings now.",
)


def _counted(mem: Memory, calls: list[str]) -> Callable[..., Any]:
    closer = mem._core.closer
    assert closer is not None

    def counted(store: Any, namespace: str, text: str, statement: Any) -> Any:
        calls.append(text)
        return closer(store, namespace, text, statement)

    return counted


def test_the_job_runs_no_closing_plan_of_its_own(mem: Memory) -> None:
    calls: list[str] = []
    mem._core.closer = _counted(mem, calls)
    for text in SAID:
        mem.add(text, user_id="dana")
        written = len(calls)
        assert written >= 1  # the write path planned it
        mem.jobs.process_pending()
        assert len(calls) == written, calls[written:]  # the job planned nothing again


def test_the_job_reads_what_the_write_path_recorded(mem: Memory) -> None:
    record = mem.add("I swim in the evenings.", user_id="dana")
    core = mem._core
    source = core.store.memories.get_many(record.namespace, [record.id])[record.id]
    read = {(s, r, t) for s, r, t, _ in extract_job.inline_reading(core, source)}
    assert ("user", "swim_when", "evenings") in read
    stated = {
        (r.source, r.relation_type, r.target)
        for r in mem.graph.relations(current_only=False, user_id="dana")
        if r.source_memory_id == record.id
    }
    assert read == stated
