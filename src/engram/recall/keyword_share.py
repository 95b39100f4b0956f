"""A note's keyword leg by the share of the question it holds (issue 24, round 11).

Weighted fusion normalises the keyword leg by its best match, so the best match scores
1.0 however little of the question it holds. ``fusion.keyword_spread`` takes that
weight back when several memories match about as well; in a store of a few short notes
a match on one common word ("session", "people", "run") stands alone and keeps it, and
a note sharing one word of a five-word question outranks the note the question is
about by a cosine gap of 0.15 or more (docs/benchmarks.md, "Round 11": gold first on the
nine held-out paraphrase splits 314 of 495 by fused rank against 376 with the share).

After the pool's records are read, each note's (memory outside any session) share of
the keyword leg that fusion gave it is scaled by the share of the question's keywords
it holds (stems starting a word, as the abstain decision counts them): a name or an
identifier asked alone is held whole and keeps the whole leg. A conversation's turns
keep theirs (their session context finds a reply through the turn before it), unless
the candidates mix notes and turns and a note is clearly the nearest: fusion then
scaled the turns' leg as the notes' (round 10), and they are held to their share too.
A memory without a vector keeps its keyword score (it is all it has). The pool is
then ordered again; nothing enters or leaves it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from engram.config import RecallConfig
from engram.recall import fusion
from engram.recall.abstain import _starts_a_word, stem
from engram.records import MemoryRecord
from engram.text import keywords

#: A note holding more of the question's keywords than this keeps its whole leg: the
#: round's case is one common word of a longer question, and a note that holds two of
#: them (the quickstart's "How recall ranks" for "how does engram rank the memories it
#: recalls?") is about the question as much as its cosine says. Measured (the lead,
#: session thirty-three): the nine older held-out splits and held-out-10 the same as
#: scaling every note, tune-36 one question fewer first (85 -> 84 of 132 beside 500 turns).
MAX_HELD = 1


def share(stems: Sequence[str], memory: MemoryRecord) -> float:
    """The share of ``stems`` that start a word of the memory's title or text."""
    return held(stems, memory, len(stems)) / len(stems)


def held(stems: Sequence[str], memory: MemoryRecord, enough: int) -> int:
    """How many of ``stems`` start a word of the memory's title or text, counted up to
    ``enough`` (``rescored`` only asks whether a note holds more than ``MAX_HELD``:
    the count stops there, and a long note's text is not searched for the rest)."""
    text = f"{memory.title or ''}\n{memory.content}".lower()
    count = 0
    for s in stems:
        if _starts_a_word(text, s):
            count += 1
            if count >= enough:
                break
    return count


@lru_cache(maxsize=256)
def _stems(query: str) -> tuple[str, ...]:
    """The query's keywords' stems (a recall asks once per decomposed part; kept)."""
    return tuple(stem(t) for t in keywords(query))


def alphas(long: frozenset[str], directives: frozenset[str], cfg: RecallConfig) -> dict[str, float]:
    """The dense weight of the memories fusion weighs with another than ``alpha``
    (long ones, then standing instructions, as ``ranking.fuse`` applies them)."""
    out: dict[str, float] = {}
    if cfg.long_alpha is not None:
        out |= dict.fromkeys(long, cfg.long_alpha)
    if cfg.directive_alpha is not None:
        out |= dict.fromkeys(directives, cfg.directive_alpha)
    return out


def _about_the_notes(
    parts: Mapping[str, tuple[float | None, float | None]],
    dense: Mapping[str, float],
    notes: frozenset[str],
    cfg: RecallConfig,
) -> bool:
    """Whether the candidates mix notes and turns and the nearest by cosine is a note,
    nearer than every turn by ``recall.keyword_spread_margin``: then fusion scaled the
    turns' keyword leg as the notes' (``fusion.spread_scale``, round 10), and the turns
    are held to their share too, or a note's one shared word would count for less
    than a turn's."""
    if notes.issuperset(parts):  # no turn among them (a store of notes): one C call
        return False
    cosines = {i: dense[i] for i in parts if i in dense}  # the candidates with a vector
    turns = [d for i, d in cosines.items() if i not in notes]
    if not turns:  # no turn with a vector among them: fusion's case of one kind
        return False
    nearest = max(cosines, key=cosines.__getitem__)
    return nearest in notes and cosines[nearest] - max(turns) >= cfg.keyword_spread_margin


def rescored(
    query: str,
    pool: Sequence[str],
    records: Mapping[str, MemoryRecord],
    fused: dict[str, float],
    parts: dict[str, tuple[float | None, float | None]],
    dense: Mapping[str, float],
    raw_keyword: Mapping[str, float],
    cfg: RecallConfig,
    notes: frozenset[str],
    weights: Mapping[str, float],
    timed: bool,
) -> list[str]:
    """``pool`` ordered again after each note's keyword part of ``fused`` and its
    keyword leg in ``parts`` (both updated in place) are scaled by its share of the
    query (and each turn's, in round 10's case).
    ``parts`` are fusion's blended legs, ``dense`` the raw cosines, ``raw_keyword`` the
    keyword leg's raw scores (for its spread), ``weights`` the dense weight of memories
    fused with another than ``cfg.alpha`` (long ones, instructions), ``timed``: fusion
    mixed in nearness to a named time."""
    stems = _stems(query)
    holders = frozenset(parts) if _about_the_notes(parts, dense, notes, cfg) else notes
    todo = [
        i
        for i in pool
        if i in holders and i in records and parts.get(i, (None, None))[0] is not None
        if (parts[i][1] or 0.0) > 0.0
    ]
    if not stems or not todo or cfg.fusion == "rrf" or cfg.strategy != "hybrid":
        return list(pool)
    # As ranking.fuse weighs a note: alpha * dense + (1 - alpha) * spread * keyword,
    # then over (1 + time_weight) when a time was named (fusion.spread_scale: a note's
    # scale is the spread in every case).
    spread = fusion.keyword_spread(raw_keyword, cfg.keyword_spread_rank)
    over = 1.0 + cfg.time_weight if timed else 1.0
    for i in todo:
        count = held(stems, records[i], MAX_HELD + 1)
        if count > MAX_HELD:  # share(...) * len(stems) > MAX_HELD, as counted
            continue
        part_held = count / len(stems)
        if part_held < 1.0:
            alpha = weights.get(i, cfg.alpha)
            part = (1.0 - alpha) * spread * float(parts[i][1] or 0.0) / over
            fused[i] = fused.get(i, 0.0) - (1.0 - part_held) * part
            dense_part, keyword_part = parts[i]  # the hit's breakdown: the leg as weighed
            parts[i] = (dense_part, None if keyword_part is None else keyword_part * part_held)
    return sorted(pool, key=lambda i: fused.get(i, 0.0), reverse=True)
