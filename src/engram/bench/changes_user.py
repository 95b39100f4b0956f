"""``engram bench changes``' "user now first": after a change, does recall answer a
user's own question with the new fact? (issue 28, G2; session nineteen, now20)

The changes bench's "now first" asks in the old fact's own words with keywords only.
A user asks in their own words ("where do I live now?", "who is my employer?"), with
the default embedder, and the old statement may have come from a chat they mined.
``engram/data/changes_questions.json`` holds such a question for twelve stories a fold
(A, C, E, G tuned on; B, D the check), written before recall was changed, and for some
a question about the past ("where did I live before?") that must still answer the old
fact. Each story is told to its own namespace two ways:

- ``add``: every statement through ``mem.add``, a month apart;
- ``chat``: the first statement as the user's turn of a short chat mined into the
  palace (``mem.palace.mine_conversation(graph=True)``, as ``engram mine --graph``
  files it), the later ones through ``mem.add``.

A story **answers now** when recall's first hit is the story's last statement, and its
**context** when the last statement comes before the first in the context block (or
the first is not there); a **past** question answers when the first hit is the first
statement.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import Any

from engram.bench.changes import START, STEP, load_set
from engram.bench.report import table
from engram.config import Config
from engram.embed import Embedder
from engram.memory import Memory

QUESTIONS = "changes_questions.json"
VARIANTS = ("add", "chat")
#: The assistant's side of the mined chat, so the user's statement is one turn of many.
_CHAT_REPLIES = ("Got it, thanks for telling me.", "Anything else I should know?")


def questions() -> dict[str, dict[str, str]]:
    """The shipped questions by story id: ``now`` and, for some, ``past``."""
    text = (resources.files("engram") / "data" / QUESTIONS).read_text(encoding="utf-8")
    data: dict[str, dict[str, str]] = json.loads(text)["questions"]
    return data


def run(config: Config, embedder: Embedder | None | str = "default") -> dict[str, Any]:
    """Tell each questioned story both ways and ask its questions, per fold."""
    asked = questions()
    stories = [s for s in load_set() if s["id"] in asked]
    cfg = config.with_overrides(pipeline={"enabled": False, "graph": True, "linker": True})
    rows: list[dict[str, Any]] = []
    with Memory(":memory:", config=cfg, embedder=embedder) as mem:
        for story in stories:
            for variant in VARIANTS:
                namespace = f"user-{variant}-{story['id']}"
                told = _tell(mem, namespace, story["statements"], variant)
                row: dict[str, Any] = {"id": story["id"], "fold": story["fold"]}
                row |= {"variant": variant, **_ask(mem, namespace, asked[story["id"]], told)}
                rows.append(row)
    folds = dict.fromkeys(str(s["fold"]) for s in stories)
    return {
        "folds": {f: {v: _score(rows, f, v) for v in VARIANTS} for f in folds},
        "stories": rows,
    }


def _tell(mem: Memory, namespace: str, statements: Sequence[str], variant: str) -> list[str]:
    """The memory ids of the story's statements, told the ``variant`` way."""
    told: list[str] = []
    for n, text in enumerate(statements):
        at = START + n * STEP
        if n == 0 and variant == "chat":
            messages = [{"role": "user", "content": text, "created_at": at.isoformat()}]
            messages += [
                {"role": "assistant", "content": reply, "created_at": at.isoformat()}
                for reply in _CHAT_REPLIES[:1]
            ]
            mined = mem.palace.mine_conversation(
                messages,
                wing="chats",
                session=f"chat {namespace}",
                graph=True,
                namespace=namespace,
            )
            told.append(mined.added[0].memory_id)
        else:
            told.append(mem.add(text, namespace=namespace, created_at=at).id)
    return told


def _ask(mem: Memory, namespace: str, asked: dict[str, str], told: Sequence[str]) -> dict[str, Any]:
    first, last = told[0], told[-1]
    out: dict[str, Any] = {"question": asked["now"]}
    found = mem.recall(asked["now"], namespace=namespace)
    ranked = [h.memory.id for h in found.hits]
    out["now_first"] = bool(ranked) and ranked[0] == last
    out["now_context"] = _before(
        found.context, _content(mem, namespace, last), _content(mem, namespace, first)
    )
    out["ranked"] = ranked[:3]
    if "past" in asked:
        past = [h.memory.id for h in mem.recall(asked["past"], namespace=namespace).hits]
        out["past_first"] = bool(past) and past[0] == first
    return out


def _content(mem: Memory, namespace: str, memory_id: str) -> str:
    return mem.get(memory_id, namespace=namespace).content


def _before(context: str, new: str, old: str) -> bool:
    """Whether ``new`` is in the context and ahead of ``old`` (or ``old`` is absent)."""
    at_new, at_old = context.find(new), context.find(old)
    return at_new >= 0 and (at_old < 0 or at_new < at_old)


def _score(rows: Sequence[dict[str, Any]], fold: str, variant: str) -> dict[str, Any]:
    mine = [r for r in rows if r["fold"] == fold and r["variant"] == variant]
    past = [r for r in mine if "past_first" in r]
    return {
        "stories": len(mine),
        "now_first": sum(r["now_first"] for r in mine),
        "now_context": sum(r["now_context"] for r in mine),
        "past": len(past),
        "past_first": sum(r["past_first"] for r in past),
    }


def markdown(result: dict[str, Any]) -> str:
    """Per fold and way of telling: new fact first, in the context, past kept."""
    rows = [
        [
            fold,
            variant,
            f"{s['now_first']}/{s['stories']}",
            f"{s['now_context']}/{s['stories']}",
            f"{s['past_first']}/{s['past']}",
        ]
        for fold, by in result["folds"].items()
        for variant, s in by.items()
    ]
    header = ["fold", "told", "user now: new first", "new ahead in context", "past: old first"]
    lost = [f"{r['id']} ({r['variant']})" for r in result["stories"] if not r["now_first"]]
    text = table(header, rows)
    return text + ("\n\nNew fact not first: " + ", ".join(lost) if lost else "")
