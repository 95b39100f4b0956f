"""Per-key rate limits: a token bucket per API key, 429 with ``Retry-After`` past it.

``api.rate_limit_per_minute`` tokens flow into each bucket per minute, up to
``api.rate_limit_burst`` (0: the per-minute number); a request takes one. The bucket
is chosen before authentication, by a digest of the bearer token (never the token
itself), so an over-limit caller costs no key lookup; requests without a key share a
bucket per client address. Health, readiness and metrics are never limited.

Time comes from a ``clock`` (``time.monotonic`` by default) so tests can move it.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from engram.api.errors import send_error

Clock = Callable[[], float]

#: Routes a rate limit never applies to: probes and scrapes must not be refused.
EXEMPT = frozenset({"/health", "/ready", "/health/ready", "/metrics"})
#: Buckets kept; the least recently used goes first (made-up tokens cannot fill memory).
MAX_BUCKETS = 10_000


@dataclass(slots=True)
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """Token buckets keyed by caller; thread-safe."""

    def __init__(self, per_minute: int, burst: int = 0, *, clock: Clock = time.monotonic) -> None:
        if per_minute <= 0:
            raise ValueError("per_minute must be positive (0 means no limiter at all)")
        self.per_minute = per_minute
        self.capacity = float(burst or per_minute)
        self.rate = per_minute / 60.0  # tokens per second
        self.clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, caller: str) -> float:
        """Take a token for ``caller``: 0.0 if allowed, else the seconds until one is free."""
        now = self.clock()
        with self._lock:
            bucket = self._buckets.pop(caller, None)
            if bucket is None:
                bucket = _Bucket(self.capacity, now)
            else:
                elapsed = max(0.0, now - bucket.updated)
                bucket.tokens = min(self.capacity, bucket.tokens + elapsed * self.rate)
                bucket.updated = now
            self._buckets[caller] = bucket
            if len(self._buckets) > MAX_BUCKETS:
                self._buckets.popitem(last=False)
            if bucket.tokens >= 1.0:
                bucket.tokens -= 1.0
                return 0.0
            return (1.0 - bucket.tokens) / self.rate


def caller_of(scope: Scope) -> str:
    """The bucket a request draws from: its bearer token's digest, else its client."""
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                digest = hashlib.sha256(token.strip().encode()).hexdigest()[:24]
                return f"key:{digest}"
    client = scope.get("client")
    return f"client:{client[0] if client else 'unknown'}"


class RateLimit:
    """Pure ASGI middleware applying a :class:`RateLimiter` to every HTTP request."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in EXEMPT:
            await self.app(scope, receive, send)
            return
        wait = self.limiter.take(caller_of(scope))
        if wait <= 0.0:
            await self.app(scope, receive, send)
            return
        retry_after = max(1, math.ceil(wait))
        await send_error(
            send,
            429,
            "rate_limited",
            f"this API key sent more than {self.limiter.per_minute} requests a minute "
            f"(api.rate_limit_per_minute); retry in {retry_after} s",
            [(b"retry-after", str(retry_after).encode())],
        )
