"""Questions about what the agent said before: "How did you recommend managing the flow
of requests?", "What did you suggest for the logo?", "You told me a deadline once".

Such a question wants one earlier answer of the agent's, which matches it on its own:
session context, which lifts a short turn by its neighbours ("Went hiking!" after "What
did you do?"), blends a long, self-contained answer with turns about something else and
pushes it down (issue 24, C2: on BEAM dev the answers "How did you recommend ..."
cites rank 1st to 6th by their own cosine, down to 16th in the default ranking). With
``recall.said_alone`` on, such a question's dense leg is every candidate's own cosine,
without the neighbour and session blend; its keyword leg keeps its context, as a
standing instruction's does (``directives``). Every other question ranks as before.

The question is recognised from general English: "did / have / had you" and a verb of
saying, advising or showing ("recommend", "suggest", "say", "tell", "explain" ...), or
"you" and its past form ("you recommended", "you told me"). A request for advice now
("What would you suggest?", "Can you tell me ...?") is not one.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engram.config import RecallConfig

_VERBS = (
    "recommend suggest advise say tell mention propose explain describe outline give show "  # noqa: SIM905
    "teach warn note point".split()
)
_PAST = {"say": "said", "tell": "told", "give": "gave", "show": "showed", "teach": "taught"}
_SAID = re.compile(
    r"\b(?:did|have|had)\s+you\s+(?:ever\s+|once\s+|already\s+)?(?:"
    + "|".join(_VERBS)
    + r")\b|\byou\s+(?:once\s+|already\s+)?(?:"
    + "|".join(_PAST.get(v, v + ("d" if v.endswith("e") else "ed")) for v in _VERBS)
    + r")\b",
    re.IGNORECASE,
)


def asks_what_you_said(query: str) -> bool:
    """True when ``query`` asks what the agent said, advised or showed before. Not
    cached: a recall asks it once, so a cache never hit (0 of 300 on the 100k bench's
    questions, 0 of 201 on a chat-proxy run), and the check (0.12 µs) costs less than a
    cache's miss (docs/benchmarks.md, "mend29")."""
    return "you" in query.lower() and _SAID.search(query) is not None


def config_for(query: str, cfg: RecallConfig) -> RecallConfig:
    """``cfg`` for ``query``: without the dense leg's session context when ``query``
    asks what the agent said before and ``recall.said_alone`` is on."""
    if not cfg.said_alone or not (cfg.context_dense or cfg.session_dense):
        return cfg
    if not asks_what_you_said(query):
        return cfg
    return replace(cfg, context_dense=0.0, session_dense=0.0)
