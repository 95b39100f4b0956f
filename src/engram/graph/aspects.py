"""Aspects and attributes of entities, and seed 004's aspect feedback loop (FEATURES
G5): the work behind ``mem.graph.upsert_aspect``, ``add_attribute``,
``aspect_feedback`` and ``decay_aspects``.

A confirmed memory (a positive ``mem.feedback`` rating now; search hits at session end
once sessions exist) raises the weight of every aspect its attributes are filed under
by ``[graph] aspect_delta`` per confirmation, clamped to [``aspect_min_weight``,
``aspect_max_weight``]; an aspect nobody confirmed for ``aspect_stale_days`` loses
``aspect_decay_rate`` per decay run, floored at the minimum. Counters of what feedback
did are kept in-process (seed 004's feedback telemetry) and shown by
``/api/pipeline/status``.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engram.core import Core
from engram.errors import InvalidInputError, shown
from engram.graph.args import name_arg
from engram.records import utcnow
from engram.store.protocols.aspects import AspectFeedback
from engram.store.protocols.graph import ATTRIBUTE_KINDS, Aspect, Attribute, Entity
from engram.validate import memory_id_value, no_nul, optional_float

#: Weight of an aspect created without one: the middle of [0, 1].
DEFAULT_WEIGHT = 0.5


#: seed 004's feedback counters: feedbackAspectsUpdated, feedbackFtsConfirmations,
#: feedbackDecayedAspects, feedbackPropagatedAttributes.
COUNTERS = ("aspects_updated", "confirmations", "decayed_aspects", "propagated_attributes")


@dataclass
class AspectTelemetry:
    """seed 004's feedback telemetry, counted per namespace since this ``Memory``
    opened (in-process, like the seed's snapshot)."""

    _counts: dict[str, dict[str, int]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(
        self, namespace: str, result: AspectFeedback | None = None, *, decayed: int = 0
    ) -> None:
        """Count one feedback or decay run of ``namespace``."""
        with self._lock:
            counts = self._counts.setdefault(namespace, dict.fromkeys(COUNTERS, 0))
            if result is not None:
                counts["aspects_updated"] += result.aspects_updated
                counts["confirmations"] += result.confirmations
                counts["propagated_attributes"] += result.propagated_attributes
            counts["decayed_aspects"] += decayed

    def to_dict(self, namespace: str | None = None) -> dict[str, int]:
        """The counters of ``namespace``, or summed over every namespace (None)."""
        with self._lock:
            rows = (
                list(self._counts.values())
                if namespace is None
                else [self._counts.get(namespace, {})]
            )
            return {k: sum(r.get(k, 0) for r in rows) for k in COUNTERS}


def upsert_aspect(
    core: Core, namespace: str, entity: Entity, name: str, weight: object, now: datetime
) -> Aspect:
    """The entity's aspect ``name``, created with ``weight`` in [0, 1] if new."""
    checked = optional_float("weight", weight, 0.0, 1.0)
    return core.store.aspects.upsert_aspect(
        namespace,
        entity.id,
        name_arg("aspect name", name),
        weight=DEFAULT_WEIGHT if checked is None else checked,
        now=now,
    )


def add_attribute(
    core: Core,
    namespace: str,
    entity: Entity,
    memory_id: str,
    content: object,
    *,
    aspect: str | None,
    kind: str,
    importance: object,
    now: datetime,
) -> Attribute:
    """A structural fact about ``entity`` from a memory, under ``aspect`` if given."""
    if not isinstance(content, str) or not content.strip():
        raise InvalidInputError("attribute content must be a non-empty string")
    if kind not in ATTRIBUTE_KINDS:
        raise InvalidInputError(f"kind must be one of {', '.join(ATTRIBUTE_KINDS)}")
    weight = optional_float("importance", importance, 0.0, 1.0)
    store = core.store
    with store.transaction():  # the aspect and its attribute land together
        aspect_id = None
        if aspect is not None:
            made = store.aspects.upsert_aspect(
                namespace,
                entity.id,
                name_arg("aspect name", aspect),
                weight=DEFAULT_WEIGHT,
                now=now,
            )
            aspect_id = made.id
        return store.aspects.add_attribute(
            namespace,
            entity.id,
            memory_id,
            no_nul("attribute content", content.strip()),
            aspect_id=aspect_id,
            kind=kind,
            importance=DEFAULT_WEIGHT if weight is None else weight,
            now=now,
        )


def memory_counts(hits: object) -> dict[str, int]:
    """``{memory_id: confirmations}`` from a mapping of counts or an iterable of ids
    (each occurrence one confirmation)."""
    counts: dict[str, int] = {}
    if isinstance(hits, Mapping):
        for key, n in hits.items():
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise InvalidInputError(
                    f"confirmations must be non-negative integers, got {shown(n)} for {shown(key)}"
                )
            if n:
                memory = memory_id_value(key)
                counts[memory] = counts.get(memory, 0) + n
        return counts
    if isinstance(hits, str | bytes) or not isinstance(hits, Iterable):
        raise InvalidInputError(
            f"memory_hits must map memory ids to counts or list memory ids, got {shown(hits)}"
        )
    for key in hits:
        memory = memory_id_value(key)
        counts[memory] = counts.get(memory, 0) + 1
    return counts


def confirm(
    core: Core, telemetry: AspectTelemetry, namespace: str, hits: object, now: datetime
) -> AspectFeedback:
    """seed 004: confirmed memories raise their aspects' weights."""
    counts = memory_counts(hits)
    settings = core.config.graph
    if not counts:
        return AspectFeedback()
    result = core.store.aspects.confirm(
        namespace,
        counts,
        delta=settings.aspect_delta,
        min_weight=settings.aspect_min_weight,
        max_weight=settings.aspect_max_weight,
        now=now,
    )
    telemetry.add(namespace, result)
    return result


def decay(core: Core, telemetry: AspectTelemetry, namespace: str, now: datetime | None) -> int:
    """seed 004: aspects unconfirmed for ``aspect_stale_days`` lose weight."""
    settings = core.config.graph
    when = utcnow() if now is None else now
    try:
        stale_before = when - timedelta(days=settings.aspect_stale_days)
    except OverflowError:  # ``now`` in the first days of year 1: nothing is older
        stale_before = when
    decayed = core.store.aspects.decay(
        namespace,
        stale_before=stale_before,
        rate=settings.aspect_decay_rate,
        min_weight=settings.aspect_min_weight,
        now=when,
    )
    telemetry.add(namespace, decayed=decayed)
    return decayed
