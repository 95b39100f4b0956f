"""Standing instructions: memories that tell the agent how to act from now on.

A user's "Always give versions when I ask about libraries" is relevant to every later
question about libraries, yet it shares almost no words with them ("Which libraries
does this project use?") and it sits among turns about something else, so the keyword
leg and session context both bury it (issue 24: BEAM's instruction_following gold turns
rank 1st by their own cosine and 9th to 144th in ``best``). With
``recall.directive_alpha`` set, a candidate whose content opens as such an instruction
is fused by its own similarity, without its neighbours' context, with that weight on
the dense leg.

Recognition looks only at the opening of the content (``MemoryFacts.head``), after an
optional speaker prefix such as ``"user: "``: the first words must be "always" or
"never" and a verb, "from now on" or "going forward" (after an optional "please",
"also"...).
"""

from __future__ import annotations

import re
from functools import lru_cache

from engram.config import RecallConfig
from engram.store.protocols.memories import FactColumns

_DIRECTIVE = re.compile(
    r"^(?:[\w .'-]{1,30}:\s*)?"  # a speaker prefix ("user: ", "Caroline: ")
    r"(?:(?:please|and|so|ok(?:ay)?|also)[,\s]+)*"
    r"(?:(?:always|never)\s+(?P<verb>[a-z']+)|from now on|going forward)\b",
    re.IGNORECASE,
)
# "Always good to hear!", "Never thought I'd...": chat, not an instruction. An
# instruction's "always" / "never" is followed by a verb in the imperative (its base
# form), so a past form or one of these words after it is not one.
_NOT_IMPERATIVE = frozenset(
    "a an the been good great nice fun glad happy so too more much there here was is "  # noqa: SIM905
    "were had did got thought knew felt made went saw said".split()
)


@lru_cache(maxsize=8192)
def is_directive(head: str) -> bool:
    """True when ``head`` (a memory's opening) states a standing instruction. Cached:
    recall asks it of every candidate, and a namespace's candidates recur from query to
    query (the regex was 0.16 ms of a 100k recall's fusion; docs/benchmarks.md,
    "Recall's own cost")."""
    found = _DIRECTIVE.match(head)
    if found is None:
        return False
    verb = (found.group("verb") or "").lower()
    return not (verb in _NOT_IMPERATIVE or verb.endswith("ed"))


def directive_ids(facts: FactColumns, cfg: RecallConfig) -> frozenset[str]:
    """The candidates that are standing instructions; empty when ``directive_alpha``
    is unset or recall is not a weighted hybrid."""
    weighted = cfg.strategy == "hybrid" and cfg.fusion == "weighted"
    if cfg.directive_alpha is None or not weighted:
        return frozenset()
    return frozenset(i for i, head in facts.openings() if is_directive(head))
