"""A second mem0 app, a personal assistant, run unchanged on real mem0 and on engram's
mem0 door, the two logs compared call by call (new-user pass, round thirty, pass42).

Written and committed before any change of round thirty: the whole app is the
HELD-OUT fold of that round (pass39's support bot, scripts/pass39_supportbot.py, is
the tuning fold). Not a support bot: an assistant ("aria") and a travel planner agent
("planner") serving three users (maya, ben, chen) over sessions (``run_id``), built
the way mem0's docs show, with ``Memory.from_config(config_dict)``; it adds messages
with ``infer=False``, searches and lists with mem0's filter operators (AND/OR/NOT,
``in``, ``nin``, ``gte``, ``lte``, ``ne``, ``contains``, ``icontains``, ``*``), lists
with ``top_k``, updates, deletes, ``delete_all`` by agent and by run, reads
``history``, and ``reset``s.

The logs are normalised by pass39's ``Recorder`` (ids as the text they were created
with, timestamps, scores and hashes as placeholders) and compared by its ``diff``::

    /tmp/mem0-venv/bin/python scripts/pass42_assistant.py mem0 --out /tmp/pa-mem0.json
    PYTHONPATH=src .venv/bin/python scripts/pass42_assistant.py engram --out /tmp/pa-engram.json
    python3 scripts/pass42_assistant.py diff /tmp/pa-mem0.json /tmp/pa-engram.json

mem0 runs offline as in scripts/mem0_script_real.py (its hash embedder registered
under mem0's ``huggingface`` provider, local Qdrant, telemetry off; run it under
``unshare -rn`` to be sure). On engram the same config dict goes to the door's
``Memory.from_config`` with the test suite's hash embedder passed beside it; where the
door has no ``from_config`` (the base of round thirty) the call is logged as the error
it raises and the app goes on with ``Memory(path, embedder=...)``, as the compat page
tells a user to.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from pass39_supportbot import Recorder, diff  # noqa: E402  (a script beside this one)

ASSISTANT = "aria"
PLANNER = "planner"

#: (user, session, agent, topic, importance, [(role, text), ...])
SESSIONS: list[tuple[str, str, str, str, int, list[tuple[str, str]]]] = [
    (
        "maya",
        "s-01",
        ASSISTANT,
        "health",
        3,
        [
            ("user", "I have a dentist appointment every six months at Dr. Osei."),
            ("assistant", "I will remind you a week before each dentist appointment."),
            ("user", "I am allergic to penicillin."),
        ],
    ),
    (
        "maya",
        "s-02",
        PLANNER,
        "travel",
        2,
        [
            ("user", "Plan a weekend in Lisbon in May, I like quiet hotels."),
            ("assistant", "I booked Casa do Rio, a quiet hotel in Alfama, for May 16-18."),
            ("user", "I only fly with TAP or easyJet."),
        ],
    ),
    (
        "ben",
        "s-03",
        ASSISTANT,
        "work",
        2,
        [
            ("user", "My standup is at 9:30 every weekday."),
            ("assistant", "Noted, I will not schedule anything before 10 on weekdays."),
            ("user", "My manager is Rosa and she prefers Slack over email."),
        ],
    ),
    (
        "ben",
        "s-04",
        ASSISTANT,
        "family",
        3,
        [
            ("user", "My daughter Nora has swimming lessons on Thursdays at 5pm."),
            ("assistant", "I added Nora's swimming lessons to your Thursdays."),
            ("user", "My wedding anniversary is on June 12."),
        ],
    ),
    (
        "chen",
        "s-05",
        PLANNER,
        "travel",
        1,
        [
            ("user", "I need a train to Kyoto next Friday morning."),
            ("assistant", "The 8:10 Nozomi from Tokyo arrives in Kyoto at 10:25."),
            ("user", "Window seats please, I get motion sick."),
        ],
    ),
    (
        "chen",
        "s-06",
        ASSISTANT,
        "food",
        2,
        [
            ("user", "I do not eat pork and I love spicy Sichuan food."),
            ("assistant", "I will favour Sichuan restaurants without pork dishes."),
            ("user", "My favourite restaurant is Chuan Wei on Baker Lane."),
        ],
    ),
    (
        "maya",
        "s-07",
        ASSISTANT,
        "work",
        1,
        [
            ("user", "I work from home on Mondays and Fridays."),
            ("assistant", "I will keep Monday and Friday meetings online."),
        ],
    ),
]

#: What each agent keeps about itself (agent-scoped, no user).
AGENT_NOTES: list[tuple[str, str, dict[str, Any]]] = [
    (ASSISTANT, "Always confirm before booking anything that costs money.", {"kind": "rule"}),
    (ASSISTANT, "Use the 24-hour clock in summaries.", {"kind": "style"}),
    (PLANNER, "Prefer trains over flights under four hours.", {"kind": "rule"}),
    (PLANNER, "Check visa rules before booking abroad.", {"kind": "rule", "tags": "visa"}),
]

#: Searches: (step, query, filters, extra kwargs).
SEARCHES: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = [
    ("maya allergy", "medicine allergy", {"user_id": "maya"}, {"top_k": 3}),
    ("maya hotel", "which hotel in Lisbon", {"user_id": "maya", "topic": "travel"}, {}),
    (
        "maya planner only",
        "airline",
        {"user_id": "maya", "agent_id": PLANNER},
        {"top_k": 5},
    ),
    ("ben manager", "how to reach Rosa", {"user_id": "ben", "importance": {"gte": 2}}, {}),
    (
        "ben family or work",
        "Thursday schedule",
        {"user_id": "ben", "OR": [{"topic": "family"}, {"topic": "work"}]},
        {"top_k": 4},
    ),
    (
        "ben not work",
        "anniversary",
        {"user_id": "ben", "NOT": [{"topic": "work"}]},
        {},
    ),
    (
        "chen in",
        "restaurant",
        {"user_id": "chen", "topic": {"in": ["food", "travel"]}},
        {"top_k": 3},
    ),
    (
        "chen nin",
        "train seat",
        {"user_id": "chen", "topic": {"nin": ["food"]}},
        {},
    ),
    (
        "chen and",
        "pork",
        {"AND": [{"user_id": "chen"}, {"importance": {"lte": 2}}, {"topic": "food"}]},
        {},
    ),
    ("chen ne", "Kyoto", {"user_id": "chen", "topic": {"ne": "food"}}, {}),
    ("run only", "dentist", {"run_id": "s-01"}, {"threshold": 0.0}),
    ("agent rules", "booking a flight", {"agent_id": PLANNER, "kind": "rule"}, {"top_k": 2}),
    ("agent contains", "visa", {"agent_id": PLANNER, "tags": {"contains": "visa"}}, {}),
    ("agent icontains", "clock", {"agent_id": ASSISTANT, "kind": {"icontains": "STYLE"}}, {}),
    ("wildcard", "meeting", {"user_id": "maya", "topic": "*"}, {"top_k": 2}),
    ("nothing stored", "favourite basketball team", {"user_id": "ben"}, {}),
    ("threshold high", "swimming", {"user_id": "ben"}, {"threshold": 0.5}),
]


class Assistant:
    """The app: remembers sessions, recalls with filters, keeps records current."""

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec

    def remember(
        self,
        user: str,
        session: str,
        agent: str,
        topic: str,
        importance: int,
        turns: list[tuple[str, str]],
    ) -> None:
        messages = [{"role": r, "content": t} for r, t in turns]
        self.rec.call(
            f"{session} add",
            "add",
            messages,
            user_id=user,
            agent_id=agent,
            run_id=session,
            metadata={"topic": topic, "importance": importance},
            infer=False,
        )

    def find(self, filters: dict[str, Any], text: str) -> str | None:
        out = self.rec.memory.get_all(filters=filters, top_k=500)
        for r in out["results"]:
            if r["memory"] == text:
                return str(r["id"])
        return None


def run(build: Callable[[dict[str, Any]], Any], config: dict[str, Any], fallback: Any) -> Any:
    """Run the app; ``build`` is ``Memory.from_config``; ``fallback`` builds the memory
    when ``from_config`` is missing. Returns (log, memory)."""
    log: list[dict[str, Any]] = []
    try:
        memory = build(config)
        log.append({"step": "from_config", "verb": "from_config", "result": "ok"})
    except Exception as exc:
        kind = "ValueError" if isinstance(exc, ValueError) else "other"
        log.append(
            {
                "step": "from_config",
                "verb": "from_config",
                "error": kind,
                "class": type(exc).__name__,
                "message": str(exc)[:160],
            }
        )
        memory = fallback()
    rec = Recorder(memory)
    rec.log = log
    app = Assistant(rec)
    for agent, text, meta in AGENT_NOTES:
        rec.call(f"note {agent}", "add", text, agent_id=agent, metadata=meta, infer=False)
    for session in SESSIONS:
        app.remember(*session)
    # A run-only scratch note, and a user's string message.
    rec.call("run only add", "add", "Draft: ask Rosa about Q3 goals.", run_id="s-03", infer=False)
    rec.call(
        "string add",
        "add",
        "Maya's sister Leila lives in Porto.",
        user_id="maya",
        metadata={"topic": "family", "importance": 2},
        infer=False,
    )
    # The same fact said again in a later session (a real assistant repeats itself).
    rec.call(
        "repeat add",
        "add",
        [{"role": "user", "content": "I am allergic to penicillin."}],
        user_id="maya",
        agent_id=ASSISTANT,
        run_id="s-08",
        metadata={"topic": "health", "importance": 3},
        infer=False,
    )
    for step, query, filters, extra in SEARCHES:
        rec.call(f"search {step}", "search", query, filters=filters, **extra)
    # Listings.
    rec.call("list maya", "get_all", filters={"user_id": "maya"})
    rec.call("list maya top2", "get_all", filters={"user_id": "maya"}, top_k=2)
    rec.call("list ben work", "get_all", filters={"user_id": "ben", "topic": "work"})
    rec.call("list session", "get_all", filters={"run_id": "s-05"})
    rec.call("list planner", "get_all", filters={"agent_id": PLANNER})
    rec.call(
        "list chen important",
        "get_all",
        filters={"user_id": "chen", "importance": {"gte": 2}},
        top_k=10,
    )
    rec.call(
        "list or roles",
        "get_all",
        filters={"user_id": "maya", "OR": [{"role": "assistant"}, {"topic": "family"}]},
    )
    rec.call("list user+agent", "get_all", filters={"user_id": "ben", "agent_id": ASSISTANT})
    rec.call("list limit", "get_all", filters={"user_id": "chen"}, limit=2)
    # Keeping records current.
    standup = app.find({"user_id": "ben"}, "My standup is at 9:30 every weekday.")
    if standup:
        rec.call("update standup", "update", standup, text="My standup moved to 10:00.")
        rec.call("get standup", "get", standup)
        rec.call("update standup meta", "update", standup, metadata={"verified": True})
        rec.call("history standup", "history", standup)
    hotel = app.find(
        {"user_id": "maya"}, "I booked Casa do Rio, a quiet hotel in Alfama, for May 16-18."
    )
    if hotel:
        rec.call(
            "update hotel both",
            "update",
            hotel,
            text="I booked Casa do Rio, a quiet hotel in Alfama, for May 23-25.",
            metadata={"topic": "travel", "changed": "dates"},
        )
        rec.call("get hotel", "get", hotel)
    restaurant = app.find(
        {"user_id": "chen"}, "My favourite restaurant is Chuan Wei on Baker Lane."
    )
    if restaurant:
        # The text chen said in another message: mem0 keeps two memories with one text.
        rec.call(
            "update to duplicate",
            "update",
            restaurant,
            text="I do not eat pork and I love spicy Sichuan food.",
        )
        rec.call("list chen food", "get_all", filters={"user_id": "chen", "topic": "food"})
    # Deleting.
    seat = app.find({"user_id": "chen"}, "Window seats please, I get motion sick.")
    if seat:
        rec.call("delete seat", "delete", seat)
        rec.call("history seat", "history", seat)
        rec.call("get seat", "get", seat)
    rec.call("delete_all planner", "delete_all", agent_id=PLANNER)
    rec.call("list maya after planner", "get_all", filters={"user_id": "maya"})
    rec.call("list planner gone", "get_all", filters={"agent_id": PLANNER})
    rec.call("delete_all session", "delete_all", run_id="s-04")
    rec.call("list ben after session", "get_all", filters={"user_id": "ben"})
    rec.call("delete_all user+run", "delete_all", user_id="maya", run_id="s-07")
    rec.call("list maya after run", "get_all", filters={"user_id": "maya"})
    rec.call("search after deletes", "search", "Nora swimming", filters={"user_id": "ben"})
    # Errors an app meets.
    rec.call("get_all no ids", "get_all", filters={"topic": "food"})
    rec.call("search bad op", "search", "x", filters={"user_id": "ben", "topic": {"like": "w"}})
    rec.call("update nothing", "update", "00000000-0000-0000-0000-000000000000", text="y")
    rec.call("reset", "reset")
    rec.call("list after reset", "get_all", filters={"user_id": "ben"})
    rec.call("add after reset", "add", "Fresh start.", user_id="ben", infer=False)
    rec.call("list fresh", "get_all", filters={"user_id": "ben"})
    return rec.log, memory


def mem0_config(workdir: Path) -> dict[str, Any]:
    """The config dict as mem0's docs show it (local Qdrant, an embedder, history db)."""
    return {
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "collection_name": "assistant",
                "path": str(workdir / "qdrant"),
                "embedding_model_dims": 64,
            },
        },
        "embedder": {"provider": "huggingface", "config": {"embedding_dims": 64}},
        "history_db_path": str(workdir / "history.db"),
    }


def run_mem0(workdir: Path) -> Any:
    from mem0_script_real import offline_memory

    # Registers the offline hash embedder under mem0's "huggingface" provider (and sets
    # telemetry off); the probe store is closed and the app builds its own from_config.
    offline_memory(workdir / "probe")
    from mem0 import Memory

    return run(Memory.from_config, mem0_config(workdir / "app"), None)


def run_engram(workdir: Path) -> Any:
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import HashEmbedder
    from engram.compat import mem0 as door

    def build(config: dict[str, Any]) -> Any:
        return door.Memory.from_config(config, embedder=HashEmbedder())  # type: ignore[attr-defined]

    def fallback() -> Any:
        return door.Memory(str(workdir / "engram.db"), embedder=HashEmbedder())

    return run(build, mem0_config(workdir / "app"), fallback)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("side", choices=["mem0", "engram", "diff"])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--out", type=Path)
    ns = parser.parse_args()
    if ns.side == "diff":
        return diff(*ns.files)
    with tempfile.TemporaryDirectory(prefix="pass42-") as tmp:
        (Path(tmp) / "app").mkdir()
        log, memory = (run_mem0 if ns.side == "mem0" else run_engram)(Path(tmp))
        if hasattr(memory, "close"):
            memory.close()
    text = json.dumps(log, indent=1, default=str) + "\n"
    if ns.out:
        ns.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
