"""What a backend can do (seed 002's ``MemoryCapabilities``), reported by
``Store.capabilities()`` so callers check before they try (FEATURES S1)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from engram.records import MemoryCategory


@dataclass(frozen=True, slots=True)
class Capabilities:
    """Seed 002's capability discovery, as one frozen value."""

    backend_name: str
    """``sqlite`` or ``postgresql``."""
    supported_categories: frozenset[MemoryCategory]
    """The memory categories the backend stores (seed 002's five)."""
    supports_graph: bool
    """Entities and relations (``mem.graph``)."""
    supports_temporal: bool
    """Relations with validity windows, and time-window recall."""
    supports_vector_search: bool
    """Dense search over stored vectors. The store's answer is whether it *can*; a
    ``Memory`` without an embedder reports False (``mem.backend.capabilities()``)."""
    supports_shared_access: bool
    """Cross-agent shared knowledge (``mem.shared``)."""
    max_memories_per_agent: int | None
    """A cap on one agent's memories the backend enforces; None: no cap."""
    supports_reconnect: bool
    """``disconnect`` then ``connect`` keeps the data (False for ``:memory:``)."""

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready view (categories sorted)."""
        view: dict[str, object] = {f.name: getattr(self, f.name) for f in fields(self)}
        view["supported_categories"] = sorted(c.value for c in self.supported_categories)
        return view


def capabilities_of(name: str, *, vectors: bool = True, reconnect: bool = True) -> Capabilities:
    """What engram's two backends share: every category, the temporal graph and shared
    knowledge (namespaces), and no per-agent cap of their own (the store keeps what it
    is given; ``max_memories_per_agent`` is enforced above it when configured)."""
    return Capabilities(
        backend_name=name,
        supported_categories=frozenset(MemoryCategory),
        supports_graph=True,
        supports_temporal=True,
        supports_vector_search=vectors,
        supports_shared_access=True,
        max_memories_per_agent=None,
        supports_reconnect=reconnect,
    )
