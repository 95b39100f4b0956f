"""``engram quickstart``: a handful of example memories and one recall over them.

Running it again stores nothing new: exact-content dedup (seed 004) returns the
memories already there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engram.memory import Memory
from engram.records import Recall, Record

NAMESPACE = "quickstart"

EXAMPLES: list[dict[str, Any]] = [
    {
        "content": "engram keeps every memory verbatim in one SQLite file under ENGRAM_HOME; "
        "vectors and the keyword index are derived from it.",
        "title": "Where engram keeps memories",
        "type": "fact",
        "tags": ["engram", "storage"],
        "score": 9.0,
    },
    {
        "content": "Recall fuses dense MiniLM similarity with BM25 keyword scores, then weights "
        "each hit by quality: (0.7*sim + 0.3*qual) * q_adjust.",
        "title": "How recall ranks",
        "type": "semantic",
        "tags": ["engram", "recall"],
        "score": 8.5,
    },
    {
        "content": "Thumbs-down feedback lowers a memory's quality by one, down to -3, so a "
        "misleading memory needs much higher similarity to surface again.",
        "title": "Feedback changes ranking",
        "type": "procedural",
        "tags": ["engram", "feedback"],
    },
    {
        "content": "The user prefers answers with runnable shell commands over long prose.",
        "type": "preference",
        "tags": ["user"],
    },
    {
        "content": "We decided to run the test suite with warnings as errors so deprecations "
        "surface before they break a release.",
        "type": "decision",
        "tags": ["testing"],
    },
    {
        "content": "If the embedding model is unavailable, recall answers from the FTS5 "
        "keyword index and reports mode=keyword instead of failing.",
        "title": "Recall degrades loudly",
        "type": "fact",
        "tags": ["engram", "recall"],
        "score": 8.0,
    },
]

QUERY = "how does engram rank the memories it recalls?"


@dataclass(frozen=True, slots=True)
class QuickstartResult(Record):
    """What quickstart did."""

    namespace: str
    location: str
    stored: int
    existing: int
    recall: Recall


def run_quickstart(mem: Memory) -> QuickstartResult:
    """Store the examples (idempotently) and recall for a question about them."""
    batch = mem.add_many(EXAMPLES, namespace=NAMESPACE)
    result = mem.recall(QUERY, namespace=NAMESPACE)
    return QuickstartResult(
        namespace=NAMESPACE,
        location=mem.admin.location,
        stored=batch.counts["stored"],
        existing=batch.counts["duplicate"],
        recall=result,
    )
