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
"also"...), or a condition said first and then the instruction: "When I ask about X,
always ...", "If I mention Y, remind me ...", "Whenever we discuss Z, use ...", "For
anything about X, ..." (issue 24, C2). A condition said first makes an instruction only
when what follows its comma is one: "always" or "never" and a verb, "make sure", "do
not", "be ...", "you should", or a verb in the imperative from a list of what people tell an
assistant to do. So a question ("When I ask about X, what do you do?"), a plan ("If I
finish early, I'll call you"), a story ("When I was a kid, never had ...") and someone
else's rule ("When my boss asks about it, she always wants ...", or one the assistant
gives the user) are not standing instructions.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import compress

from engram.config import RecallConfig
from engram.store.protocols.memories import FactColumns

_DIRECTIVE = re.compile(
    r"^(?:[\w .'-]{1,30}:\s*)?"  # a speaker prefix ("user: ", "Caroline: ")
    r"(?:(?:please|and|so|ok(?:ay)?|also)[,\s]+)*"
    r"(?=[afgnwieo])"  # every opening word's first letter: most texts fail here at once
    r"(?:(?:always|never)\s+(?P<verb>[a-z']+)|from now on|going forward"
    # or the word a condition said first opens with: ``leading_condition`` reads on
    r"|(?P<condition>when(?:ever)?|if|any ?time|each|every|for|in|with|on))\b",
    re.IGNORECASE,
)
# "Always good to hear!", "Never thought I'd...": chat, not an instruction. An
# instruction's "always" / "never" is followed by a verb in the imperative (its base
# form), so a past form or one of these words after it is not one.
_NOT_IMPERATIVE = frozenset(
    "a an the been good great nice fun glad happy so too more much there here was is "  # noqa: SIM905
    "were had did got thought knew felt made went saw said".split()
)


# A condition said first (issue 24, C2): "When(ever) / If / Any time I ask about X, ...",
# "For anything / questions about X, ...", up to its comma; ``topic`` is X, ``main`` and
# ``next`` the first words after the comma (past "please", "just", "and", "then").
_ABOUT = r"(?:about|for|on|with|regarding|concerning|related to|involving|around|to do with)"
_CONDITION_FIRST = re.compile(
    r"^(?:(?P<speaker>[\w.-]{1,20}(?: [\w.-]{1,20})?):\s*)?"  # "user: ", "Mary Ann: "
    r"(?:(?:please|and|so|ok(?:ay)?|also|oh|btw)[,\s]+)*"
    r"(?:(?:when(?:ever)?|if|any ?time|each time|every time)\s+"
    r"(?:i|we|you|anyone|someone|the user)(?:['\u2019](?:m|re))?\s+(?P<verb>[a-z'\u2019]+)"
    r"(?:\s+(?:you|me))?(?:\s+(?:questions?|anything))?"
    r"|(?:for|in|with|on)\s+(?:any\s+|all\s+|every\s+)?(?:questions?|queries|requests?|"
    r"anything|answers?|responses?|replies|discussions?|conversations?|topics?|things?))"
    rf"(?:\s+{_ABOUT})?\s+(?P<topic>[^,.!?;:\n]{{1,120}}),\s*"
    r"(?:(?:please|just|and|then|also)[,\s]+)*"
    r"(?P<main>[a-z'\u2019]+)(?:\s+(?P<next>[a-z'\u2019]+))?",
    re.IGNORECASE,
)
# Who gives advice rather than instructions: what an assistant tells the user to do
# ("When you deploy, always run the migrations first") is not the user's rule.
_ADVISERS = frozenset({"assistant", "ai", "bot", "agent", "system", "model"})
# Verbs in the imperative that open an instruction to an assistant (general English,
# not read from any benchmark): "..., use metric units", "..., remind me ...".
_IMPERATIVES = frozenset(
    "add answer ask assume avoid be begin break bring check cite compare confirm convert "  # noqa: SIM905
    "copy default display double-check drop emphasise emphasize end explain express favor "
    "favour flag focus follow format give highlight ignore include keep label lead "
    "leave let limit link list mark mention note notify offer omit order organise organize "
    "phrase ping point prefer present prioritise prioritize provide put quote recommend refer "
    "remind reply respond return round say show skip sort specify spell start state stick "
    "stop structure suggest summarise summarize switch tag tell translate treat use walk "
    "warn write".split()
)
# What may follow "you" to make the rest an instruction ("you should always ...").
_YOU_MUST = frozenset({"should", "must", "always", "never", "need", "have"})
# The condition's own verb in a past or narrative form: a story, not a rule.
_NARRATIVE = _NOT_IMPERATIVE | {"used", "wanted", "tried", "asked"}


def leading_condition(text: str) -> str | None:
    """The topic of a condition said first ("flights" of "When I ask about flights,
    always give the times in UTC"), when ``text`` opens with a condition and then an
    instruction; None otherwise."""
    opening = _DIRECTIVE.match(text)  # one regex spares the longer one nearly every text
    if opening is None or opening.group("condition") is None:
        return None
    found = _CONDITION_FIRST.match(text)
    if found is None:
        return None
    if (found.group("speaker") or "").lower() in _ADVISERS:
        return None
    verb = (found.group("verb") or "").lower()
    if verb and (verb in _NARRATIVE or verb.endswith("ed")):
        return None
    sentence = re.split(r"[.!]", text[found.end() :], maxsplit=1)[0]
    if "?" in sentence:  # "When I ask about X, can you ...?" or "..., include it?"
        return None
    main = found.group("main").lower().replace("\u2019", "'")
    after = (found.group("next") or "").lower()
    if main in ("always", "never"):
        ordered = bool(after) and after not in _NOT_IMPERATIVE and not after.endswith("ed")
    elif main == "make":
        ordered = after == "sure"
    elif main in ("don't", "dont", "do"):
        ordered = main != "do" or after == "not"
    elif main == "you":
        ordered = after in _YOU_MUST
    else:
        ordered = main in _IMPERATIVES
    return found.group("topic").strip() if ordered else None


@lru_cache(maxsize=8192)
def is_directive(head: str) -> bool:
    """True when ``head`` (a memory's opening) states a standing instruction. Cached:
    recall asks it of every candidate, and a namespace's candidates recur from query to
    query (the regex was 0.16 ms of a 100k recall's fusion; docs/benchmarks.md,
    "Recall's own cost"): 90 % hits over the 100k bench's 300 questions, whose 28k asks
    name 2,711 openings; 2,048 entries would hit as often there, 8,192 leave room for a
    larger namespace (docs/benchmarks.md, "mend29")."""
    found = _DIRECTIVE.match(head)
    if found is None:
        return False
    if found.group("condition") is not None:
        return leading_condition(head) is not None
    verb = (found.group("verb") or "").lower()
    return not (verb in _NOT_IMPERATIVE or verb.endswith("ed"))


def directive_ids(facts: FactColumns, cfg: RecallConfig) -> frozenset[str]:
    """The candidates that are standing instructions; empty when ``directive_alpha``
    is unset or recall is not a weighted hybrid."""
    weighted = cfg.strategy == "hybrid" and cfg.fusion == "weighted"
    if cfg.directive_alpha is None or not weighted:
        return frozenset()
    return frozenset(compress(facts.ids, map(is_directive, facts.heads)))
