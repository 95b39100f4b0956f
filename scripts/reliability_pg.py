"""PostgreSQL under load (engram issue 26, items 4 and 5; docs/reliability.md).

``deadlock``: a PostgreSQL store holding N memories without vectors is served by the
HTTP API with an embedder, so its background filler (``mem.admin.backfill``) embeds
them while T threads ``POST /v1/memories`` for S seconds. ``restart``: the same load,
and the PostgreSQL server is restarted (``pg_ctl restart -m fast``) every R seconds;
beside the HTTP threads, T library threads call ``mem.add`` on a second ``Memory``.

For every write it records the answer (status and error code, or the exception class
for the library) and afterwards reads back which contents are stored, so it counts
acknowledged writes that are lost, and failed writes whose memory was stored anyway
(the dishonest answer of issue 26, item 5). The server runs in this process
(``create_app`` under uvicorn, as ``engram serve`` runs it), with the hashed
bag-of-words embedder of scripts/reliability_concurrency.py.

    .venv/bin/python scripts/reliability_pg.py deadlock --seconds 45
    .venv/bin/python scripts/reliability_pg.py restart --seconds 45 --every 10

Prints one JSON object. ``--postgres auto`` (the default) starts a throwaway durable
server with tests/pgserver.py; ``restart`` needs it (it restarts that server).
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from engram import Config, Memory
from engram.api.app import create_app

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "scripts"))

from reliability_concurrency import HashEmbedder  # noqa: E402

from pgserver import PgServer, free_port, pg_bin  # noqa: E402


class Tally:
    """Answers by kind, and the contents acknowledged or failed, across threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.kinds: Counter[str] = Counter()
        self.acked: list[str] = []
        self.failed: list[str] = []

    def note(self, kind: str, content: str, ok: bool) -> None:
        with self.lock:
            self.kinds[kind] += 1
            (self.acked if ok else self.failed).append(content)


def _http_writer(base: str, prefix: str, stop: threading.Event, tally: Tally) -> None:
    with httpx.Client(base_url=base, timeout=60) as client:
        for n in itertools.count():
            if stop.is_set():
                return
            content = f"{prefix} note {n}: the load test wrote this while the filler ran"
            try:
                r = client.post("/v1/memories", json={"content": content, "user_id": "load"})
            except httpx.HTTPError as exc:
                tally.note(f"http {type(exc).__name__}", content, False)
                continue
            if r.status_code in (200, 201):
                pending = " (vector pending)" if r.json().get("warnings") else ""
                tally.note(f"{r.status_code}{pending}", content, True)
            else:
                error = r.json().get("error", "?") if r.content else "?"
                detail = str(r.json().get("detail", ""))[:80] if r.content else ""
                kind = f"{r.status_code} {error}"
                if "deadlock" in detail:
                    kind += " (deadlock detected)"
                tally.note(kind, content, False)


def _library_writer(mem: Memory, prefix: str, stop: threading.Event, tally: Tally) -> None:
    for n in itertools.count():
        if stop.is_set():
            return
        content = f"{prefix} lib {n}: a library write during the restarts"
        try:
            record = mem.add(content, user_id="load")
        except Exception as exc:  # counted by class: the point is what escapes
            tally.note(f"library {type(exc).__name__}: {str(exc)[:40]}", content, False)
            time.sleep(0.05)
            continue
        pending = record.embedding_model is None
        tally.note("library ok" + (" (vector pending)" if pending else ""), content, True)


def _restart(server: PgServer) -> None:
    assert server.workdir is not None
    # The restarted server logs to its file, not to a pipe of ours: a pipe nobody reads
    # fills up and stops the server.
    subprocess.run(
        [*server._run_as, str(pg_bin() / "pg_ctl"), "-D", str(server.workdir / "data"),
         "-l", str(server.workdir / "server.log"), "-m", "fast", "-w", "-t", "60", "restart"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
    )  # fmt: skip


def _stored(url: str, contents: list[str]) -> set[str]:
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT content FROM memories WHERE content = ANY(%s)", (contents,)
        ).fetchall()
    return {r[0] for r in rows}


def run(mode: str, seeded: int, threads: int, seconds: float, every: float) -> dict[str, Any]:
    server = PgServer.start(durable=True)
    try:
        url = server.database_url(server.create_database())
        home = tempfile.mkdtemp(prefix="engram-pg-load-")
        config = Config.load(env={}, home=home)
        with Memory(url, config=config, embedder=None) as plain:
            plain.add_many(
                [f"seeded memory {i} about topic {i % 97} without a vector" for i in range(seeded)],
                namespace="user:seed",
            )
        mem = Memory(url, config=config, embedder=HashEmbedder())
        lib = Memory(url, config=config, embedder=HashEmbedder()) if mode == "restart" else None
        port = free_port()
        app = create_app(mem, auth=False, mcp=False)
        userver = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical", lifespan="on")
        )
        serving = threading.Thread(target=userver.run, daemon=True)
        serving.start()
        while not userver.started:
            time.sleep(0.05)
        tally = Tally()
        stop = threading.Event()
        workers = [
            threading.Thread(
                target=_http_writer, args=(f"http://127.0.0.1:{port}", f"h{i}", stop, tally)
            )
            for i in range(threads)
        ]
        if lib is not None:
            workers += [
                threading.Thread(target=_library_writer, args=(lib, f"l{i}", stop, tally))
                for i in range(threads)
            ]
        started = time.monotonic()
        for w in workers:
            w.start()
        restarts = 0
        while time.monotonic() - started < seconds:
            time.sleep(min(every, seconds) if mode == "restart" else 0.5)
            if mode == "restart" and time.monotonic() - started < seconds:
                _restart(server)
                restarts += 1
        stop.set()
        for w in workers:
            w.join(timeout=120)
        userver.should_exit = True
        serving.join(timeout=60)
        filled = mem.store.vectors.count_missing(HashEmbedder.name)
        mem.close()
        if lib is not None:
            lib.close()
        stored = _stored(url, tally.acked + tally.failed)
        return {
            "mode": mode,
            "seeded": seeded,
            "threads": threads,
            "seconds": seconds,
            "restarts": restarts,
            "answers": dict(sorted(tally.kinds.items())),
            "acknowledged": len(tally.acked),
            "acknowledged_lost": sum(c not in stored for c in tally.acked),
            "failed": len(tally.failed),
            "failed_but_stored": sum(c in stored for c in tally.failed),
            "still_without_vector": filled,
        }
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("deadlock", "restart"))
    parser.add_argument("--seeded", type=int, default=3000, help="memories without vectors")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--every", type=float, default=10.0, help="restart: seconds apart")
    args = parser.parse_args()
    print(json.dumps(run(args.mode, args.seeded, args.threads, args.seconds, args.every)))


if __name__ == "__main__":
    main()
