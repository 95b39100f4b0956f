"""The graph view (FEATURES H5, seed 000's "UMAP ontology graph"): the most recent
memories of a namespace that have a vector, projected to 2-D and clustered.

Each node carries what seed 000 lists (2-D coordinates, cluster label, title, task
type, quality) plus the id, external score, type and creation time the dashboard needs
to colour, filter and open it. ``task_type`` is the memory's ``metadata["task_type"]``
when a writer set one (``compress_and_store`` does), else its category, else None.

Nothing is cached: seed 000 wants the view to show the store as it is now, quality
updates included. The projection's cost is in ``engram.review.projection``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from engram.core import Core, Scope
from engram.errors import EmbeddingError, InvalidInputError, shown
from engram.records import MemoryRecord, MemoryType, iso
from engram.review import projection
from engram.store.protocols.record import Record
from engram.validate import positive_int

#: Characters of content that stand in for a missing title (seed 000: "max 80 chars").
TITLE_CHARS = 80
#: The most nodes one call may ask for: UMAP's time grows faster than linearly.
MAX_NODES = 10_000


@dataclass(frozen=True, slots=True)
class GraphView(Record):
    """What ``mem.review.graph`` returns; ``to_dict`` is the HTTP response's shape."""

    nodes: list[dict[str, Any]]
    clusters: list[dict[str, int]]
    """``{id, size}`` per cluster, largest first (cluster ids are 0, 1, ... by size)."""
    method: str
    """"umap" or "pca"."""
    note: str | None
    """Why a fallback was used (PCA, numpy KMeans), or None."""
    total: int
    """How many memories with a vector the namespace holds (the view shows the newest)."""
    timings: dict[str, float] = field(default_factory=dict)
    """Milliseconds spent loading, projecting and clustering (not in ``to_dict``)."""
    _hidden = ("timings",)


def task_type(record: MemoryRecord) -> str | None:
    """``metadata["task_type"]`` if it is a string, else the category, else None."""
    value = record.metadata.get("task_type")
    if isinstance(value, str) and value:
        return value
    return record.category.value if record.category is not None else None


def node_title(record: MemoryRecord) -> str:
    """The memory's title, or the start of its content."""
    if record.title:
        return record.title
    text = " ".join(record.content.split())
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1] + "…"


def _type(value: object) -> str | None:
    if value is None:
        return None
    try:
        return MemoryType(value if isinstance(value, str) else "").value
    except ValueError:
        known = ", ".join(t.value for t in MemoryType)
        raise InvalidInputError(f"type must be one of {known}; got {shown(value)}") from None


def build(
    core: Core, scope: Scope, limit: int | None, type: str | None, method: str = "umap"
) -> GraphView:
    """Load, project, cluster and shape the view of ``scope``'s namespace."""
    if method not in ("auto", "umap", "pca"):
        raise InvalidInputError(f"method is 'auto', 'umap' or 'pca'; got {shown(method)}")
    if core.embedder is None:
        raise EmbeddingError(
            "the graph view projects embeddings and no embedder is configured; set "
            "embedder.name (e.g. 'minilm') and run `engram reindex`"
        )
    wanted = core.config.review.graph_max_nodes if limit is None else limit
    positive_int("limit", wanted, upper=MAX_NODES)
    started = time.perf_counter()
    loaded = core.store.curation.recent_vectors(
        scope.namespace, core.embedder.name, limit=wanted, type=_type(type)
    )
    read = time.perf_counter()
    with projection.single_thread():
        placed = projection.project(loaded.matrix, method)
        projected = time.perf_counter()
        labels, how = projection.clusters(loaded.matrix)
        done = time.perf_counter()
    notes = [placed.note] if placed.note else []
    if how == "numpy-kmeans":
        notes.append("scikit-learn is not installed (pip install 'engram[viz]'): numpy KMeans")
    nodes = [
        {
            "id": r.id,
            "x": round(float(placed.coords[i, 0]), 5),
            "y": round(float(placed.coords[i, 1]), 5),
            "cluster": int(labels[i]),
            "title": node_title(r),
            "task_type": task_type(r),
            "quality": r.quality,
            "score": r.score,
            "type": r.type.value,
            "created_at": iso(r.created_at),
        }
        for i, r in enumerate(loaded.records)
    ]
    sizes = [int((labels == c).sum()) for c in range(int(labels.max()) + 1)] if len(labels) else []
    return GraphView(
        nodes=nodes,
        clusters=[{"id": c, "size": size} for c, size in enumerate(sizes)],
        method=placed.method,
        note="; ".join(notes) or None,
        total=loaded.total,
        timings={
            "load": round((read - started) * 1000, 1),
            "project": round((projected - read) * 1000, 1),
            "cluster": round((done - projected) * 1000, 1),
        },
    )
