"""The core-policies block at the head of every context (seed 002: "Critical rules
(5--10 items ...) are injected into every agent's system prompt")."""

from __future__ import annotations

from collections.abc import Sequence

from engram.store.protocols.org import OrgFact
from engram.text import estimate_tokens

HEADER = "Organisation policies (always apply):"


def policy_block(policies: Sequence[OrgFact], budget_tokens: int) -> str:
    """The active policies as a list, oldest first, packed into ``budget_tokens``; a
    last line counts any left out. "" when there are none."""
    if not policies:
        return ""
    lines = [HEADER]
    used = estimate_tokens(HEADER)
    for shown, policy in enumerate(policies):
        line = "- " + " ".join(policy.content.split())
        cost = estimate_tokens(line) + 1
        if used + cost > budget_tokens:
            left = len(policies) - shown
            lines.append(
                f"({left} more {'policy' if left == 1 else 'policies'} over the "
                "budget: see `engram org policies`)"
            )
            break
        lines.append(line)
        used += cost
    return "\n".join(lines)
