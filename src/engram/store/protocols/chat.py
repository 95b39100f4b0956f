"""The chat part of a store: each user's own chat-memory settings (seed 003: "settings
are per-user"; issue 31)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class ChatSettingsStore(Protocol):
    """A namespace's chat settings: the ``[chat]`` keys it overrides."""

    def get(self, namespace: str) -> dict[str, Any] | None:
        """The namespace's stored settings, or None when it never set any."""
        ...

    def put(self, namespace: str, settings: Mapping[str, Any], *, now: datetime) -> None:
        """Insert or replace the namespace's settings."""
        ...

    def remove(self, namespace: str) -> bool:
        """Forget the namespace's settings (the ``[chat]`` defaults apply again); True
        if there were any."""
        ...
