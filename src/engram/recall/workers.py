"""The worker threads a recall runs its independent reads on (the keyword leg, the hint
index, the shared leg, PostgreSQL's overlapped reads).

A pool starts on first use. Once closed it starts no thread again: a recall already
past the store's open check when ``Memory.close`` runs fails as a closed store does,
instead of starting a pool whose thread would outlive the store.

``Batch`` runs the reads a recall needs only later (the shared space's count, the
policy block) as one task on SQLite: each thread woken beside the model competes with
it for the two cores (docs/benchmarks.md, "lat28").
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


class Batch:
    """A recall's reads needed only later, started beside the model (the shared space's
    count, the policy block): ``submit`` each, then ``start`` them (or leave the
    ``with`` block).

    With ``one_task`` (SQLite: a read costs tens of µs, less than waking a thread) they
    run as one task on one worker, one after another, each answering its own future:
    two threads run beside the model (this one and the keyword leg's), not three. A
    thread woken there takes the interpreter whenever another lets it go in a
    statement, and then two run beside the model on the two cores; queued behind the
    keyword leg on its worker instead, they ran after the model on a loaded machine and
    slowed what follows it (docs/benchmarks.md, "lat28"). Without ``one_task``
    (PostgreSQL: each read is a round trip that waits on the server) each starts on its
    own worker at once, so the round trips overlap."""

    def __init__(self, workers: Workers, *, one_task: bool) -> None:
        self._workers = workers
        self._queued: list[Call] | None = [] if one_task else None

    @property
    def queues(self) -> bool:
        """True while ``submit`` queues (``one_task``, not started yet)."""
        return self._queued is not None

    def submit(self, fn: Callable[..., _T], *args: Any) -> Future[_T]:
        """``fn(*args)``'s future: queued until ``start``, or started now."""
        if self._queued is None:
            return self._workers.submit(fn, *args)
        future: Future[_T] = Future()
        self._queued.append((future, partial(fn, *args)))
        return future

    def start(self) -> None:
        """The queued calls started as one task (none: nothing); later ones at once.
        If the task cannot start (the store closed meanwhile), each queued future ends
        with that error: a later reader sees why instead of waiting forever."""
        calls, self._queued = self._queued or [], None
        if not calls:
            return
        try:
            self._workers.submit(_answer, calls)
        except BaseException as exc:
            for future, _ in calls:
                if future.set_running_or_notify_cancel():
                    future.set_exception(exc)
            raise

    def cancel(self) -> None:
        """The queued calls dropped unrun, each future cancelled (its reader gets
        ``CancelledError``, not a wait forever); nothing queues after this."""
        calls, self._queued = self._queued or [], None
        for future, _ in calls:
            future.cancel()

    def __enter__(self) -> Batch:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        # The block failed before its reads were needed: they are not run (the recall
        # is over), but their futures end, so nothing holding one waits on it forever.
        if kind is None:
            self.start()
        else:
            self.cancel()


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
