"""``mem.jobs`` on both backends, its async twin, and the handler registry's contract.

Handlers are registered through the real seams: the default registry (``register``,
restored after each test) or a ``Registry`` of the test's own.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from engram import AsyncMemory, Config, Memory, NotFoundError
from engram.core import Core
from engram.errors import InvalidInputError
from engram.jobs import Job, JobPage
from engram.pipeline import handlers as registry_module
from engram.pipeline.handlers import HANDLERS, Handler, Registry

Use = Callable[[str, Handler], None]


@pytest.fixture
def quiet(config: Config, store_location: str) -> Iterator[Memory]:
    """A memory on each backend whose writes queue no pipeline jobs: the tests queue
    exactly the jobs they look at."""
    quiet_config = config.with_overrides(pipeline={"enabled": False})
    with Memory(store_location, config=quiet_config, embedder=None) as m:
        yield m


def _queue(mem: Memory) -> dict[str, Job]:
    jobs = mem.store.jobs
    a = jobs.enqueue("extract", "user:a", memory_id="a1")
    b = jobs.enqueue("extract", "user:b", memory_id="b1", max_attempts=1)
    jobs.enqueue("hints", "user:a", memory_id="a1")
    leased = jobs.lease(["extract"], now=b.created_at)  # a (oldest) is leased ...
    assert leased is not None and leased.id == a.id
    jobs.complete(a.id, {"facts": 1}, now=b.created_at)
    leased = jobs.lease(["extract"], now=b.created_at)  # ... then b, which dies
    assert leased is not None and leased.id == b.id
    dead = jobs.fail(b.id, "LlmError: down", now=b.created_at, retry_at=b.created_at)
    return {"a": a, "b": dead}


def test_list_filters_scopes_and_pages(quiet: Memory) -> None:
    queued = _queue(quiet)
    page = quiet.jobs.list()
    assert isinstance(page, JobPage) and page.total == 3 and len(page) == 3
    assert [j.kind for j in page] == ["hints", "extract", "extract"]  # newest first
    assert page.to_dict().keys() == {"items", "total", "limit", "offset"}
    assert page[0].kind == "hints" and page.to_dict()["items"][2]["id"] == queued["a"].id
    mine = quiet.jobs.list(user_id="a", kind="extract")
    assert [j.id for j in mine] == [queued["a"].id] and mine.total == 1
    dead = quiet.jobs.list(status="dead")
    assert [j.id for j in dead] == [queued["b"].id]
    first = quiet.jobs.list(limit=1, offset=1)
    assert len(first) == 1 and first.total == 3 and first.to_dict()["offset"] == 1
    with pytest.raises(InvalidInputError):
        quiet.jobs.list(status="exploded")
    with pytest.raises(InvalidInputError):
        quiet.jobs.list(limit=0)


def test_get_and_retry_stay_inside_the_namespace_asked_for(quiet: Memory) -> None:
    queued = _queue(quiet)
    bob = queued["b"]
    assert quiet.jobs.get(bob.id).status == "dead"  # the operator's view: any namespace
    assert quiet.jobs.get(bob.id, user_id="b") == bob
    with pytest.raises(NotFoundError):
        quiet.jobs.get(bob.id, user_id="a")
    with pytest.raises(NotFoundError):
        quiet.jobs.retry(bob.id, user_id="a")
    with pytest.raises(InvalidInputError):
        quiet.jobs.get("1")  # type: ignore[arg-type]
    revived = quiet.jobs.retry(bob.id, user_id="b")
    assert (revived.status, revived.attempts) == ("pending", 0)
    assert quiet.jobs.counts(user_id="b") == {"pending": 1, "leased": 0, "completed": 0, "dead": 0}


def test_process_pending_runs_jobs_through_the_registered_handlers(
    quiet: Memory, use_handler: Use
) -> None:
    record = quiet.add("Carol moved to Lisbon in May", user_id="c")
    ran: list[str | None] = []

    def extract(core: Core, job: Job) -> Mapping[str, Any]:
        ran.append(job.memory_id)
        memory = core.store.memories.get(job.namespace, job.memory_id or "")
        return {"chars": len(memory.content) if memory else 0}

    def classify(core: Core, job: Job) -> Mapping[str, Any]:
        raise ValueError("no aspects yet")

    use_handler("extract", extract)
    use_handler("classify", classify)
    job = quiet.store.jobs.enqueue("extract", record.namespace, memory_id=record.id)
    failing = quiet.store.jobs.enqueue("classify", record.namespace, memory_id=record.id)
    assert quiet.jobs.process_pending() == 2
    assert ran == [record.id]
    assert quiet.jobs.get(job.id).result == {"chars": len(record.content)}
    waiting = quiet.jobs.get(failing.id)
    assert (waiting.status, waiting.error) == ("pending", "ValueError: no aspects yet")
    assert quiet.jobs.process_pending() == 0  # the failed job backs off


def test_status_reports_counts_the_worker_and_the_last_failure(quiet: Memory) -> None:
    queued = _queue(quiet)
    report = quiet.jobs.status()
    assert report["counts"] == {"pending": 1, "leased": 0, "completed": 1, "dead": 1}
    assert report["kinds"]["extract"] == {"pending": 0, "leased": 0, "completed": 1, "dead": 1}
    assert {"extract", "hints", "document_ingest", "classify"} <= set(report["kinds"])
    assert report["worker"]["running"] is False
    assert report["last_error"]["job_id"] == queued["b"].id
    assert report["last_error"]["error"] == "LlmError: down"
    theirs = quiet.jobs.status(user_id="a")
    assert theirs["namespace"] == "user:a" and theirs["last_error"] is None
    assert theirs["counts"]["completed"] == 1 and theirs["counts"]["dead"] == 0
    quiet.jobs.start()
    try:
        assert quiet.jobs.status()["worker"]["running"] is True
        assert set(quiet.jobs.status(user_id="a")["worker"]) == {"running"}
    finally:
        quiet.jobs.stop()


def test_add_queues_the_pipeline_jobs_with_the_memory(mem: Memory) -> None:
    record = mem.add("Dana prefers the window seat on long flights", user_id="dana")
    queued = mem.jobs.list(user_id="dana")
    assert {j.memory_id for j in queued} == {record.id}
    assert "extract" in {j.kind for j in queued}
    assert all(j.status == "pending" for j in queued)
    mem.add("Dana prefers the window seat on long flights", user_id="dana")  # a duplicate
    assert mem.jobs.list(user_id="dana").total == queued.total


def test_async_memory_has_the_jobs_part(config: Config) -> None:
    async def scenario() -> tuple[int, bool]:
        async with AsyncMemory(":memory:", config=config, embedder=None) as amem:
            assert amem.jobs.sync is amem.sync.jobs
            amem.sync.store.jobs.enqueue("extract", "default", memory_id="m1")
            page = await amem.jobs.list()
            return page.total, amem.jobs.running

    assert asyncio.run(scenario()) == (1, False)


# -- the handler registry ----------------------------------------------------------------


def test_the_default_registry_loads_the_built_in_handler_modules() -> None:
    assert registry_module.HANDLER_MODULES[0] == "engram.pipeline.extract_job"
    found = HANDLERS.handler_for("document_ingest")  # imports the modules that exist
    documents = sys.modules["engram.pipeline.documents"]
    assert found is documents.ingest_document
    assert HANDLERS.handler_for("no-such-kind") is None


def _plugins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prefix: str, kinds: list[str]
) -> None:
    """Importable modules ``<prefix>_target`` (its ``current`` is the registry under
    test) and ``<prefix>_builtin``, which registers ``builtin`` for ``kinds`` on import."""
    target = f"{prefix}_target"
    (tmp_path / f"{target}.py").write_text("current = None\n")
    registers = "".join(f"{target}.current.register({k!r}, builtin)\n" for k in kinds)
    (tmp_path / f"{prefix}_builtin.py").write_text(
        f"import {target}\ndef builtin(core, job):\n    return {{'by': 'builtin'}}\n{registers}"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in (target, f"{prefix}_builtin"):
        monkeypatch.delitem(sys.modules, name, raising=False)


def test_a_built_in_imported_before_the_first_lookup_comes_back_after_unregister(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The docs' jobs example (register, run, unregister) left the default registry with
    # no "extract" handler when engram.pipeline.extract_job had been imported before the
    # registry's first lookup: its import-time register looked like a caller's.
    _plugins(tmp_path, monkeypatch, "jobs_early", ["extract"])
    import jobs_early_target  # type: ignore[import-not-found]

    registry = Registry(["jobs_early_builtin"])
    jobs_early_target.current = registry
    import jobs_early_builtin  # type: ignore[import-not-found]  # before any lookup

    def mine(core: Core, job: Job) -> Mapping[str, Any]:
        return {"by": "me"}

    assert registry.register("extract", mine) is jobs_early_builtin.builtin
    assert registry.handler_for("extract") is mine
    assert registry.unregister("extract") is mine
    assert registry.handler_for("extract") is jobs_early_builtin.builtin
    # A caller putting the built-in back (as a fixture restores what it replaced) is
    # obeyed like any other register.
    registry.register("extract", mine)
    assert registry.register("extract", jobs_early_builtin.builtin) is mine
    assert registry.handler_for("extract") is jobs_early_builtin.builtin
    for name in ("jobs_early_target", "jobs_early_builtin"):
        sys.modules.pop(name, None)


def test_registry_modules_load_lazily_and_never_replace_a_callers_handler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _plugins(tmp_path, monkeypatch, "jobs_plug", ["extract", "hints"])
    (tmp_path / "jobs_plug_broken.py").write_text("raise RuntimeError('half written')\n")
    monkeypatch.delitem(sys.modules, "jobs_plug_broken", raising=False)
    import jobs_plug_target  # type: ignore[import-not-found]

    registry = Registry(["jobs_plug_missing", "jobs_plug_builtin", "jobs_plug_broken"])
    jobs_plug_target.current = registry

    def mine(core: Core, job: Job) -> Mapping[str, Any]:
        return {"by": "me"}

    assert registry.register("extract", mine) is None  # before the modules load
    assert "jobs_plug_builtin" not in sys.modules  # nothing is imported until a lookup
    assert registry.handler_for("extract") is mine  # the built-in did not replace it
    assert registry.kinds() == ("extract", "hints")
    assert registry.load_errors == {"jobs_plug_broken": "RuntimeError: half written"}
    assert registry.unregister("extract") is mine
    builtin = registry.handler_for("extract")
    assert builtin is not None and builtin.__name__ == "builtin"  # it takes over again
    assert registry.register("hints", mine) is builtin  # a later caller replaces it
    with pytest.raises(ValueError):
        registry.register("", mine)
    for name in ("jobs_plug_target", "jobs_plug_builtin"):
        sys.modules.pop(name, None)
