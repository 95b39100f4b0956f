"""The year simulation (issue 16, FEATURES S8/S9): a year of daily writes drawn from
LoCoMo's dev turns, with consolidation and retention on their schedules under a fake
clock, reporting the store's size over time and recall on the memories it kept.

One agent (one namespace) receives ``per_day`` turns a day, in the dataset's order; when
the turns run out they are told again (``"... (retold, pass 2)"``), as a long-lived
agent hears the same things again. Every day the lifecycle's ``upkeep`` runs at the
simulated time: consolidation on ``consolidation_interval``, the retention sweep every
``retention_interval_s`` — the seed defaults unless the config says otherwise.

Recall is measured twice on the same questions: on a baseline store that received the
same writes with no lifecycle, and on the lifecycle's store at the end of the year. Only
questions whose gold turns were written and each still has a live memory (kept: the
turn or a retelling of it) in the lifecycle's store count; a question's turn recall@10
is the share of its gold turns among the top 10.

Setting ``mem.lifecycle.clock`` sets the store's clock too, so history rows, tombstones
and queued jobs are stamped at the simulated time and every retention window (history
180 days, tombstones 30) elapses inside the simulation as it would in a year of use.
The store's size is every table ``sizes`` counts (memories and tombstones, vectors,
history, entity mentions, entities, relations, jobs, the archive), sampled every
``sample_every`` days.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from itertools import count
from typing import Any

import numpy as np

from engram.bench import locomo
from engram.bench.dataset import Turn
from engram.config import Config
from engram.embed import Embedder, create_embedder
from engram.embed.base import BaseEmbedder
from engram.memory import Memory
from engram.store.protocols.lifecycle import SIZE_TABLES

NAMESPACE = "agent:year"
START = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
K = 10

Progress = Callable[[int, int], None]


def _stream(turns: list[tuple[str, Turn]]) -> Iterator[tuple[str, str, int]]:
    """(turn key, content, pass) forever: the turns in order, then again, retold."""
    for n in count(1):
        for key, turn in turns:
            yield key, turn.text if n == 1 else f"{turn.text} (retold, pass {n})", n


class _Shared(BaseEmbedder):
    """The real embedder with a memo: the baseline store and the lifecycle's store
    embed the same texts (and the same questions), so each is embedded once."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.name = inner.name
        self.dimension = inner.dimension
        self._memo: dict[str, Any] = {}

    def embed_batch(self, texts: Sequence[str]) -> Any:
        missing = list(dict.fromkeys(t for t in texts if t not in self._memo))
        if missing:
            for text, vector in zip(missing, self.inner.embed_batch(missing), strict=True):
                self._memo[text] = vector
        if len(self._memo) > 50_000:  # only the latest day's texts are asked again
            for text in list(self._memo)[: len(self._memo) - 50_000]:
                del self._memo[text]
        return (
            np.stack([self._memo[t] for t in texts])
            if texts
            else np.zeros((0, self.dimension), np.float32)
        )


def _config(config: Config) -> Config:
    # The write pipeline's jobs need a worker the simulation does not run; off, the
    # memory_jobs table reflects the lifecycle alone.
    return config.with_overrides(pipeline={"enabled": False})


def run(
    config: Config,
    data: str,
    *,
    days: int = 365,
    per_day: int = 50,
    embedder: Embedder | None | str = "default",
    sample_every: int = 30,
    max_questions: int | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Simulate ``days`` of use; returns sizes over time and recall before vs after."""
    started = time.perf_counter()
    dataset = locomo.load(data)
    turns = [(f"{c.id}:{t.id}", t) for c in dataset.conversations for t in c.turns]
    config = _config(config)
    settings = config.lifecycle
    model = (
        create_embedder(config.embedder, config.home_path) if embedder == "default" else embedder
    )
    shared = None if model is None or isinstance(model, str) else _Shared(model)
    snapshots: list[dict[str, Any]] = []
    copies: dict[str, list[str]] = {}  # turn key -> ids of its memories (every pass)
    consolidations = archived = sweeps = compacted = 0
    with (
        Memory(":memory:", config=config, embedder=shared) as mem,
        Memory(":memory:", config=config.with_overrides(lifecycle={
            "consolidation_interval": "never"}), embedder=mem.embedder) as base,
    ):  # fmt: skip
        now = START
        mem.lifecycle.clock = lambda: now
        stream = _stream(turns)
        for day in range(days):
            now = START + timedelta(days=day)
            items = []
            for i in range(per_day):
                key, content, n = next(stream)
                items.append(
                    {
                        "content": content,
                        "created_at": now + timedelta(seconds=i),
                        "metadata": {"turn": key, "pass": n},
                    }
                )
            for memory in (mem, base):
                batch = memory.add_many(items, namespace=NAMESPACE, on_invalid="skip")
                if memory is mem:
                    for item, record in zip(items, batch, strict=False):
                        meta = item["metadata"]
                        assert isinstance(meta, dict)
                        copies.setdefault(str(meta["turn"]), []).append(record.id)
            now = START + timedelta(days=day, hours=12)
            done, swept = mem.lifecycle.upkeep()
            if done is not None and done.archived:
                consolidations += 1
                archived += done.archived
            sweeps += swept is not None
            if swept is not None:
                compacted += swept.steps.get("archive_compacted", 0)
            if day % sample_every == 0 or day == days - 1:
                snapshots.append(_snapshot(mem, day + 1))
            if progress is not None:
                progress(day + 1, days)
        recall = _recall(mem, base, dataset.conversations, copies, max_questions)
    return {
        "days": days,
        "per_day": per_day,
        "writes": days * per_day,
        "embedder": "none" if shared is None else shared.name,
        "settings": {
            "max_memories_per_agent": settings.max_memories_per_agent,
            "archive_max_per_agent": settings.archive_max_per_agent,
            "consolidation_interval": settings.consolidation_interval,
            "retention_days": settings.retention_days,
            "retention_interval_s": settings.retention_interval_s,
            "tombstone_days": settings.tombstone_days,
            "history_days": settings.history_days,
            "group_size": settings.group_size,
        },
        "consolidations": consolidations,
        "archived": archived,
        "compacted": compacted,
        "sweeps": sweeps,
        "snapshots": snapshots,
        "recall": recall,
        "elapsed_s": round(time.perf_counter() - started, 1),
    }


def _snapshot(mem: Memory, day: int) -> dict[str, Any]:
    sizes = mem.store.lifecycle.sizes()
    return {
        "day": day,
        "live": sizes["live"],
        "archived": sizes["memory_archive"],
        "tombstoned": sizes["tombstoned"],
        "total": sum(sizes[t] for t in SIZE_TABLES),
        "rows": sizes,
    }


def _recall(
    mem: Memory,
    base: Memory,
    conversations: Any,
    copies: dict[str, list[str]],
    max_questions: int | None,
) -> dict[str, Any]:
    every = [i for ids in copies.values() for i in ids]
    live = set(mem.store.memories.get_many(NAMESPACE, every))
    kept_turns = {key for key, ids in copies.items() if any(i in live for i in ids)}
    kept, asked = [], 0
    for conv in conversations:
        for q in conv.questions:
            gold = {f"{conv.id}:{t}" for t in q.gold_turns}
            if not gold <= set(copies):
                continue  # a gold turn was never written
            asked += 1
            if gold <= kept_turns:  # each gold turn still has a live memory
                kept.append((q.text, gold))
    if max_questions is not None:
        kept = kept[:max_questions]
    before = _score(base, kept)
    after = _score(mem, kept)
    return {
        "questions_written": asked,
        "questions_kept": len(kept),
        "before": before,
        "after": after,
        "dropped": after["turn_r@10"] < before["turn_r@10"],
    }


def _score(memory: Memory, questions: list[tuple[str, set[str]]]) -> dict[str, float]:
    if not questions:
        return {"turn_r@10": 0.0, "hit@10": 0.0}
    recall = hit = 0.0
    for text, gold in questions:
        hits = memory.search(text, namespace=NAMESPACE, limit=K)
        found = {str(h.memory.metadata.get("turn")) for h in hits} & gold
        recall += len(found) / len(gold)
        hit += bool(found)
    return {
        "turn_r@10": round(recall / len(questions), 4),
        "hit@10": round(hit / len(questions), 4),
    }


def markdown(result: dict[str, Any]) -> str:
    """The report: sizes over time, then recall before vs after."""
    from engram.bench.report import table

    rows = [
        [
            s["day"],
            s["live"],
            s["archived"],
            s["tombstoned"],
            s["rows"]["memory_vectors"],
            s["rows"]["memory_history"],
            s["rows"]["memory_entity_mentions"],
            s["rows"]["memory_jobs"],
            s["total"],
        ]
        for s in result["snapshots"]
    ]
    sizes = table(
        [
            "day", "live", "archived", "tombstoned", "vectors", "history", "mentions",
            "jobs", "total rows",
        ],
        rows,
    )  # fmt: skip
    r = result["recall"]
    recall = table(
        ["store", "turn_r@10", "hit@10"],
        [
            ["no lifecycle", r["before"]["turn_r@10"], r["before"]["hit@10"]],
            ["after a year", r["after"]["turn_r@10"], r["after"]["hit@10"]],
        ],
    )
    s = result["settings"]
    head = (
        f"{result['days']} days x {result['per_day']} writes ({result['writes']}), embedder "
        f"{result['embedder']}; cap {s['max_memories_per_agent']}, archive cap "
        f"{s['archive_max_per_agent']}, consolidation {s['consolidation_interval']}, "
        f"retention_days {s['retention_days']}; {result['consolidations']} consolidations "
        f"archived {result['archived']}, sweeps compacted {result['compacted']}; "
        f"{result['elapsed_s']} s"
    )
    kept = f"{r['questions_kept']} of {r['questions_written']} questions kept all gold turns"
    return f"{head}\n\n{sizes}\n\n{kept}\n\n{recall}"
