"""One HTTP exchange with a model server, with seed 004's error rules.

Shared by the LLM providers (``engram.llm``) and the remote embedders
(``engram.embed.ollama``, ``engram.embed.openai_compat``), so every model server failure
reads the same way, whichever error class the caller raises:

- a timeout says ``timed out after N s``;
- an HTTP error gives the status code and the first 200 characters of the body
  (seed 004: "HTTP errors surface the status code and the first 200 characters of the
  response body");
- an unreachable server says so, with the URL.

Each exchange opens its own short-lived ``httpx.Client`` (no socket outlives a call, so
nothing needs closing) over one shared TLS context (building a context costs about
40 ms; reusing it makes a client cost about 0.1 ms).
"""

from __future__ import annotations

import json
import os
import ssl
import threading
import time
from dataclasses import dataclass
from typing import Any

from engram.errors import EngramError

# httpx is imported where an exchange starts, not here: ``engram.core`` imports the
# providers, and ``import httpx`` brings ~13.5k tracked objects (its optional command
# line pulls in rich, click and pygments whenever they are installed) that every full
# garbage collection of a process that never calls a model server would walk
# (docs/benchmarks.md, "mend29").

#: seed 004: "HTTP errors surface ... the first 200 characters of the response body".
BODY_EXCERPT = 200
#: seed 004: "The available check uses a 3-second timeout against GET /api/tags".
HEALTH_TIMEOUT_S = 3.0

_ssl_lock = threading.Lock()
_ssl_context: ssl.SSLContext | None = None


def _tls() -> ssl.SSLContext:
    global _ssl_context
    with _ssl_lock:
        if _ssl_context is None:
            import httpx

            _ssl_context = httpx.create_ssl_context()
        return _ssl_context


def excerpt(text: str, limit: int = BODY_EXCERPT) -> str:
    """``text`` on one line, cut to ``limit`` characters (with an ellipsis if cut)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + "..."


class _Deadline(Exception):
    """The whole exchange ran past its timeout while the body was still arriving."""


@dataclass(frozen=True, slots=True)
class Reply:
    """A model server's answer: status code and body text."""

    url: str
    status: int
    text: str

    @property
    def ok(self) -> bool:
        """A 2xx status."""
        return 200 <= self.status < 300

    def error(self, who: str, error: type[EngramError]) -> EngramError:
        """The descriptive error for a non-2xx answer (seed 004's message rule)."""
        body = excerpt(self.text) or "(empty body)"
        return error(f"{who}: HTTP {self.status} from {self.url}: {body}")

    def json(self, who: str, error: type[EngramError]) -> Any:
        """The body as JSON, or ``error`` when the status is not 2xx or the body is not
        JSON."""
        if not self.ok:
            raise self.error(who, error)
        try:
            return json.loads(self.text)
        except ValueError:
            raise error(
                f"{who}: {self.url} answered with something that is not JSON: "
                f"{excerpt(self.text) or '(empty body)'}"
            ) from None


def send(
    method: str,
    url: str,
    *,
    who: str,
    error: type[EngramError],
    timeout: float,
    payload: Any = None,
    headers: dict[str, str] | None = None,
) -> Reply:
    """Send one request and read the whole answer within about ``timeout`` seconds.

    Any status comes back as a :class:`Reply` (the caller decides which 4xx it can work
    around); a timeout or an unreachable server raises ``error``. httpx's timeouts bound
    each phase (connect, each read), so the body is also checked against the overall
    deadline as it streams in: a server that trickles bytes cannot hold a call for long
    past ``timeout``.
    """
    import httpx

    deadline = time.monotonic() + timeout
    try:
        with (
            httpx.Client(timeout=httpx.Timeout(timeout), verify=_tls()) as client,
            client.stream(method, url, json=payload, headers=headers) as response,
        ):
            chunks: list[bytes] = []
            for chunk in response.iter_bytes():
                chunks.append(chunk)
                if time.monotonic() > deadline:
                    raise _Deadline
            body = b"".join(chunks).decode(response.encoding or "utf-8", errors="replace")
            return Reply(url, response.status_code, body)
    except (httpx.TimeoutException, _Deadline):
        raise error(f"{who}: {method} {url} timed out after {timeout:g} s") from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:
        raise error(f"{who}: cannot reach {url}: {exc or type(exc).__name__}") from exc


def reachable(url: str, *, headers: dict[str, str] | None = None) -> bool:
    """Whether GET ``url`` answers 2xx within :data:`HEALTH_TIMEOUT_S`; never raises."""
    import httpx

    try:
        with httpx.Client(timeout=httpx.Timeout(HEALTH_TIMEOUT_S), verify=_tls()) as client:
            return client.get(url, headers=headers).is_success
    except (httpx.HTTPError, httpx.InvalidURL):
        return False


def bearer(api_key_env: str) -> dict[str, str]:
    """The Authorization header from the environment variable ``api_key_env``, if set."""
    key = os.environ.get(api_key_env, "").strip() if api_key_env else ""
    return {"Authorization": f"Bearer {key}"} if key else {}


def join(base: str, path: str) -> str:
    """``base`` and ``path`` with exactly one slash between them."""
    return base.rstrip("/") + "/" + path.lstrip("/")
