"""URL ingest against a live ``engram serve``: which addresses a user key can make the
server fetch (engram issue 26, item 1; docs/safety.md, "URL ingest").

Target servers on 127.0.0.1, ::1 and 127.0.0.2 each answer ``/secret.txt`` with a token
found nowhere else, and ``/goto?to=URL`` with a redirect. ``engram serve`` is started
three times on a fresh home (a SQLite store, no embedder, a 100 ms worker poll, a 10 s
fetch timeout, one attempt per job): with the defaults, with ``[documents]
allowed_private_hosts = "127.0.0.2"`` and with ``allow_private_urls = true``. A user key
then posts each URL to ``POST /v1/documents`` and follows the document; a cell reads

- ``refused 422``: refused when submitted (nothing stored);
- ``refused at hop``: queued, then the worker refused an address (a redirect's);
- ``fetched``: the document is done and its chunk holds the target's token, which
  the key can now read back (the issue's leak);
- ``reached (HTTP n)``: something at the address answered with an error status (the
  connection was made);
- ``failed``: the fetch failed otherwise (nothing there, a timeout, a URL httpx
  cannot parse).

The rows: every loopback spelling, ``0.0.0.0``, ``[::1]``, the serving engram's own
``/openapi.json``, a redirect from an allowed host (127.0.0.2) to loopback, a private
and a link-local (cloud metadata) address.

    .venv/bin/python scripts/reliability_url.py              # JSON
    .venv/bin/python scripts/reliability_url.py --markdown   # the table for the docs

The engram under test is the one this Python imports (``PYTHONPATH=other/src`` runs
another checkout's). The exit status is 1 if the default column fetched anything.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import httpx

TOKEN = f"ssrf-token-{secrets.token_hex(6)}"
MODES: dict[str, dict[str, str]] = {
    "default": {},
    "allowed_private_hosts = 127.0.0.2": {"ENGRAM_DOCUMENTS_ALLOWED_PRIVATE_HOSTS": "127.0.0.2"},
    "allow_private_urls = true": {"ENGRAM_DOCUMENTS_ALLOW_PRIVATE_URLS": "true"},
}


class _Target(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - the http.server hook's name
        parts = urlsplit(self.path)
        if parts.path == "/goto":
            self.send_response(302)
            self.send_header("Location", parse_qs(parts.query)["to"][0])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = f"internal secret {TOKEN} served to {self.headers.get('Host')}".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


class _V6Server(ThreadingHTTPServer):
    address_family = socket.AF_INET6


@contextmanager
def target(host: str) -> Iterator[int]:
    """A target server on ``host``; yields its port."""
    cls = _V6Server if ":" in host else ThreadingHTTPServer
    server = cls((host, 0), _Target)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def rows(p4: int, p6: int, p2: int, own: int) -> list[tuple[str, str]]:
    """(label, URL) of every case."""
    secret = "/secret.txt"
    loopback = [
        "127.0.0.1", "localhost", "127.1", "2130706433", "0x7f000001", "0x7f.1",
        "0177.0.0.1", "[::ffff:127.0.0.1]", "0.0.0.0",
    ]  # fmt: skip
    cases = [(f"loopback {h}", f"http://{h}:{p4}{secret}") for h in loopback]
    cases += [
        ("loopback [::1]", f"http://[::1]:{p6}{secret}"),
        ("engram's own /openapi.json", f"http://127.0.0.1:{own}/openapi.json"),
        ("allowed 127.0.0.2 itself", f"http://127.0.0.2:{p2}{secret}"),
        (
            "redirect 127.0.0.2 -> 127.0.0.1",
            f"http://127.0.0.2:{p2}/goto?to={quote(f'http://127.0.0.1:{p4}{secret}')}",
        ),
        ("private 10.255.255.1", "http://10.255.255.1/"),
        ("link-local 169.254.169.254 (metadata)", "http://169.254.169.254/latest/meta-data/"),
    ]
    return cases


@contextmanager
def serve(home: str, port: int, extra: dict[str, str]) -> Iterator[str]:
    """``engram serve`` on ``home``; yields a user key once it answers."""
    env = {
        **os.environ,
        "ENGRAM_EMBEDDER_NAME": "none",
        "ENGRAM_CONFIG": "",
        "ENGRAM_WORKER_POLL_MS": "100",
        "ENGRAM_WORKER_MAX_ATTEMPTS": "1",
        "ENGRAM_DOCUMENTS_FETCH_TIMEOUT_S": "10",
        **extra,
    }
    engram = [sys.executable, "-m", "engram.cli.main", "--home", home]
    made = subprocess.run(
        [*engram, "keys", "create", "--user", "mallory", "--json"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    key = json.loads(made.stdout)["key"]
    proc = subprocess.Popen(
        [*engram, "serve", "--port", str(port), "--log-level", "warning"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"engram serve did not start: {proc.stderr.read()}")  # type: ignore[union-attr]
            time.sleep(0.2)
        yield key
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def attempt(client: httpx.Client, url: str) -> dict[str, Any]:
    """Post ``url`` as a document and follow it to its end; the cell and its detail."""
    made = client.post("/v1/documents", json={"url": url})
    if made.status_code != 202:
        body = made.json()
        return {"cell": f"refused {made.status_code}", "detail": body.get("detail", "")}
    document_id = made.json()["id"]
    deadline = time.monotonic() + 30
    while True:
        doc = client.get(f"/v1/documents/{document_id}").json()
        if doc["status"] in ("done", "failed") or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    if doc["status"] == "done":
        texts = [client.get(f"/v1/memories/{m}").json()["content"] for m in doc["memory_ids"]]
        leaked = any(TOKEN in t or "openapi" in t for t in texts)
        return {"cell": "fetched" if leaked else "done", "detail": texts[0][:120] if texts else ""}
    error = doc.get("error") or ""
    if doc["status"] == "failed":
        if error.startswith("refused to fetch"):
            return {"cell": "refused at hop", "detail": error}
        status = re.search(r"answered HTTP (\d+)", error)
        cell = f"reached (HTTP {status.group(1)})" if status else "failed"
        return {"cell": cell, "detail": error}
    return {"cell": doc["status"], "detail": error}


def run() -> dict[str, Any]:
    matrix: dict[str, dict[str, dict[str, Any]]] = {}
    with target("127.0.0.1") as p4, target("::1") as p6, target("127.0.0.2") as p2:
        for mode, extra in MODES.items():
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            with (
                tempfile.TemporaryDirectory(prefix="engram-url-") as home,
                serve(home, port, extra) as key,
                httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}) as client,
            ):
                for label, url in rows(p4, p6, p2, port):
                    matrix.setdefault(label, {})[mode] = attempt(client, url)
    leaks = [label for label, cells in matrix.items() if cells["default"]["cell"] == "fetched"]
    return {"modes": list(MODES), "matrix": matrix, "default_leaks": leaks}


def markdown(result: dict[str, Any]) -> str:
    modes = result["modes"]
    lines = ["| URL | " + " | ".join(modes) + " |", "|---" * (len(modes) + 1) + "|"]
    for label, cells in result["matrix"].items():
        lines.append(f"| {label} | " + " | ".join(cells[m]["cell"] for m in modes) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--markdown", action="store_true", help="print the matrix as a table")
    args = parser.parse_args()
    started = time.perf_counter()
    result = run()
    result["seconds"] = round(time.perf_counter() - started, 1)
    print(markdown(result) if args.markdown else json.dumps(result, indent=1))
    sys.exit(1 if result["default_leaks"] else 0)


if __name__ == "__main__":
    main()
