"""``engram doctor`` of a grown store (new-user pass, round twelve): it showed the
memories, vectors and index but not the job queue, so a chat mined with no worker
running (its facts, graph relations and hints not made yet) or jobs that died looked
like a healthy store; ``engram jobs`` is one namespace at a time."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli
from engram import Memory


def test_doctor_counts_the_jobs_of_every_namespace_by_status(mem: Memory) -> None:
    mem.add("Our electricity supplier is Octopus.", user_id="dana")
    mem.add("Deploys are frozen on Fridays.", namespace="team")
    jobs = mem.admin.doctor()["jobs"]
    assert jobs["pending"] == 2
    assert jobs["dead"] == 0
    assert sum(jobs.values()) == 2
    mem.jobs.process_pending()
    after = mem.admin.doctor()["jobs"]
    assert after["pending"] == 0
    assert after["completed"] == 2


def test_the_cli_prints_the_queue(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run_cli(home, "add", "Our electricity supplier is Octopus.").exit_code == 0
    said = run_cli(home, "doctor").stdout
    assert "jobs.pending: 1" in said
    assert "jobs.dead: 0" in said
