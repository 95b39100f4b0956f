"""Do two versions of ``GraphStore.record`` write the same validity windows? (issue 29,
pgadd26: the batch's windows read once, not per triple.) Random statements about a few
entities (single- and multi-valued types, times out of order, the same memory stating
things again) are recorded in batches of random size by each version, in a process of
its own, into a new store; every relation, mention and entity row is printed with its
times, and the two outputs compared.

    python scripts/pgadd26_windows.py --old /work/base24/src --new src [--seeds 20]
    python scripts/pgadd26_windows.py ... --postgres postgresql://postgres@127.0.0.1:PORT/

Exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

NAMES = ["Jon", "jon", "Gina", "Acme", "Paris", "Berlin", "Oslo", "Dr. Smith", "Dr Smith", "Rome"]
TYPES = ["lives_in", "lives in", "works_at", "likes", "talks_about", "uses", "reports_to"]
T0 = datetime(2024, 1, 1, tzinfo=UTC)


def child(store_at: str, seed: int) -> None:
    """Record seed's statements into ``store_at`` and print its graph rows."""
    from engram.config import Config
    from engram.store import open_store
    from engram.store.protocols.graph import SINGLE_VALUED, Statement
    from engram.validate import build_record

    rng = random.Random(seed)
    store = open_store(store_at, Config.load(env={}))
    try:
        ids = []
        for i in range(30):
            record = build_record(f"memory {i}", namespace="w", max_chars=100)
            ids.append(store.memories.insert([record])[0].record.id)
        statements = []
        for n in range(rng.randint(20, 120)):
            triples = [
                (rng.choice(NAMES), rng.choice(TYPES), rng.choice(NAMES), rng.random())
                for _ in range(rng.randint(0, 3))
            ]
            types = {rng.choice(NAMES): "person"} if rng.random() < 0.2 else {}
            single = None if rng.random() < 0.7 else frozenset(rng.sample(TYPES, 2))
            statements.append(
                Statement(
                    rng.choice(ids),
                    triples,
                    T0 + timedelta(days=rng.randint(0, 40)),
                    T0 + timedelta(days=100, seconds=n),
                    types,
                    single_valued=single,
                )
            )
        at = 0
        while at < len(statements):
            size = rng.randint(1, 25)
            store.graph.record("w", statements[at : at + size], single_valued=SINGLE_VALUED)
            at += size
        with store.transaction():
            pass
        rows = {
            "relations": [
                [r.source, r.relation_type, r.target, round(r.confidence, 9), r.mentions]
                + [str(r.valid_from), str(r.valid_to), r.id]
                for r in store.graph.relations(
                    "w", entity_id=None, current_only=False, at=None, limit=10_000, offset=0
                )
            ],
            "entities": [
                [e.id, e.canonical_name, e.entity_type, e.mentions, sorted(e.aliases)]
                for e in store.graph.entities("w", limit=10_000, offset=0, query=None)
            ],
        }
    finally:
        store.close()
    print(json.dumps(rows, sort_keys=True))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", required=False)
    parser.add_argument("--new", required=False)
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--postgres", help="a server's URL ending in '/'")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    differ = 0
    with tempfile.TemporaryDirectory(prefix="pgadd26-windows-") as work:
        for seed in range(args.seeds):
            out = {}
            for version, src in (("old", args.old), ("new", args.new)):
                where = _store(args, work, version, seed)
                env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
                done = subprocess.run(
                    [sys.executable, __file__, "--child", where, str(seed)],
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                )
                out[version] = done.stdout.strip().splitlines()[-1]
            same = out["old"] == out["new"]
            differ += not same
            relations = len(json.loads(out["new"])["relations"])
            print(f"seed {seed}: {relations} relations, {'identical' if same else 'DIFFERENT'}")
    print("identical" if not differ else f"{differ} seeds DIFFERENT")
    sys.exit(1 if differ else 0)


def _store(args: argparse.Namespace, work: str, version: str, seed: int) -> str:
    """A new store for one run: a SQLite file, or a database on ``--postgres``."""
    if not args.postgres:
        return f"{work}/{version}-{seed}.db"
    import psycopg

    name = f"windows_{version}"
    with psycopg.connect(args.postgres + "postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return args.postgres + name


if __name__ == "__main__":
    main()
