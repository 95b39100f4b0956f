"""Standing instructions (issue 24): recognised by their opening, fused on their own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram.memory import Memory
from engram.recall.directives import is_directive
from engram.store.protocols.memories import FACTS_HEAD_CHARS
from engram.text import normalize_content

QUERY = "which libraries does the budget project depend on"
RULE = "user: Always include version numbers when I ask about libraries or dependencies."


@pytest.mark.parametrize(
    "head",
    [
        RULE,
        "Always answer in French.",
        "Never put my phone number in an email.",
        "Caroline: please, always remind me about the vet",
        "user: From now on use metric units",
        "assistant: going forward I will cite sources",
        # A condition said first, then the instruction (issue 24, C2).
        "When I ask about flights, always give the times in UTC",
        "user: If I mention a deadline, remind me a day before.",
        "Whenever we discuss the budget, use euros.",
        "For anything about my health, be concise.",
        "user: When I’m asking about recipes, please use metric units",
        "If I send you code, you should always review it for security",
        "Any time we talk about the garden, don't suggest pesticides",
    ],
)
def test_standing_instructions_are_recognised(head: str) -> None:
    assert is_directive(head[:FACTS_HEAD_CHARS])


@pytest.mark.parametrize(
    "head",
    [
        "user: I always wanted a dog",
        "Melanie: It's never too late to start painting!",
        "Joanna: Always good to hear! See you later!",
        "Nate: never thought I'd say this, but I love yoga",
        "user: Can you list the libraries I use?",
        "a message that mentions always later on, never at the start",
        "",
        # A condition said first, then no instruction: a question, a plan, a story,
        # someone else's rule, an assistant's advice to the user.
        "user: When I ask about taxes, what do you usually say?",
        "user: When I ask about taxes, include the deadline?",
        "If I finish early, I will call you.",
        "user: if I get the job, let's celebrate",
        "When I was a kid, never had a dog",
        "When I asked about flights, you said no",
        "When my boss asks about the budget, she always wants round numbers",
        "My manager's rule: when I ask about leave, always cc her",
        "assistant: When you deploy, always run the migrations first.",
        "When it rains, bring an umbrella",
    ],
)
def test_other_memories_are_not(head: str) -> None:
    assert not is_directive(head)


def fused(mem: Memory, **settings: object) -> dict[str, float]:
    found = mem.recall(QUERY, limit=10, min_relevance=0.0, **settings)
    return {h.memory.id: h.breakdown.fused for h in found.hits}


def dense(mem: Memory) -> dict[str, float]:
    found = mem.recall(
        QUERY,
        limit=10,
        min_relevance=0.0,
        strategy="dense",
        context_dense=0.0,
        session_dense=0.0,
    )
    return {h.memory.id: h.breakdown.fused for h in found.hits}


@pytest.mark.parametrize(
    "text",
    # said first, the condition (issue 24, C2)
    [RULE, "user: When I ask about libraries or dependencies, include version numbers."],
)
def test_a_standing_instruction_is_fused_by_its_own_similarity(mem: Memory, text: str) -> None:
    start = datetime(2024, 3, 1, tzinfo=UTC)
    texts = [
        "user: the garden needs watering twice a week in summer",
        text,
        "user: my sister visits in May and brings her two cats",
        "user: the budget project uses libraries for charts and parsing",
    ]
    ids = [
        mem.add(t, session_id="s1", created_at=start + timedelta(minutes=n)).id
        for n, t in enumerate(texts)
    ]
    rule, other = ids[1], ids[3]
    facts = mem.store.memories.facts(mem.config.default_namespace, [rule, "gone"])
    assert list(facts) == [rule]
    # recall reads the normalised text (collapsed, lower-cased), as the hash sees it
    assert facts[rule].head == normalize_content(text).normalized[:FACTS_HEAD_CHARS]

    plain = fused(mem)
    own = fused(mem, directive_alpha=1.0)
    alone = dense(mem)
    # With the setting, the rule's fused relevance is its own cosine alone: no keyword
    # leg, no neighbours (the garden and the cats) diluting it ...
    assert own[rule] == pytest.approx(alone[rule])
    assert own[rule] != pytest.approx(plain[rule])
    # ... and any other memory is fused as before.
    assert own[other] == pytest.approx(plain[other])
    # A weight below 1 keeps part of the keyword leg.
    half = fused(mem, directive_alpha=0.5)
    assert half[rule] != pytest.approx(own[rule])
