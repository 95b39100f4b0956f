"""seed 004's graph boost at recall (FEATURES G4).

The query's words, and runs of two and three of them, are looked up as entity names
(canonical names and aliases: "video games", "new york", "nate"); the entities found
are expanded one hop through the relations that hold now; the live memories that
mention any of them form a set, and every candidate in that set gets
``graph_boost_weight`` added to its fused score. The lookup is one store call
(``GraphStore.boost_lookup``, indexed SQL) bounded by ``graph_boost_timeout_ms``:
past the deadline it returns what it has and recall says so in ``warnings``. It is
always additive and never fails recall: any error means no boost (and a warning).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Mapping

from engram.config import RecallConfig
from engram.store.protocols.graph import BoostLookup, GraphStore
from engram.text import STOPWORDS

log = logging.getLogger("engram.recall")

#: seed 004: "capped at 20 entity hits".
ENTITY_LIMIT = 20
#: seed 004: "up to 50 additional neighbor entity IDs".
NEIGHBOR_LIMIT = 50
#: seed 004: "up to 200 distinct non-deleted memory IDs".
MEMORY_LIMIT = 200
#: Names are looked up as runs of up to this many words ("new york city").
MAX_NGRAM = 3
#: At most this many names are looked up (a long query's runs are many).
MAX_NAMES = 64

# seed 004: "query tokens (2+ character alphanumeric runs, lowercased)".
_TOKEN = re.compile(r"[a-z0-9]{2,}")


def query_names(query: str) -> list[str]:
    """The names a query could mention, as canonical names: its words that are not
    stopwords, and every run of two or three words (stopwords inside a run are kept:
    "bank of america")."""
    tokens = [m.group(0) for m in _TOKEN.finditer(query.lower().replace("'s ", " "))]
    names: dict[str, None] = {}
    for size in range(MAX_NGRAM, 1, -1):
        for start in range(len(tokens) - size + 1):
            run = tokens[start : start + size]
            if run[0] not in STOPWORDS and run[-1] not in STOPWORDS:
                names[" ".join(run)] = None
    for token in tokens:
        if token not in STOPWORDS:
            names[token] = None
    return list(names)[:MAX_NAMES]


def lookup(
    graph: GraphStore, namespace: str, query: str, cfg: RecallConfig, warnings: list[str]
) -> BoostLookup:
    """The memories the query's entities link to; empty, with a warning, on any error,
    and with a warning when the deadline cut the lookup short."""
    names = query_names(query)
    if not names:
        return BoostLookup(())
    try:
        found = graph.boost_lookup(
            namespace,
            names,
            entity_limit=ENTITY_LIMIT,
            neighbor_limit=NEIGHBOR_LIMIT,
            memory_limit=MEMORY_LIMIT,
            hub_mentions=cfg.graph_boost_hub,
            deadline=time.monotonic() + cfg.graph_boost_timeout_ms / 1000,
        )
    except Exception as exc:  # seed 004: "On any exception, it returns an empty result"
        message = f"graph boost unavailable, ranking without it: {exc}"
        log.warning(message)
        warnings.append(message)
        return BoostLookup(())
    if found.timed_out:
        warnings.append(
            f"graph boost stopped at its {cfg.graph_boost_timeout_ms} ms deadline "
            f"(recall.graph_boost_timeout_ms); {len(found.memory_ids)} linked memories used"
        )
    return found


def apply(
    fused: Mapping[str, float], linked: BoostLookup, weight: float
) -> tuple[dict[str, float], set[str]]:
    """``fused`` with ``weight`` added to every candidate in the linked set, and the
    candidates that got it."""
    ids = set(linked.memory_ids)
    boosted = {i for i in fused if i in ids}
    return {i: s + weight if i in boosted else s for i, s in fused.items()}, boosted


def boost(
    graph: GraphStore,
    namespace: str,
    query: str,
    cfg: RecallConfig,
    fused: Mapping[str, float],
    warnings: list[str],
) -> dict[str, float]:
    """The recall stage: ``fused`` with the boost applied (see :func:`lookup`)."""
    linked = lookup(graph, namespace, query, cfg, warnings)
    return apply(fused, linked, cfg.graph_boost_weight)[0]
