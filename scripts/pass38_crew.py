"""New-user pass round twenty-eight: a crew of three agent processes sharing one memory.

A planner, a coder and a reviewer (three OS processes, each its own agent id) work for
user "dana" on one embedded SQLite store, the way the README and docs/ describe:
project memory in ``user:dana`` (each write carries its ``agent_id``), private notes in
``user:dana/<agent>``, the handoff published with ``mem.shared.publish`` (it lands in
``user:dana/shared``, which recall in ``user:dana/...`` merges), runs in ``mem.runs``,
the coder's session tracked with ``mem.sessions``. The driver SIGKILLs the coder half-way
and starts a new coder that recovers from its session; the reviewer then asks what the
coder changed and why. Every acknowledged write is logged (flushed) to a file per agent,
so a lost write is an id the log holds and the store does not.

Run from the repository root (ENGRAM_HOME is a scratch directory, wiped first):

    PYTHONPATH=src .venv/bin/python scripts/pass38_crew.py /tmp/pass38-home1

It prints one line per check and exits 1 when a check fails.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

USER = "dana"
PROJECT = "user:dana"
#: Seconds between the coder's last checkpoint and its SIGKILL.
KILL_AFTER_S = 4.0


def _ack(home: Path, agent: str, record_id: str, text: str) -> None:
    with open(home / f"acked-{agent}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps({"id": record_id, "text": text}) + "\n")
        out.flush()
        os.fsync(out.fileno())


def _wait_for(path: Path, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > end:
            raise SystemExit(f"timed out waiting for {path}")
        time.sleep(0.2)


def planner(home: Path) -> None:
    from engram import Memory

    with Memory(home / "engram.db") as mem:
        mem.runs.record_run(
            "plan-1",
            task="Plan the rate limiter",
            task_type="plan",
            status="running",
            user_id=USER,
            agent_id="planner",
        )
        for i in range(45):
            kind = ["decision", "fact", "observation"][i % 3]
            text = (
                f"Plan step {i}: the rate limiter uses a token bucket per API key "
                f"with burst {10 + i} (item {i})"
                if kind == "decision"
                else f"Planner note {i}: endpoint /v1/items needs limit {100 + i} rpm"
            )
            rec = mem.add(text, user_id=USER, agent_id="planner", type=kind, tags=["plan"])
            _ack(home, "planner", rec.id, text)
        private = "PLANNER-PRIVATE: I doubt the coder can finish by Friday"
        rec = mem.add(private, namespace=f"{PROJECT}/planner", agent_id="planner")
        _ack(home, "planner-private", rec.id, private)
        handoff = mem.shared.publish(
            "planner",
            "Handoff to coder: implement the token bucket in src/limits.py; "
            "burst 20, refill 5/s; tests in tests/test_limits.py",
            namespace=f"{PROJECT}/shared",
            tags=["handoff"],
        )
        _ack(home, "planner-handoff", handoff.id, handoff.content)
        mem.runs.record_run("plan-1", status="completed", score=8.0, user_id=USER)
    (home / "planner.done").touch()


def coder(home: Path, phase: str) -> None:
    from engram import Memory

    session = "coder-s1"
    with Memory(home / "engram.db") as mem:
        if phase == "recover":
            digest = mem.sessions.recover(session, user_id=USER, agent_id="coder")
            (home / "coder-recovered.txt").write_text(digest, encoding="utf-8")
        else:
            _wait_for(home / "planner.done")
        got = mem.recall("what should the coder implement next?", user_id=USER, agent_id="coder")
        (home / f"coder-{phase}-recall.txt").write_text(got.context, encoding="utf-8")
        start = 0 if phase == "first" else 30
        mem.runs.record_run(
            f"code-{phase}",
            task="Code the limiter",
            status="running",
            user_id=USER,
            agent_id="coder",
        )
        for i in range(start, start + 30):
            text = (
                f"Coder change {i}: edited src/limits.py to refill the bucket at 5/s "
                f"because the planner's handoff said so (step {i})"
                if i % 3 == 0
                else f"Tool output {i}: pytest tests/test_limits.py -> {i} passed"
                if i % 3 == 1
                else f"Error {i}: KeyError 'burst' in limits.py line {40 + i}"
            )
            rec = mem.add(
                text,
                user_id=USER,
                agent_id="coder",
                type="decision" if i % 3 == 0 else "observation",
                session_id=session,
            )
            _ack(home, "coder", rec.id, text)
            mem.sessions.track(
                session,
                prompt=f"step {i}: {text[:60]}",
                project="limits",
                remembered=text[:80],
                user_id=USER,
                agent_id="coder",
            )
            if i == 20:
                mem.sessions.checkpoint(
                    session,
                    "pre_compaction",
                    context="halfway through the token bucket",
                    user_id=USER,
                    agent_id="coder",
                )
            if phase == "first" and i == 25:
                private = "CODER-PRIVATE: the refill math is a guess, verify later"
                prec = mem.add(private, namespace=f"{PROJECT}/coder", agent_id="coder")
                _ack(home, "coder-private", prec.id, private)
                (home / "coder.halfway").touch()
                time.sleep(60)  # the driver SIGKILLs us here
        mem.sessions.end(session, user_id=USER, agent_id="coder")
    (home / "coder.done").touch()


def reviewer(home: Path) -> None:
    from engram import Memory

    with Memory(home / "engram.db") as mem:
        for i in range(40):
            text = f"Review note {i}: style check of module {i} is clean"
            rec = mem.add(text, user_id=USER, agent_id="reviewer", type="observation")
            _ack(home, "reviewer", rec.id, text)
            if i % 10 == 0:
                mem.recall("what did the planner decide?", user_id=USER, agent_id="reviewer")
        _wait_for(home / "coder.done", timeout=300)
        answers = {}
        for label, kwargs in {
            "project": {"user_id": USER},
            "coder-only": {"user_id": USER, "filters": {"agent_id": "coder"}},
            "reviewer-private": {"namespace": f"{PROJECT}/reviewer"},
        }.items():
            got = mem.recall("what did the coder change and why?", limit=6, **kwargs)
            answers[label] = [h.memory.content for h in got.hits]
        for label, q in {
            "planner-private-probe": "doubt the coder finish Friday",
            "coder-private-probe": "refill math is a guess",
        }.items():
            hits = mem.search(q, user_id=USER, limit=5)
            answers[label] = [h.memory.content for h in hits]
        (home / "reviewer-answers.json").write_text(json.dumps(answers, indent=1))
    (home / "reviewer.done").touch()


def _spawn(home: Path, role: str, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, __file__, "--role", role, str(home), *extra],
        env={**os.environ, "ENGRAM_HOME": str(home)},
    )


def _acked(home: Path, agent: str) -> list[dict[str, str]]:
    path = home / f"acked-{agent}.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def drive(home: Path) -> int:
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    t0 = time.monotonic()
    procs = {r: _spawn(home, r) for r in ("planner", "reviewer")}
    procs["coder"] = _spawn(home, "coder", "first")
    _wait_for(home / "coder.halfway", timeout=300)
    # The crash comes a few seconds after the coder's last checkpoint: one queued less
    # than ``[sessions] debounce_ms`` (2.5 s) before a SIGKILL is lost by design.
    time.sleep(KILL_AFTER_S)
    os.kill(procs["coder"].pid, signal.SIGKILL)
    procs["coder"].wait()
    procs["coder2"] = _spawn(home, "coder", "recover")
    rcs = {r: p.wait(timeout=600) for r, p in procs.items() if r != "coder"}
    took = time.monotonic() - t0

    from engram import Memory

    failures = 0

    def check(name: str, ok: bool, detail: str = "") -> None:
        nonlocal failures
        failures += 0 if ok else 1
        print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}")

    check("processes exited 0", all(rc == 0 for rc in rcs.values()), str(rcs))
    with Memory(home / "engram.db", embedder=None) as mem:
        for agent, ns in [
            ("planner", PROJECT),
            ("coder", PROJECT),
            ("reviewer", PROJECT),
            ("planner-private", f"{PROJECT}/planner"),
            ("coder-private", f"{PROJECT}/coder"),
            ("planner-handoff", f"{PROJECT}/shared"),
        ]:
            acked = _acked(home, agent)
            lost = []
            for row in acked:
                try:
                    mem.get(row["id"], namespace=ns)
                except Exception:  # noqa: BLE001 - a lost write is what we look for
                    lost.append(row["id"])
            check(
                f"acked writes of {agent} all stored",
                not lost,
                f"({len(acked)} acked, {len(lost)} lost)",
            )
        total = mem.get_all(user_id=USER, limit=1).total
        print(f"     user:dana holds {total} memories; took {took:.1f}s")
        run = mem.runs.get("plan-1", user_id=USER)
        check("planner's run completed", run.run.status == "completed", run.run.status)
        coder_runs = [r.run_id for r in mem.runs.list(user_id=USER, agent_id="coder")]
        check(
            "runs.list(agent_id='coder') lists the coder's runs only",
            sorted(coder_runs) == ["code-first", "code-recover"],
            str(coder_runs),
        )
    digest = (
        (home / "coder-recovered.txt").read_text()
        if (home / "coder-recovered.txt").exists()
        else ""
    )
    check("recovery digest non-empty", bool(digest.strip()), f"({len(digest)} chars)")
    check(
        "recovery digest names the pre-compaction context",
        "halfway through the token bucket" in digest,
    )
    check(
        "recovery digest reaches step 25 (the last before the kill)",
        "step 25" in digest or "Coder change 24" in digest or "step 24" in digest,
        "",
    )
    first = (home / "coder-first-recall.txt").read_text()
    check("coder's first recall shows the handoff", "Handoff to coder" in first)
    answers = json.loads((home / "reviewer-answers.json").read_text())
    check(
        "reviewer: coder's changes in the project recall",
        any("Coder change" in a for a in answers["project"]),
        str(answers["project"][:2]),
    )
    check(
        "reviewer: agent filter returns only coder",
        bool(answers["coder-only"])
        and all(a.startswith(("Coder", "Tool", "Error")) for a in answers["coder-only"]),
    )
    check(
        "private planner note not in user:dana search",
        not any("PLANNER-PRIVATE" in a for a in answers["planner-private-probe"]),
    )
    check(
        "private coder note not in user:dana search",
        not any("CODER-PRIVATE" in a for a in answers["coder-private-probe"]),
    )
    check(
        "private notes not in reviewer's own namespace recall",
        not any("PRIVATE" in a for a in answers["reviewer-private"]),
    )
    (home / "digest.txt").write_text(digest)
    return 1 if failures else 0


def main() -> int:
    if len(sys.argv) >= 3 and sys.argv[1] == "--role":
        role, home = sys.argv[2], Path(sys.argv[3])
        if role == "planner":
            planner(home)
        elif role == "coder":
            coder(home, sys.argv[4])
        else:
            reviewer(home)
        return 0
    return drive(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/pass38-home1"))


if __name__ == "__main__":
    raise SystemExit(main())
