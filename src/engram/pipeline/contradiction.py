"""Contradiction detection for UPDATE and DELETE proposals (seed 004, FEATURES P5).

Two layers, as the seed has them:

- **syntactic** (fast, always on): both texts are read into attribute claims
  (:mod:`engram.pipeline.claims`, subject / attribute / value), and two claims about the
  same subject and the same attribute conflict when one negates the other's value
  ("lives in Boston" / "doesn't live in Boston anymore"), when their values are the two
  sides of an antonym pair (enabled/disabled, single/married ...), or when a
  one-valued attribute (residence, employer, spouse ...) takes a new value, or any
  "use" is stated as a change ("migrated to MongoDB" after "uses PostgreSQL"). Seed
  004's own test (two shared words plus a negation or an antonym word anywhere) filled
  the review queue with chat lines that shared "so" and "proud" (issue 28); it is kept
  as :func:`lexical`, the baseline ``engram bench contradictions`` compares with;
- **semantic** (slow, ``pipeline.semantic_contradiction``): for UPDATE proposals whose
  texts share at least three tokens and that the syntactic check let through, an LLM
  judges whether they contradict ("uses PostgreSQL" vs "migrated to MongoDB"). It is
  advisory: a timeout or an unparseable answer counts as "no contradiction".

A contradiction marks the proposal's audit row ``review_needed``; per
``[pipeline] contradiction_action`` it is held in the review queue (``mem.review``) or
applied with the flag.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Protocol

from engram.pipeline import claims as claims_mod
from engram.pipeline.claims import Claim
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
    new_claim: str = ""
    """The clause of the new statement that conflicts (the review queue shows it)."""
    old_claim: str = ""
    """The clause of the old statement it conflicts with."""


def lexical(a: str, b: str) -> Verdict:
    """seed 004's literal test: overlap >= 2, then a negation-polarity difference or an
    antonym pair anywhere in the texts. Too loose on conversation (issue 28); kept as
    the baseline of ``engram bench contradictions``."""
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


def _words(value: frozenset[str]) -> str:
    return " ".join(sorted(value))


def _amounts(new: frozenset[str], old: frozenset[str]) -> tuple[str, str] | None:
    """The two amounts of one value said in the same words otherwise ("15000 pounds" /
    "18000 pounds": the unit they share is no agreement), or None."""
    a = {w for w in new if w[:1].isdigit()}
    b = {w for w in old if w[:1].isdigit()}
    if len(a) != 1 or len(b) != 1 or a == b or (new - a) != (old - b):
        return None
    return next(iter(a)), next(iter(b))


#: Verbs that end holding a thing ("sold the Pixel 7", "quit Acme"), and the attributes
#: of holding it ("uses a Pixel 7", "works at Acme"): the first ends the second when
#: they name the same thing (task mine26).
_ENDS = frozenset({"sell", "quit"})
_HELD = frozenset({"use", "own", "have", "drive", "employer"})


def _ended(new: Claim, old: Claim) -> str | None:
    """Why ``new`` ends what ``old`` holds ("sold the Pixel 7" / "uses a Pixel 7")."""
    if new.attribute not in _ENDS or old.attribute not in _HELD or new.negated or old.negated:
        return None
    named = frozenset(w for w in new.value & old.value if not w[:1].isdigit())
    if not named or not claims_mod.same_subject(new.subject, old.subject):
        return None
    return f"{new.subject_name} no longer holds what the old statement says ({_words(named)})"


def conflict(new: Claim, old: Claim) -> str | None:
    """Why claim ``new`` contradicts claim ``old``, in words, or None."""
    if (ended := _ended(new, old)) is not None:
        return ended
    if new.attribute != old.attribute or not claims_mod.same_subject(new.subject, old.subject):
        return None
    who, attribute = new.subject_name, new.attribute.replace("_", " ")
    if new.negated != old.negated:
        shared = new.value & old.value
        if shared and (new.value <= old.value or old.value <= new.value):
            side = "denies" if new.negated else "affirms"
            said = _words(shared)
            return f"the new statement {side} what the old one says of {who} ({attribute}: {said})"
        return None
    if new.negated:
        return None  # two denials do not conflict
    pair = claims_mod.antonym_values(new.value, old.value)
    if pair is not None:
        return f"{who} ({attribute}): {pair[1]} before, {pair[0]} now"
    single = attribute in claims_mod.SINGLE_VALUED
    if single and not new.additive and (amounts := _amounts(new.value, old.value)):
        return f"{who} has one {attribute}: {amounts[0]} replaces {amounts[1]}"
    if new.value & old.value or new.additive:
        return None
    if single or (new.change and attribute in claims_mod.CHANGEABLE):
        return f"{who} has one {attribute}: {_words(new.value)} replaces {_words(old.value)}"
    return None


def syntactic(a: str, b: str) -> Verdict:
    """The fast path: does statement ``a`` (the new one) contradict ``b`` (the old one)?
    Claims about the same subject and attribute are compared (see the module
    docstring); words the two merely share count for nothing."""
    olds = claims_mod.read(b)
    for new in claims_mod.read(a) if olds else ():
        for old in olds:
            why = conflict(new, old)
            if why is not None:
                return Verdict(True, why, "syntactic", 0.8, new_claim=new.text, old_claim=old.text)
    return Verdict(False, "no claim about the same subject and attribute conflicts", "none")


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
