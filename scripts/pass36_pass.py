"""Round twenty-seven of the new-user pass: the operator's cases that a script can
replay (scripts/pass36_cases.py lists them all), run against one engram tree.

It starts a durable throwaway PostgreSQL 16 + pgvector server (tests/pgserver.py), then
as an operator would, with the ``engram`` command of the tree on ``PYTHONPATH``:

* ``setup-role``: a login role owning its database, no pgvector: ``engram doctor``;
* ``schema-grant``: a role that owns nothing: ``engram doctor`` on a database with
  pgvector;
* ``pg-restore``: ``pg_dump -Fc`` of a written store, ``pg_restore`` as the engram role
  into a new database without pgvector (what the docs' one line led to), then
  ``engram doctor`` on it; and the documented way (a superuser's ``CREATE EXTENSION``
  first, ``pg_restore --no-comments``);
* ``foreign-source``: ``engram migrate-store --from`` an application's database (a
  ``customers`` table): its exit, and the tables left in that database;
* ``pg-down``: ``engram serve --log-format json`` on the store, writes, PostgreSQL
  stopped for ``--outage`` seconds and started again: how long after the start
  ``/ready`` answers 200 again, what a write answers then, and how many lines of the
  server's log are not JSON.

Run it once per tree and compare (base = a checkout of main):

    PYTHONPATH=src python scripts/pass36_pass.py --outage 60          # this tree
    PYTHONPATH=/tmp/base-pass36/src python scripts/pass36_pass.py --outage 60
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from pgserver import PgServer, free_port, pg_bin  # noqa: E402


def engram(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engram", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def psql(server: PgServer, database: str, *statements: str) -> None:
    for statement in statements:
        subprocess.run(
            [str(pg_bin() / "psql"), "-q", "-d", server.database_url(database), "-c", statement],
            check=True,
            capture_output=True,
            text=True,
        )


def said(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    err = done.stderr.strip().splitlines()
    return {
        "exit": done.returncode,
        "stderr_lines": len(err),
        "traceback": any(line.startswith("Traceback") for line in err),
        "error": next((line for line in err if line.startswith("error:")), None),
    }


def pg_ctl(server: PgServer, verb: str) -> None:
    if verb == "stop":
        server.pause()
    else:
        server.resume()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--outage", type=float, default=60.0, help="seconds PostgreSQL is down (0: skip that case)"
    )
    args = parser.parse_args()
    out: dict[str, Any] = {}
    server = PgServer.start(durable=True)
    home = Path(tempfile.mkdtemp(prefix="pass36-"))
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    base_env["ENGRAM_HOME"] = str(home)
    try:
        psql(server, "postgres", "CREATE ROLE engram LOGIN", "CREATE ROLE other LOGIN")
        as_engram = server.url.replace("://postgres@", "://engram@")
        as_other = server.url.replace("://postgres@", "://other@")

        def url(who: str, database: str) -> str:
            return who.rsplit("/", 1)[0] + "/" + database

        # setup-role: the owner of its database, without pgvector
        psql(server, "postgres", "CREATE DATABASE engram OWNER engram")
        env = {**base_env, "ENGRAM_STORE": url(as_engram, "engram")}
        out["setup-role"] = said(engram(env, "doctor"))
        psql(server, "engram", "CREATE EXTENSION vector")
        out["setup-doctor"] = said(engram(env, "doctor"))
        # schema-grant: a role that owns nothing
        other_env = {**base_env, "ENGRAM_STORE": url(as_other, "engram")}
        psql(server, "postgres", "CREATE DATABASE notmine")
        psql(server, "notmine", "CREATE EXTENSION vector")
        other_env["ENGRAM_STORE"] = url(as_other, "notmine")
        out["schema-grant"] = said(engram(other_env, "doctor"))
        # a store with memories
        for n, user in enumerate(("mira", "tomas", "olu") * 4):
            done = engram(
                env, "add", f"note {n} of {user}: the deploy window is {n}:00", "--user", user
            )
            assert done.returncode == 0, done.stderr
        # pg-restore, as the one line of the docs led to, then the documented way
        dump = home / "engram.dump"
        subprocess.run(
            [str(pg_bin() / "pg_dump"), "-Fc", "-d", url(as_engram, "engram"), "-f", str(dump)],
            check=True,
        )
        psql(server, "postgres", "CREATE DATABASE restored OWNER engram")
        restore = subprocess.run(
            [str(pg_bin() / "pg_restore"), "-d", url(as_engram, "restored"), str(dump)],
            capture_output=True,
            text=True,
            check=False,
        )
        out["pg-restore-no-extension"] = {
            "pg_restore_exit": restore.returncode,
            "doctor": said(engram({**env, "ENGRAM_STORE": url(as_engram, "restored")}, "doctor")),
        }
        psql(server, "postgres", "CREATE DATABASE restored2 OWNER engram")
        psql(server, "restored2", "CREATE EXTENSION vector")
        restore = subprocess.run(
            [
                str(pg_bin() / "pg_restore"),
                "--no-comments",
                "-d",
                url(as_engram, "restored2"),
                str(dump),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        doctor = engram({**env, "ENGRAM_STORE": url(as_engram, "restored2")}, "doctor", "--json")
        out["pg-restore-documented"] = {
            "pg_restore_exit": restore.returncode,
            "doctor_exit": doctor.returncode,
            "namespaces": json.loads(doctor.stdout).get("namespaces") if doctor.stdout else None,
        }
        # foreign-source: migrate-store from an application's database
        psql(server, "postgres", "CREATE DATABASE appdb OWNER engram")
        psql(server, "appdb", "CREATE EXTENSION vector", "CREATE TABLE customers (id int)")
        psql(server, "appdb", "ALTER TABLE customers OWNER TO engram")
        copy = home / "appdb-copy.db"
        moved = engram(
            env, "migrate-store", "--from", url(as_engram, "appdb"), "--to", f"sqlite:///{copy}"
        )
        tables = subprocess.run(
            [
                str(pg_bin() / "psql"),
                "-tA",
                "-d",
                server.database_url("appdb"),
                "-c",
                "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        out["foreign-source"] = {
            **said(moved),
            "tables_in_appdb_after": int(tables),
            "target_created": copy.exists(),
        }
        if args.outage > 0:
            out["pg-down"] = outage(env, server, args.outage)
    finally:
        server.stop()
    print(json.dumps(out, indent=2))


def outage(env: dict[str, str], server: PgServer, seconds: float) -> dict[str, Any]:
    port = free_port()
    log = Path(env["ENGRAM_HOME"]) / "serve.err"
    with log.open("w") as err:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "engram",
                "serve",
                "--port",
                str(port),
                "--json",
                "--log-format",
                "json",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        assert proc.stdout is not None
        start = json.loads(proc.stdout.readline())
        key = start["admin_key"]  # a new database: the first start makes one
        headers = {"Authorization": f"Bearer {key}"}
        for _ in range(120):
            try:
                if httpx.get(f"{base}/ready", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        assert (
            httpx.post(
                f"{base}/v1/memories",
                headers=headers,
                json={"content": "before the outage"},
                timeout=60,
            ).status_code
            == 201
        )
        pg_ctl(server, "stop")
        during = httpx.post(
            f"{base}/v1/memories",
            headers=headers,
            json={"content": "during the outage"},
            timeout=60,
        )
        time.sleep(max(0.0, seconds - 30))
        pg_ctl(server, "start")
        started = time.monotonic()
        first_ok: list[float] = []

        def probe() -> None:
            while not first_ok and time.monotonic() - started < 400:
                try:
                    if httpx.get(f"{base}/ready", timeout=60).status_code == 200:
                        first_ok.append(time.monotonic() - started)
                        return
                except httpx.TransportError:
                    pass
                time.sleep(0.25)

        probes = [threading.Thread(target=probe) for _ in range(4)]
        for i, t in enumerate(probes):
            t.start()
            time.sleep(0.25 * (i > 0))
        for t in probes:
            t.join()
        after = httpx.post(
            f"{base}/v1/memories", headers=headers, json={"content": "after the outage"}, timeout=60
        )
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    not_json = 0
    for line in lines:
        try:
            json.loads(line)
        except json.JSONDecodeError:
            not_json += 1
    return {
        "outage_s": seconds,
        "write_during": [during.status_code, during.json().get("error")],
        "ready_again_after_start_s": round(min(first_ok), 1) if first_ok else None,
        "write_after": after.status_code,
        "log_lines": len(lines),
        "log_lines_not_json": not_json,
    }


if __name__ == "__main__":
    main()
