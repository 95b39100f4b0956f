"""Task centre43: centred cosines through the real recall path, per fold, base -> new.

Reads the per-question JSON ``engram bench`` writes (``--out DIR`` holds ``beam.json``
or ``locomo.json``) and prints, per fold, BEAM's R@10 per ability (and question-points)
or LoCoMo's session and turn R@5 per category. Folds: BEAM A = chats 1-5, B = chats
6-10 (beam40's); LoCoMo A = conv-26, 30, 41, B = conv-42, 43 (hop39's). Usage:

    engram bench beam --mode best --store COPY.db --out DIR [--set centred_weight=W]
    PYTHONPATH=src python scripts/centre43_measure.py beam DIR [BASE_DIR]
    engram bench locomo --mode best --data ../shared/bench/locomo/locomo10_dev.json \
        --store COPY.db --out DIR [--set centred_weight=W]
    PYTHONPATH=src python scripts/centre43_measure.py locomo DIR [BASE_DIR]
    # recall's added ms at 100k (paired runs of one query set, weight 0 and the default)
    PYTHONPATH=src python scripts/centre43_measure.py cost STORE.db [ROUNDS]
    # single-turn adds a second, the stage off and on alternating (hash embedder)
    PYTHONPATH=src python scripts/centre43_measure.py addrate LOCOMO.json TURNS PAIRS

With BASE_DIR each figure prints as ``base -> new`` and the questions that moved are
listed.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

LOCOMO_A = ("conv-26", "conv-30", "conv-41")


def _questions(directory: str, name: str) -> list[dict[str, Any]]:
    data = json.loads((Path(directory) / f"{name}.json").read_text())
    return [q for q in data["questions"] if q.get("mode", "best") == "best"]


def _beam_fold(q: dict[str, Any]) -> str:
    return "A" if int(str(q["conversation"]).rsplit("-", 1)[1]) <= 5 else "B"


def _locomo_fold(q: dict[str, Any]) -> str:
    return "A" if q["conversation"] in LOCOMO_A else "B"


def _table(questions: list[dict[str, Any]], name: str) -> dict[tuple[str, str, str], float]:
    """(fold, category, metric) -> mean over the questions holding the metric."""
    sums: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    metrics = ("msg_r@10",) if name == "beam" else ("session_r@5", "turn_r@5")
    fold = _beam_fold if name == "beam" else _locomo_fold
    for q in questions:
        for metric in metrics:
            value = q["metrics"].get(metric)
            if value is None:
                continue
            for cat in ("all", q["category"]):
                sums[(fold(q), cat, metric)].append(float(value))
    return {key: sum(v) / len(v) for key, v in sums.items()} | {
        (key[0], key[1], "points"): sum(v) for key, v in sums.items() if key[2] == metrics[0]
    }


def report(name: str, new_dir: str, base_dir: str | None) -> None:
    new = _table(_questions(new_dir, name), name)
    base = _table(_questions(base_dir, name), name) if base_dir else None
    for key in sorted(new):
        shown = f"{new[key]:.4f}" if base is None else f"{base.get(key, 0):.4f} -> {new[key]:.4f}"
        print(f"{key[0]} | {key[1]} | {key[2]} | {shown}")
    if base_dir is None:
        return
    metric = "msg_r@10" if name == "beam" else "session_r@5"
    old = {q["question_id"]: q for q in _questions(base_dir, name)}
    for q in _questions(new_dir, name):
        before = old.get(q["question_id"], {}).get("metrics", {}).get(metric)
        after = q["metrics"].get(metric)
        if before is not None and after is not None and before != after:
            print(f"moved: {q['question_id']} {before:.3f} -> {after:.3f}")


def cost(store: str, rounds: int, namespace: str = "bench-scale") -> None:
    """Paired recall latency (ms) with the stage off (weight 0) and on (w 0.01), in
    ``namespace`` of ``store``: each query is timed both ways back to back, the order
    alternating; the queries are the heads of the namespace's first memories. Also the
    stage itself (``centred.reorder``, timed inside recall) and the mean's read."""
    from engram import Memory
    from engram.recall import centred

    stage: list[float] = []
    reorder = centred.reorder

    def timed(*args: Any) -> dict[str, float]:
        start = time.perf_counter()
        out = reorder(*args)
        if args[1].centred_weight > 0:
            stage.append((time.perf_counter() - start) * 1000)
        return out

    centred.reorder = timed  # type: ignore[assignment]
    start = time.perf_counter()
    with Memory(store) as mem:
        print(f"open: {time.perf_counter() - start:.1f} s")
        queries = [r.content[:120] for r in mem.get_all(namespace=namespace, limit=rounds)]
        start = time.perf_counter()
        mem.recall(queries[0], namespace=namespace, centred_weight=0.01)
        first = (time.perf_counter() - start) * 1000
        print(f"first recall (loads the block, sums it once): {first:.0f} ms")
        for q in queries[:20]:  # warm
            mem.recall(q, namespace=namespace, centred_weight=0.0)
            mem.recall(q, namespace=namespace, centred_weight=0.01)
        stage.clear()
        times: dict[str, list[float]] = {"off": [], "on": []}
        for n, q in enumerate(queries):
            order = ("off", "on") if n % 2 == 0 else ("on", "off")
            for label in order:
                weight = 0.0 if label == "off" else 0.01
                start = time.perf_counter()
                mem.recall(q, namespace=namespace, centred_weight=weight)
                times[label].append((time.perf_counter() - start) * 1000)
        diffs = [a - b for a, b in zip(times["on"], times["off"], strict=True)]
        print(f"namespace {namespace}: {len(queries)} paired recalls")
        for label, values in times.items():
            print(f"{label}: median {statistics.median(values):.2f} ms")
        print(f"added: median {statistics.median(diffs):+.3f} ms")
        print(f"stage (timed inside recall): median {statistics.median(stage):.3f} ms")
        index = mem.index
        centre = getattr(index, "centre", None)
        if centre is not None:
            start = time.perf_counter()
            for _ in range(200):
                centre([namespace])
            print(f"the mean's read: {(time.perf_counter() - start) / 200 * 1000:.4f} ms")


def add_rate(data: str, turns: int, pairs: int) -> None:
    """Single-turn ``mem.add`` of LoCoMo dev turns into a file store, adds a second,
    with a recall every 100 turns, alternating the stage off (w 0: no sum is kept) and
    on (w 0.01: the first recall sums the block, every add after it keeps the sum).
    The hash embedder of the tests (384 dimensions, no model) keeps the model's cost
    out, so what is left is the store's and the index's."""
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from engram import Memory
    from engram.config import Config
    from hashembed import HashEmbedder

    chat = json.loads(Path(data).read_text())[0]["conversation"]
    lines = [
        f"{t['speaker']}: {t['text']}"
        for key, session in chat.items()
        if key.startswith("session_") and isinstance(session, list)
        for t in session
    ]
    lines = (lines * (turns // len(lines) + 1))[:turns]
    rates: dict[str, list[float]] = {"off": [], "on": []}
    for n in range(pairs):
        for label in ("off", "on") if n % 2 == 0 else ("on", "off"):
            weight = 0.0 if label == "off" else 0.01
            with tempfile.TemporaryDirectory() as home:
                cfg = Config.load(env={}, home=home).with_overrides(pipeline={"enabled": False})
                with Memory(f"{home}/s.db", config=cfg, embedder=HashEmbedder(384)) as mem:
                    mem.recall("warm", namespace="rate", centred_weight=weight)
                    start = time.perf_counter()
                    for i, line in enumerate(lines):
                        mem.add(line, namespace="rate")
                        if i % 100 == 99:
                            mem.recall(line[:60], namespace="rate", centred_weight=weight)
                    rates[label].append(len(lines) / (time.perf_counter() - start))
    for label, values in rates.items():
        shown = ", ".join(f"{v:.0f}" for v in values)
        print(f"{label}: {shown} adds/s (median {statistics.median(values):.0f})")


def main(argv: list[str]) -> None:
    if argv[0] == "addrate":
        add_rate(argv[1], int(argv[2]), int(argv[3]))
        return
    if argv[0] == "cost":
        cost(argv[1], int(argv[2]) if len(argv) > 2 else 200)
        return
    report(argv[0], argv[1], argv[2] if len(argv) > 2 else None)


if __name__ == "__main__":
    main(sys.argv[1:])
