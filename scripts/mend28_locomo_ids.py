"""Every LoCoMo dev question's recalled ids and scores, as ``engram bench locomo`` asks
them (its ``best`` settings, abstain off), from a store it kept (``--store``): run once
per tree on a copy of the store each, then compare the files (task mend28: the keyword
leg's match read once must leave every answer as it was).

    PYTHONPATH=/path/to/old/src python scripts/mend28_locomo_ids.py STORE OUT.json
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo"


def main() -> None:
    from engram import Memory
    from engram.bench import locomo
    from engram.bench.runner import MODES, namespace_for

    store, out = sys.argv[1], sys.argv[2]
    dataset = locomo.load(str(BENCH / "locomo10_dev.json"))
    rows = []
    with Memory(store) as mem:
        for conv in dataset.conversations:
            ns = namespace_for(dataset.name, conv.id)
            for q in conv.questions:
                found = mem.recall(
                    q.text, namespace=ns, limit=dataset.depth, abstain=False, **MODES["best"]
                )
                rows.append([q.id, [(h.id, round(h.score, 9)) for h in found.hits]])
    text = json.dumps(rows)
    Path(out).write_text(text)
    print(len(rows), hashlib.sha256(text.encode()).hexdigest()[:16])


if __name__ == "__main__":
    main()
