"""The worker threads a recall runs its independent reads on (the keyword leg, the hint
index, the shared leg, PostgreSQL's overlapped reads).

A pool starts on first use. Once closed it starts no thread again: a recall already
past the store's open check when ``Memory.close`` runs fails as a closed store does,
instead of starting a pool whose thread would outlive the store.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

from engram.errors import EngramError, RetrievalError, StoreClosedError

_T = TypeVar("_T")


class Workers:
    """A lazily started thread pool that refuses work once closed."""

    def __init__(self, count: int, name: str) -> None:
        self._count = count
        self._name = name
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, fn: Callable[..., _T], *args: Any) -> Future[_T]:
        with self._lock:
            if self._closed:
                raise StoreClosedError("this store is closed; open a new Memory to keep working")
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._count, thread_name_prefix=self._name)
            return self._pool.submit(fn, *args)

    def close(self) -> None:
        """Wait for the running work, then stop the threads; nothing starts after this."""
        with self._lock:
            self._closed = True
            if self._pool is not None:
                self._pool.shutdown(wait=True)
                self._pool = None


def joined(pending: Future[_T], what: str) -> _T:
    """``pending``'s answer. Its failure is the recall's, as an ``EngramError``: a store
    error as it is (``recall`` names it a retrieval failure), anything else (a bug in
    the term index) as a ``RetrievalError`` naming ``what``, not a bare exception from
    another thread."""
    try:
        return pending.result()
    except EngramError:
        raise
    except Exception as exc:
        raise RetrievalError(f"recall failed in {what}: {type(exc).__name__}: {exc}") from exc
