"""Post-fusion dampening (FEATURES C9, seed 004): gravity, hub and resolution.

Fusion bunches scores: a relevant memory and an irrelevant one can land at nearly the
same fused relevance. Seed 004 applies three independent corrections after fusion and
before the final sort, each a multiplier on the fused relevance:

1. **gravity** halves a result the dense leg brought in (score above 0.3) that shares
   no query term with its text: the embedding thinks it is related, the words do not.
2. **hub** penalises a memory whose linked entities are all high-degree hubs (mentioned
   more often than the 90th percentile), so a popular name does not dominate recall.
3. **resolution** rewards actionable, specific memories: decisions (and constraints)
   by ``resolution_boost``, others that name a date or a month by half as much; text
   under 50 characters gets no boost.

The factors multiply each other; a candidate no stage touches gets 1.0. Hub dampening
reads entity mention counts through :data:`EntityMentions`; without one (no entity
graph) it is a no-op.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata
from collections.abc import Callable, Collection, Mapping, Sequence

from engram.config import RecallConfig
from engram.records import MemoryRecord
from engram.text import keywords

#: seed 004: gravity only checks results whose score is above 0.3.
GRAVITY_MIN_SCORE = 0.3
#: seed 004: a temporal anchor earns ``1 + (boost - 1) * 0.5`` (1.1x at the default 1.2).
TEMPORAL_SHARE = 0.5
#: seed 004: "Short or vague content (under 50 characters) receives no boost."
MIN_BOOST_CHARS = 50
#: seed 004: "Memories with type constraint or decision receive a 1.2x multiplier".
#: engram has no ``constraint`` type yet; the name is here so it counts once it exists.
RESOLVED_TYPES = frozenset({"decision", "constraint"})

# seed 004: "temporal anchors (ISO dates or month names)". Month names are matched
# capitalised, so the verb "may" and the word "march" in running text do not count.
# Neither pattern starts with a \b: a leading \b defeats the regex engine's literal
# prefix scan and made the check ten times slower on long messages (BEAM).
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_MONTH = re.compile(
    r"(?:January|February|March|April|May|June|July|August|September|October|November"
    r"|December)(?!\w)"
)

EntityMentions = Callable[[str, Sequence[str]], Mapping[str, Mapping[str, int]]]
"""The seam hub dampening reads the entity graph through:
``(namespace, memory ids) -> {memory id: {entity: how many memories mention it}}``.

A memory with no linked entity may be absent. ``Memory`` wires it to the entity graph's
``store.graph_counts.hub_mentions`` (a join of the inline linker's mentions with its
entities' mention counts); a ``Retriever`` made without one skips the stage.
"""


def query_terms(text: str) -> frozenset[str]:
    """The lower-cased, stopword-free terms of ``text`` (``engram.text``'s tokenizer)."""
    return frozenset(keywords(text, limit=sys.maxsize))


def _starts_word(text: str, start: int) -> bool:
    """Whether a word can start at ``start``: no word character just before it."""
    return start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_")


def _ends_word(text: str, end: int) -> bool:
    """Whether a word can end at ``end``: no word character at it."""
    return end == len(text) or not (text[end].isalnum() or text[end] == "_")


def shares_term(text: str, terms: Collection[str]) -> bool:
    """Whether ``text`` holds one of ``terms`` as a whole word.

    The same as tokenizing ``text`` like :func:`query_terms` (NFKC, lower case, runs of
    word characters) and intersecting, but a substring search per term instead of a Python loop
    over every word: a long message costs microseconds, not a millisecond. Stopwords
    need no stripping here, since ``terms`` holds none.
    """
    folded = text.lower() if text.isascii() else unicodedata.normalize("NFKC", text).lower()
    for term in terms:
        start = folded.find(term)
        while start != -1:
            if _starts_word(folded, start) and _ends_word(folded, start + len(term)):
                return True
            start = folded.find(term, start + 1)
    return False


def has_temporal_anchor(text: str) -> bool:
    """Whether ``text`` names an ISO date or a month (seed 004's temporal anchor)."""
    if _ISO_DATE.search(text):
        return True
    return any(_starts_word(text, m.start()) for m in _MONTH.finditer(text))


def gravity(
    terms: Collection[str], memory: MemoryRecord, score: float, semantic: bool, penalty: float
) -> float:
    """seed 004 stage 1: ``penalty`` for a semantic result above 0.3 with no query term.

    ``semantic`` says the dense leg contributed to the result. The memory's text is
    what its vector and keyword index were made from (title, content, narrative,
    facts). A query without terms (all stopwords) has nothing to overlap, so nothing
    is penalised.
    """
    if not semantic or score <= GRAVITY_MIN_SCORE or not terms:
        return 1.0
    return 1.0 if shares_term(memory.embedding_text(), terms) else penalty


def hub_threshold(mentions: Mapping[str, Mapping[str, int]], percentile: float) -> float | None:
    """seed 004's P90: the mention count at ``percentile`` of the sorted counts of the
    entities linked to the candidates (each entity once, however many link it).

    The lower of the two counts the percentile falls between, so the most mentioned of
    two entities is already a hub, and a lone entity never is (nothing is above it).
    None when no candidate links an entity.
    """
    counts = sorted({e: c for linked in mentions.values() for e, c in linked.items()}.values())
    if not counts:
        return None
    return float(counts[math.floor(percentile * (len(counts) - 1))])


def hub(linked: Mapping[str, int], threshold: float | None, penalty: float) -> float:
    """seed 004 stage 2: ``penalty`` when every linked entity is mentioned more than
    ``threshold`` times; 1.0 for a memory with no entity, or without a threshold."""
    if threshold is None or not linked:
        return 1.0
    if all(count > threshold for count in linked.values()):
        return penalty
    return 1.0


def resolution(memory: MemoryRecord, boost: float) -> float:
    """seed 004 stage 3: ``boost`` for a decision or constraint, half as much for text
    with a temporal anchor (an ISO date or a month name), none under 50 characters."""
    if len(memory.content) < MIN_BOOST_CHARS:
        return 1.0
    if memory.type.value in RESOLVED_TYPES:
        return boost
    if has_temporal_anchor(memory.content):
        return 1.0 + (boost - 1.0) * TEMPORAL_SHARE
    return 1.0


def factors(
    query: str,
    namespace: str,
    pool: Sequence[str],
    records: Mapping[str, MemoryRecord],
    fused: Mapping[str, float],
    semantic: Collection[str],
    cfg: RecallConfig,
    mentions: EntityMentions | None = None,
) -> dict[str, float]:
    """The dampening multiplier of every memory in ``pool`` (empty when all stages
    are off).

    ``fused`` is the fused relevance; ``semantic`` holds the ids the dense leg
    contributed to; ``mentions`` is the entity graph's seam (hub dampening is a no-op
    without it).
    """
    if not (cfg.gravity or cfg.hub or cfg.resolution) or not pool:
        return {}
    terms = query_terms(query) if cfg.gravity else frozenset()
    linked: Mapping[str, Mapping[str, int]] = {}
    threshold: float | None = None
    if cfg.hub and mentions is not None:
        linked = mentions(namespace, pool)
        threshold = hub_threshold(linked, cfg.hub_percentile)
    out: dict[str, float] = {}
    for memory_id in pool:
        memory = records[memory_id]
        factor = 1.0
        if cfg.gravity:
            score = fused.get(memory_id, 0.0)
            semantic_hit = memory_id in semantic
            factor *= gravity(terms, memory, score, semantic_hit, cfg.gravity_penalty)
        if cfg.hub:
            factor *= hub(linked.get(memory_id, {}), threshold, cfg.hub_penalty)
        if cfg.resolution:
            factor *= resolution(memory, cfg.resolution_boost)
        out[memory_id] = factor
    return out
