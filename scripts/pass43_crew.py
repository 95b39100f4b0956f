"""A third mem0 app, a coding-agent crew, run unchanged on real mem0 and on engram's
mem0 door, the two logs compared call by call (new-user pass, round thirty-one, pass43).

Written and committed before any change of round thirty-one: the whole app is the
HELD-OUT fold of that round (round thirty's assistant, scripts/pass42_assistant.py,
and pass39's support bot are the tuning folds). Three agents (``architect``,
``coder``, ``reviewer``) work for two developers (dana, eli) over pull requests
(``run_id`` ``pr-101`` ...). A sync ``Memory.from_config`` serves the crew's CLI; the
crew's asyncio service then opens ``AsyncMemory.from_config`` on the same config (the
CLI's memory closed first, as local Qdrant holds a lock on its path). The app adds
messages with ``infer=False`` and metadata, says one convention again in later pull
requests under other agents, searches with filters (``eq``, ``gt``, ``lt``, ``in``,
``contains``, ``OR``, ``NOT``) and ``threshold``, lists with filters and ``top_k``,
updates (text, metadata, a text another memory holds), deletes, ``delete_all`` by
``run_id``, by ``agent_id`` and by ``user_id``, reads ``history``, and meets errors.

The logs are normalised by pass39's ``Recorder`` and compared by its ``diff``::

    unshare -rn /tmp/mem0-venv/bin/python scripts/pass43_crew.py mem0 --out /tmp/crew-mem0.json
    PYTHONPATH=src .venv/bin/python scripts/pass43_crew.py engram --out /tmp/crew-engram.json
    python3 scripts/pass43_crew.py diff /tmp/crew-mem0.json /tmp/crew-engram.json

mem0 runs offline as in scripts/mem0_script_real.py (mem0ai==2.2.1 in /tmp/mem0-venv,
its hash embedder registered under mem0's ``huggingface`` provider, local Qdrant,
telemetry off). On engram the same config dict goes to the door's ``from_config``
with the test suite's hash embedder beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from pass39_supportbot import Recorder, diff  # noqa: E402  (a script beside this one)

ARCHITECT, CODER, REVIEWER = "architect", "coder", "reviewer"
#: The convention every agent repeats in later pull requests.
CONVENTION = "The project uses Python 3.12 and ruff for linting."

#: (user, run, agent, metadata, [(role, text), ...])
RUNS: list[tuple[str, str, str, dict[str, Any], list[tuple[str, str]]]] = [
    (
        "dana",
        "pr-101",
        ARCHITECT,
        {"repo": "billing", "area": "design", "severity": 3},
        [
            ("user", "Billing must stay a separate service behind the payments queue."),
            ("assistant", "Agreed: billing talks to payments only through the queue."),
            ("user", CONVENTION),
        ],
    ),
    (
        "dana",
        "pr-102",
        CODER,
        {"repo": "billing", "area": "code", "severity": 2},
        [
            ("user", "Invoice totals are computed in integer cents, never floats."),
            ("assistant", "I changed the invoice model to store cents as integers."),
            ("user", CONVENTION),
        ],
    ),
    (
        "eli",
        "pr-103",
        CODER,
        {"repo": "search", "area": "code", "severity": 1},
        [
            ("user", "The search index is rebuilt nightly at 02:00 UTC."),
            ("assistant", "I moved the rebuild cron to 02:00 UTC."),
        ],
    ),
    (
        "dana",
        "pr-103",
        REVIEWER,
        {"repo": "billing", "area": "review", "severity": 4},
        [
            ("user", "Every migration needs a rollback script reviewed by two people."),
            ("assistant", "I will block merges of migrations without a rollback script."),
            ("user", CONVENTION),
        ],
    ),
]

#: What each agent keeps about itself (agent-scoped, no user).
AGENT_NOTES: list[tuple[str, str, dict[str, Any]]] = [
    (ARCHITECT, "Prefer boring technology over new frameworks.", {"kind": "principle"}),
    (CODER, "Write the failing test before the fix.", {"kind": "habit", "tags": "tdd,tests"}),
    (REVIEWER, "Reject pull requests over 400 changed lines.", {"kind": "rule", "limit": 400}),
]


class AsyncRecorder(Recorder):
    """pass39's ``Recorder`` for an ``AsyncMemory``: awaits each call, logs the same."""

    async def acall(self, step: str, verb: str, *args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out = await getattr(self.memory, verb)(*args, **kwargs)
            except Exception as exc:
                self.log.append(
                    {
                        "step": step,
                        "verb": verb,
                        "error": "ValueError" if isinstance(exc, ValueError) else "other",
                        "class": type(exc).__name__,
                        "message": str(exc)[:160],
                    }
                )
                return None
        return self.record(step, verb, out)

    def record(self, step: str, verb: str, out: Any) -> Any:
        self._learn(out)
        entry: dict[str, Any] = {"step": step, "verb": verb, "result": self.normal(out)}
        if verb == "search" and isinstance(out, dict):
            entry["set"] = sorted(r["memory"] for r in out.get("results", []))
        self.log.append(entry)
        return out


def find(out: Any, text: str) -> str | None:
    for r in (out or {}).get("results", []):
        if r["memory"] == text:
            return str(r["id"])
    return None


def cli_phase(rec: Recorder) -> None:
    """The crew's CLI: a sync ``Memory``."""
    for agent, text, meta in AGENT_NOTES:
        rec.call(f"note {agent}", "add", text, agent_id=agent, metadata=meta, infer=False)
    for user, run, agent, meta, turns in RUNS:
        rec.call(
            f"{run} {agent} add",
            "add",
            [{"role": r, "content": t} for r, t in turns],
            user_id=user,
            agent_id=agent,
            run_id=run,
            metadata=meta,
            infer=False,
        )
    rec.call(
        "scratch add", "add", "TODO: flaky test in test_invoice.py", run_id="pr-102", infer=False
    )
    rec.call(
        "search convention", "search", "which python version", filters={"user_id": "dana"}, top_k=3
    )
    rec.call(
        "search severe",
        "search",
        "migration rollback",
        filters={"user_id": "dana", "severity": {"gt": 2}},
    )
    rec.call(
        "search low",
        "search",
        "search index rebuild",
        filters={"user_id": "eli", "severity": {"lt": 2}},
        threshold=0.1,
    )
    rec.call(
        "search eq",
        "search",
        "invoice cents",
        filters={"user_id": "dana", "area": {"eq": "code"}},
    )
    rec.call(
        "search in",
        "search",
        "billing service",
        filters={"user_id": "dana", "area": {"in": ["design", "review"]}},
        top_k=2,
    )
    rec.call(
        "search or",
        "search",
        "queue",
        filters={"user_id": "dana", "OR": [{"area": "design"}, {"severity": {"gte": 4}}]},
    )
    rec.call(
        "search not",
        "search",
        "integer cents",
        filters={"user_id": "dana", "NOT": [{"area": "design"}]},
    )
    rec.call(
        "search tags",
        "search",
        "test first",
        filters={"agent_id": CODER, "tags": {"contains": "tdd"}},
    )
    rec.call(
        "search threshold", "search", "payments queue", filters={"user_id": "dana"}, threshold=0.6
    )
    rec.call("list dana", "get_all", filters={"user_id": "dana"})
    rec.call("list dana top3", "get_all", filters={"user_id": "dana"}, top_k=3)
    rec.call("list pr-102", "get_all", filters={"run_id": "pr-102"})
    rec.call("list pr-103", "get_all", filters={"run_id": "pr-103"})
    rec.call("list dana reviewer", "get_all", filters={"user_id": "dana", "agent_id": REVIEWER})
    rec.call("list dana coder", "get_all", filters={"user_id": "dana", "agent_id": CODER})
    rec.call("list coder notes", "get_all", filters={"agent_id": CODER}, top_k=10)
    rec.call("list severe", "get_all", filters={"user_id": "dana", "severity": {"gte": 3}})
    listed = rec.call("list eli", "get_all", filters={"user_id": "eli"})
    cron = find(listed, "I moved the rebuild cron to 02:00 UTC.")
    if cron:
        rec.call("update cron", "update", cron, text="I moved the rebuild cron to 03:00 UTC.")
        rec.call("update cron meta", "update", cron, metadata={"repo": "search", "verified": True})
        rec.call("get cron", "get", cron)
        rec.call("history cron", "history", cron)
    listed = rec.call("list dana again", "get_all", filters={"user_id": "dana"}, top_k=50)
    floats = find(listed, "I changed the invoice model to store cents as integers.")
    if floats:
        # The coder restates the rule in the user's words: mem0 keeps both memories.
        rec.call(
            "update to other text",
            "update",
            floats,
            text="Invoice totals are computed in integer cents, never floats.",
        )
        rec.call("get updated", "get", floats)
        rec.call("list pr-102 after", "get_all", filters={"run_id": "pr-102", "user_id": "dana"})
    scratch = find(
        rec.call("list scratch", "get_all", filters={"run_id": "pr-102"}),
        "TODO: flaky test in test_invoice.py",
    )
    if scratch:
        rec.call("delete scratch", "delete", scratch)
        rec.call("get scratch", "get", scratch)


async def service_phase(rec: AsyncRecorder) -> None:
    """The crew's asyncio service: an ``AsyncMemory`` on the same config."""
    await rec.acall(
        "pr-104 add",
        "add",
        [
            {"role": "user", "content": "Use structured logging with request ids."},
            {"role": "user", "content": CONVENTION},
        ],
        user_id="dana",
        agent_id=REVIEWER,
        run_id="pr-104",
        metadata={"repo": "billing", "area": "review", "severity": 2},
        infer=False,
    )
    await rec.acall(
        "pr-104 string",
        "add",
        "Ship pr-104 after the release freeze.",
        run_id="pr-104",
        agent_id=ARCHITECT,
        infer=False,
    )
    outs = await asyncio.gather(
        rec.memory.search("logging", filters={"user_id": "dana"}, top_k=2),
        rec.memory.search("python version", filters={"run_id": "pr-104"}),
        rec.memory.search("pull request size", filters={"agent_id": REVIEWER}),
        return_exceptions=True,
    )
    for step, out in zip(("gather logging", "gather pr-104", "gather reviewer"), outs, strict=True):
        if isinstance(out, BaseException):
            rec.log.append(
                {"step": step, "verb": "search", "error": "other", "class": type(out).__name__}
            )
        else:
            rec.record(step, "search", out)
    await rec.acall("alist pr-104", "get_all", filters={"run_id": "pr-104"})
    await rec.acall("alist pr-104 dana", "get_all", filters={"run_id": "pr-104", "user_id": "dana"})
    listed = await rec.acall(
        "alist dana reviewer",
        "get_all",
        filters={"user_id": "dana", "agent_id": REVIEWER},
        top_k=20,
    )
    logging_id = find(listed, "Use structured logging with request ids.")
    if logging_id:
        await rec.acall(
            "aupdate logging",
            "update",
            logging_id,
            text="Use structured JSON logging with request ids.",
        )
        await rec.acall("ahistory logging", "history", logging_id)
    await rec.acall("adelete_all pr-101", "delete_all", run_id="pr-101")
    await rec.acall("alist dana after pr-101", "get_all", filters={"user_id": "dana"}, top_k=50)
    await rec.acall("alist architect", "get_all", filters={"agent_id": ARCHITECT})
    await rec.acall("adelete_all reviewer", "delete_all", agent_id=REVIEWER)
    await rec.acall("alist dana after reviewer", "get_all", filters={"user_id": "dana"}, top_k=50)
    await rec.acall("alist pr-103 after", "get_all", filters={"run_id": "pr-103"})
    await rec.acall(
        "asearch convention", "search", "ruff linting", filters={"user_id": "dana"}, top_k=3
    )
    await rec.acall("adelete_all eli", "delete_all", user_id="eli")
    await rec.acall("alist eli gone", "get_all", filters={"user_id": "eli"})
    await rec.acall("alist coder after", "get_all", filters={"agent_id": CODER}, top_k=10)
    # Errors an app meets.
    await rec.acall("asearch no ids", "search", "x", filters={"area": "code"})
    await rec.acall("alist bad top_k", "get_all", filters={"user_id": "dana"}, top_k=-1)
    await rec.acall(
        "asearch bad threshold", "search", "x", filters={"user_id": "dana"}, threshold=1.5
    )
    await rec.acall("adelete nothing", "delete", "00000000-0000-0000-0000-000000000000")
    await rec.acall("adelete_all nothing", "delete_all")
    await rec.acall("ahistory nothing", "history", "00000000-0000-0000-0000-000000000000")


def run(
    memory_cls: Any, async_cls: Any, config: dict[str, Any], **extra: Any
) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = []
    rec = Recorder(None)
    rec.log = log
    try:
        rec.memory = memory_cls.from_config(config, **extra)
        log.append({"step": "from_config", "verb": "from_config", "result": "ok"})
    except Exception as exc:
        log.append({"step": "from_config", "verb": "from_config", "error": type(exc).__name__})
        return log
    cli_phase(rec)
    closed = rec.memory.close()
    log.append({"step": "close", "verb": "close", "result": repr(closed)})
    del rec.memory
    gc.collect()

    async def service() -> None:
        arec = AsyncRecorder(async_cls.from_config(config, **extra))
        arec.log = log
        arec.texts = rec.texts
        await service_phase(arec)
        # mem0's AsyncMemory.close() is a plain method.
        closed = arec.memory.close()
        log.append({"step": "aclose", "verb": "close", "result": type(closed).__name__})
        if asyncio.iscoroutine(closed):
            await closed

    asyncio.run(service())
    return log


def mem0_config(workdir: Path) -> dict[str, Any]:
    return {
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": "crew",
                "path": str(workdir / "qdrant"),
                "embedding_model_dims": 64,
            },
        },
        "embedder": {"provider": "huggingface", "config": {"embedding_dims": 64}},
        "history_db_path": str(workdir / "history.db"),
    }


def run_mem0(workdir: Path) -> list[dict[str, Any]]:
    from mem0_script_real import offline_memory

    offline_memory(workdir / "probe")  # registers the offline embedder, telemetry off
    from mem0 import AsyncMemory, Memory

    return run(Memory, AsyncMemory, mem0_config(workdir / "app"))


def run_engram(workdir: Path) -> list[dict[str, Any]]:
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import HashEmbedder
    from engram.compat import mem0 as door

    return run(door.Memory, door.AsyncMemory, mem0_config(workdir / "app"), embedder=HashEmbedder())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("side", choices=["mem0", "engram", "diff"])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--out", type=Path)
    ns = parser.parse_args()
    if ns.side == "diff":
        return diff(*ns.files)
    with tempfile.TemporaryDirectory(prefix="pass43-") as tmp:
        (Path(tmp) / "app").mkdir()
        log = (run_mem0 if ns.side == "mem0" else run_engram)(Path(tmp))
    text = json.dumps(log, indent=1, default=str) + "\n"
    if ns.out:
        ns.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
