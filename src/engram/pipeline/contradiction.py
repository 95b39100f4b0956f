"""Contradiction detection for UPDATE and DELETE proposals (seed 004, FEATURES P5).

Two layers, as the seed has them:

- **syntactic** (fast, always on): the two texts share at least two content tokens, and
  either exactly one of them is negated or they hold the two sides of an antonym pair
  (enabled/disabled, allow/deny ...);
- **semantic** (slow, ``pipeline.semantic_contradiction``): for UPDATE proposals whose
  texts share at least three tokens and that the syntactic check let through, an LLM
  judges whether they contradict ("uses PostgreSQL" vs "migrated to MongoDB"). It is
  advisory: a timeout or an unparseable answer counts as "no contradiction".

A contradiction marks the proposal's audit row ``review_needed``; the review queue
(``mem.review``) lists it for a person to approve or reject.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Protocol

from engram.text import STOPWORDS

log = logging.getLogger("engram.pipeline")

#: seed 004: "lexical overlap of at least two tokens" for the syntactic check ...
SYNTACTIC_OVERLAP = 2
#: ... and "lexical overlap >= 3 tokens" before the semantic (LLM) check runs.
SEMANTIC_OVERLAP = 3

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")

#: Words that negate a statement. Contractions are matched whole ("isn't") and as the
#: tokens a plain tokenizer leaves ("isn", "t").
NEGATIONS = frozenset(
    """
    not no never none nothing nobody nowhere neither nor cannot can't won't isn't aren't
    wasn't weren't don't doesn't didn't hasn't haven't hadn't shouldn't wouldn't couldn't
    mustn't isn aren wasn weren don doesn didn hasn haven hadn shouldn wouldn couldn mustn
    without stopped quit
    """.split()  # noqa: SIM905 - a word list reads better as prose
)

#: seed 004: "an antonym pair conflict (enabled/disabled, allow/deny, etc.)".
ANTONYMS: tuple[tuple[str, str], ...] = (
    ("enabled", "disabled"),
    ("enable", "disable"),
    ("allow", "deny"),
    ("allowed", "denied"),
    ("allow", "block"),
    ("allowed", "blocked"),
    ("accept", "reject"),
    ("accepted", "rejected"),
    ("on", "off"),
    ("true", "false"),
    ("yes", "no"),
    ("start", "stop"),
    ("started", "stopped"),
    ("open", "closed"),
    ("add", "remove"),
    ("added", "removed"),
    ("include", "exclude"),
    ("included", "excluded"),
    ("increase", "decrease"),
    ("increased", "decreased"),
    ("like", "dislike"),
    ("likes", "dislikes"),
    ("love", "hate"),
    ("loves", "hates"),
    ("always", "never"),
    ("before", "after"),
    ("public", "private"),
    ("required", "optional"),
    ("mandatory", "optional"),
    ("success", "failure"),
    ("succeeded", "failed"),
    ("pass", "fail"),
    ("passed", "failed"),
    ("up", "down"),
    ("valid", "invalid"),
    ("active", "inactive"),
    ("online", "offline"),
    ("single", "married"),
    ("alive", "dead"),
    ("win", "lose"),
    ("won", "lost"),
    ("hot", "cold"),
    ("more", "less"),
    ("higher", "lower"),
    ("larger", "smaller"),
)


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens, contractions kept whole ("isn't")."""
    folded = unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'")
    return _WORD.findall(folded)


def content_tokens(text: str) -> set[str]:
    """The tokens that carry meaning: no stopwords, negations or antonym words."""
    polar = {w for pair in ANTONYMS for w in pair}
    return {
        t
        for t in tokens(text)
        if t not in STOPWORDS and t not in NEGATIONS and t not in polar and len(t) > 1
    }


def overlap(a: str, b: str) -> int:
    """How many content tokens the two texts share."""
    return len(content_tokens(a) & content_tokens(b))


def negated(text: str) -> bool:
    """True when the text holds a negation word."""
    return any(t in NEGATIONS for t in tokens(text))


def antonym_conflict(a: str, b: str) -> tuple[str, str] | None:
    """The antonym pair whose sides the two texts hold (one each), or None."""
    ta, tb = set(tokens(a)), set(tokens(b))
    for left, right in ANTONYMS:
        if (left in ta and right in tb and right not in ta and left not in tb) or (
            right in ta and left in tb and left not in ta and right not in tb
        ):
            return left, right
    return None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether two statements contradict, and why."""

    contradicts: bool
    reason: str
    method: str
    """``syntactic``, ``semantic`` or ``none``."""
    confidence: float = 0.0


def syntactic(a: str, b: str) -> Verdict:
    """seed 004's fast path: overlap >= 2, then a negation-polarity difference or an
    antonym pair."""
    shared = overlap(a, b)
    if shared < SYNTACTIC_OVERLAP:
        return Verdict(False, f"only {shared} shared words", "none")
    if negated(a) != negated(b):
        return Verdict(True, f"one negates the other ({shared} shared words)", "syntactic", 0.7)
    pair = antonym_conflict(a, b)
    if pair is not None:
        return Verdict(
            True, f"antonyms {pair[0]}/{pair[1]} ({shared} shared words)", "syntactic", 0.7
        )
    return Verdict(False, f"{shared} shared words, no negation or antonym", "none")


class _Generator(Protocol):
    def generate(
        self, prompt: str, *, schema: dict[str, Any] | None = None, timeout: float | None = None
    ) -> str: ...


#: The semantic check's answer: seed 004's {contradicts, confidence, reasoning}.
SEMANTIC_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "contradicts": {"type": "boolean"},
        "confidence": {"type": "number"},
        "reasoning": {"type": "string"},
    },
    "required": ["contradicts", "confidence", "reasoning"],
}


def semantic_prompt(new: str, old: str) -> str:
    """The LLM prompt of the semantic check."""
    return (
        "Do these two statements about the same subject contradict each other, so that "
        "both cannot be true at the same time? A later statement that changes a fact "
        "(moved, switched, replaced, migrated) contradicts the earlier one.\n\n"
        f"Earlier: {old}\nLater: {new}\n\n"
        'Answer with only a JSON object: {"contradicts": true|false, "confidence": 0-1, '
        '"reasoning": "one sentence"}.'
    )


def semantic(provider: _Generator, new: str, old: str, *, timeout: float) -> Verdict:
    """seed 004's slow path: ask the LLM. Any failure counts as no contradiction (the
    check is advisory and never blocks a proposal)."""
    from engram.llm import parse_json  # the provider package; only needed on this path

    try:
        raw = provider.generate(semantic_prompt(new, old), schema=SEMANTIC_SCHEMA, timeout=timeout)
        data = parse_json(raw)
    except Exception as exc:  # seed 004: "defaults to no contradiction"
        log.info("semantic contradiction check failed open: %s", exc)
        return Verdict(False, f"semantic check unavailable: {str(exc)[:120]}", "none")
    if not isinstance(data, dict) or not isinstance(data.get("contradicts"), bool):
        return Verdict(False, "semantic check gave no usable answer", "none")
    confidence = data.get("confidence")
    conf = float(confidence) if isinstance(confidence, int | float) else 0.5
    reasoning = data.get("reasoning")
    why = reasoning.strip()[:300] if isinstance(reasoning, str) and reasoning.strip() else ""
    return Verdict(
        bool(data["contradicts"]),
        why or ("the LLM judged them contradictory" if data["contradicts"] else "consistent"),
        "semantic",
        max(0.0, min(1.0, conf)),
    )


def detect(
    new: str,
    old: str,
    *,
    action: str,
    provider: _Generator | None = None,
    semantic_enabled: bool = False,
    timeout: float = 45.0,
) -> Verdict:
    """Run the syntactic check, then (for UPDATE, with enough overlap, when enabled and
    an LLM is configured) the semantic one."""
    verdict = syntactic(new, old)
    if verdict.contradicts:
        return verdict
    if (
        semantic_enabled
        and provider is not None
        and action == "UPDATE"
        and overlap(new, old) >= SEMANTIC_OVERLAP
    ):
        return semantic(provider, new, old, timeout=timeout)
    return verdict
