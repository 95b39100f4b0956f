"""The worker threads a recall runs its independent reads on (the keyword leg, the hint
index, the shared leg, PostgreSQL's overlapped reads).

A pool starts on first use. Once closed it starts no thread again: a recall already
past the store's open check when ``Memory.close`` runs fails as a closed store does,
instead of starting a pool whose thread would outlive the store.

``Behind`` queues the reads a recall needs only later (the shared space's count, the
policy block) behind the keyword leg, on its worker, on SQLite: each thread woken
beside the model competes with it for the two cores (docs/benchmarks.md, "lat28").
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
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


Call = tuple[Future[Any], Callable[[], Any]]


class Behind:
    """A recall's reads needed only later, started beside the model.

    With ``queue`` (SQLite: a read costs tens of µs, less than waking a thread), they
    wait for the keyword leg and run after it on its worker, one after another, each
    answering its own future (the keyword leg's as soon as it ends): one thread runs
    beside the model instead of three. A thread woken there takes the interpreter
    whenever another lets it go in a statement, and then both run beside the model on
    two cores (the model's run was 0.1–0.2 ms longer with three). Without ``queue``
    (PostgreSQL: each read is a round trip that waits on the server) each starts on its
    own worker at once, so the round trips overlap."""

    def __init__(self, workers: Workers, *, queue: bool) -> None:
        self._workers = workers
        self._queued: list[Call] | None = [] if queue else None

    def submit(self, fn: Callable[..., _T], *args: Any) -> Future[_T]:
        """``fn(*args)``'s future: queued, or started now without ``queue``."""
        if self._queued is None:
            return self._workers.submit(fn, *args)
        future: Future[_T] = Future()
        self._queued.append((future, partial(fn, *args)))
        return future

    def first(self, fn: Callable[..., _T], *args: Any) -> Future[_T]:
        """``fn(*args)`` started on a worker, with the queued calls after it there."""
        calls = self._take()
        if not calls:
            return self._workers.submit(fn, *args)
        future: Future[_T] = Future()
        self._workers.submit(_answer, [(future, partial(fn, *args)), *calls])
        return future

    def start(self) -> None:
        """The queued calls started on a worker, if no ``first`` took them."""
        if calls := self._take():
            self._workers.submit(_answer, calls)

    def _take(self) -> list[Call]:
        calls, self._queued = self._queued or [], None
        return calls


def _answer(calls: Sequence[Call]) -> None:
    """Each call in turn, its answer or its error to its own future (the pool's own
    work items do the same with theirs)."""
    for future, call in calls:
        if not future.set_running_or_notify_cancel():
            continue
        try:
            future.set_result(call())
        except BaseException as exc:
            future.set_exception(exc)


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
