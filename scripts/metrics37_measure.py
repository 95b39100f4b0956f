"""``/metrics``, ``/ready`` and ``/health`` while PostgreSQL is down (helper metrics37).

It starts a throwaway PostgreSQL 16 + pgvector server (tests/pgserver.py) and ``engram
serve`` on it as an operator would (the defaults: MiniLM, ``pool_timeout`` 30 s), with
the ``engram`` of the tree on ``PYTHONPATH``. It makes a user key and a second admin key
with ``engram keys create``, scrapes ``/metrics`` with both admin keys, revokes the
second with ``engram keys revoke`` (another process, as an operator does) and, without
using that key again, lets the server check the first one once more. Then it stops
PostgreSQL (``pg_ctl stop -m fast``) and times three scrapes with the admin key, one
with the revoked admin key, one with the user key, ``/ready``, ``/health`` and a
write; starts PostgreSQL again and times how long until a scrape says
``engram_store_up 1``. Prints one JSON object.

    PYTHONPATH=src python scripts/metrics37_measure.py                  # this tree
    PYTHONPATH=/tmp/base-metrics37/src python scripts/metrics37_measure.py   # base
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from pgserver import PgServer, free_port  # noqa: E402

#: ``engram.keys.RECHECK_EVERY`` (30 s) and a margin: the revoked key's wait.
AFTER_REVOKE = 32.0


def engram(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "engram", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout


def pg_ctl(server: PgServer, verb: str) -> None:
    if verb == "stop":
        server.pause()
    else:
        server.resume()


def timed(method: str, url: str, key: str | None = None, **kw: Any) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    start = time.monotonic()
    try:
        r = httpx.request(method, url, headers=headers, timeout=60, **kw)
    except httpx.TimeoutException:
        return {"status": "timeout", "seconds": round(time.monotonic() - start, 2)}
    out: dict[str, Any] = {"status": r.status_code, "seconds": round(time.monotonic() - start, 2)}
    if r.headers.get("content-type", "").startswith("text/plain"):
        up = re.search(r"^engram_store_up (\d)", r.text, re.M)
        out["engram_store_up"] = None if up is None else int(up.group(1))
    else:
        body = r.json()
        out["error"] = body.get("error") or body.get("status")
    return out


def main() -> None:
    server = PgServer.start()
    home = Path(tempfile.mkdtemp(prefix="metrics37-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    env |= {"ENGRAM_HOME": str(home), "ENGRAM_STORE": server.database_url("postgres")}
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    out: dict[str, Any] = {}
    proc = subprocess.Popen(
        [sys.executable, "-m", "engram", "serve", "--port", str(port), "--json"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        admin = json.loads(proc.stdout.readline())["admin_key"]
        for _ in range(240):
            try:
                if httpx.get(f"{base}/ready", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        user = json.loads(engram(env, "keys", "create", "--user", "mira", "--json"))["key"]
        second = json.loads(engram(env, "keys", "create", "--user", "ops", "--admin", "--json"))
        out["up: scrape"] = timed("GET", f"{base}/metrics", admin)
        out["up: scrape, second admin key"] = timed("GET", f"{base}/metrics", second["key"])
        # Not used again while the store answers: the server forgets it by its recheck.
        engram(env, "keys", "revoke", second["id"])
        time.sleep(AFTER_REVOKE)
        out["up: scrape after the revocation"] = timed("GET", f"{base}/metrics", admin)
        pg_ctl(server, "stop")
        for i in range(3):
            out[f"down: scrape {i + 1}"] = timed("GET", f"{base}/metrics", admin)
        out["down: scrape, revoked admin key"] = timed("GET", f"{base}/metrics", second["key"])
        out["down: scrape, user key"] = timed("GET", f"{base}/metrics", user)
        out["down: /ready"] = timed("GET", f"{base}/ready")
        out["down: /health"] = timed("GET", f"{base}/health")
        out["down: write"] = timed(
            "POST", f"{base}/v1/memories", admin, json={"content": "during the outage"}
        )
        pg_ctl(server, "start")
        started = time.monotonic()
        while time.monotonic() - started < 120:
            scrape = timed("GET", f"{base}/metrics", admin)
            if scrape.get("engram_store_up") == 1:
                break
            time.sleep(0.25)
        out["back: first engram_store_up 1 after the start (s)"] = round(
            time.monotonic() - started, 2
        )
    finally:
        proc.terminate()
        proc.wait(timeout=60)
        server.stop()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
