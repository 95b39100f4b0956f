"""The job handler registry: which function runs each kind of job.

A handler is ``handler(core, job) -> Mapping[str, Any]``: it does the job's work and
returns its result, which the worker stores on the job (JSON) and marks it
``completed``. Raising fails the job: the worker records ``"<ExceptionType>: <message>"``
as its error and retries it after a backoff, or keeps it ``dead`` once its attempts
reach ``max_attempts``. A handler may run more than once for one job (a retry, or a
worker that died mid-job), so it must be safe to run again. It runs outside any
transaction (seed 004: no model call inside a write transaction); it opens its own short
ones.

The pipeline's modules register their handlers when imported::

    from engram.pipeline.handlers import register
    register("extract", handle_extract)

The default registry imports :data:`HANDLER_MODULES` (those that exist) at its first
lookup, so a worker finds every built-in handler without its caller importing them. A
handler a caller registers wins over the built-in one of its kind, whichever came
first. Tests and embedders may instead pass their own :class:`Registry` to the worker.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engram.core import Core
    from engram.store.protocols import Job

log = logging.getLogger("engram.pipeline")

#: ``handler(core, job) -> result``; raising fails the job.
Handler = Callable[["Core", "Job"], Mapping[str, Any]]

#: The modules that register the built-in handlers when imported: extraction, hints,
#: document ingest and classification. A module not installed (or not written yet) is
#: skipped; one that fails to import is logged and skipped, and its error kept in
#: ``Registry.load_errors``.
HANDLER_MODULES = (
    "engram.pipeline.extract_job",
    "engram.pipeline.hints",
    "engram.pipeline.documents",
    "engram.pipeline.classify",
    "engram.chat.mine_job",  # seed 003's automatic mining of chat turns (issue 31)
)


def _exists(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package is missing
        return False


class Registry:
    """Job kind -> handler. ``modules`` are imported on first lookup to fill it."""

    def __init__(self, modules: Iterable[str] = ()) -> None:
        self._modules = tuple(modules)
        self._handlers: dict[str, Handler] = {}
        self._builtin: dict[str, Handler] = {}
        self._lock = threading.RLock()
        self._loaded = not self._modules
        self._loading = False
        self.load_errors: dict[str, str] = {}
        """Modules that exist but failed to import: name -> the error."""

    def _load(self) -> None:
        """Import the handler modules once (their ``register`` calls run meanwhile)."""
        with self._lock:
            if self._loaded:
                return
            self._loaded = self._loading = True
            try:
                for module in self._modules:
                    if not _exists(module):
                        continue
                    try:
                        importlib.import_module(module)
                    except Exception as exc:  # one broken module must not stop the others
                        self.load_errors[module] = f"{type(exc).__name__}: {exc}"
                        log.error("job handlers in %s could not be loaded: %s", module, exc)
            finally:
                self._loading = False

    def register(self, kind: str, handler: Handler) -> Handler | None:
        """Run ``handler`` for jobs of ``kind``, replacing any earlier one; returns the
        handler it replaced, or None. While the built-in modules load, their handlers
        do not replace one a caller registered first."""
        if not kind or not callable(handler):
            raise ValueError("register needs a job kind and a callable handler")
        with self._lock:
            if self._loading:
                self._builtin[kind] = handler
                self._handlers.setdefault(kind, handler)
                return None
            # A built-in module imported before the first lookup (by any import of it)
            # registers here: its handler is still the built-in one, which
            # ``unregister`` hands the kind back to.
            if getattr(handler, "__module__", None) in self._modules:
                self._builtin[kind] = handler
            previous = self._handlers.get(kind)
            self._handlers[kind] = handler
            return previous

    def unregister(self, kind: str) -> Handler | None:
        """Forget the handler a caller registered for ``kind`` (the built-in one, if
        any, takes over again); returns it, or None."""
        with self._lock:
            previous = self._handlers.pop(kind, None)
            builtin = self._builtin.get(kind)
            if builtin is not None and previous is not builtin:
                self._handlers[kind] = builtin
            return previous

    def handler_for(self, kind: str) -> Handler | None:
        """The handler of ``kind``, or None when nothing handles it."""
        with self._lock:
            self._load()
            return self._handlers.get(kind)

    def kinds(self) -> tuple[str, ...]:
        """The kinds that have a handler, sorted."""
        with self._lock:
            self._load()
            return tuple(sorted(self._handlers))


#: The registry the worker uses unless it is given another.
HANDLERS = Registry(HANDLER_MODULES)


def register(kind: str, handler: Handler) -> Handler | None:
    """Register ``handler`` for ``kind`` in the default registry (see :class:`Registry`)."""
    return HANDLERS.register(kind, handler)


def unregister(kind: str) -> Handler | None:
    """Remove the handler of ``kind`` from the default registry; returns it."""
    return HANDLERS.unregister(kind)


def handler_for(kind: str) -> Handler | None:
    """The default registry's handler of ``kind``, or None."""
    return HANDLERS.handler_for(kind)
