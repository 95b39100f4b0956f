"""``mem.backend``: the store's lifecycle and what it can do (seed 002's
``MemoryBackend`` lifecycle and ``MemoryCapabilities``; FEATURES S1).

``disconnect()`` releases the store's connection without closing the ``Memory``: until
``connect()`` reopens the same location, every call raises ``StoreConnectionError``.
``health_check()`` makes one real round trip and answers True or False, never raising.
``capabilities()`` says what the backend supports, so a caller can check before it
tries; ``require(name)`` raises ``CapabilityError`` for a capability it lacks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engram.core import Part
from engram.errors import CapabilityError, InvalidInputError, shown
from engram.store.protocols.capabilities import Capabilities

__all__ = ["FLAGS", "Backend", "Capabilities"]

#: The yes/no capabilities ``require`` checks, by name.
FLAGS = (
    "supports_graph",
    "supports_temporal",
    "supports_vector_search",
    "supports_shared_access",
    "supports_reconnect",
)


class Backend(Part):
    """The store's lifecycle and capability discovery."""

    @property
    def backend_name(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._core.store.backend_name

    @property
    def is_connected(self) -> bool:
        """True while the store holds its connection (False after ``disconnect`` or
        ``close``)."""
        return not self._core.closed and self._core.store.is_connected

    def connect(self) -> None:
        """Reopen the same location after ``disconnect``; a no-op when connected.
        ``StoreClosedError`` once the ``Memory`` is closed; ``StoreConnectionError``
        when the database cannot be reached (try again later)."""
        self._core.check_open()
        self._core.store.connect()

    def disconnect(self) -> None:
        """Release the connection; calls raise ``StoreConnectionError`` until
        ``connect``. An in-memory store refuses (``CapabilityError``): its data would
        go with the connection."""
        self._core.check_open()
        self._core.store.disconnect()

    def health_check(self) -> bool:
        """One round trip to the database: True when it answers, else False (never
        raises, also after ``disconnect`` or ``close``)."""
        if self._core.closed:
            return False
        return self._core.store.health_check()

    def capabilities(self) -> Capabilities:
        """What this ``Memory`` can do: the store's capabilities, with vector search
        only when an embedder is configured, shared access only when
        ``[agents] shared_knowledge_base`` is on, and the per-agent maximum that
        consolidation enforces (``[lifecycle] max_memories_per_agent``)."""
        caps = self._core.store.capabilities()
        if self._core.embedder is None and caps.supports_vector_search:
            caps = replace(caps, supports_vector_search=False)
        if not self._core.config.agents.shared_knowledge_base:  # seed 002's switch
            caps = replace(caps, supports_shared_access=False)
        # Consolidation (mem.lifecycle) holds each namespace to this many live memories.
        return replace(
            caps, max_memories_per_agent=self._core.config.lifecycle.max_memories_per_agent
        )

    def require(self, capability: str) -> None:
        """``CapabilityError`` unless ``capability`` (one of ``FLAGS``, with or without
        ``supports_``) is supported."""
        text = capability if isinstance(capability, str) else ""
        name = text if text.startswith("supports_") else f"supports_{text}"
        if name not in FLAGS:
            raise InvalidInputError(
                f"unknown capability {shown(capability)}: use one of {', '.join(FLAGS)}"
            )
        if not getattr(self.capabilities(), name):
            raise CapabilityError(
                f"the {self.backend_name} backend here does not support "
                f"{name.removeprefix('supports_').replace('_', ' ')}"
            )

    def status(self) -> dict[str, Any]:
        """Name, connection, health and capabilities, JSON-ready (``GET /v1/backend``,
        ``engram backend``)."""
        return {
            "backend": self.backend_name,
            "connected": self.is_connected,
            "healthy": self.health_check(),
            "capabilities": self.capabilities().as_dict(),
        }
