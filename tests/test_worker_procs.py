"""Worker processes sharing one store (a SQLite file, or PostgreSQL): every job runs
exactly once, and a job whose worker is SIGKILLed mid-run is reaped once its lease
times out, then finished exactly once.

The workers are real processes running this file (``python test_worker_procs.py ...``);
their handler appends one line per run to a shared log, so the log is the record of
what ran where.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from engram import Config
from engram.core import Core
from engram.pipeline.handlers import Registry
from engram.pipeline.worker import Worker
from engram.store import open_store
from engram.store.protocols import Job

#: Jobs the two processes share.
JOBS = 200


def _append(log: Path, line: str) -> None:
    # One short O_APPEND write per line: lines from two processes never interleave.
    with log.open("a", encoding="utf-8") as out:
        out.write(line + "\n")


def _wait_for(predicate: Any, seconds: float = 20.0) -> bool:
    """Poll ``predicate`` (a real process is involved, so real time passes)."""
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def child(mode: str, location: str, home: str, workdir: str) -> None:
    """A worker process: ``drain`` runs jobs until none is runnable; ``block`` leases
    one job and blocks in its handler until it is killed."""
    work = Path(workdir)
    log = work / "runs.log"
    pid = os.getpid()
    config = Config.load(env={}, home=home)
    core = Core(config, open_store(location, config), None)
    handlers = Registry()

    def drain(core: Core, job: Job) -> Mapping[str, Any]:
        _append(log, f"run {job.id} {pid}")
        return {"pid": pid}

    def block(core: Core, job: Job) -> Mapping[str, Any]:
        _append(log, f"start {job.id} {pid}")
        (work / "started").write_text(str(job.id))
        _wait_for(lambda: (work / "release").exists(), seconds=120)  # never released
        _append(log, f"finish {job.id} {pid}")
        return {}

    handlers.register("extract", drain if mode == "drain" else block)
    try:
        if mode == "drain":
            (work / f"ready-{pid}").touch()
            # Start together, so the two workers really compete for the jobs.
            _wait_for(lambda: len(list(work.glob("ready-*"))) >= 2)
            Worker(core, handlers=handlers).run_pending()
        else:
            Worker(core, handlers=handlers).run_once()
    finally:
        core.close()


def spawn(mode: str, location: str, home: Path, workdir: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, __file__, mode, location, str(home), str(workdir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_worker_processes_run_every_job_exactly_once(
    reopenable: str, config: Config, tmp_path: Path
) -> None:
    store = open_store(reopenable, config)
    try:
        ids = [store.jobs.enqueue("extract", "default", memory_id=f"m{i}").id for i in range(JOBS)]
        workers = [spawn("drain", reopenable, tmp_path / "home", tmp_path) for _ in range(2)]
        for proc in workers:
            _, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
        runs = [line.split() for line in (tmp_path / "runs.log").read_text().splitlines()]
        ran = Counter(int(job_id) for _, job_id, _ in runs)
        assert sorted(ran) == sorted(ids)  # none lost
        assert set(ran.values()) == {1}  # none twice
        pids = {pid for _, _, pid in runs}
        assert pids == {str(p.pid) for p in workers}  # both took part
        assert store.jobs.counts() == {"pending": 0, "leased": 0, "completed": JOBS, "dead": 0}
        by_job = {int(job_id): int(pid) for _, job_id, pid in runs}
        for job in store.jobs.select(limit=JOBS):
            assert job.result == {"pid": by_job[job.id]} and job.attempts == 1
    finally:
        store.close()


def test_a_killed_workers_job_is_reaped_and_finished_exactly_once(
    reopenable: str, config: Config, tmp_path: Path
) -> None:
    store = open_store(reopenable, config)
    core = Core(config, store, None)
    try:
        stuck = store.jobs.enqueue("extract", "default", memory_id="m1")
        other = store.jobs.enqueue("extract", "default", memory_id="m2")
        proc = spawn("block", reopenable, tmp_path / "home", tmp_path)
        try:
            started = _wait_for(lambda: (tmp_path / "started").exists(), seconds=30)
            assert started, proc.stderr.read() if proc.poll() is not None else "no start"
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        held = store.jobs.get(stuck.id)
        assert held is not None and (held.status, held.attempts) == ("leased", 1)

        log = tmp_path / "runs.log"
        finished: list[int] = []

        def finish(core: Core, job: Job) -> Mapping[str, Any]:
            finished.append(job.id)
            _append(log, f"finish {job.id} parent")
            return {"by": "parent"}

        handlers = Registry()
        handlers.register("extract", finish)
        assert held.leased_at is not None
        clock = [held.leased_at]  # the tests' clock starts at the dead worker's lease
        worker = Worker(core, clock=lambda: clock[0], handlers=handlers)
        # Within the lease timeout the dead worker's job stays leased: only m2 runs.
        assert worker.run_pending() == 1 and finished == [other.id]
        clock[0] += timedelta(seconds=config.worker.lease_timeout_s)
        assert worker.run_pending() == 0  # exactly the timeout: not stale yet
        clock[0] += timedelta(seconds=1)
        assert worker.run_pending() == 1 and finished == [other.id, stuck.id]
        done = store.jobs.get(stuck.id)
        assert done is not None and (done.status, done.attempts) == ("completed", 2)
        assert done.result == {"by": "parent"}
        assert log.read_text().splitlines() == [
            f"start {stuck.id} {proc.pid}",
            f"finish {other.id} parent",
            f"finish {stuck.id} parent",
        ]
        assert worker.run_pending() == 0
    finally:
        core.close()


if __name__ == "__main__":
    child(*sys.argv[1:5])
