"""What both backends' ``Database`` share about being open.

A store is open, disconnected (``disconnect``: its connections or pool closed, and
``reconnect`` reopens them) or closed for good (``close``). Each backend keeps its own
connections and locks; this is only the state and its checks, written once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from engram.errors import StoreClosedError, StoreConnectionError, StoreError


class Opened:
    """The open/disconnected/closed state of a backend's ``Database``."""

    location: str
    _closed: bool = False
    _disconnected: bool = False

    def read(self, what: str = "read") -> AbstractContextManager[Any]:
        raise NotImplementedError

    # Each backend's own: the locks held while the state changes, closing its
    # connections (or pool), opening them again.
    def _held(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _shut(self) -> None:
        raise NotImplementedError

    def _open(self) -> None:
        raise NotImplementedError

    @contextmanager
    def bounded_wait(self, seconds: float) -> Iterator[None]:
        """Within the block, calls on this thread wait at most ``seconds`` for a
        connection the database cannot give (an outage). A backend with a pool
        overrides it; a SQLite file has no server to be down, so nothing changes."""
        yield

    def disconnect(self) -> None:
        """Close the connections (or the pool) but keep the store reopenable
        (``reconnect``)."""
        with self._held():
            if self.connected:
                self._disconnected = True
                self._shut()

    def reconnect(self) -> None:
        """Reopen the same store after ``disconnect``; a no-op when connected."""
        with self._held():
            if self._closed:
                self.check_open()
            if self._disconnected:
                try:
                    self._open()
                except StoreError as exc:
                    raise StoreConnectionError(str(exc)) from exc
                self._disconnected = False

    def close(self) -> None:
        """Close the connections (or the pool) for good; idempotent."""
        with self._held():
            if not self._closed:
                self._closed = True
                if not self._disconnected:  # ``disconnect`` closed them already
                    self._shut()

    def check_open(self) -> None:
        """``StoreClosedError`` after ``close``; ``StoreConnectionError`` while
        disconnected."""
        if self._closed:
            raise StoreClosedError("this store is closed; open a new Memory to keep working")
        if self._disconnected:
            raise StoreConnectionError(
                f"the store at {self.location} is disconnected; call "
                "mem.backend.connect() to reopen it"
            )

    @property
    def connected(self) -> bool:
        """True while the connections (or the pool) are open."""
        return not self._closed and not self._disconnected

    @property
    def closed(self) -> bool:
        """True after ``close``."""
        return self._closed

    def ping(self) -> bool:
        """One round trip (``SELECT 1``); False instead of an error."""
        try:
            with self.read("health check") as conn:
                row = conn.execute("SELECT 1").fetchone()
                return row is not None and row[0] == 1
        except Exception:  # noqa: BLE001 - a health check answers, it never raises
            return False
