"""Task x22: what the graph and the facts get from mined chats (src/engram/data/mined_chats.json).

Each labelled chat is mined as ``engram mine`` files it (``mem.palace.mine_conversation``,
one drawer per turn, in its own user's namespace), the worker is run
(``mem.jobs.process_pending``), and every relation and pipeline fact written is read
back and matched against the chat's labels:

    PYTHONPATH=/path/to/old/src python scripts/mined_chats.py
    PYTHONPATH=src python scripts/mined_chats.py --verbose tune  # each relation and fact

A relation is **accepted** when it matches a labelled one (the set's ``match``: same
subject by ``normal_name``, "user" for the chat's user; a listed type; target words
containing the label's or contained in them); every other relation is **junk**. A fact
is junk when it is written from an assistant's turn, names a pronoun or a label word as
its subject, disagrees in number ("User is vegetarian and avoid ..."), or states as the
user's what someone else said ("User says I ..."). Offline (rules), keyword store
(``embedder=None``), in memory.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

SET = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / "mined_chats.json"
_PRONOUNS = {"he", "she", "they", "it", "you", "i", "we", "him", "her", "them", "noted"}
# A third-person subject followed, after "and", by a bare plural verb: "User is X and avoid Y".
_DISAGREES = re.compile(
    r"^(?:User|[A-Z][a-z]+)\b[^.]*?\b(?:is|was|has|\w+s)\b[^.]*?\band\s+"
    r"(?!also\b|then\b|still\b)(?:avoid|love|like|hate|want|need|use|work|live|have|go|"
    r"prefer|enjoy|think|try|play|eat|drink|take|make|get|do)\b"
)


# "User need help": a rewritten subject with a verb not agreed.
_BARE_VERB = re.compile(
    r"\bUser\s+(?:need|want|love|like|hate|use|work|live|have|go|prefer|enjoy|avoid)\b"
)
# "User is a teacher so i'll walk her": a first person left unresolved.
_FIRST_PERSON = re.compile(r"\b(?:i|im|ive|i'll|i'd|i'm|I|I'm|I've|I'll|me)\b")


def _words(text: str) -> set[str]:
    from engram.store.protocols.graph import normal_name

    return set(normal_name(text).split()) - {"the", "a", "an", "my", "his", "her"}


def _subject(name: str, user: str) -> str:
    from engram.store.protocols.graph import normal_name

    n = normal_name(name)
    return "user" if n in {"user", "i", user.lower()} else n


def matches(rel: tuple[str, str, str], label: dict[str, str], user: str) -> bool:
    source, kind, target = rel
    if _subject(source, user) != _subject(label["s"], user):
        return False
    kinds = label["r"].split("|")
    # "has_dish" is the "has" relation with the thing's kind in its name.
    if kind not in kinds and not (kind.startswith("has_") and "has" in kinds):
        return False
    got, want = _words(target), _words(label["o"])
    return bool(got) and bool(want) and (want <= got or got <= want)


def fact_junk(fact: str, assistant_said: bool) -> str | None:
    first = fact.split()[0].lower().strip(",.'") if fact.split() else ""
    if assistant_said:
        return "assistant"
    if first in _PRONOUNS:
        return "pronoun"
    if re.search(r"\b(?:says|said|thinks|swears)\b.*\bI\b", fact):
        return "reported"
    if _DISAGREES.search(fact) or _BARE_VERB.search(fact):
        return "agreement"
    if _FIRST_PERSON.search(fact):
        return "first person"
    return None


def run(verbose: str | None) -> dict[str, Any]:
    from engram import Memory
    from engram.records import PIPELINE_WHO

    data = json.loads(SET.read_text())
    out: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    with Memory(":memory:", embedder=None) as mem:
        for chat in data["chats"]:
            user = f"x22-{chat['id']}"
            mem.palace.mine_conversation(chat["messages"], wing=chat["id"], user_id=user)
            mem.jobs.process_pending()
            rows_read = mem.graph.relations(None, False, limit=1000, user_id=user)
            relations = [(r.source, r.relation_type, r.target) for r in rows_read]
            entities = [e.name for e in mem.graph.entities(limit=1000, user_id=user)]
            records = mem.get_all(user_id=user, limit=1000)
            by_id = {r.id: r for r in records}
            facts = []
            for r in records:
                if r.who != PIPELINE_WHO:
                    continue
                src = by_id.get(r.source_memory_id or "")
                facts.append((r.content, bool(src is not None and src.who == "assistant")))
            labels = chat["relations"]
            # relations read from a turn holding a statement labelled to give none
            quiet = [
                r
                for r in rows_read
                if any(
                    n in by_id[r.source_memory_id].content
                    for n in chat["no_relation"]
                    if r.source_memory_id in by_id
                )
            ]
            accepted = [rel for rel in relations if any(matches(rel, lb, user) for lb in labels)]
            found = sum(any(matches(rel, lb, user) for rel in relations) for lb in labels)
            junk_facts = [(f, fact_junk(f, a)) for f, a in facts if fact_junk(f, a)]
            rows.append(
                {
                    "chat": chat["id"],
                    "fold": chat["fold"],
                    "relations": len(relations),
                    "accepted": len(accepted),
                    "labels_found": found,
                    "labels": len(labels),
                    "junk": len(relations) - len(accepted),
                    "from_no_relation": len(quiet),
                    "junk_entities": sorted(e for e in entities if e.lower() in _PRONOUNS),
                    "facts": len(facts),
                    "junk_facts": len(junk_facts),
                }
            )
            if verbose == chat["fold"]:
                print(f"== {chat['id']} ({chat['fold']})")
                for rel in relations:
                    ok = any(matches(rel, lb, user) for lb in labels)
                    print("  ", "OK  " if ok else "JUNK", rel)
                for lb in labels:
                    if not any(matches(rel, lb, user) for rel in relations):
                        print("   MISS", (lb["s"], lb["r"], lb["o"]))
                for f, a in facts:
                    print("   fact", fact_junk(f, a) or "ok", repr(f))
    for fold in ("tune", "check"):
        part = [r for r in rows if r["fold"] == fold]
        out[fold] = {
            k: sum(r[k] for r in part)
            for k in (
                "relations",
                "accepted",
                "junk",
                "from_no_relation",
                "labels_found",
                "labels",
                "facts",
                "junk_facts",
            )  # fmt: skip
        }
        out[fold]["junk_entities"] = sorted({e for r in part for e in r["junk_entities"]})
    out["chats"] = rows
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verbose", choices=("tune", "check"), help="list one fold's reading")
    parser.add_argument("--out")
    parser.add_argument("--fold", choices=("tune", "check", "both"), default="tune")
    args = parser.parse_args()
    result = run(args.verbose)
    text = json.dumps(result, indent=1)
    if args.out:
        Path(args.out).write_text(text)
    folds = ("tune", "check") if args.fold == "both" else (args.fold,)
    print(json.dumps({k: result[k] for k in folds}, indent=1))


if __name__ == "__main__":
    main()
