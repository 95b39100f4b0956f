"""What the door's reads of a later scope cost (round thirty-one, pass43): median ms of
``search`` and ``get_all`` filtered on a ``run_id`` and on ``user_id`` alone, over a
store of one user with 40 runs of 10 messages each; ``--repeats N`` has N of the runs
say one text again (0: no memory is said twice, the door's extra read is one SQL probe).

    PYTHONPATH=src .venv/bin/python scripts/pass43_cost.py [--repeats 0]

Run it on the base and on the branch from each tree's root and compare the medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=15)
    ns = parser.parse_args()
    from conftest import HashEmbedder
    from engram import Config
    from engram.compat.mem0 import Memory

    with tempfile.TemporaryDirectory(prefix="pass43-cost-") as tmp:
        config = Config.load(env={}, home=tmp)
        with Memory(f"{tmp}/e.db", config=config, embedder=HashEmbedder()) as m:
            for run in range(40):
                said = [
                    {
                        "role": "user",
                        "content": f"Run {run} note {i}: the build step {i * run} passed.",
                    }
                    for i in range(10)
                ]
                if run < ns.repeats:
                    said.append({"role": "user", "content": "The project uses ruff."})
                m.add(said, user_id="dana", agent_id="coder", run_id=f"pr-{run}", infer=False)
            calls = {
                "search run": lambda: m.search("build step passed", filters={"run_id": "pr-30"}),
                "search user+run": lambda: m.search(
                    "ruff", filters={"user_id": "dana", "run_id": "pr-3"}
                ),
                "search user": lambda: m.search("build step", filters={"user_id": "dana"}),
                "get_all run": lambda: m.get_all(filters={"run_id": "pr-30"}),
                "get_all user+run": lambda: m.get_all(
                    filters={"user_id": "dana", "run_id": "pr-3"}
                ),
            }
            for name, fn in calls.items():
                fn()  # warm
                times = []
                for _ in range(ns.rounds):
                    start = time.perf_counter()
                    fn()
                    times.append((time.perf_counter() - start) * 1000)
                print(f"{name:<18} {statistics.median(times):8.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
