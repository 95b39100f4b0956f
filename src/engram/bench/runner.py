"""Run a retrieval benchmark through engram's public library API.

Each conversation is ingested into its own namespace with ``Memory.add_many``; each
question is asked with ``Memory.recall`` against that namespace, with the question
text only. Several recall strategies (``modes``) can be compared on the same ingested
store in one run. Results are per question, so any aggregate can be recomputed.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engram.bench.dataset import Conversation, Dataset, Found
from engram.bench.metrics import distinct, mean, percentile
from engram.errors import InvalidInputError
from engram.memory import Memory
from engram.pipeline.hints import backfill

#: Settings that turn off everything but the plain retrievers, for baselines.
PLAIN: dict[str, Any] = {
    "context_dense": 0.0,
    "session_dense": 0.0,
    "context_keyword": 0.0,
    "session_keyword": 0.0,
    "time_weight": 0.0,
    "long_alpha": None,  # one alpha for every memory, long or short (issue 13)
    "directive_alpha": None,  # standing instructions fused like any memory (issue 24)
    "condition_weight": 0.0,  # standing instructions by their own vector only (issue 24)
    "keyword_spread_rank": 0,  # the keyword leg's full weight (issue 24, round 9)
}

#: Recall strategies a run can compare: name -> recall settings for that query. The
#: first four are plain turn-level retrievers (no session context, no time); ``best``
#: is engram's default configuration.
MODES: dict[str, dict[str, Any]] = {
    "bm25": {"strategy": "bm25", **PLAIN},
    "dense": {"strategy": "dense", **PLAIN},
    "weighted": {"strategy": "hybrid", "fusion": "weighted", "alpha": 0.5, **PLAIN},
    "rrf": {"strategy": "hybrid", "fusion": "rrf", **PLAIN},
    "best": {},
}

Progress = Callable[[str, int, int], None]
"""(stage description, done, total)."""


@dataclass
class QuestionResult:
    """One question asked in one mode."""

    question_id: str
    conversation: str
    category: str
    mode: str
    latency_ms: float
    metrics: dict[str, float]
    alternatives: dict[str, dict[str, float]]
    top_turns: list[str]
    gold_turns: list[str]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "question_id": self.question_id,
            "conversation": self.conversation,
            "category": self.category,
            "mode": self.mode,
            "latency_ms": round(self.latency_ms, 3),
            "metrics": self.metrics,
            "alternatives": self.alternatives,
            "top_turns": self.top_turns,
            "gold_turns": self.gold_turns,
        }


@dataclass
class RunResult:
    """Everything one benchmark run measured."""

    dataset: str
    modes: list[str]
    headline: list[str]
    questions: list[QuestionResult] = field(default_factory=list)
    ingest: dict[str, float] = field(default_factory=dict)

    def summary(self, mode: str, *, alternative: str | None = None) -> dict[str, Any]:
        """Mean of every metric, overall and per category, plus latency p50/p95."""
        rows = [q for q in self.questions if q.mode == mode]

        def metrics_of(q: QuestionResult) -> dict[str, float]:
            return q.alternatives.get(alternative, q.metrics) if alternative else q.metrics

        def average(items: Sequence[QuestionResult]) -> dict[str, float]:
            names = sorted({name for q in items for name in metrics_of(q)})
            return {
                name: round(mean(metrics_of(q)[name] for q in items if name in metrics_of(q)), 4)
                for name in names
            }

        categories = sorted({q.category for q in rows})
        latencies = [q.latency_ms for q in rows]
        return {
            "questions": len(rows),
            "overall": average(rows),
            "per_category": {
                c: {"questions": sum(1 for q in rows if q.category == c)}
                | average([q for q in rows if q.category == c])
                for c in categories
            },
            "latency_ms": {
                "p50": round(percentile(latencies, 50), 3),
                "p95": round(percentile(latencies, 95), 3),
            },
        }

    def alternatives(self) -> list[str]:
        """Names of alternative gold sets scored in this run (e.g. ``errata``)."""
        return sorted({name for q in self.questions for name in q.alternatives})

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict with summaries and per-question results."""
        summaries: dict[str, Any] = {m: self.summary(m) for m in self.modes}
        for alt in self.alternatives():
            for m in self.modes:
                summaries[f"{m}+{alt}"] = self.summary(m, alternative=alt)
        return {
            "dataset": self.dataset,
            "modes": self.modes,
            "ingest": self.ingest,
            "summary": summaries,
            "questions": [q.to_dict() for q in self.questions],
        }


def namespace_for(dataset: str, conversation: str) -> str:
    """The namespace a conversation is ingested into."""
    safe = re.sub(r"[^A-Za-z0-9_.@+-]", "-", conversation)
    return f"bench:{dataset}:{safe}"[:200]


def _items(conv: Conversation) -> list[dict[str, Any]]:
    return [
        {
            "content": turn.text,
            "type": "message",
            "session_id": turn.session,
            "created_at": turn.created_at,
            "metadata": {"session": turn.session, "turn": turn.id, **turn.metadata},
        }
        for turn in conv.turns
    ]


def ingest(mem: Memory, dataset: Dataset, progress: Progress | None = None) -> dict[str, float]:
    """Store every conversation in its own namespace; skip ones already stored.

    Returns counts and throughput. A namespace that holds some but not all of a
    conversation's turns is an error (a half-finished earlier run): use a fresh store.
    """
    total = sum(len(c.turns) for c in dataset.conversations)
    done = stored = 0
    seconds = 0.0
    for conv in dataset.conversations:
        ns = namespace_for(dataset.name, conv.id)
        items = _items(conv)
        have = mem.store.memories.count(ns)
        if have:
            expected = len({mem_hash(i["content"]) for i in items})
            if have != expected:
                raise InvalidInputError(
                    f"namespace {ns} already holds {have} memories, not the {expected} this "
                    "conversation has; benchmark into a fresh store (another --store path)"
                )
        else:
            start = time.perf_counter()
            mem.add_many(items, namespace=ns)
            seconds += time.perf_counter() - start
            stored += len(items)
        done += len(items)
        if progress is not None:
            progress("ingest", done, total)
    return {
        "turns": total,
        "ingested": stored,
        "seconds": round(seconds, 3),
        "turns_per_second": round(stored / seconds, 1) if seconds else 0.0,
    }


def mem_hash(text: str) -> str:
    """The dedup key engram uses for ``text`` (identical turns share one memory)."""
    from engram.text import normalize_content

    return normalize_content(text).content_hash


def ask(
    mem: Memory,
    dataset: Dataset,
    modes: Sequence[str],
    progress: Progress | None = None,
    settings: Mapping[str, Any] | None = None,
) -> list[QuestionResult]:
    """Ask every question in every mode; ``settings`` apply to every mode."""
    unknown = [m for m in modes if m not in MODES]
    if unknown:
        raise InvalidInputError(
            f"unknown mode(s) {', '.join(unknown)}; choose from {', '.join(MODES)}"
        )
    results: list[QuestionResult] = []
    total = dataset.question_count * len(modes)
    done = 0
    for mode in modes:
        # Ranking is measured here, abstaining by `engram bench abstain`: an abstained
        # question would score 0 whatever its ranking (`--set abstain=true` to include it).
        overrides = {"abstain": False, **(settings or {}), **MODES[mode]}
        for conv in dataset.conversations:
            ns = namespace_for(dataset.name, conv.id)
            for question in conv.questions:
                start = time.perf_counter()
                recall = mem.recall(question.text, namespace=ns, limit=dataset.depth, **overrides)
                latency = (time.perf_counter() - start) * 1000
                turns = [str(h.memory.metadata.get("turn")) for h in recall.hits]
                sessions = distinct(str(h.memory.metadata.get("session")) for h in recall.hits)
                top = recall.hits[0].score if recall.hits else None
                gold = (question.gold_turns, question.gold_sessions)
                block = [str(h.memory.metadata.get("turn")) for h in recall.standing]
                metrics = dataset.scorer(Found(question, *gold, turns, sessions, top, block))
                alternatives = {
                    name: dataset.scorer(Found(question, g_turns, g_sessions, turns, sessions, top))
                    for name, (g_turns, g_sessions) in question.alternatives.items()
                }
                results.append(
                    QuestionResult(
                        question_id=question.id,
                        conversation=conv.id,
                        category=question.category,
                        mode=mode,
                        latency_ms=latency,
                        metrics=metrics,
                        alternatives=alternatives,
                        top_turns=turns[:10],
                        gold_turns=sorted(question.gold_turns),
                    )
                )
                done += 1
                if progress is not None:
                    progress(f"recall ({mode})", done, total)
    return results


def run(
    mem: Memory,
    dataset: Dataset,
    modes: Sequence[str] = ("best",),
    progress: Progress | None = None,
    settings: Mapping[str, Any] | None = None,
    *,
    hints: bool = False,
) -> RunResult:
    """Ingest ``dataset`` (if needed), then ask every question in every mode; with
    ``hints``, give every ingested turn template hints first (:func:`index_hints`)."""
    result = RunResult(dataset.name, list(modes), list(dataset.headline))
    result.ingest = ingest(mem, dataset, progress)
    if hints:
        result.ingest |= index_hints(mem, dataset, progress)
    result.questions = ask(mem, dataset, modes, progress, settings)
    return result


# -- hints (seed 004's prospective index) ------------------------------------------------


def index_hints(
    mem: Memory, dataset: Dataset, progress: Progress | None = None
) -> dict[str, float]:
    """Give every ingested turn without hints the offline template hints (no model), as
    the ``hints`` job would without an LLM; turns that have hints are skipped. Whether
    recall reads them is ``recall.hints`` (``--set hints=false`` to compare)."""
    limit = mem.config.pipeline.max_hints
    start = time.perf_counter()
    made = 0
    for done, conv in enumerate(dataset.conversations, 1):
        made += backfill(mem.store, namespace_for(dataset.name, conv.id), limit=limit)
        if progress is not None:
            progress("hints", done, len(dataset.conversations))
    seconds = time.perf_counter() - start
    return {
        "hinted": made,
        "hinted_memories": sum(
            mem.store.hints.count(namespace_for(dataset.name, c.id)) for c in dataset.conversations
        ),
        "hint_seconds": round(seconds, 3),
    }
