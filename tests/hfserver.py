"""A Hugging Face hub on 127.0.0.1: the ``/{repo}/resolve/{revision}/{file}`` routes that
``huggingface_hub.hf_hub_download`` uses (HEAD for the metadata headers, GET for the
bytes), serving files from a local directory. Tests point ``HF_ENDPOINT`` at it."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

COMMIT = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class Hub:
    """The running server: its URL, the files it serves and the paths it was asked."""

    url: str
    files: dict[str, bytes]
    repo: str
    requests: list[tuple[str, str]] = field(default_factory=list)


@contextmanager
def serve_hub(root: Path, repo: str, overrides: dict[str, bytes] | None = None) -> Iterator[Hub]:
    """Serve every file under ``root`` as ``repo`` at any revision; ``overrides`` replaces
    some files' bytes (a tampered mirror)."""
    files = {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    files.update(overrides or {})
    hub = Hub(url="", files=files, repo=repo)

    class Handler(BaseHTTPRequestHandler):
        def _target(self) -> bytes | None:
            path = unquote(self.path.split("?", 1)[0]).lstrip("/")
            prefix = f"{repo}/resolve/"
            if not path.startswith(prefix):
                return None
            _revision, _, name = path[len(prefix) :].partition("/")
            return files.get(name)

        def _headers(self, body: bytes) -> None:
            self.send_header("Content-Length", str(len(body)))
            self.send_header("ETag", f'"{hashlib.sha256(body).hexdigest()}"')
            self.send_header("X-Repo-Commit", COMMIT)
            self.end_headers()

        def _answer(self, method: str) -> bytes | None:
            """Log the request and send its status and headers: 404 for a file the
            hub does not have (None), else 200 and the file's body to send."""
            hub.requests.append((method, self.path))
            body = self._target()
            if body is None:
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            self.send_response(200)
            self._headers(body)
            return body

        def do_HEAD(self) -> None:  # noqa: N802 - http.server's naming
            self._answer("HEAD")

        def do_GET(self) -> None:  # noqa: N802
            body = self._answer("GET")
            if body is not None:
                self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    hub.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield hub
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
