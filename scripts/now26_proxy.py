"""now26: changed facts through the chat proxy's path, in process (docs/benchmarks.md,
"2026-11-30, the new value in a proxy's context (session twenty-three, now26)").

Each story is one user's turns sent as the proxy sends them: every turn a new
conversation (the system prompt and one user message), ``chat.before`` (recall, the
``<memory_context>`` block), a fake upstream's reply ("Understood. <first sentence>"),
``chat.after`` (mining queued), then the worker's jobs (``chat_mine``, ``extract``). The
question's block is read: is the new value's line above the old value's, and what took
the block's lines (echoes, the user's own questions).

    PYTHONPATH=src python scripts/now26_proxy.py stories.json [--fold tune] [--out r.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

from engram import Memory
from engram.store.protocols import ListQuery

SYSTEM = "You are a helpful assistant."


def reply_to(text: str) -> str:
    """The fake upstream's answer: "Understood. <the first sentence>"."""
    return "Understood. " + re.split(r"(?<=[.!?])\s", text.strip())[0]


def lines_of(context: str) -> list[str]:
    return [ln for ln in context.splitlines() if ln.strip().startswith(("-", "["))]


def run_story(
    mem: Memory, user: str, story: dict[str, Any], top_k: int | None, diag: bool = False
) -> dict[str, Any]:
    settings = {"top_k": top_k} if top_k else None
    out: dict[str, Any] = {"id": story["id"], "turns": []}
    for n, text in enumerate(story["turns"] + [story["question"]]):
        msgs = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": text}]
        conv = f"{story['id']}-t{n + 1}"
        if diag and n == len(story["turns"]):
            print(story["id"])
            diagnose(mem, user, story)
        turn = mem.chat.before(
            msgs, user_id=user, agent_id="assistant", conversation_id=conv, settings=settings
        )
        reply = reply_to(text)
        mem.chat.after(
            msgs,
            reply,
            user_id=user,
            agent_id="assistant",
            conversation_id=conv,
            settings=settings,
        )
        mem.jobs.process_pending()
        out["turns"].append({"text": text, "context": turn.context})
        namespace = turn.namespace
    context = out["turns"][-1]["context"]
    lines = [ln for ln in context.splitlines() if ln.lstrip().startswith("- ")]
    new, old = story["new"].lower(), story["old"].lower()
    pos_new = next((i for i, ln in enumerate(lines) if new in ln.lower()), None)
    pos_old = next(
        (i for i, ln in enumerate(lines) if old in ln.lower() and new not in ln.lower()), None
    )
    out["new_first"] = pos_new is not None and (pos_old is None or pos_new < pos_old)
    out["new_in"] = pos_new is not None
    out["echo_lines"] = sum(1 for ln in lines if "Understood." in ln)
    out["question_lines"] = sum(1 for ln in lines if re.search(r"\?\s*\(id: \w+\)$", ln))
    out["new_top4"] = pos_new is not None and pos_new < 4
    out["noise_above_new"] = sum(
        1
        for ln in lines[: pos_new if pos_new is not None else len(lines)]
        if "Understood." in ln or re.search(r"\?\s*\(id: \w+\)$", ln)
    )
    out["context"] = context
    ids = [m.id for m in mem.store.memories.select(namespace, ListQuery(limit=1000))]
    out["closed"] = bool(mem.store.graph_counts.stale_memories(namespace, ids))
    out["pending"] = mem.store.review.count(namespace)
    return out


def diagnose(mem: Memory, user: str, story: dict[str, Any]) -> None:
    """Print the question's hits with scores, roles and whether each stated a closed fact."""
    result = mem.recall(story["question"], user_id=user, limit=8)
    ns = result.hits[0].memory.namespace if result.hits else None
    ids = [h.memory.id for h in result.hits]
    stale = mem._core.store.graph_counts.stale_memories(ns, ids) if ns else set()
    for h in result.hits:
        m = h.memory
        b = h.breakdown
        print(
            f"  {h.score:.3f} fused={b.fused:.3f} stale={m.id in stale} "
            f"role={m.metadata.get('role')} src={bool(m.source_memory_id)} {m.content[:70]!r}"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("stories")
    ap.add_argument("--fold", default=None)
    ap.add_argument("--top-k", type=int, default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--diagnose", action="store_true")
    args = ap.parse_args(argv)
    stories = json.loads(Path(args.stories).read_text())
    if args.fold:
        stories = [s for s in stories if s["fold"] == args.fold]
    rows = []
    with tempfile.TemporaryDirectory() as home:
        mem = Memory(str(Path(home) / "engram.db"))
        try:
            for k, story in enumerate(stories):
                rows.append(run_story(mem, f"u{k}", story, args.top_k, args.diagnose))
        finally:
            mem.close()
    for r in rows:
        mark = "NEW" if r["new_first"] else ("old" if r["new_in"] else "---")
        print(
            f"{r['id']:<6} {mark} echo={r['echo_lines']} q={r['question_lines']} "
            f"above={r['noise_above_new']} closed={r['closed']} pending={r['pending']}"
        )
        if args.show:
            print(r["context"])
    n = len(rows)
    print(
        f"new first {sum(r['new_first'] for r in rows)}/{n}; new in block "
        f"{sum(r['new_in'] for r in rows)}/{n}; new in the first 4 lines "
        f"{sum(r['new_top4'] for r in rows)}/{n}; echo/question lines above the new "
        f"{sum(r['noise_above_new'] for r in rows)}; "
        f"echo lines {sum(r['echo_lines'] for r in rows)}; "
        f"question lines {sum(r['question_lines'] for r in rows)}"
    )
    for closed in (True, False):
        part = [r for r in rows if r["closed"] is closed]
        print(
            f"  old fact closed={closed}: new first {sum(r['new_first'] for r in part)}/"
            f"{len(part)}, in the first 4 lines {sum(r['new_top4'] for r in part)}/{len(part)}"
        )
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
