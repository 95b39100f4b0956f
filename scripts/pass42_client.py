"""mem0's real hosted client (``mem0.MemoryClient``, mem0 2.2.1) against engram's server
(new-user pass, round thirty, pass42): each call the client makes, and what it got.

Run from the worktree root; the engram side serves a fresh store on 127.0.0.1 and runs
the client from mem0's own venv (see scripts/mem0_script_real.py for that venv)::

    PYTHONPATH=src .venv/bin/python scripts/pass42_client.py serve \
        --mem0-python /tmp/mem0-venv/bin/python

``client URL KEY`` is the half that runs in mem0's venv; it prints one line per call,
``ok`` or the exception class the client raised, and exits 1 when a call that engram
supports failed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: Calls the client makes that engram has no object for (docs/compat-mem0.md).
UNSUPPORTED = ("get_project",)


def run_client(url: str, key: str) -> int:
    os.environ["MEM0_TELEMETRY"] = "False"
    from mem0 import MemoryClient

    failed = 0

    def call(step: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal failed
        try:
            out = fn(*args, **kwargs)
        except Exception as exc:
            expected = step in UNSUPPORTED or step.startswith("expect-error")
            failed += 0 if expected else 1
            print(f"{step:<24} {type(exc).__name__}: {str(exc)[:100]}")
            return None
        print(f"{step:<24} ok {str(out)[:110]}")
        return out

    client = MemoryClient(api_key=key, host=f"{url}/mem0")
    added = call(
        "add",
        client.add,
        [
            {"role": "user", "content": "I am allergic to penicillin."},
            {"role": "assistant", "content": "Noted: no penicillin."},
        ],
        user_id="maya",
        run_id="s-01",
        metadata={"topic": "health"},
        infer=False,
    )
    call("add string", client.add, "I work from home on Mondays.", user_id="maya", infer=False)
    call("search", client.search, "allergic to penicillin", filters={"user_id": "maya"}, top_k=1)
    call("get_all", client.get_all, filters={"user_id": "maya"})
    call("get_all page", client.get_all, filters={"user_id": "maya"}, page=2, page_size=2)
    call("get_all filter", client.get_all, filters={"user_id": "maya", "topic": "health"})
    if added:
        first = added["results"][0]["id"]
        second = added["results"][1]["id"]
        call("get", client.get, first)
        call("update", client.update, first, text="I am allergic to penicillin and latex.")
        call("update metadata", client.update, first, metadata={"checked": True})
        call("history", client.history, first)
        call("delete", client.delete, second)
        call("expect-error get deleted", client.get, second)
    call("delete_all run", client.delete_all, run_id="s-01")
    call("get_all after", client.get_all, filters={"user_id": "maya"})
    call("expect-error other user", client.get_all, filters={"user_id": "ben"})
    call("add agent", client.add, "Use the 24-hour clock.", agent_id="aria", infer=False)
    call("users", client.users)
    call("delete_users agent", client.delete_users, agent_id="aria")
    call("reset", client.reset)
    call("get_all after reset", client.get_all, filters={"user_id": "maya"})
    call("get_project", client.get_project)
    print(f"{failed} supported call(s) failed")
    return 1 if failed else 0


def serve(mem0_python: str) -> int:
    return serve_client(mem0_python, __file__, "maya")


def serve_client(mem0_python: str, script: str, user: str) -> int:
    """Serve a fresh store with one key of ``user`` and run ``script client URL KEY``
    in mem0's venv; its exit status."""
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import HashEmbedder
    from engram import Config, Memory
    from engram.api.app import create_app
    from engram.api.server import serve_in_thread

    with tempfile.TemporaryDirectory(prefix="pass42-client-") as tmp:
        config = Config.load(env={}, home=tmp)
        with Memory(f"{tmp}/engram.db", config=config, embedder=HashEmbedder()) as mem:
            key = mem.keys.create(user)[1]
            with serve_in_thread(create_app(mem, worker=False, mcp=False)) as url:
                done = subprocess.run([mem0_python, script, "client", url, key], check=False)
    return done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("side", choices=["serve", "client"])
    parser.add_argument("args", nargs="*")
    parser.add_argument("--mem0-python", default="/tmp/mem0-venv/bin/python")
    ns = parser.parse_args()
    if ns.side == "client":
        return run_client(*ns.args)
    return serve(ns.mem0_python)


if __name__ == "__main__":
    raise SystemExit(main())
