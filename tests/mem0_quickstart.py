"""mem0's own Python quickstart and memory-operations pages as 25 calls, and 7 more (mem0 commit
8d5b786, docs/open-source/python-quickstart.mdx and docs/core-concepts/memory-operations/
add, search, update and delete), run against any object with mem0's ``Memory`` verbs,
each result summarised so engram's door and real mem0 compare.

Most calls add with ``infer=True`` (mem0's default), where the facts are an extractor's
own wording (mem0's LLM, engram's extractor), so a result is compared by its shape, not
its text: the events, the keys of each item, and what kind of text each item holds —
``fact`` (something extracted), ``message`` (one message as sent, ``infer=False``) or
``conversation`` (the whole exchange as one text, which mem0 never stores). Ids are
never compared; a call names an earlier result as ``@<call>.<index>``.

Shared by tests/test_compat_mem0_script.py (the door) and
scripts/mem0_quickstart_real.py (real mem0 2.2.1 with a scripted LLM on 127.0.0.1):
pure standard library.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

EXPECTED = Path(__file__).parent / "data" / "mem0_quickstart.json"

ALEX = [
    {"role": "user", "content": "Hi, I'm Alex. I love basketball and gaming."},
    {"role": "assistant", "content": "Hey Alex! I'll remember your interests."},
]
MOVIES = [
    {"role": "user", "content": "I'm planning to watch a movie tonight. Any recommendations?"},
    {"role": "assistant", "content": "How about thriller movies? They can be quite engaging."},
    {"role": "user", "content": "I'm not a big fan of thriller movies but I love sci-fi movies."},
    {
        "role": "assistant",
        "content": "Got it! I'll avoid thriller recommendations and suggest sci-fi movies "
        "in the future.",
    },
]
MOVIE_META = {"category": "movie_recommendations"}
ALICE = {"user_id": "alice"}
DECAF = "Alex now prefers decaf coffee"

#: (verb, args, kwargs), in the pages' order; ``@1.0`` is call 1's first result's id.
CALLS: list[tuple[str, list[Any], dict[str, Any]]] = [
    # python-quickstart.mdx
    ("add", [ALEX], {"user_id": "alex"}),
    ("search", ["What do you know about me?"], {"filters": {"user_id": "alex"}}),
    # memory-operations/add.mdx
    ("add", [MOVIES], {"user_id": "alice", "metadata": MOVIE_META}),
    ("add", [MOVIES], {"user_id": "alice", "metadata": MOVIE_META, "infer": False}),
    ("add", [MOVIES], {"user_id": "alice", "expiration_date": "2030-01-31"}),
    # memory-operations/search.mdx
    ("search", ["What are Alice's hobbies?"], {"filters": ALICE}),
    ("search", ["Should I drink coffee or tea?"], {"filters": ALICE}),
    ("search", ["food preferences"], {"filters": {**ALICE, "categories": {"contains": "diet"}}}),
    ("search", ["food preferences"], {"filters": ALICE, "explain": True}),
    ("search", ["movies"], {"filters": {**ALICE, "category": "movie_recommendations"}}),
    ("search", ["movies"], {"filters": ALICE, "top_k": 2, "threshold": 0.1}),
    ("search", ["query"], {"filters": {**ALICE, "agent_id": "chatbot", "run_id": "session-123"}}),
    ("search", ["movies"], {"user_id": "alice"}),  # top-level ids: refused by mem0 2.x
    ("get_all", [], {"filters": ALICE}),
    ("get_all", [], {"filters": {"user_id": "alex"}}),
    # memory-operations/update.mdx, on the quickstart's first memory
    ("get", ["@1.0"], {}),
    ("update", [], {"memory_id": "@1.0", "text": DECAF}),
    (
        "update",
        [],
        {
            "memory_id": "@1.0",
            "text": DECAF,
            "metadata": {"category": "preferences"},
            "expiration_date": "2030-01-31",
        },
    ),
    ("update", [], {"memory_id": "@1.0", "data": DECAF + " now"}),
    ("history", ["@1.0"], {}),
    # memory-operations/delete.mdx
    ("delete", [], {"memory_id": "@1.0"}),
    ("get", ["@1.0"], {}),
    ("delete_all", [], {"user_id": "alice"}),
    ("get_all", [], {"filters": ALICE}),
    ("reset", [], {}),
]
#: Beyond the pages: a change of an earlier fact, a chat with nothing to remember, an
#: agent's memory (``FIRST_MORE`` on; tests/test_compat_mem0_script.py lists how
#: they differ).
MORE: list[tuple[str, list[Any], dict[str, Any]]] = [
    ("add", [[{"role": "user", "content": "I live in Berlin."}]], {"user_id": "sam"}),
    ("add", [[{"role": "user", "content": "I moved to Lisbon last month."}]], {"user_id": "sam"}),
    ("get_all", [], {"filters": {"user_id": "sam"}}),
    ("history", ["@26.0"], {}),
    (
        "add",
        [[{"role": "user", "content": "Hi there!"}, {"role": "assistant", "content": "Hello!"}]],
        {"user_id": "sam"},
    ),
    ("add", ["I prefer window seats."], {"agent_id": "travel-bot"}),
    ("get_all", [], {"filters": {"agent_id": "travel-bot"}}),
]
FIRST_MORE = len(CALLS) + 1
CALLS = CALLS + MORE

_SENT = {m["content"] for m in ALEX + MOVIES}


def kind(text: str) -> str:
    """What an item's text is: one message as sent, a whole exchange, or a fact."""
    if text in _SENT:
        return "message"
    if "\n" in text or text.startswith(("user:", "assistant:")):
        return "conversation"
    return "fact"


def summary(verb: str, out: Any) -> Any:
    """A result with the extractor's wording, ids, times and scores taken out: the
    events, and each kind of item with its keys."""
    if verb == "history" and isinstance(out, list):
        return [row["event"] for row in out]
    if verb == "get" and isinstance(out, dict):
        return {"keys": sorted(out), "kind": kind(out["memory"])}
    if isinstance(out, dict) and isinstance(out.get("results"), list):
        keys: dict[str, list[str]] = {}
        for row in out["results"]:
            keys[kind(row["memory"])] = sorted(set(keys.get(kind(row["memory"]), [])) | set(row))
        events = sorted({r["event"] for r in out["results"] if "event" in r})
        return {"events": events, "keys": keys}
    return out


def same(verb: str, mine: Any, theirs: Any) -> bool:
    """Whether a call gave mem0's outcome. A search is ranked by each side's own
    embedder and scores (here a hash embedder on mem0, engram's fused score), so which
    kinds of item clear its threshold is not compared: it must list no kind mem0 does
    not (a ``conversation``), and the kinds both list must have the same keys."""
    if verb != "search" or not isinstance(mine, dict) or "keys" not in mine:
        return bool(mine == theirs)
    if not isinstance(theirs, dict) or "keys" not in theirs or mine["events"] != theirs["events"]:
        return False
    if "conversation" in mine["keys"]:
        return False
    shared = set(mine["keys"]) & set(theirs["keys"])
    return all(mine["keys"][k] == theirs["keys"][k] for k in shared)


def run(memory: Any) -> list[Any]:
    """Every call's summary, in order (an error as its kind, as mem0 code sees it)."""
    results: list[dict[str, Any]] = []
    summaries: list[Any] = []

    def resolve(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("@"):
            call, index = value[1:].split(".")
            return results[int(call) - 1]["results"][int(index)]["id"]
        if isinstance(value, dict):
            return {k: resolve(v) for k, v in value.items()}
        return value

    for verb, args, kwargs in CALLS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # mem0 logs what the door warns about
            try:
                out = getattr(memory, verb)(*map(resolve, args), **resolve(kwargs))
            except Exception as exc:  # compared by kind, as mem0 code catches it
                out = {"error": "ValueError" if isinstance(exc, ValueError) else type(exc).__name__}
        results.append(out if isinstance(out, dict) else {})
        summaries.append(summary(verb, out))
    return summaries


def compare(got: list[Any]) -> dict[int, tuple[Any, Any]]:
    """The calls (numbered from 1) whose outcome differs from real mem0's."""
    expected = json.loads(EXPECTED.read_text())["summaries"]
    return {
        n: (mine, theirs)
        for n, ((verb, _, _), mine, theirs) in enumerate(zip(CALLS, got, expected, strict=True), 1)
        if not same(verb, mine, theirs)
    }
