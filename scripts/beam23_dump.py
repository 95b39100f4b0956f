"""Issue 24, task beam23: every BEAM (or LoCoMo) question's ordinary ranking, kept once.

Each question is recalled with the abstain decision off and ``recall.coverage_top_n = 0``
(the ordinary ranking, ``limit`` 50: the depth the bench scores and the head a thread
question's spread sees), and the hits are pickled with what the abstain decision of the
user's path would read (its verdict, the relative floor's share), so
``scripts/beam23_sweep.py`` can score any way of meeting the floor, or any spread,
without recalling again. Usage (a copy of a store ``engram bench beam --store`` wrote):

    PYTHONPATH=src python scripts/beam23_dump.py beam STORE OUT.pkl [KEY=VALUE ...]
    PYTHONPATH=src python scripts/beam23_dump.py locomo STORE OUT.pkl

``KEY=VALUE`` are recall settings for every question (e.g. ``long_alpha=0.9``). The
dump holds benchmark text: keep it under /tmp.
"""

from __future__ import annotations

import pickle
import sys
from typing import Any

from engram import Memory
from engram.bench import beam, locomo
from engram.bench.runner import namespace_for
from engram.config import Config
from engram.recall import abstain

DATA = {"beam": "../shared/bench/beam-100k", "locomo": "../shared/bench/locomo/locomo10_dev.json"}


def value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def main(name: str, store: str, out: str, sets: list[str]) -> None:
    data = beam.load(DATA[name]) if name == "beam" else locomo.load(DATA[name])
    overrides = {k: value(v) for k, v in (s.split("=", 1) for s in sets)}
    rows: list[dict[str, Any]] = []
    config = Config().with_overrides(injection_mode="flag")
    with Memory(store, config=config) as mem:
        retriever = mem._core.retriever  # the calibration recall decides with
        model = mem.embedder.name if mem.embedder is not None else None
        cfg = mem.config.recall
        share = cfg.relative_floor
        if share is None:
            cal = retriever.calibration
            share = cal.relative_floor if model == cal.embedder else 0.0
        for conv in data.conversations:
            ns = namespace_for(data.name, conv.id)
            for q in conv.questions:
                found = mem.recall(
                    q.text,
                    namespace=ns,
                    limit=data.depth,
                    abstain=False,
                    coverage_top_n=0,
                    **overrides,
                )
                hits = list(found.hits)
                decision = abstain.check(
                    q.text, hits[: cfg.candidates], model, retriever.calibration
                )
                rows.append(
                    {
                        "question": q,
                        "conversation": conv.id,
                        "hits": hits,
                        "verdict": decision.verdict,
                        "share": share,
                    }
                )
    with open(out, "wb") as f:
        pickle.dump({"dataset": name, "rows": rows}, f)
    print(f"{len(rows)} questions -> {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
