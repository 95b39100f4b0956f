"""Round thirty: erase a customer while the background worker runs her extract jobs,
then list what is left in her namespace (a fact written after the erase is a leak).

Run: PYTHONPATH=src .venv/bin/python scripts/pass40_race.py [TRIALS]
"""

import shutil
import sys
import time

sys.path.insert(0, "tests")  # the deterministic hash embedder
from pathlib import Path

from engram import Config, Memory
from hashembed import HashEmbedder

d = Path("/tmp/pass40/race")
shutil.rmtree(d, ignore_errors=True)
d.mkdir()
cfg = Config.load(env={}, home=str(d / "home"))
leaks = 0
for trial in range(int(sys.argv[1]) if len(sys.argv) > 1 else 5):
    p = d / f"r{trial}.db"
    with Memory(str(p), config=cfg, embedder=HashEmbedder()) as mem:
        for i in range(60):
            mem.add(
                "Alice Quorravelle said: my phone is +44 7700 900123 and I live in "
                f"Lisbon, call {i}",
                user_id="alice",
                agent_id="support",
            )
    with Memory(str(p), config=cfg, embedder=HashEmbedder(), background=True) as mem:
        time.sleep(0.3 + 0.2 * trial)
        r = mem.erasure.erase(user_id="alice", actor="dpo")
        time.sleep(3)
        mem.jobs.process_pending()
        left = mem.get_all(user_id="alice", include_deleted=True, limit=1000)
        ents = mem.graph.count_entities(user_id="alice")
        print(
            trial,
            "erased",
            r.memories,
            "left after:",
            len(left),
            "entities",
            ents,
            mem.jobs.counts(user_id="alice") if hasattr(mem.jobs, "counts") else "",
        )
        if left or ents:
            leaks += 1
            for m in left:
                print("  LEFT", m.type, m.created_at, repr(m.content[:90]), m.metadata)
print("trials with leftovers:", leaks)
