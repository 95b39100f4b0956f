"""The core-policies block at the head of every context (seed 002: "Critical rules
(5--10 items ...) are injected into every agent's system prompt")."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engram.spotlight import one_line, withheld
from engram.store.protocols.org import OrgFact
from engram.text import estimate_tokens

HEADER = "Organisation policies (always apply):"


def policy_block(
    policies: Sequence[OrgFact],
    budget_tokens: int,
    check: Callable[[str], Sequence[str]] | None = None,
) -> str:
    """The active policies as a list, oldest first, packed into ``budget_tokens``; a
    last line counts any left out. "" when there are none. A policy ``check`` (the
    injection scan) flags is withheld (issue 26: one stored before writes were scanned,
    or in flag mode); every policy is escaped, so none can close a block that follows."""
    if not policies:
        return ""
    lines = [HEADER]
    used = estimate_tokens(HEADER)
    for shown, policy in enumerate(policies):
        reasons = check(policy.content) if check is not None else ()
        line = "- " + (withheld("policy", reasons) if reasons else one_line(policy.content))
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
