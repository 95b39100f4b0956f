"""The pipeline benchmark: what the write pipeline costs the caller, and how fast the
worker turns raw memories into facts, entities and hints.

On the same real LoCoMo turns, in one run, interleaved in rounds so machine load hits
every arm alike:

1. **add, pipeline off** vs **add, pipeline on**: ``Memory.add_many`` throughput in
   memories per second. With the pipeline on, each new memory's jobs are queued in the
   same transaction as the memory; the model work is not in the caller's path. The
   embedder is the configured one (MiniLM by default), or none with ``embed=False`` to
   isolate the write itself.
   A third arm, **pipeline off and the inline linker off**, shows what linking
   (FEATURES G3, on in the other two unless ``[pipeline] linker = false``) costs.
2. **worker**: ``mem.jobs.process_pending()`` on the queued jobs (offline extraction,
   decisions against the top-5 candidates, graph writes, hints), in jobs and raw
   memories per second, with what it produced.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from engram.config import Config
from engram.memory import Memory
from engram.records import PIPELINE_WHO

NAMESPACE = "bench-pipeline"


def locomo_turns(path: str | Path, limit: int) -> list[str]:
    """The first ``limit`` distinct ``"speaker: text"`` turns of a LoCoMo file."""
    data = json.loads(Path(path).expanduser().read_text(encoding="utf-8"))
    turns: dict[str, None] = {}
    for sample in data:
        for key, value in sample["conversation"].items():
            if key.startswith("session_") and isinstance(value, list):
                for turn in value:
                    turns[f"{turn['speaker']}: {turn['text']}"] = None
                    if len(turns) >= limit:
                        return list(turns)
    return list(turns)


def _add_rate(
    config: Config,
    texts: list[str],
    *,
    pipeline: bool,
    embed: bool,
    workdir: Path,
    tag: str,
    linker: bool | None = None,
) -> float:
    linked = config.pipeline.linker if linker is None else linker
    cfg = replace(config, pipeline=replace(config.pipeline, enabled=pipeline, linker=linked))
    memory = (
        Memory(workdir / f"{tag}.db", config=cfg)
        if embed
        else Memory(workdir / f"{tag}.db", config=cfg, embedder=None)
    )
    with memory as mem:
        start = time.perf_counter()
        mem.add_many(texts, namespace=NAMESPACE)
        return len(texts) / (time.perf_counter() - start)


def run(
    config: Config,
    data: str | Path,
    *,
    n: int = 500,
    rounds: int = 3,
    embed: bool = True,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """The benchmark above on the first ``n`` turns; medians over ``rounds``."""
    texts = locomo_turns(data, n)
    off: list[float] = []
    on: list[float] = []
    unlinked: list[float] = []
    with tempfile.TemporaryDirectory(prefix="engram-bench-pipeline-") as tmp:
        work = Path(tmp)
        for r in range(rounds):
            # Interleaved: off, on, on, off ... so drift in machine load cancels out.
            order = (False, True) if r % 2 == 0 else (True, False)
            for pipeline in order:
                rate = _add_rate(
                    config, texts, pipeline=pipeline, embed=embed, workdir=work,
                    tag=f"{r}-{pipeline}",
                )  # fmt: skip
                (on if pipeline else off).append(rate)
            # The inline linker (G3) off, pipeline off: what linking costs the write.
            unlinked.append(
                _add_rate(
                    config,
                    texts,
                    pipeline=False,
                    embed=embed,
                    workdir=work,
                    tag=f"{r}-unlinked",
                    linker=False,
                )  # fmt: skip
            )
            if progress is not None:
                progress(f"add round {r + 1}/{rounds}")
        cfg = replace(config, pipeline=replace(config.pipeline, enabled=True))
        with Memory(work / "worker.db", config=cfg) as mem:
            mem.add_many(texts, namespace=NAMESPACE)
            queued = mem.jobs.counts()
            start = time.perf_counter()
            processed = mem.jobs.process_pending()
            elapsed = time.perf_counter() - start
            everything = mem.get_all(namespace=NAMESPACE, limit=100_000)
            facts = sum(1 for r in everything if r.who == PIPELINE_WHO)
            entities = _count_entities(mem)
            status = mem.jobs.counts()
    return {
        "turns": len(texts),
        "rounds": rounds,
        "embedder": config.embedder.name if embed else "none",
        "add_per_s_pipeline_off": round(statistics.median(off), 1),
        "add_per_s_pipeline_on": round(statistics.median(on), 1),
        "add_ratio_on_off": round(statistics.median(on) / statistics.median(off), 3),
        "linker": config.pipeline.linker,
        "add_per_s_pipeline_off_linker_off": round(statistics.median(unlinked), 1),
        "add_ratio_linker_on_off": round(statistics.median(off) / statistics.median(unlinked), 3),
        "queued": queued,
        "jobs_processed": processed,
        "worker_seconds": round(elapsed, 2),
        "worker_jobs_per_s": round(processed / elapsed, 1) if elapsed else None,
        "worker_memories_per_s": round(len(texts) / elapsed, 1) if elapsed else None,
        "facts_written": facts,
        "entities": entities,
        "jobs_after": status,
    }


def _count_entities(mem: Memory) -> int:
    total, offset = 0, 0
    while page := mem.graph.entities(namespace=NAMESPACE, limit=1000, offset=offset):
        total += len(page)
        offset += len(page)
    return total
