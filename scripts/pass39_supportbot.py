"""A small mem0 support bot, run unchanged on real mem0 and on engram's mem0 door, and
the two logs compared call by call (new-user pass, round twenty-nine, pass39).

The app (``SupportBot``) is written as a mem0 user writes it: three customers over
about 100 messages in tickets, the agent's own policies, searches with metadata
filters, updates, deletes, ``delete_all`` per ticket and per customer, ``history`` and
``reset``. Every call goes through ``Recorder``, which logs it with its result
normalised: ids become the text the memory was created with, timestamps ``<ts>``,
scores ``<score>``, history row ids ``<hid>``; an error is its kind (``ValueError`` or
not) and class name. A search's results are logged both in order and as a set of
texts, since the order depends on each side's embedder.

Run it twice and compare::

    # real mem0 2.2.1, offline, in its own venv (see scripts/mem0_script_real.py):
    /tmp/mem0-venv/bin/python scripts/pass39_supportbot.py mem0 --out /tmp/bot-mem0.json
    # engram's door (the test suite's hash embedder, the same scheme as mem0's side):
    PYTHONPATH=src .venv/bin/python scripts/pass39_supportbot.py engram --out /tmp/bot-engram.json
    python3 scripts/pass39_supportbot.py diff /tmp/bot-mem0.json /tmp/bot-engram.json

``engram --default-embedder`` uses engram's default embedder instead of the hash one.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BOT = "support-bot"

#: (customer, ticket, category, priority, [(role, text), ...]); about 100 messages.
TICKETS: list[tuple[str, str, str, int, list[tuple[str, str]]]] = [
    (
        "priya",
        "T-100",
        "billing",
        2,
        [
            ("system", "You are Acme's support assistant."),
            ("user", "Hi, I was charged twice for my March invoice."),
            ("assistant", "Sorry about that. I can see two charges of 49 EUR on March 3."),
            ("user", "My account email is priya@example.com and I pay by Visa."),
            ("assistant", "Thanks. I have opened a refund for the duplicate charge."),
            ("user", "Please send invoices to my office address, 12 Baker Street, London."),
        ],
    ),
    (
        "tom",
        "T-101",
        "shipping",
        1,
        [
            ("user", "Where is my order 5521? It was due on Monday."),
            ("assistant", "Order 5521 left the warehouse on Friday with DHL."),
            ("user", "I live at 4 Elm Road, Leeds, and nobody came."),
            ("assistant", "I asked DHL to redeliver tomorrow between 9 and 12."),
            ("user", "I prefer deliveries in the afternoon."),
        ],
    ),
    (
        "li",
        "T-102",
        "account",
        3,
        [
            ("user", "I cannot log in since I changed my phone."),
            ("assistant", "Two-factor codes are tied to the old phone. I reset 2FA for you."),
            ("user", "My username is li.wei and my new phone number ends in 0447."),
            ("assistant", "Done: 2FA is now on the phone ending in 0447."),
            ("user", "I am on the Pro plan and my company is Wei Design."),
        ],
    ),
    (
        "priya",
        "T-103",
        "billing",
        1,
        [
            ("user", "The refund for the March duplicate arrived, thanks."),
            ("assistant", "Great, I will close the billing ticket."),
            ("user", "Can I switch to yearly billing?"),
            ("assistant", "Yes, yearly billing saves 15 percent; I switched you from April."),
        ],
    ),
    (
        "tom",
        "T-104",
        "product",
        2,
        [
            ("user", "The blender I bought makes a grinding noise."),
            ("assistant", "That model has a known gasket issue; a replacement gasket is free."),
            ("user", "I am vegetarian and use it every day for smoothies."),
            ("assistant", "I sent a replacement gasket to 4 Elm Road, Leeds."),
            ("user", "My partner Sam sometimes calls on my behalf."),
        ],
    ),
    (
        "li",
        "T-105",
        "billing",
        2,
        [
            ("user", "Our Pro plan renewal failed with card ending 9921."),
            ("assistant", "The bank declined it; please update the card in settings."),
            ("user", "I updated it to a Mastercard ending 1180."),
            ("assistant", "The renewal went through on the new card."),
        ],
    ),
    (
        "priya",
        "T-106",
        "shipping",
        3,
        [
            ("user", "I moved: my new home address is 7 Canal Street, Manchester."),
            ("assistant", "Noted, future parcels go to 7 Canal Street, Manchester."),
            ("user", "Also I am allergic to latex, please no latex gloves in packaging."),
            ("assistant", "I flagged your account: no latex in packaging."),
        ],
    ),
    (
        "tom",
        "T-107",
        "account",
        1,
        [
            ("user", "Please change my email to tom.b@example.org."),
            ("assistant", "Your email is now tom.b@example.org."),
            ("user", "And unsubscribe me from the newsletter."),
            ("assistant", "Unsubscribed from the newsletter."),
        ],
    ),
    (
        "li",
        "T-108",
        "product",
        1,
        [
            ("user", "Does the Pro plan include the API?"),
            ("assistant", "Yes, Pro includes 10,000 API calls a month."),
            ("user", "We will need about 30,000 calls from June."),
            ("assistant", "The Business plan covers 50,000 calls; I sent you a quote."),
        ],
    ),
]

#: What a support agent keeps about its own behaviour (agent-scoped memories).
POLICIES = [
    "Refunds under 100 EUR are approved without a manager.",
    "Replacement parts under warranty ship for free.",
    "Never read a full card number back to a customer.",
    "Escalate a ticket to a manager after two failed redeliveries.",
]

#: Follow-up questions: (customer, question, extra metadata filter or None).
QUESTIONS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("priya", "where should parcels be delivered?", None),
    ("priya", "how does she pay?", {"category": "billing"}),
    ("tom", "what is his email address?", None),
    ("tom", "delivery preferences", {"category": {"in": ["shipping", "product"]}}),
    ("li", "which plan is the customer on?", {"priority": {"gte": 2}}),
    ("li", "phone number for two-factor", {"ticket": "T-102"}),
    ("tom", "diet", {"OR": [{"category": "product"}, {"priority": 3}]}),
    ("priya", "allergies", {"NOT": [{"category": "billing"}]}),
]


#: Held-out questions (fold B), written before any change and read once at the end:
#: the diff counts them apart from ``QUESTIONS`` (fold A, looked at while fixing).
HELD_OUT: list[tuple[str, str, dict[str, Any] | None]] = [
    ("priya", "invoice address", None),
    ("priya", "refund status", {"ticket": {"in": ["T-100", "T-103"]}}),
    ("tom", "who is allowed to call for him?", None),
    ("tom", "blender gasket", {"category": "product"}),
    ("tom", "karaoke night", None),
    ("li", "API calls quota", {"category": {"ne": "billing"}}),
    ("li", "credit card", {"priority": {"lte": 2}}),
    ("li", "favourite football team", None),
    ("priya", "vegetarian recipes", {"role": "user"}),
    ("tom", "order number", {"AND": [{"category": "shipping"}, {"priority": 1}]}),
]


class Recorder:
    """Calls a mem0-like memory and logs each call with its normalised result."""

    def __init__(self, memory: Any) -> None:
        self.memory = memory
        self.log: list[dict[str, Any]] = []
        self.texts: dict[str, str] = {}  # id -> the text it was created with

    def call(self, step: str, verb: str, *args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # mem0 logs what the door warns about
            try:
                out = getattr(self.memory, verb)(*args, **kwargs)
            except Exception as exc:  # the app sees the kind of error, as mem0 code does
                kind = "ValueError" if isinstance(exc, ValueError) else "other"
                self.log.append(
                    {
                        "step": step,
                        "verb": verb,
                        "error": kind,
                        "class": type(exc).__name__,
                        "message": str(exc)[:160],
                    }
                )
                return None
        self._learn(out)
        entry: dict[str, Any] = {"step": step, "verb": verb, "result": self.normal(out)}
        if verb == "search" and isinstance(out, dict):
            entry["set"] = sorted(r["memory"] for r in out.get("results", []))
        self.log.append(entry)
        return out

    def _learn(self, out: Any) -> None:
        if isinstance(out, dict):
            for r in out.get("results", []) or []:
                if isinstance(r, dict) and "id" in r and "memory" in r:
                    self.texts.setdefault(r["id"], r["memory"])

    def normal(self, value: Any) -> Any:
        if isinstance(value, list):
            return [self.normal(v) for v in value]
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for key, v in value.items():
            if key in ("created_at", "updated_at") and v is not None:
                out[key] = "<ts>"
            elif key == "score" and isinstance(v, float):
                out[key] = "<score>"
            elif key == "hash":
                out[key] = "<hash>" if isinstance(v, str) else v
            elif key == "id" and "memory_id" in value:
                out[key] = "<hid>"
            elif key in ("id", "memory_id") and isinstance(v, str):
                out[key] = "@" + self.texts.get(v, "<unknown>")
            else:
                out[key] = self.normal(v)
        return out


class SupportBot:
    """The app: remembers each ticket's messages, answers from memory, keeps records
    current. Only mem0's public verbs."""

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec

    def remember_ticket(
        self, customer: str, ticket: str, category: str, priority: int, turns: list[tuple[str, str]]
    ) -> None:
        # Context before the ticket, as a bot does before answering.
        self.rec.call(
            f"{ticket} context",
            "search",
            turns[-1][1] if turns[0][0] == "system" else turns[0][1],
            filters={"user_id": customer},
            top_k=3,
        )
        messages = [{"role": r, "content": t} for r, t in turns]
        meta = {"ticket": ticket, "category": category, "priority": priority}
        self.rec.call(
            f"{ticket} add",
            "add",
            messages,
            user_id=customer,
            agent_id=BOT,
            run_id=ticket,
            metadata=meta,
            infer=False,
        )

    def find(self, customer: str, text: str) -> str | None:
        """The id of a customer's memory with this exact text (via get_all)."""
        out = self.rec.memory.get_all(filters={"user_id": customer}, top_k=200)
        for r in out["results"]:
            if r["memory"] == text:
                return str(r["id"])
        return None


def run(memory: Any) -> list[dict[str, Any]]:
    rec = Recorder(memory)
    bot = SupportBot(rec)
    for text in POLICIES:
        rec.call("policy add", "add", text, agent_id=BOT, metadata={"kind": "policy"}, infer=False)
    for customer, ticket, category, priority, turns in TICKETS:
        bot.remember_ticket(customer, ticket, category, priority, turns)
    # A dict message and a plain string, as mem0 takes them.
    rec.call(
        "dict message",
        "add",
        {"role": "user", "content": "I prefer email over phone."},
        user_id="tom",
        infer=False,
    )
    rec.call(
        "string message",
        "add",
        "Prefers English and Mandarin.",
        user_id="li",
        metadata={"category": "account"},
        infer=False,
    )
    # Answering: searches with filters.
    for customer, question, extra in QUESTIONS:
        filters: dict[str, Any] = {"user_id": customer, **(extra or {})}
        rec.call(f"ask {customer}: {question}", "search", question, filters=filters, top_k=5)
    for customer, question, extra in HELD_OUT:
        filters = {"user_id": customer, **(extra or {})}
        rec.call(f"held {customer}: {question}", "search", question, filters=filters, top_k=5)
    rec.call(
        "ask agent policy",
        "search",
        "can I refund 60 EUR?",
        filters={"agent_id": BOT, "kind": "policy"},
        top_k=2,
    )
    rec.call(
        "ticket search",
        "search",
        "redelivery",
        filters={"run_id": "T-101"},
        top_k=10,
        threshold=0.0,
    )
    rec.call("ask rerank", "search", "address", filters={"user_id": "priya"}, top_k=3, rerank=True)
    rec.call("ask limit", "search", "address", filters={"user_id": "priya"}, limit=2)
    rec.call(
        "user+agent", "search", "refund", filters={"user_id": "priya", "agent_id": BOT}, top_k=2
    )
    # Listings.
    rec.call("list tom", "get_all", filters={"user_id": "tom"})
    rec.call("list li top3", "get_all", filters={"user_id": "li"}, top_k=3)
    rec.call("list ticket", "get_all", filters={"run_id": "T-105"})
    rec.call("list agent", "get_all", filters={"agent_id": BOT}, top_k=100)
    rec.call("list roles", "get_all", filters={"user_id": "priya", "role": "assistant"})
    rec.call("list high", "get_all", filters={"user_id": "li", "priority": {"gt": 1}})
    rec.call("list no ids", "get_all", filters={"category": "billing"})
    rec.call("list top-level", "get_all", user_id="tom")
    # Keeping records current: priya's office address changed, tom's diet, li's plan.
    office = bot.find(
        "priya", "Please send invoices to my office address, 12 Baker Street, London."
    )
    if office:
        rec.call(
            "update text",
            "update",
            office,
            text="Please send invoices to my office address, 3 King Street, London.",
        )
        rec.call("get updated", "get", office)
        rec.call("update meta", "update", office, metadata={"verified": True})
        rec.call("get meta", "get", office)
        rec.call("history updated", "history", office)
    diet = bot.find("tom", "I am vegetarian and use it every day for smoothies.")
    if diet:
        rec.call("update positional", "update", diet, "I am vegan and use it for smoothies.")
        rec.call("history positional", "history", diet)
    plan = bot.find("li", "I am on the Pro plan and my company is Wei Design.")
    if plan:
        rec.call("update expiry", "update", plan, expiration_date="2020-01-01")
        rec.call("list after expiry", "get_all", filters={"user_id": "li", "ticket": "T-102"})
        rec.call(
            "list expired shown",
            "get_all",
            filters={"user_id": "li", "ticket": "T-102"},
            show_expired=True,
        )
        rec.call("get expired", "get", plan)
    # Deleting: one memory, a ticket, a customer (GDPR).
    latex = bot.find("priya", "Also I am allergic to latex, please no latex gloves in packaging.")
    if latex:
        rec.call("delete one", "delete", latex)
        rec.call("get deleted", "get", latex)
        rec.call("history deleted", "history", latex)
        rec.call("delete again", "delete", latex)
        rec.call("update deleted", "update", latex, text="x")
    rec.call("delete ticket", "delete_all", run_id="T-104")
    rec.call("list after ticket", "get_all", filters={"user_id": "tom"})
    rec.call("delete customer", "delete_all", user_id="li")
    rec.call("list li gone", "get_all", filters={"user_id": "li"})
    rec.call("search li gone", "search", "plan", filters={"user_id": "li"})
    rec.call("list agent after", "get_all", filters={"agent_id": BOT}, top_k=100)
    # Errors a bot hits.
    rec.call("get unknown", "get", "00000000-0000-0000-0000-000000000000")
    rec.call("history unknown", "history", "00000000-0000-0000-0000-000000000000")
    rec.call("delete unknown", "delete", "00000000-0000-0000-0000-000000000000")
    rec.call("update unknown", "update", "00000000-0000-0000-0000-000000000000", text="x")
    rec.call("add no id", "add", "hello", infer=False)
    rec.call("delete_all no id", "delete_all")
    rec.call("search no filters", "search", "hello")
    rec.call("memory_type bad", "add", "x", user_id="tom", memory_type="episodic", infer=False)
    rec.call("add bad type", "add", 42, user_id="tom", infer=False)
    rec.call("chat", "chat", "hello")
    rec.call("reset", "reset")
    rec.call("list after reset", "get_all", filters={"user_id": "tom"})
    return rec.log


def mem0_memory(workdir: Path) -> Any:
    sys.path.insert(0, str(ROOT / "scripts"))
    from mem0_script_real import offline_memory

    return offline_memory(workdir)


def engram_memory(workdir: Path, default_embedder: bool) -> Any:
    sys.path.insert(0, str(ROOT / "tests"))
    from engram.compat.mem0 import Memory

    if default_embedder:
        return Memory(str(workdir / "engram.db"))
    from conftest import HashEmbedder

    return Memory(str(workdir / "engram.db"), embedder=HashEmbedder())


def _unordered(entry: dict[str, Any]) -> dict[str, Any]:
    """A listing with its results sorted by text: mem0's ``get_all`` order is its vector
    store's (Qdrant's id order, random), engram's newest first."""
    result = entry.get("result")
    if entry["verb"] != "get_all" or not isinstance(result, dict):
        return entry
    return {**entry, "result": {"results": sorted(result["results"], key=lambda r: r["memory"])}}


def _kind(entry: dict[str, Any]) -> dict[str, Any]:
    """An error as mem0 code sees it: ``ValueError`` or not (class names and wording
    are each side's own: engram's errors are ``ValueError`` subclasses)."""
    if "error" in entry:
        return {"step": entry["step"], "verb": entry["verb"], "error": entry["error"]}
    return entry


def diff(a_path: Path, b_path: Path, show_held: bool = False) -> int:
    """Print the calls that differ and count them; a search that lists the same set in
    another order, and a listing in another order, count apart. The held-out searches
    (``held ...``) are counted, and printed only with ``--held``."""
    a = json.loads(a_path.read_text())
    b = json.loads(b_path.read_text())
    same = order_only = 0
    held = {"same set": 0, "differ": 0}
    for x, y in zip(a, b, strict=False):
        if x["step"].startswith("held "):
            held["same set" if x.get("set") == y.get("set") else "differ"] += 1
            if not show_held:
                continue
        if _kind(x) == _kind(y):
            same += 1
            continue
        if (x.get("set") is not None and x.get("set") == y.get("set")) or (
            _unordered(x) == _unordered(y)
        ):
            order_only += 1
            continue
        print(f"--- {x['step']} ({x['verb']})")
        print(f"  {a_path.stem}: {json.dumps({k: v for k, v in x.items() if k != 'step'})}")
        print(f"  {b_path.stem}: {json.dumps({k: v for k, v in y.items() if k != 'step'})}")
    total = len([x for x in a if show_held or not x["step"].startswith("held ")])
    print(
        f"{same} of {total} calls identical; {order_only} more differ only in order;"
        f" lengths {len(a)} and {len(b)}"
    )
    print(f"held-out searches (fold B): {held}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("side", choices=["mem0", "engram", "diff"])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--default-embedder", action="store_true")
    parser.add_argument("--held", action="store_true", help="print held-out differences")
    ns = parser.parse_args()
    if ns.side == "diff":
        return diff(*ns.files, show_held=ns.held)
    with tempfile.TemporaryDirectory(prefix="pass39-") as tmp:
        if ns.side == "mem0":
            memory = mem0_memory(Path(tmp))
        else:
            memory = engram_memory(Path(tmp), ns.default_embedder)
        log = run(memory)
        memory.close()
    text = json.dumps(log, indent=1, default=str) + "\n"
    if ns.out:
        ns.out.write_text(text)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
