"""The aspect part of a store: seed 004's entity aspects and attributes, and the aspect
feedback loop that moves aspect weights (FEATURES G5).

An aspect is a named facet of an entity ("battery", "career") with a weight; an
attribute is a structural fact about an entity, from one memory, filed under an aspect
once classified. Confirming a memory (a positive rating, a search hit in a session)
raises the weight of the aspects its attributes are filed under; aspects nobody has
confirmed for a while decay (seed 004, "Aspect Feedback").
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

from engram.store.protocols.graph import Aspect, Attribute
from engram.store.protocols.record import Record


@dataclass(frozen=True, slots=True)
class AspectFeedback(Record):
    """What one ``confirm`` did (seed 004's feedback telemetry, per call)."""

    aspects_updated: int = 0
    """Aspects whose weight was moved (or re-stamped at a bound)."""
    confirmations: int = 0
    """Confirmations summed over those aspects (a memory confirmed twice counts 2)."""
    propagated_attributes: int = 0
    """Attributes of the confirmed memories that carried the signal to an aspect."""


@runtime_checkable
class AspectStore(Protocol):
    """Aspects and attributes of entities, and their weights' feedback and decay.

    Every call takes a namespace and never reads or writes outside it. Writes join an
    open ``store.transaction()``.
    """

    def upsert_aspect(
        self, namespace: str, entity_id: int, name: str, *, weight: float, now: datetime
    ) -> Aspect:
        """The entity's aspect called ``name`` (by canonical name), created with
        ``weight`` if it is new; an existing one is returned unchanged."""
        ...

    def add_attribute(
        self,
        namespace: str,
        entity_id: int,
        memory_id: str,
        content: str,
        *,
        aspect_id: int | None,
        kind: str,
        importance: float,
        now: datetime,
    ) -> Attribute:
        """Record a structural fact; the same (entity, memory, content) again updates
        its aspect (when given), kind and importance instead of adding a row."""
        ...

    def aspects(self, namespace: str, entity_id: int) -> list[Aspect]:
        """The entity's aspects, heaviest first."""
        ...

    def attributes(self, namespace: str, entity_id: int) -> list[Attribute]:
        """The entity's attributes, oldest first."""
        ...

    def confirm(
        self,
        namespace: str,
        memory_counts: Mapping[str, int],
        *,
        delta: float,
        min_weight: float,
        max_weight: float,
        now: datetime,
    ) -> AspectFeedback:
        """seed 004: for each aspect that an attribute of a confirmed memory is filed
        under, ``weight += delta x confirmations`` (the memories' counts summed),
        clamped to [min_weight, max_weight], and ``updated_at = now``. Memories of
        other namespaces and unclassified attributes are ignored."""
        ...

    def decay(
        self,
        namespace: str,
        *,
        stale_before: datetime,
        rate: float,
        min_weight: float,
        now: datetime,
    ) -> int:
        """seed 004: aspects not updated since ``stale_before`` lose ``rate``, floored
        at ``min_weight``, and are stamped ``now`` (so one decay per stale period).
        Aspects already at the floor are left alone. Returns how many decayed."""
        ...

    def reassign(
        self,
        namespace: str,
        from_entity: int,
        to_entity: int,
        *,
        memory_ids: Collection[str] | None,
        now: datetime,
    ) -> int:
        """Move attributes of ``from_entity`` to ``to_entity`` (all of them, or those
        of ``memory_ids``), each under the same-named aspect of ``to_entity`` (created
        with the old aspect's weight; an existing one keeps the heavier weight). With
        ``memory_ids=None`` (a merge) the aspects of ``from_entity`` go too. An
        attribute ``to_entity`` already has from the same memory is dropped as a
        duplicate. Returns how many attributes moved."""
        ...
