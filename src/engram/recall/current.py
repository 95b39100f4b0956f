"""Facts that no longer hold rank below the ones that replaced them, when the query
asks about now (issue 28, FEATURES G2).

"Derek owns an efoil with a 12V20Ah battery", then "Derek swapped the efoil battery
for a 48V one": both memories stay (history is kept), but the graph closed the 12V
relation. Asked "what battery does the efoil have now?", the old memory shares more
words with the question and would win. When the query asks about the present, every
candidate that stated a closed fact (``GraphCountStore.stale_memories``, one indexed
read) has its fused score multiplied by ``recall.stale_fact_factor``. A question
about the past ("what battery did it have in January?") is left alone, and any error
means no demotion (and a warning): recall never fails for it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence

from engram.config import RecallConfig

log = logging.getLogger("engram.recall")

#: (namespace, memory ids) -> the ids that stated a fact since closed.
StaleReader = Callable[[str, Sequence[str]], set[str]]

#: Words that ask about the present.
_NOW = re.compile(
    r"\b(?:now|nowadays|currently|current|these\s+days|today|at\s+the\s+moment|"
    r"at\s+present|presently|still|anymore|any\s+more|latest|right\s+now|as\s+of\s+now)\b",
    re.IGNORECASE,
)


def asks_now(query: str) -> bool:
    """Whether the query asks about the present."""
    return _NOW.search(query) is not None


def demote(
    stale: StaleReader | None,
    namespace: str,
    query: str,
    cfg: RecallConfig,
    fused: dict[str, float],
    warnings: list[str],
) -> dict[str, float]:
    """``fused`` with the scores of memories of closed facts multiplied by
    ``cfg.stale_fact_factor`` when the query asks about now; else unchanged."""
    if stale is None or cfg.stale_fact_factor >= 1.0 or not fused or not asks_now(query):
        return fused
    try:
        old = stale(namespace, list(fused))
    except Exception as exc:  # advisory: recall ranks without it
        message = f"could not read which facts changed, ranking without it: {exc}"
        log.warning(message)
        warnings.append(message)
        return fused
    if not old:
        return fused
    factor = cfg.stale_fact_factor
    return {i: score * factor if i in old else score for i, score in fused.items()}
