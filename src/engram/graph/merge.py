"""Entity merging, splitting and deduplication (issue 12), deterministic and without an
LLM: the work behind ``mem.graph.merge``, ``split`` and ``dedupe``.

``dedupe`` proposes pairs of same-type entities of one namespace that name the same
thing, by three rules, and merges them unless ``dry_run``:

1. *normalised name*: equal ``normal_name`` ("Dr. Smith" / "dr smith", "Caroline's" /
   "Caroline"), for entities recorded before the normalisation step existed or spelled
   in ways ``record`` met in another order;
2. *first name*: a one-word name that is the first word of exactly one longer name,
   and that one a ``person`` ("Caroline" / "Caroline Smith"); two "Caroline ..." make
   it ambiguous, and "Game" is not "Game of Thrones";
3. *short name*: otherwise, a one-word name of at least three letters that begins the
   first word of exactly one ``person`` ("Mel" / "Melanie", "Caro" / "Caroline");
4. *embedding* (only with an embedder): the cosine of the embedded names is at least
   ``threshold``. Names are compared only inside blocks that share the first two
   characters of the normalised name, a block over ``MAX_BLOCK`` names split further
   by length, so the work grows with the blocks' sizes, not with the square of the
   graph.

Two entities are only ever paired when their types agree or one is still ``unknown``
(extraction often leaves a nickname untyped).

Each proposed group keeps its most mentioned entity (then the oldest) and merges the
rest into it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from engram.core import Core
from engram.errors import InvalidInputError, shown
from engram.store.protocols.graph import UNKNOWN_TYPE, Entity, normal_name
from engram.store.protocols.record import Record

#: The type the short-name rule completes to ("Mel" -> the one person "Melanie").
PERSON = "person"
#: Entities read per page while scanning a namespace.
PAGE = 1000
#: The most names compared pairwise in one block (MAX_BLOCK² cosine products).
MAX_BLOCK = 2000
#: Names embedded per batch.
EMBED_BATCH = 256


@dataclass(frozen=True, slots=True)
class DedupePair:
    """Two entities ``dedupe`` judged to be one: ``other`` merges into ``keep``."""

    keep: str
    """The kept entity's canonical name."""
    other: str
    """The canonical name of the entity that merges into it."""
    similarity: float
    """1.0 for the name rules, the names' cosine for ``embedding``."""
    reason: str
    """``normalised name``, ``first name``, ``short name`` or ``embedding``."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "keep": self.keep,
            "other": self.other,
            "similarity": round(self.similarity, 4),
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class DedupeResult(Record):
    """What ``dedupe`` found, and did unless ``dry_run``."""

    pairs: tuple[DedupePair, ...]
    scanned: int
    """Entities of the namespace looked at."""
    merged: int
    """Entities merged away (0 on a dry run)."""
    dry_run: bool


def merge_entities(
    core: Core, namespace: str, keep: Entity, other: Entity, now: datetime
) -> Entity:
    """Fold ``other`` into ``keep``: attributes and aspects, then the graph rows, in one
    transaction."""
    if keep.id == other.id:
        raise InvalidInputError(
            f"{shown(other.canonical_name)} already names {shown(keep.canonical_name)}; "
            "nothing to merge"
        )
    store = core.store
    with store.transaction():
        store.aspects.reassign(namespace, other.id, keep.id, memory_ids=None, now=now)
        return store.graph.merge(namespace, keep.id, other.id, now=now)


def split_entity(core: Core, namespace: str, entity: Entity, alias: str, now: datetime) -> Entity:
    """Turn ``alias`` back into an entity; its memories' attributes go with it."""
    store = core.store
    with store.transaction():
        made = store.graph.split(namespace, entity.id, alias, now=now)
        memories = [m.memory_id for m in store.graph.mentions(namespace, made.id)]
        if memories:
            store.aspects.reassign(namespace, entity.id, made.id, memory_ids=memories, now=now)
    return made


def _scan(core: Core, namespace: str, entity_type: str | None) -> list[Entity]:
    out: list[Entity] = []
    offset = 0
    while True:
        page = core.store.graph.entities(namespace, limit=PAGE, offset=offset, query=None)
        out += [e for e in page if entity_type is None or e.entity_type == entity_type]
        if len(page) < PAGE:
            return out
        offset += PAGE


class _Groups:
    """Union-find over entity ids, remembering why two joined."""

    def __init__(self) -> None:
        self.parent: dict[int, int] = {}
        self.why: dict[tuple[int, int], tuple[float, str]] = {}

    def find(self, x: int) -> int:
        root = self.parent.setdefault(x, x)
        while root != self.parent[root]:
            root = self.parent[root]
        while x != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def join(self, a: int, b: int, similarity: float, reason: str) -> None:
        key = (min(a, b), max(a, b))
        self.why.setdefault(key, (similarity, reason))
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def _compatible(a: Entity, b: Entity) -> bool:
    """Same type, or one still ``unknown`` (extraction often leaves nicknames untyped)."""
    return a.entity_type == b.entity_type or UNKNOWN_TYPE in (a.entity_type, b.entity_type)


def _name_rules(entities: Sequence[Entity], groups: _Groups) -> None:
    by_normal: dict[str, list[Entity]] = defaultdict(list)
    by_first: dict[str, list[Entity]] = defaultdict(list)
    people: dict[str, list[Entity]] = defaultdict(list)  # first word's first 3 letters
    for e in entities:
        key = normal_name(e.canonical_name)
        if not key:
            continue
        by_normal[key].append(e)
        words = key.split()
        if len(words) > 1:
            by_first[words[0]].append(e)
        if e.entity_type == PERSON:
            people[words[0][:3]].append(e)
    for same in by_normal.values():
        for e in same[1:]:
            if _compatible(same[0], e):
                groups.join(same[0].id, e.id, 1.0, "normalised name")
    for key, same in by_normal.items():
        if " " in key:
            continue
        short = same[0]
        longer = by_first.get(key, [])
        people_named = [e for e in longer if e.entity_type == PERSON and _compatible(e, short)]
        if len(longer) == 1 and len(people_named) == 1:  # one "Caroline ...", a person
            groups.join(longer[0].id, short.id, 1.0, "first name")
            continue
        if len(key) < 3:
            continue
        full = [
            e
            for e in people.get(key[:3], [])
            if e.canonical_name.split()[0].startswith(key)
            and normal_name(e.canonical_name).split()[0] != key
            and _compatible(e, short)
        ]
        if len(full) == 1:  # "Mel" and one person "Melanie ..."
            groups.join(full[0].id, short.id, 1.0, "short name")


def _blocks(entities: Sequence[Entity]) -> Iterator[list[Entity]]:
    blocks: dict[str, list[Entity]] = defaultdict(list)
    for e in entities:
        key = normal_name(e.canonical_name)
        if key:
            blocks[key[:2]].append(e)
    for block in blocks.values():
        if len(block) <= MAX_BLOCK:
            yield block
            continue
        bands: dict[int, list[Entity]] = defaultdict(list)
        for e in block:  # names of similar length: a 4-character band
            bands[len(e.canonical_name) // 4].append(e)
        for band in bands.values():
            for start in range(0, len(band), MAX_BLOCK):
                yield band[start : start + MAX_BLOCK]


def _embedding_rule(
    core: Core, entities: Sequence[Entity], threshold: float, groups: _Groups
) -> None:
    embedder = core.embedder
    if embedder is None:
        return
    for block in _blocks(entities):
        if len(block) < 2:
            continue
        names = [e.name for e in block]
        vectors = np.vstack(
            [
                np.asarray(embedder.embed_batch(names[i : i + EMBED_BATCH]), np.float32)
                for i in range(0, len(names), EMBED_BATCH)
            ]
        )
        similarity = vectors @ vectors.T
        rows, cols = np.nonzero(np.triu(similarity >= threshold, k=1))
        for i, j in zip(rows.tolist(), cols.tolist(), strict=True):
            if _compatible(block[i], block[j]):
                groups.join(block[i].id, block[j].id, float(similarity[i, j]), "embedding")


def dedupe(
    core: Core,
    namespace: str,
    *,
    threshold: float,
    dry_run: bool,
    entity_type: str | None,
    now: datetime,
) -> DedupeResult:
    """Find (and unless ``dry_run`` merge) duplicate entities; see the module doc."""
    entities = _scan(core, namespace, entity_type)
    groups = _Groups()
    _name_rules(entities, groups)
    _embedding_rule(core, entities, threshold, groups)
    members: dict[int, list[Entity]] = defaultdict(list)
    for e in entities:
        if e.id in groups.parent:
            members[groups.find(e.id)].append(e)
    pairs: list[DedupePair] = []
    plan: list[tuple[Entity, Entity]] = []
    for group in members.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda e: (-e.mentions, e.created_at, e.id))
        keep = group[0]
        for other in group[1:]:
            similarity, reason = _why(groups, keep, other, group)
            pairs.append(DedupePair(keep.canonical_name, other.canonical_name, similarity, reason))
            plan.append((keep, other))
    pairs.sort(key=lambda p: (p.keep, p.other))
    merged = 0
    if not dry_run:
        for keep, other in plan:
            merge_entities(core, namespace, keep, other, now)
            merged += 1
    return DedupeResult(tuple(pairs), len(entities), merged, bool(dry_run))


def _why(
    groups: _Groups, keep: Entity, other: Entity, group: Sequence[Entity]
) -> tuple[float, str]:
    """Why ``other`` joined ``keep``'s group: their own link, else the other's first."""
    direct = groups.why.get((min(keep.id, other.id), max(keep.id, other.id)))
    if direct is not None:
        return direct
    ids = {e.id for e in group}
    for (a, b), found in sorted(groups.why.items()):
        if other.id in (a, b) and {a, b} <= ids:
            return found
    return 1.0, "normalised name"  # pragma: no cover - every member joined by a link
