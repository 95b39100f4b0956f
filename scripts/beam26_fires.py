"""Issue 24, task beam26 (C2): where standing-instruction recognition fires, and where a
condition vector would be written, on BEAM dev (per fold and role), LoCoMo dev, the
paraphrase sets and their questions, and a small hand-written set of condition-first
instructions beside sentences of the same shape that are not instructions. Run it with
the old tree and the new one on the import path and compare. Usage:

    PYTHONPATH=src python scripts/beam26_fires.py
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from engram.bench import beam, paraphrase
from engram.recall.conditions import condition_of
from engram.recall.directives import is_directive
from engram.store.protocols.memories import FACTS_HEAD_CHARS

BEAM = "../shared/bench/beam-100k"
LOCOMO = "../shared/bench/locomo/locomo10_dev.json"

# Written for this count, apart from the tests' examples: what a user tells an agent,
# condition first ...
INSTRUCTIONS = [
    "When I ask about the weather, give me Celsius and the wind speed.",
    "Whenever we talk about money, use euros and round to the cent.",
    "If I mention my knee, remind me about the physio exercises.",
    "For anything about the Kubernetes cluster, assume we run 1.29 on GKE.",
    "Any time I ask for a recipe, list the ingredients first.",
    "When I ask you to draft an email, keep it under 150 words.",
    "If we discuss the launch, always include the March 3 deadline.",
    "For questions about my taxes, never guess: tell me to ask Priya.",
    "When I'm writing a cover letter, don't use the word passionate.",
    "Whenever I ask about restaurants, prefer places within walking distance.",
    "If I bring up the garden, mention the watering schedule.",
    "For all requests about travel, include the train option before flights.",
    "When we discuss the API, make sure you cite the version.",
    "If anyone asks about my salary, say it is confidential.",
    "When I ask about my blood pressure, show the last three readings.",
    "user: When I ask about the deploy, check the staging logs first.",
    "Each time I ask about the book club, remind me whose turn it is to host.",
    "When I talk about my diet, be encouraging and skip the calorie counts.",
    "If I ask about the sprint, summarize blockers before progress.",
    "When we chat about movies, never spoil the ending.",
]
# ... and the same shape, not an instruction to the agent.
OTHERS = [
    "When I ask about the weather, why do you give me Fahrenheit?",
    "If I finish the report early, I'll join you for lunch.",
    "When I was in Lisbon, always took the tram to work.",
    "When my sister asks about the wedding, she always wants the seating chart.",
    "If we win the contract, we will hire two more engineers.",
    "When I ask for a recipe, can you list the ingredients first?",
    "assistant: When you deploy, always run the migrations first.",
    "When I started running, I never stretched.",
    "If I mention my knee, does that change the plan?",
    "For anything about the cluster, the on-call engineer decides.",
    "When we moved to Berlin, the rent doubled.",
    "If I get the job, let's celebrate at Noma.",
    "When I asked about the refund, you said it takes ten days.",
    "Whenever we visit my parents, my dad cooks paella.",
    "When you get a chance, the invoice is in the shared folder.",
    "If it rains tomorrow, the match is cancelled.",
    "When I ask about taxes, what do you usually say?",
    "For questions about billing, the support team answers within a day.",
    "When I talk to my manager, I always feel rushed.",
    "My coach's rule: when I run hills, never walk.",
]


def counted(texts: list[str]) -> tuple[int, int, int]:
    """(recognised from the opening recall reads, recognised from the whole text,
    conditions written)."""
    head = sum(is_directive(t[:FACTS_HEAD_CHARS]) for t in texts)
    whole = sum(is_directive(t) for t in texts)
    conditions = sum(condition_of(t) is not None for t in texts)
    return head, whole, conditions


def main() -> None:
    data = beam.load(BEAM)
    rows: Counter[tuple[str, str]] = Counter()
    groups: dict[str, list[str]] = {}
    for conv in data.conversations:
        fold = "A" if int(conv.id.rsplit("-", 1)[1]) <= 5 else "B"
        for turn in conv.turns:
            role = turn.text.split(":", 1)[0]
            groups.setdefault(f"BEAM {fold} {role} messages", []).append(turn.text)
        groups.setdefault(f"BEAM {fold} questions", []).extend(q.text for q in conv.questions)
    raw = json.loads(Path(LOCOMO).read_text(encoding="utf-8"))
    for sample in raw:
        talk = sample["conversation"]
        for key, turns in talk.items():
            if key.startswith("session_") and isinstance(turns, list):
                groups.setdefault("LoCoMo dev turns", []).extend(
                    f"{t['speaker']}: {t['text']}" for t in turns
                )
        groups.setdefault("LoCoMo dev questions", []).extend(q["question"] for q in sample["qa"])
    for store in paraphrase.load():
        groups.setdefault("paraphrase memories", []).extend(store.memories.values())
        groups.setdefault("paraphrase questions", []).extend(
            [q.text for q in store.questions] + list(store.unrelated)
        )
    groups["condition-first instructions (hand-written)"] = INSTRUCTIONS
    groups["the same shape, not instructions (hand-written)"] = OTHERS
    print("| texts | n | recognised (opening) | recognised (whole) | conditions |")
    print("|---|---|---|---|---|")
    for name, texts in groups.items():
        head, whole, conditions = counted(texts)
        print(f"| {name} | {len(texts)} | {head} | {whole} | {conditions} |")
        rows[(name, "n")] = len(texts)
    missed = [t for t in INSTRUCTIONS if condition_of(t) is None]
    wrong = [t for t in OTHERS if is_directive(t)]
    print("\nnot read as a conditioned instruction:", missed)
    print("read as an instruction:", wrong)


if __name__ == "__main__":
    main()
