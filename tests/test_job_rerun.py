"""A job that runs again after its worker was killed writes no history twice (engram
issue 26, item 6), on both backends.

The kill is simulated where it hurts: after the handler's writes, before the job is
finished. The lease then expires, the reaper returns the job to the queue, and the
next attempt makes the same writes again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from datetime import timedelta
from typing import Any

import pytest

from engram import Config, Memory
from engram.core import Core
from engram.jobs import Job
from engram.pipeline.handlers import Registry
from engram.pipeline.worker import Worker
from engram.records import utcnow
from engram.write import add_batch


class Killed(BaseException):
    """The worker process dying: nothing in the worker catches it."""


@pytest.fixture
def quiet(config: Config, store_location: str) -> Iterator[Memory]:
    with Memory(
        store_location, config=config.with_overrides(pipeline={"enabled": False}), embedder=None
    ) as m:
        yield m


def _events(mem: Memory, memory_id: str) -> Counter[str]:
    return Counter(h.event for h in mem.history(memory_id, user_id="c"))


def test_a_job_rerun_after_a_kill_writes_no_history_row_twice(quiet: Memory) -> None:
    source = quiet.add("Carol moved to Lisbon in May and works at the harbour", user_id="c")
    runs: list[int] = []

    def extract(core: Core, job: Job) -> Mapping[str, Any]:
        # What the extract job writes: a proposal audit row on its source, and a fact
        # memory (on a re-run the same fact is a duplicate: a "dedup" history row).
        runs.append(job.attempts)
        for action in ("ADD", "NONE"):
            core.store.audit.record(
                job.namespace,
                source.id,
                "proposal",
                payload={"action": action},
                actor="pipeline",
                reason=f"{action}: recorded",
                now=utcnow(),
            )
        add_batch(core, ["Carol lives in Lisbon"], namespace=job.namespace, enqueue=False)
        if len(runs) == 1:
            raise Killed  # after the writes, before the job is finished
        return {"facts": 1}

    handlers = Registry()
    handlers.register("extract", extract)
    core = quiet._core
    job = quiet.store.jobs.enqueue("extract", source.namespace, memory_id=source.id)
    worker = Worker(core, ["extract"], handlers=handlers)
    with pytest.raises(Killed):
        worker.run_once()
    assert quiet.jobs.get(job.id, user_id="c").status == "leased"
    later = utcnow() + timedelta(seconds=core.config.worker.lease_timeout_s + 60)
    revived = Worker(core, ["extract"], handlers=handlers, clock=lambda: later)
    assert revived.reap() == 1
    finished = revived.run_once()
    assert finished is not None and finished.status == "completed"
    assert runs == [1, 2]  # the second attempt ran the same writes again
    assert _events(quiet, source.id) == {"create": 1, "proposal": 2}
    [fact] = [r for r in quiet.get_all(user_id="c") if r.content == "Carol lives in Lisbon"]
    assert _events(quiet, fact.id) == {"create": 1}


def test_history_written_outside_a_job_is_never_deduplicated(quiet: Memory) -> None:
    record = quiet.add("the same content twice", user_id="c")
    quiet.add("the same content twice", user_id="c")
    quiet.add("the same content twice", user_id="c")
    assert _events(quiet, record.id) == {"create": 1, "dedup": 2}
