"""Round thirty (a privacy officer): build a store of three customers (90 support notes
each, a mined chat turn, a transcript, an ingested contract, a shared handoff, an agent's
private note, a session, an agent-bound key), run the pipeline worker, and export alice
before any erase (`DIR/alice-before.jsonl`). Small index settings make SQLite persist
its ANN, term and fact snapshots in `<store>.vindex/`.

Run: PYTHONPATH=src .venv/bin/python scripts/pass40_probe.py /tmp/pass40/p1
"""

import glob
import io
import json
import shutil
import sys
import time

sys.path.insert(0, "tests")  # the deterministic hash embedder
from pathlib import Path

from engram import Config, Memory
from hashembed import HashEmbedder

d = Path(sys.argv[1])
shutil.rmtree(d, ignore_errors=True)
d.mkdir()
people = {
    "alice": ("Quorravelle", "alice.quorravelle@example.com", "+44 7700 900123"),
    "bob": ("Tandrimoss", "bob.tandrimoss@example.com", "+44 7700 900456"),
    "carol": ("Vexholden", "carol.vexholden@example.com", "+44 7700 900789"),
}
cfg = Config.load(
    env={},
    home=str(d / "home"),
    recall={
        "ann_min_vectors": 30,
        "keyword_index_min": 30,
        "ann_background": False,
        "keyword_index_background": False,
    },
)
path = d / "engram.db"
with Memory(str(path), config=cfg, embedder=HashEmbedder()) as mem:
    for u, (sur, email, phone) in people.items():
        for i in range(90):
            mem.add(
                f"{u.title()} {sur} said on call {i}: my email is {email} and my phone "
                f"is {phone}; I moved to Lisbon in March and my order #{i} was late",
                user_id=u,
                agent_id="support",
                metadata={"session_id": f"s{i % 5}"},
            )
        mem.chat.after(
            [
                {
                    "role": "user",
                    "content": f"I'm {u.title()} {sur}, a nurse at Acme; call me at {phone}",
                }
            ],
            "Noted, thanks",
            user_id=u,
            agent_id="support",
            conversation_id=f"conv-{u}",
        )
        mem.transcripts.add(
            f"sess-{u}", f"user: hi I'm {u.title()} {sur} ({email})\nassistant: hello", user_id=u
        )
        doc = mem.documents.ingest(
            text=f"Contract for {u.title()} {sur}.\n\nEmail {email}. Phone {phone}. "
            "Address 12 Elm Street, Lisbon.\n\n" * 5,
            title=f"contract-{u}",
            user_id=u,
        )
        mem.documents.process(doc.id, user_id=u)
        mem.shared.publish(
            "support", f"Handoff: {u.title()} {sur} ({phone}) is escalated", user_id=u
        )
        try:
            mem.sessions.track(
                f"sess-{u}", prompt=f"help {u.title()} {sur}", user_id=u, agent_id="support"
            )
            mem.sessions.end(f"sess-{u}", user_id=u, agent_id="support")
        except Exception as e:
            print("sessions", type(e).__name__, e)
        mem.add(
            f"private note about {u.title()} {sur}: prefers email {email}",
            namespace=f"user:{u}/support",
        )
        mem.keys.create(u, agent="support")
    n = mem.jobs.process_pending()
    print("jobs", n)
    print("jobs2", mem.jobs.process_pending())
    for u, (sur, _, _) in people.items():
        print(u, "search", len(mem.search(f"{sur} Lisbon", user_id=u)))
    print("review", mem.review.count(user_id="alice") if hasattr(mem.review, "count") else None)
    print(
        "graph",
        mem.graph.count_entities(user_id="alice"),
        mem.graph.count_relations(user_id="alice"),
    )
    time.sleep(1)
    ex = io.StringIO()
    mem.admin.export_jsonl(ex, namespaces=["user:alice"], vectors=True)
    (d / "alice-before.jsonl").write_text(ex.getvalue(), encoding="utf-8")
print(
    "vindex",
    sorted(
        {
            json.loads(Path(p).read_text()).get("namespace")
            for p in glob.glob(f"{path}.vindex/*.json")
        }
    ),
)
