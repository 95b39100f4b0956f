"""Does a change to the write path leave the store's content as it was? Two versions of
engram's source each add the same texts (``Memory.add_many``, the scale benchmark's
config: ``injection_mode = "flag"``) into their own copy of a base store (or a fresh
one), each in a process of its own; then every table is compared row for row, with
memory ids mapped to content hashes, entity and relation ids to what they name, and
times, sequence numbers and random ids dropped. Vectors are compared by value.

    python scripts/write_equivalence.py --old /tmp/old/src --new src \\
        --texts composed:100000:2000 --base /tmp/sq7-100k/scale-100000.db --work /tmp/eq

With ``--postgres postgresql://USER@HOST:PORT/`` the two versions add into databases
``eq_old`` and ``eq_new`` made on that server (``--base`` then names a database there
to copy as their template), and the rows are read back from them the same way.

    python scripts/write_equivalence.py --old /tmp/old/src --new src \\
        --texts composed:0:3000 --postgres postgresql://postgres@127.0.0.1:55654/

``--texts composed:START:COUNT`` takes rows of ``bench.pg_scale.compose_corpus`` (the
scale corpus), ``turns:COUNT`` single LoCoMo turns; ``--embedder`` adds with the real
embedder (default: none, as ``bench scale``'s add phase). The base store is copied,
never written. Exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

LOCOMO = "/work/shared/bench/locomo/locomo10_dev.json"
NAMESPACE = "bench-scale"
#: Tables whose rows are bookkeeping, not content (or compared apart: vectors).
SKIP = {
    "schema_migrations",
    "sqlite_sequence",
    "engram_meta",
    "fts_log",
    "fts_pending",
    "fts_namespaces",
    "memory_vectors",
    "memory_chunks",
}
#: Columns that hold times, sequence numbers or random keys.
DROPPED = {"seq", "memory_seq", "valid_from", "before", "after", "job_key", "leased_by"}


def child(args: argparse.Namespace) -> None:
    """Add the texts into ``args.store`` with the engram on ``sys.path``."""
    from engram.bench.pg_scale import compose_corpus
    from engram.bench.scale import base_vectors, locomo_turns_and_questions
    from engram.config import Config
    from engram.memory import Memory

    turns, _ = locomo_turns_and_questions(args.data)
    config = Config.load(env={}).with_overrides(injection_mode="flag")
    kind, *numbers = args.texts.split(":")
    if kind == "composed":
        start, count = int(numbers[0]), int(numbers[1])
        vectors = base_vectors(config, turns, config.home_path / "bench-cache")
        texts = compose_corpus(turns, vectors, start + count)[0][start:]
    else:
        texts = turns[: int(numbers[0])]
    options: dict[str, Any] = {} if args.embedder else {"embedder": None}
    with Memory(args.store, config=config, **options) as mem:
        began = time.perf_counter()
        mem.add_many(texts, namespace=NAMESPACE)
        seconds = time.perf_counter() - began
    print(json.dumps({"texts": len(texts), "seconds": round(seconds, 3)}))


class Store:
    """The rows of a SQLite file or a PostgreSQL database (``where`` a URL), read only."""

    def __init__(self, where: str | Path) -> None:
        self.postgres = str(where).startswith("postgresql://")
        if self.postgres:
            import psycopg

            self.db: Any = psycopg.connect(str(where))
        else:
            self.db = sqlite3.connect(f"file:{where}?mode=ro", uri=True)

    def execute(self, sql: str) -> list[Any]:
        return list(self.db.execute(sql).fetchall())

    def tables(self) -> list[str]:
        if self.postgres:
            sql = "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        else:
            sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
        return [r[0] for r in self.execute(sql)]

    def columns(self, table: str) -> list[str]:
        if self.postgres:
            sql = (
                "SELECT column_name FROM information_schema.columns WHERE table_schema = "
                f"'public' AND table_name = '{table}' ORDER BY ordinal_position"
            )
            return [r[0] for r in self.execute(sql)]
        return [r[1] for r in self.execute(f'PRAGMA table_info("{table}")')]

    def close(self) -> None:
        self.db.close()


def _json(value: Any) -> Any:
    """A JSON column's value parsed (SQLite holds text, PostgreSQL hands it parsed)."""
    return json.loads(value) if isinstance(value, str) else value


def _keys(db: Store) -> tuple[dict[Any, str], dict[Any, str], dict[Any, str]]:
    """Memory ids and seqs -> content hash; entity ids -> namespace/canonical name;
    relation ids -> what the relation joins."""
    memories: dict[Any, str] = {}
    for seq, mid, digest in db.execute("SELECT seq, id, content_hash FROM memories"):
        memories[mid] = memories[seq] = "m:" + digest
    entities = {
        eid: f"e:{ns}/{name}"
        for eid, ns, name in db.execute("SELECT id, namespace, canonical_name FROM entities")
    }
    relations = {
        rid: f"r:{entities.get(s)}-{kind}-{entities.get(t)}@{memories.get(m)}"
        for rid, s, t, kind, m in db.execute(
            "SELECT id, source_entity_id, target_entity_id, relation_type, source_memory_id"
            " FROM relations"
        )
    }
    return memories, entities, relations


def table_rows(path: str | Path) -> dict[str, list[str]]:
    """Every content table's rows, sorted, with ids mapped and times dropped."""
    db = Store(path)
    memories, entities, relations = _keys(db)
    out: dict[str, list[str]] = {}
    names = [name for name in db.tables() if not name.startswith("fts_") and name not in SKIP]
    for name in names:
        columns = db.columns(name)
        rows = []
        for row in db.execute(f'SELECT * FROM "{name}"'):
            cells = []
            for column, value in zip(columns, row, strict=True):
                if column in DROPPED or column.endswith("_at") or column == "run_after":
                    continue
                if column == "id" and name not in ("entities", "relations", "memories"):
                    continue  # history, jobs, attributes: autoincrement or random
                if column == "valid_to":
                    value = value is None  # open or closed
                elif column.endswith("entity_id") or (name == "entities" and column == "id"):
                    value = entities.get(value, value)
                elif column == "relation_id" or (name == "relations" and column == "id"):
                    value = relations.get(value, value)
                elif isinstance(value, str) and value in memories:
                    value = memories[value]
                elif column == "metadata" and isinstance(value, str | dict):
                    meta = _json(value)
                    value = json.dumps(
                        {k: v for k, v in meta.items() if not k.endswith("_at")}, sort_keys=True
                    )
                elif column == "payload" and value is not None:
                    value = json.dumps(_json(value), sort_keys=True)
                cells.append(value)
            rows.append(repr(cells))
        if rows:
            out[name] = sorted(rows)
    db.close()
    return out


def vectors(path: str | Path) -> dict[tuple[str, str], np.ndarray]:
    """Each memory's vector by (content hash, model) (SQLite's: a PostgreSQL run adds
    without the model, see ``--postgres``)."""
    if str(path).startswith("postgresql://"):
        return {}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    found = {
        (digest, model): np.frombuffer(blob, dtype=np.float32)
        for digest, model, blob in db.execute(
            "SELECT m.content_hash, v.model, v.vector FROM memory_vectors v"
            " JOIN memories m ON m.seq = v.memory_seq"
        )
    }
    db.close()
    return found


def _database(version: str, args: argparse.Namespace) -> str:
    """A new database for ``version`` on the ``--postgres`` server (``--base`` copied)."""
    import psycopg

    name = f"eq_{version}"
    template = f" TEMPLATE {args.base}" if args.base else ""
    with psycopg.connect(args.postgres + "postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}{template}")
    return args.postgres + name


def run(version: str, src: Path, args: argparse.Namespace) -> tuple[str | Path, dict[str, Any]]:
    """Copy the base store for ``version`` and add the texts into it with ``src``."""
    if args.postgres:
        return _add(_database(version, args), src, args)
    where = Path(args.work) / version
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    store = where / "store.db"
    if args.base:
        base = Path(args.base)
        shutil.copy2(base, store)
        for suffix in ("-wal", "-shm"):
            if Path(f"{base}{suffix}").exists():
                shutil.copy2(f"{base}{suffix}", f"{store}{suffix}")
        if Path(f"{base}.vindex").is_dir():
            shutil.copytree(f"{base}.vindex", f"{store}.vindex")
    return _add(store, src, args)


def _add(store: str | Path, src: Path, args: argparse.Namespace) -> tuple[str | Path, Any]:
    """Add the texts into ``store`` with ``src``, in a process of its own."""
    command = [sys.executable, __file__, "--child", "--store", str(store)]
    command += ["--texts", args.texts, "--data", args.data]
    command += ["--embedder"] if args.embedder else []
    env = {**os.environ, "PYTHONPATH": str(src.resolve())}
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    return store, json.loads(done.stdout.strip().splitlines()[-1])


def compare(old: str | Path, new: str | Path) -> bool:
    """Print table by table whether the two stores hold the same rows."""
    same = True
    a, b = table_rows(old), table_rows(new)
    for name in sorted(set(a) | set(b)):
        left, right = a.get(name, []), b.get(name, [])
        digest = hashlib.sha256("\n".join(left).encode()).hexdigest()[:12]
        if left == right:
            print(f"  {name}: {len(left)} rows, identical ({digest})")
            continue
        same = False
        gone, added = sorted(set(left) - set(right)), sorted(set(right) - set(left))
        print(f"  {name}: DIFFERS, {len(left)} old / {len(right)} new rows")
        for row in gone[:5]:
            print(f"    only old: {row[:200]}")
        for row in added[:5]:
            print(f"    only new: {row[:200]}")
    va, vb = vectors(old), vectors(new)
    if set(va) != set(vb):
        same = False
        print(f"  vectors: DIFFER, {len(va)} old / {len(vb)} new, {len(set(va) ^ set(vb))} apart")
    elif va:
        worst = max(float(np.abs(va[k] - vb[k]).max()) for k in va)
        print(f"  vectors: {len(va)} on both, largest difference {worst:.2e}")
        same = same and worst < 1e-3
    return same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", help="the old version's src directory")
    parser.add_argument("--new", help="the new version's src directory")
    parser.add_argument("--base", help="a store to copy for each version (never written)")
    parser.add_argument("--texts", default="composed:0:2000")
    parser.add_argument("--embedder", action="store_true", help="add with the real embedder")
    parser.add_argument("--data", default=LOCOMO, help="the LoCoMo file")
    parser.add_argument("--work", default="/tmp/write-equivalence")
    parser.add_argument("--postgres", help="a PostgreSQL server's URL ending in '/'")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--store", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if not args.old or not args.new:
        parser.error("--old and --new are required")
    stores = {}
    for version, src in (("old", args.old), ("new", args.new)):
        stores[version], timing = run(version, Path(src), args)
        print(f"{version}: {timing['texts']} texts added in {timing['seconds']} s ({src})")
    same = compare(stores["old"], stores["new"])
    print("identical" if same else "DIFFERENT")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
