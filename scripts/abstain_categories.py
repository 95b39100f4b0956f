"""Issue 24, round 3: the category bridge's query-only part on LoCoMo and BEAM too.

``engram bench paraphrase --categories`` measures the bridge on the paraphrase set.
This script adds its query-only part (the query's background among the category
labels, read as ``cat_standout``) to LoCoMo and BEAM rows saved by
``engram bench abstain`` (their question texts read from the datasets), then fits and
scores the shipped evidence with and without it on all of them, as the shipped model
is fitted (docs/benchmarks.md, "Round 3"); and round 4's two-stage policies, whose
silence comes from a separate off-topic test fitted on the calibration stores.

    python scripts/abstain_categories.py --paraphrase-rows cat/paraphrase-rows.json \
        --rows abstain/abstain-rows.json --out cat-all [--vectors abstain.db]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from engram import Memory
from engram.bench import abstain as abstain_bench
from engram.bench import beam, categories, locomo, paraphrase
from engram.bench.report import table
from engram.cli.bench_options import BEAM_DEV, SHARED_BENCH


def _profiles(
    bridge: categories.Categories, rows: list[abstain_bench.Row], vectors: str
) -> categories.Profiles:
    """Every searched store's profile: the paraphrase stores' from their memories'
    texts, LoCoMo's and BEAM's from their namespaces' vectors in ``vectors``."""
    profiles = categories.Profiles(bridge)
    for store in paraphrase.load():
        profiles.add_texts(store.id, list(store.memories.values()))
    with Memory(vectors) as mem:
        if mem.index is None:
            raise SystemExit(f"{vectors} has no dense index to read vectors from")
        for namespace in sorted({r.namespace for r in rows if r.dataset != "paraphrase"}):
            profiles.add(namespace, mem.store.vectors.load(namespace, mem.index.model).matrix)
    return profiles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paraphrase-rows", required=True, help="bench paraphrase --categories")
    parser.add_argument("--rows", required=True, help="bench abstain's abstain-rows.json")
    parser.add_argument("--locomo", default=str(SHARED_BENCH / "locomo" / "locomo10_dev.json"))
    parser.add_argument("--beam", default=BEAM_DEV)
    parser.add_argument("--out", default="bench-results")
    parser.add_argument(
        "--vectors",
        help="round 4: an `engram bench abstain --store` file whose LoCoMo and BEAM "
        "namespaces' vectors profile each store (the store-level feature `standing`)",
    )
    args = parser.parse_args()
    mine = abstain_bench.load_rows(args.paraphrase_rows)
    dev = [r for r in abstain_bench.load_rows(args.rows) if r.dataset != "paraphrase"]
    texts = {
        q.id: q.text
        for data in (locomo.load(args.locomo), beam.load(args.beam))
        for conv in data.conversations
        for q in conv.questions
    }
    with Memory(":memory:") as mem:
        if mem.embedder is None:
            raise SystemExit("the bridge needs an embedder")
        bridge = categories.Categories(mem.embedder)
        rows = mine + categories.with_background(dev, texts, bridge)
        compared = categories.compare(rows, mem.embedder.name, categories.QUERY_ONLY)
    cells = [("answerable silent", "answerable", "silent"), ("gold", "answerable", "gold")]
    cells += [("cross silent", "cross", "silent"), ("cross one line", "cross", "uncertain")]
    cells += [
        ("unrelated silent", "unrelated", "silent"),
        ("abstention silent", "abstention", "silent"),
    ]
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "categories-all.json").write_text(json.dumps(compared, indent=1), encoding="utf-8")
    models = {name: body["model"] for name, body in compared.items()}
    print(json.dumps(models, indent=1))
    policies = {
        name: abstain_bench.fitted_policy(body["model"], mem.embedder.name)
        for name, body in compared.items()
        if "threshold" in body["model"]
    }
    # Round 4: the two-stage policies (a separate off-topic test for silence).
    features = {"cat_standout": categories.named_feature("cat_standout")}
    if args.vectors:
        features["standing"] = _profiles(bridge, rows, args.vectors).standing
    rules = categories.rule_policies(rows, mem.embedder.name, features)
    print(json.dumps({name: model for name, (model, _) in rules.items()}, indent=1))
    policies |= {name: policy for name, (_, policy) in rules.items()}
    for name, policy in policies.items():
        scored = abstain_bench.score(rows, policy)
        print(f"\n{name}\n")
        print(
            table(
                ["group", *(c[0] for c in cells)],
                [
                    [g, *(scored.get(f"{g} / {k}", {}).get(c) for _, k, c in cells)]
                    for g in abstain_bench.GROUPS
                ],
            )
        )


if __name__ == "__main__":
    main()
