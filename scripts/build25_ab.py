"""Old and new ``add_many`` side by side (issue 29, build25): fresh processes, the two
versions alternating (old new, new old, ...), each adding the same composed scale texts
(``scripts/build25_profile.py``) into a fresh store or into a copy of a kept store.

    python scripts/build25_ab.py --old /work/base23/src --new src --n 20000 --rounds 3 \\
        --work /tmp/build25/ab --out /tmp/build25/ab20k.jsonl
    python scripts/build25_ab.py ... --n 5000 --start 100000 --base KEPT/scale-100000.db
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def one(src: str, args: argparse.Namespace, store: Path) -> dict[str, object]:
    for p in store.parent.glob(store.name + "*"):
        if p.is_dir():
            shutil.rmtree(p)
        else:
            p.unlink()
    command = [sys.executable, str(HERE / "build25_profile.py"), "--n", str(args.n)]
    command += ["--start", str(args.start), "--store", str(store)]
    command += ["--base", args.base] if args.base else []
    env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
    load = Path("/proc/loadavg").read_text().split()[0]
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    got: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    got["load_before"] = load
    return got


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--base")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--work", default="/tmp/build25/ab")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    rates: dict[str, list[float]] = {"old": [], "new": []}
    cpus: dict[str, list[float]] = {"old": [], "new": []}
    with open(args.out, "a") as out:
        for r in range(args.rounds):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for version in order:
                got = one(getattr(args, version), args, work / "store.db")
                got |= {"version": version, "round": r, "start": args.start}
                out.write(json.dumps(got) + "\n")
                out.flush()
                rates[version].append(float(got["per_s"]))  # type: ignore[arg-type]
                cpus[version].append(float(got["cpu_s"]))  # type: ignore[arg-type]
                print(version, r, got["per_s"], got["cpu_s"], got["load"], flush=True)
    for p in work.glob("store.db*"):
        shutil.rmtree(p) if p.is_dir() else p.unlink()
    for version in ("old", "new"):
        print(
            version,
            "median /s",
            statistics.median(rates[version]),
            "median CPU s",
            statistics.median(cpus[version]),
        )


if __name__ == "__main__":
    main()
