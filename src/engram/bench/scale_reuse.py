"""``engram bench scale --reuse DIR``: the side-by-side part of the scale benchmark on
stores a kept run (``--keep DIR``) left behind, in minutes instead of the build's hour.

In a fresh (spawned) process, for each size N: engram's ``scale-N.db`` (with its
persisted indexes, ``scale-N.db.vindex``) is opened, warmed on 20 questions and its
background index work waited for; its RSS then is the serving RSS. Chroma's
``chroma-N`` collection is opened as loaded by the kept run (loaded now, from the same
composed corpus and vectors, when the directory has none). Then the same questions as
``scale``'s peer part, interleaved per question in a rotating order:

- ``engram``: ``Memory.recall`` with default settings, the query embedded inside the
  timed call (its stage split is kept per question);
- ``chroma``: the query embedded by the same model, then Chroma's query;
- ``chroma_keyword``: Chroma with MemPalace's keyword re-score (``peers``);
- ``embed``: the model's call alone, which both of the others make, so each side's own
  cost beyond it can be read off.

Recall records access times, so point ``--reuse`` at copies of kept stores, never at
the only copy of a store whose state a later comparison depends on.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engram.bench import report
from engram.bench.metrics import percentile
from engram.bench.scale_cold import (
    NAMESPACE,
    answer,
    config_args,
    config_of,
    in_child,
    rss_mb,
    wait_for_index,
)
from engram.config import Config
from engram.errors import InvalidInputError
from engram.memory import Memory

WARM = 20


def side_by_side(
    n: int, *, config: Config, locomo: str, queries: int, directory: str
) -> dict[str, Any]:
    """engram beside Chroma on the kept stores of size ``n`` in ``directory``."""
    from engram.bench.peers import ChromaPeer, interleaved, summary
    from engram.bench.scale import base_vectors, locomo_turns_and_questions

    folder = Path(directory)
    store = folder / f"scale-{n}.db"
    if not store.is_file():
        raise InvalidInputError(
            f"--reuse {directory} has no {store.name}: keep a run there first "
            f"(engram bench scale --n {n} --peer chroma --keep {directory})"
        )
    turns, questions = locomo_turns_and_questions(locomo)
    questions = list(dict.fromkeys(questions))
    # The questions ``scale``'s peer part asks (its first 20 warm both up).
    asked = [questions[(queries + 20 + i) % len(questions)] for i in range(queries + WARM)]
    warm, timed = asked[:WARM], asked[WARM:]
    result: dict[str, Any] = {"memories": n, "reused": str(folder)}
    with Memory(store, config=config) as mem:
        embedder = mem.embedder
        assert embedder is not None
        start = time.perf_counter()
        for q in warm:
            mem.recall(q, namespace=NAMESPACE)
        wait_for_index(mem)
        result["warm_s"] = round(time.perf_counter() - start, 3)
        result["serving_rss_mb"] = round(rss_mb(), 1)
        result["serving_rss_anon_mb"] = round(rss_mb("RssAnon"), 1)
        result["serving_rss_file_mb"] = round(rss_mb("RssFile"), 1)
        chroma_dir = folder / f"chroma-{n}"
        if chroma_dir.is_dir():
            chroma = ChromaPeer(chroma_dir, existing=True)
        else:
            from engram.bench.pg_scale import compose_corpus

            chroma = ChromaPeer(chroma_dir)
            vectors = base_vectors(config, turns, config.home_path / "bench-cache")
            texts, text_vectors = compose_corpus(turns, vectors, n)
            result["chroma_load_s"] = round(chroma.load(texts, text_vectors), 1)
            result["chroma_add_per_s"] = round(n / result["chroma_load_s"], 1)
        k = mem.config.recall.limit
        for q in warm:
            chroma.query(embedder.embed_batch([q])[0], k)
        stages: dict[str, list[float]] = {}
        load = os.getloadavg()[0]

        def engram(q: str) -> None:
            for stage, ms in mem.recall(q, namespace=NAMESPACE).timings.items():
                stages.setdefault(stage, []).append(ms)

        times = interleaved(
            timed,
            {
                "engram": engram,
                "chroma": lambda q: chroma.query(embedder.embed_batch([q])[0], k),
                "chroma_keyword": lambda q: chroma.query_rescored(
                    q, embedder.embed_batch([q])[0], k
                ),
                "embed": lambda q: embedder.embed_batch([q]),
            },
        )
        # Chroma's collection lives in this process too: only a rough bound on engram's.
        result["rss_after_queries_mb"] = round(rss_mb(), 1)
    # The machine's 1-minute load average as the timed part began and ended: a shared
    # machine's readings are compared only beside their load.
    result["load"] = [round(load, 2), round(os.getloadavg()[0], 2)]
    result["queries"] = len(timed)
    result["latency"] = summary(times, "chroma")
    result["engram_stage_median_ms"] = {
        k: round(statistics.median(v), 3) for k, v in stages.items()
    }
    result["engram_stage_questions"] = partial_stages(stages, len(timed))
    # Each side's own cost: its time less the model's, per question, at the median.
    result["beyond_embed_p50_ms"] = {
        name: round(percentile(_less(times[name], times["embed"]), 50), 3)
        for name in ("engram", "chroma")
    }
    return result


def partial_stages(stages: dict[str, list[float]], asked: int) -> dict[str, int]:
    """The stages only some of the ``asked`` recalls ran, with how many ran them: a
    median over those alone (``time``: the questions that name a time) is not a cost
    every recall pays."""
    return {k: len(v) for k, v in stages.items() if len(v) < asked}


def _less(values: Sequence[float], model: Sequence[float]) -> list[float]:
    return [a - b for a, b in zip(values, model, strict=True)]


def _child(args: dict[str, Any], out: Any) -> None:
    config = config_of(args)
    answer(out, lambda: side_by_side(config=config, **args))


def run_reuse(
    sizes: Sequence[int], *, config: Config, locomo: str, queries: int, directory: str
) -> list[dict[str, Any]]:
    """``side_by_side`` for each size, each in a fresh process."""
    if not Path(locomo).expanduser().is_file():
        raise InvalidInputError(f"LoCoMo file {locomo} does not exist; pass it with --data")
    return [
        in_child(
            _child,
            {
                "n": n,
                "config": config_args(config),
                "locomo": locomo,
                "queries": queries,
                "directory": directory,
            },
        )
        for n in sizes
    ]


def table(results: Sequence[dict[str, Any]]) -> str:
    """One row per size: both sides' p50/p95, the ratios, the model's share, RSS."""
    from engram.bench.peers import RATIO_COLUMNS, latency_cells, latency_columns, ratio_cells

    names = ("engram", "chroma")
    rows = [
        [
            r["memories"],
            *latency_cells(r["latency"], names),
            *ratio_cells(r["latency"]),
            r["latency"]["embed"]["p50_ms"],
            r["beyond_embed_p50_ms"]["engram"],
            r["beyond_embed_p50_ms"]["chroma"],
            r["serving_rss_mb"],
            _stage_cell(r),
        ]
        for r in results
    ]
    extra = ["embed p50", "engram beyond embed p50", "chroma beyond embed p50", "serving RSS MB"]
    return report.table(
        ["memories", *latency_columns(names), *RATIO_COLUMNS, *extra, "engram stage medians ms"],
        rows,
    )


def _stage_cell(result: dict[str, Any]) -> str:
    """The stage medians, a stage only some recalls ran with how many of them."""
    some = result.get("engram_stage_questions", {})
    return " ".join(
        f"{k} {v}" + (f" ({some[k]} of {result['queries']})" if k in some else "")
        for k, v in result["engram_stage_median_ms"].items()
    )
