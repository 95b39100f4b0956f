"""Write tests/data/mem0_script.json: a mem0-style script and what mem0 2.2.1 returns.

Issue 27 measures the mem0 door against mem0 itself. mem0 is no dependency of engram
(it needs an LLM and OpenAI embeddings), so the expected results here were first
derived by reading mem0 2.2.1's source, with ``infer=False`` and its default local
Qdrant store (each helper names the function it follows), and are checked against
real mem0 2.2.1 run offline by ``scripts/mem0_script_real.py``: every step identical. Ids,
timestamps and scores are random or embedder-made on mem0, so a step writes an id as
its ``@label``, a timestamp as ``<ts>`` and a float score as ``<score>``; search and
get_all results whose order depends on mem0's embedder or on Qdrant's uuid order are
compared as sets (``unordered``). Run: ``python scripts/mem0_script_fixture.py``.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "mem0_script.json"
TS = "<ts>"
UPDATED = {"message": "Memory updated successfully!"}
DELETED = {"message": "Memory deleted successfully!"}
ALL_DELETED = {"message": "Memories deleted successfully!"}
VALUE_ERROR = {"error": "ValueError"}

#: What each memory of the script holds on mem0: its payload (main.py ``_create_memory``
#: and ``_add_to_vector_store``'s infer=False branch: the caller's metadata, the ids, the
#: message's ``role`` and its ``name`` as ``actor_id``).
PAYLOADS: dict[str, dict[str, Any]] = {}


def md5(text: str) -> str:
    return hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()


def stored(label: str, text: str, role: str = "user", **payload: Any) -> None:
    PAYLOADS[label] = {"memory": text, "role": role, **payload}


def added(label: str) -> dict[str, Any]:
    """One add result (``_add_to_vector_store``, infer=False)."""
    p = PAYLOADS[label]
    return {
        "id": label,
        "memory": p["memory"],
        "event": "ADD",
        "actor_id": p.get("actor_id"),
        "role": p["role"],
    }


PROMOTED = ("user_id", "agent_id", "run_id", "actor_id", "role", "expiration_date")


def item(label: str, *, score: Any = "absent") -> dict[str, Any]:
    """A memory item: ``MemoryItem(...).model_dump()`` plus the promoted payload keys and
    the rest as ``metadata`` (None when empty); ``get_all`` excludes ``score``."""
    p = dict(PAYLOADS[label])
    text = p.pop("memory")
    out: dict[str, Any] = {
        "id": label,
        "memory": text,
        "hash": md5(text),
        "created_at": TS,
        "updated_at": TS,
    }
    if score != "absent":
        out["score"] = score
    for key in PROMOTED:
        if key in p:
            out[key] = p.pop(key)
    out["metadata"] = p or None
    return out


def got(label: str) -> dict[str, Any]:
    return item(label, score=None)


def listed(*labels: str) -> dict[str, Any]:
    return {"results": [item(label) for label in labels]}


def found(*labels: str) -> dict[str, Any]:
    return {"results": [item(label, score="<score>") for label in labels]}


def history(label: str, *changes: tuple[str, str | None, str | None]) -> list[dict[str, Any]]:
    """``SQLiteManager.get_history`` rows; the row id is a uuid4 (``<hid>``)."""
    p = PAYLOADS[label]
    return [
        {
            "id": "<hid>",
            "memory_id": label,
            "old_memory": old,
            "new_memory": new,
            "event": event,
            "created_at": TS,
            "updated_at": TS,
            "is_deleted": event == "DELETE",
            "actor_id": p.get("actor_id"),
            "role": p["role"],
        }
        for event, old, new in changes
    ]


STEPS: list[dict[str, Any]] = []


def step(call: str, *args: Any, expect: Any, unordered: bool = False, **kwargs: Any) -> None:
    labels = [r["id"] for r in expect.get("results", [])] if call == "add" else []
    STEPS.append(
        {
            "n": len(STEPS) + 1,
            "call": call,
            "args": list(args),
            "kwargs": kwargs,
            "labels": labels,
            "unordered": unordered,
            "expect": expect,
        }
    )


def add_text(label: str, text: str, metadata: dict[str, Any] | None = None, **ids: Any) -> None:
    """A string added with ``infer=False``: one user message, one memory."""
    stored(label, text, **ids, **(metadata or {}))
    step("add", text, **ids, metadata=metadata, infer=False, expect={"results": [added(label)]})


def build() -> None:
    step("reset", expect=None)
    # -- quickstart (docs.mem0.ai open-source quickstart, infer=False) ----------------
    movies = [
        ("user", "I'm planning to watch a movie tonight. Any recommendations?"),
        ("assistant", "How about thriller movies? They can be quite engaging."),
        ("user", "I'm not a big fan of thriller movies but I love sci-fi movies."),
        ("assistant", "Got it! I'll avoid thriller recommendations and suggest sci-fi movies."),
    ]
    for i, (role, text) in enumerate(movies):
        stored(f"@movie{i}", text, role, user_id="alice", category="movies")
    step(
        "add",
        [{"role": r, "content": t} for r, t in movies],
        user_id="alice",
        metadata={"category": "movies"},
        infer=False,
        expect={"results": [added(f"@movie{i}") for i in range(4)]},
    )
    step("get", "@movie0", expect=got("@movie0"))
    step("get", "@movie1", expect=got("@movie1"))
    step(
        "get_all",
        filters={"user_id": "alice"},
        expect=listed(*(f"@movie{i}" for i in range(4))),
        unordered=True,
    )
    step(
        "search",
        "I'm planning to watch a movie tonight. Any recommendations?",
        filters={"user_id": "alice"},
        top_k=1,
        expect=found("@movie0"),
    )
    # -- messages: a string, one dict with a name, a system message ---------------------
    health = {"category": "health", "severity": 5}
    add_text("@peanuts", "I am allergic to peanuts", health, user_id="alice")
    stored("@name", "My name is Alice", user_id="alice", actor_id="alice_w")
    step(
        "add",
        {"role": "user", "content": "My name is Alice", "name": "alice_w"},
        user_id="alice",
        infer=False,
        expect={"results": [added("@name")]},
    )
    stored("@lisbon", "I live in Lisbon", user_id="alice")
    step(
        "add",
        [
            {"role": "system", "content": "You are a travel assistant."},
            {"role": "user", "content": "I live in Lisbon"},
        ],
        user_id="alice",
        infer=False,
        expect={"results": [added("@lisbon")]},
    )
    step("get", "@name", expect=got("@name"))
    step("get", "@peanuts", expect=got("@peanuts"))
    # -- metadata for the filters ---------------------------------------------------------
    music = {
        "@jazz": ("I like jazz", {"genre": "jazz", "rating": 5, "year": 2019}),
        "@rock": ("I like rock", {"genre": "rock", "rating": 3, "year": 2021}),
        "@classical": ("I like classical music", {"genre": "classical", "rating": 4}),
        "@country": ("I dislike country music", {"genre": "country", "rating": 1}),
        "@podcasts": ("I sometimes listen to podcasts", {}),
    }
    music["@jazz"][1].update(tags=["music", "evening"], venue="Blue Note")
    music["@classical"][1].update(year=2015, venue="Opera House")
    for label, (text, meta) in music.items():
        add_text(label, text, meta or None, user_id="bob")
    # A second add of the same text is a second memory on mem0 (no dedupe, infer=False).
    add_text("@rock2", "I like rock", user_id="bob")
    step("delete", "@rock2", expect=DELETED)
    # -- every filter operator (vector_stores/qdrant.py _create_filter) -----------------
    bob = {"user_id": "bob"}
    for condition, labels in (
        ({"genre": "jazz"}, ["@jazz"]),
        ({"genre": {"eq": "rock"}}, ["@rock"]),
        ({"genre": {"ne": "jazz"}}, ["@rock", "@classical", "@country"]),
        ({"genre": {"in": ["jazz", "rock"]}}, ["@jazz", "@rock"]),
        ({"genre": {"nin": ["jazz", "rock"]}}, ["@classical", "@country"]),
        ({"rating": {"gt": 3}}, ["@jazz", "@classical"]),
        ({"rating": {"gte": 3}}, ["@jazz", "@rock", "@classical"]),
        ({"rating": {"lt": 3}}, ["@country"]),
        ({"rating": {"lte": 3}}, ["@rock", "@country"]),
        ({"year": {"gte": 2016, "lte": 2021}}, ["@jazz", "@rock"]),
        ({"venue": {"contains": "Note"}}, ["@jazz"]),
        ({"venue": {"icontains": "Opera"}}, ["@classical"]),
        # mem0 sends contains and icontains to Qdrant as MatchText; on a field without a
        # text index Qdrant splits both sides into lowercased words and needs every
        # query word (checked against real mem0 2.2.1, scripts/mem0_script_real.py).
        ({"venue": {"icontains": "opera"}}, ["@classical"]),
        ({"venue": {"contains": "note"}}, ["@jazz"]),
        ({"venue": {"contains": "Not"}}, []),
        # Equality and in on a list value hold when one element matches (Qdrant's rule
        # for arrays), and a list as the value means in (qdrant.py _create_filter).
        ({"tags": "music"}, ["@jazz"]),
        ({"tags": {"in": ["evening", "night"]}}, ["@jazz"]),
        ({"genre": ["jazz", "rock"]}, ["@jazz", "@rock"]),
        ({"venue": "*"}, list(music)),
        ({"tags": {"contains": "music"}}, ["@jazz"]),
        (
            {"AND": [{"genre": {"in": ["jazz", "rock", "classical"]}}, {"rating": {"gte": 4}}]},
            ["@jazz", "@classical"],
        ),
        ({"OR": [{"genre": "jazz"}, {"rating": {"lt": 2}}]}, ["@jazz", "@country"]),
        ({"NOT": [{"genre": "jazz"}]}, ["@rock", "@classical", "@country", "@podcasts"]),
        ({"genre": {"ne": "rock"}, "rating": {"gte": 4}}, ["@jazz", "@classical"]),
    ):
        step("get_all", filters={**bob, **condition}, expect=listed(*labels), unordered=True)
    step(
        "search",
        "jazz",
        filters={**bob, "genre": "jazz"},
        expect=found("@jazz"),
        unordered=True,
    )
    step(
        "search",
        "I like classical music",
        filters={**bob, "rating": {"gte": 4}},
        top_k=1,
        expect=found("@classical"),
    )
    step("search", "I like jazz", filters=bob, top_k=1, expect=found("@jazz"))
    # A bool is no number, and a dotted key reaches into nested metadata (Qdrant payload
    # paths); a nested dict as the value is an unknown operator (real mem0 2.2.1).
    add_text(
        "@tea",
        "I drink green tea",
        {"hot": True, "cups": 1, "origin": {"country": "Japan"}},
        user_id="dana",
    )
    add_text(
        "@coffee",
        "I drink coffee",
        {"hot": False, "cups": 3, "origin": {"country": "Brazil"}},
        user_id="dana",
    )
    dana = {"user_id": "dana"}
    for condition, labels in (
        ({"hot": True}, ["@tea"]),
        ({"cups": True}, []),
        ({"cups": {"in": [1, 2]}}, ["@tea"]),
        ({"origin.country": "Japan"}, ["@tea"]),
    ):
        step("get_all", filters={**dana, **condition}, expect=listed(*labels), unordered=True)
    step("get_all", filters={**dana, "origin": {"country": "Japan"}}, expect=VALUE_ERROR)
    # -- scope: user_id, agent_id and run_id ----------------------------------------------
    add_text("@deploys", "Deploys happen on Fridays", user_id="carol", agent_id="ops", run_id="r1")
    add_text("@rollback", "Rollback needs approval", agent_id="ops")
    add_text("@summary", "Run summary: all green", run_id="r1")
    step(
        "get_all",
        filters={"agent_id": "ops"},
        expect=listed("@deploys", "@rollback"),
        unordered=True,
    )
    step("get_all", filters={"run_id": "r1"}, expect=listed("@deploys", "@summary"), unordered=True)
    step(
        "get_all",
        filters={"user_id": "carol", "agent_id": "ops", "run_id": "r1"},
        expect=listed("@deploys"),
    )
    step(
        "search",
        "Deploys happen on Fridays",
        filters={"agent_id": "ops"},
        top_k=1,
        expect=found("@deploys"),
    )
    step("search", "Run summary", filters={"run_id": "r1"}, top_k=1, expect=found("@summary"))
    step("get", "@deploys", expect=got("@deploys"))
    # -- update and history (main.py update/_update_memory, storage.py get_history) -------
    t0, t1, t2 = (
        "I am allergic to peanuts",
        "I am severely allergic to peanuts",
        "I carry an EpiPen for peanuts",
    )
    step("update", "@peanuts", text=t1, expect=UPDATED)
    PAYLOADS["@peanuts"]["memory"] = t1
    step("get", "@peanuts", expect=got("@peanuts"))
    step("update", "@peanuts", metadata={"severity": 9}, expect=UPDATED)
    PAYLOADS["@peanuts"]["severity"] = 9
    step("get", "@peanuts", expect=got("@peanuts"))
    step("update", "@peanuts", data=t2, expect=UPDATED)
    PAYLOADS["@peanuts"]["memory"] = t2
    step("get", "@peanuts", expect=got("@peanuts"))
    step(
        "history",
        "@peanuts",
        expect=history(
            "@peanuts",
            ("ADD", None, t0),
            ("UPDATE", t0, t1),
            ("UPDATE", t1, t1),
            ("UPDATE", t1, t2),
        ),
    )
    step("history", "@name", expect=history("@name", ("ADD", None, "My name is Alice")))
    step("delete", "@lisbon", expect=DELETED)
    step("get", "@lisbon", expect=None)
    step(
        "history",
        "@lisbon",
        expect=history(
            "@lisbon", ("ADD", None, "I live in Lisbon"), ("DELETE", "I live in Lisbon", None)
        ),
    )
    alice = ["@movie0", "@movie1", "@movie2", "@movie3", "@peanuts", "@name"]
    step("get_all", filters={"user_id": "alice"}, expect=listed(*alice), unordered=True)
    # -- expiration_date and show_expired --------------------------------------------------
    stored("@offer", "Spring offer: 10% off", user_id="alice", expiration_date="2000-01-01")
    step(
        "add",
        "Spring offer: 10% off",
        user_id="alice",
        expiration_date="2000-01-01",
        infer=False,
        expect={"results": [added("@offer")]},
    )
    step("get_all", filters={"user_id": "alice"}, expect=listed(*alice), unordered=True)
    step(
        "get_all",
        filters={"user_id": "alice"},
        show_expired=True,
        expect=listed(*alice, "@offer"),
        unordered=True,
    )
    step("get", "@offer", expect=got("@offer"))
    # -- the documented errors ------------------------------------------------------------
    unknown = "00000000-0000-0000-0000-000000000000"
    step("update", unknown, text="x", expect=VALUE_ERROR)
    step("delete", unknown, expect=VALUE_ERROR)
    step("get", unknown, expect=None)
    step("history", unknown, expect=[])
    step("search", "movies", expect=VALUE_ERROR)
    step("get_all", expect=VALUE_ERROR)
    step("get_all", filters={"genre": "jazz"}, expect=VALUE_ERROR)
    # _build_filters_and_metadata raises mem0.exceptions.ValidationError (no ValueError)
    step("add", "no owner", infer=False, expect={"error": "ValidationError"})
    step("delete_all", expect=VALUE_ERROR)
    step("update", "@peanuts", expect=VALUE_ERROR)
    step("search", "   ", filters={"user_id": "alice"}, expect=VALUE_ERROR)
    step("search", "movies", filters={"user_id": "alice"}, threshold=2, expect=VALUE_ERROR)
    step("search", "movies", filters={"user_id": "alice"}, top_k=-1, expect=VALUE_ERROR)
    # mem0 2.x rejects the top-level ids on search/get_all (_reject_top_level_entity_params)
    step("get_all", user_id="alice", expect=VALUE_ERROR)
    step("add", "x", user_id="alice", expiration_date="next week", expect=VALUE_ERROR)
    # Platform-only temporal keywords: mem0's open source raises a ValueError on them.
    step("add", "x", user_id="alice", timestamp=1700000000, infer=False, expect=VALUE_ERROR)
    step(
        "search",
        "movies",
        filters={"user_id": "alice"},
        reference_date="2024-01-01",
        expect=VALUE_ERROR,
    )
    # -- delete_all and reset ------------------------------------------------------------
    step("delete_all", user_id="bob", expect=ALL_DELETED)
    step("get_all", filters=bob, expect={"results": []})
    step(
        "history",
        "@jazz",
        expect=history("@jazz", ("ADD", None, "I like jazz"), ("DELETE", "I like jazz", None)),
    )
    step("delete_all", agent_id="ops", expect=ALL_DELETED)
    step("get_all", filters={"run_id": "r1"}, expect=listed("@summary"))
    step("get_all", filters={"user_id": "carol"}, expect={"results": []})
    step("reset", expect=None)
    step("get_all", filters={"user_id": "alice"}, expect={"results": []})
    step("history", "@peanuts", expect=[])


if __name__ == "__main__":
    build()
    OUT.write_text(json.dumps({"mem0": "2.2.1", "steps": STEPS}, indent=1) + "\n")
    print(f"{len(STEPS)} steps -> {OUT}")
