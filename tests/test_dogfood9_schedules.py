"""``engram mcp`` runs ``engram serve``'s schedules through the same code, one process per
store at a time (new-user pass, round eight's leftover): an agent that talks only MCP
gets its debounced session checkpoints written, its old ones pruned, consolidation,
retention and maintenance, and two servers on one store never run a schedule at once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from datetime import timedelta
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client

from engram import Config, Memory
from engram.records import utcnow
from engram.serving import SCHEDULES, Leased, Schedule, serving
from engram.store.protocols import Store
from test_api_ops import _wait_ready
from test_mcp import call, engram_over_stdio, reopen

NAMES = {s.name for s in SCHEDULES}


# -- the lease, on both backends ------------------------------------------------------------
def test_one_holder_at_a_time_until_released_or_lapsed(any_store: Store) -> None:
    leases = any_store.schedule_leases
    now = utcnow()
    soon = now + timedelta(seconds=60)
    assert leases.take("lifecycle", "a", now=now, until=soon)
    assert not leases.take("lifecycle", "b", now=now, until=soon)
    assert leases.take("lifecycle", "a", now=now + timedelta(seconds=1), until=soon)  # renewed
    assert leases.take("sessions", "b", now=now, until=soon)  # each schedule its own lease
    # a holder that stopped renewing (its process died): the lease lapses
    assert leases.take("lifecycle", "b", now=soon, until=soon + timedelta(seconds=60))
    assert not leases.take("lifecycle", "a", now=soon, until=soon + timedelta(seconds=60))
    [held] = [lease for lease in leases.leases() if lease.name == "lifecycle"]
    assert held.holder == "b" and held.expires_at == soon + timedelta(seconds=60)
    leases.release("lifecycle", "a")  # not a's: nothing happens
    assert not leases.take("lifecycle", "a", now=soon, until=soon + timedelta(seconds=60))
    leases.release("lifecycle", "b")
    assert leases.take("lifecycle", "a", now=soon, until=soon + timedelta(seconds=60))
    assert [lease.name for lease in leases.leases()] == ["lifecycle", "sessions"]


# -- serving(): one process per schedule ----------------------------------------------------
def counting(mem: Memory, part: str, calls: list[str], who: str) -> None:
    """Record each ``upkeep`` round ``mem``'s ``part`` runs, as ``who``."""
    target = getattr(mem, part)
    upkeep: Callable[..., Any] = target.upkeep

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(who)
        return upkeep(*args, **kwargs)

    target.upkeep = counted


@pytest.fixture
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every schedule every 0.1 s (the lifecycle's 60 s would make a test wait)."""
    quick = tuple(Schedule(s.name, 0.1, s.round) for s in SCHEDULES)
    monkeypatch.setattr("engram.serving.SCHEDULES", quick)


def wait_for(check: Callable[[], bool], timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_two_servers_on_one_store_run_each_schedule_in_one_of_them(
    fast: None, config: Config, reopenable: str
) -> None:
    calls: list[str] = []
    with (
        Memory(reopenable, config=config, embedder=None) as first,
        Memory(reopenable, config=config, embedder=None) as second,
    ):
        for mem, who in ((first, "first"), (second, "second")):
            counting(mem, "lifecycle", calls, who)
        with ExitStack() as first_serves:
            first_serves.enter_context(serving(first, worker=False))
            wait_for(lambda: calls.count("first") >= 3)
            with serving(second, worker=False):
                time.sleep(0.6)  # six rounds of each server's schedules
                assert "second" not in calls
                leases = first.store.schedule_leases.leases()
                held = {lease.name: lease.holder for lease in leases}
                assert set(held) == NAMES and len(set(held.values())) == 1
                assert held["lifecycle"].split(":")[1] == str(os.getpid())
                # the first stops and releases: the second takes over at its next round
                first_serves.close()
                ran = len(calls)
                wait_for(lambda: "second" in calls)
                assert "first" not in calls[ran:]
        assert first.store.schedule_leases.leases() == []  # both released at the end


def test_without_schedules_nothing_is_leased_and_no_round_runs(
    fast: None, config: Config, reopenable: str
) -> None:
    calls: list[str] = []
    with Memory(reopenable, config=config, embedder=None) as mem:
        counting(mem, "sessions", calls, "mem")
        with serving(mem, worker=False, schedules=False):
            time.sleep(0.5)
            assert mem.store.schedule_leases.leases() == []
        assert calls == []


def test_rounds_write_the_lease_only_when_it_is_half_spent_or_a_standby_asks_again(
    config: Config, reopenable: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lease is a write transaction: the holder renews it once half of it has run
    out, a process standing by asks again only every few rounds, not every second."""
    with Memory(reopenable, config=config, embedder=None) as mem:
        leases = mem.store.schedule_leases
        took: list[str] = []
        real_take = leases.take

        def take(name: str, holder: str, **kw: Any) -> bool:
            took.append(holder)
            return real_take(name, holder, **kw)

        monkeypatch.setattr(leases, "take", take)
        quiet = Schedule("sessions", 1.0, lambda _mem, _held: None)
        holder, standby = Leased(mem, quiet, "here"), Leased(mem, quiet, "there")
        for _ in range(20):
            holder()
            standby()
        assert took == ["here", "there"]
        assert holder.held and not standby.held
        holder.release()  # a released lease is asked for again at once by its holder
        holder()
        assert took[-1] == "here" and holder.held


# -- over a real stdio session, and through engram serve ----------------------------------
def env_for(home: Path, **extra: str) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")},
        "ENGRAM_HOME": str(home),
        "ENGRAM_EMBEDDER_NAME": "none",
        **extra,
    }


def holders(home: Path) -> dict[str, str]:
    with reopen(home) as mem:
        return {lease.name: lease.holder for lease in mem.store.schedule_leases.leases()}


def checkpoints(home: Path, session: str) -> int:
    with reopen(home) as mem:
        return len(mem.sessions.checkpoints(session, user_id="ann"))


@pytest.mark.anyio
async def test_the_stdio_server_writes_a_debounced_checkpoint_while_it_serves(
    home: Path,
) -> None:
    """Before: nothing wrote a checkpoint waiting out its debounce window (2.5 s) until
    the agent asked to recover or the server exited."""
    async with Client(engram_over_stdio(home, "--user", "ann")) as client:
        await call(
            client,
            "session_checkpoint",
            session_key="s1",
            trigger="pre_compaction",
            context="halfway through the migration",
        )
        with anyio.fail_after(20):
            while not await anyio.to_thread.run_sync(checkpoints, home, "s1"):
                await anyio.sleep(0.25)
        assert set(await anyio.to_thread.run_sync(holders, home)) == NAMES


@pytest.mark.anyio
async def test_the_stdio_server_leaves_the_schedules_to_engram_serve(home: Path) -> None:
    from pgserver import free_port

    port = free_port()
    engram = Path(sys.executable).with_name("engram")
    serve = subprocess.Popen(
        [str(engram), "serve", "--no-auth", "--no-mcp", "--port", str(port)],
        env=env_for(home),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_ready(f"http://127.0.0.1:{port}", serve)
        wait_for(lambda: set(holders(home)) == NAMES)
        async with Client(engram_over_stdio(home, "--user", "ann")) as client:
            await call(client, "remember", content="The staging database is db-2.")
            await anyio.sleep(1.5)  # a round of each 1 s schedule of the MCP server
            held = await anyio.to_thread.run_sync(holders, home)
            assert {h.split(":")[1] for h in held.values()} == {str(serve.pid)}
    finally:
        serve.terminate()
        _, err = serve.communicate(timeout=30)
    assert holders(home) == {}, err  # released at shutdown


def test_engram_serve_no_worker_and_no_schedules_leave_both_to_another_process(
    tmp_path: Path,
) -> None:
    from pgserver import free_port

    home, port = tmp_path / "home", free_port()
    engram = Path(sys.executable).with_name("engram")
    args = ["serve", "--no-auth", "--no-mcp", "--port", str(port), "--no-worker"]
    serve = subprocess.Popen(
        [str(engram), *args, "--no-schedules"],
        env=env_for(home, ENGRAM_WORKER_POLL_MS="100"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(url, serve)
        added = httpx.post(
            f"{url}/v1/memories",
            json={"content": "Alice adopted a cat named Miso.", "user_id": "ann"},
            timeout=30,
        )
        assert added.status_code == 201, added.text
        time.sleep(1.5)  # fifteen polls of a worker, had one run
        assert holders(home) == {}
        with reopen(home) as mem:
            assert mem.jobs.counts()["pending"] >= 1
    finally:
        serve.terminate()
        serve.communicate(timeout=30)


@pytest.fixture
def home(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "home"
