"""Facts that no longer hold rank below the ones that replaced them, when the query
asks about now (issue 28, FEATURES G2).

"Derek owns an efoil with a 12V20Ah battery", then "Derek swapped the efoil battery
for a 48V one": both memories stay (history is kept), but the graph closed the 12V
relation. Asked "what battery does the efoil have now?", the old memory shares more
words with the question and would win. When the query asks about the present
(``asks_now``), the candidates that stated a closed fact (``closed``:
``GraphCountStore.stale_memories``, one indexed read, made before fusion) lend their
session neighbours no context (``context.Sessions.without``: a mined chat's "Got it!"
after the old fact's turn would carry its words past the new fact), and their fused
score is multiplied by ``recall.stale_fact_factor`` (``demoted``). A question about
the past ("what battery did it have in January?") is left alone, and any error means
no demotion (and a warning): recall never fails for it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Protocol

from engram.config import RecallConfig
from engram.store.protocols.graph_counts import PLACE_TYPES, TIME_TYPES

log = logging.getLogger("engram.recall")

#: (namespace, memory ids) -> the ids that stated a fact since closed.
StaleReader = Callable[[str, Sequence[str]], set[str]]


class KindReader(Protocol):
    """``GraphCountStore.retimed_memories``: (namespace, memory ids, relation types) ->
    the ids whose closed facts are all of those types."""

    def __call__(
        self, namespace: str, memory_ids: Sequence[str], kinds: frozenset[str] = ...
    ) -> set[str]: ...


#: Words that ask about the present.
_NOW = re.compile(
    r"\b(?:now|nowadays|currently|current|these\s+days|today|at\s+the\s+moment|"
    r"at\s+present|presently|still|anymore|any\s+more|latest|right\s+now|as\s+of\s+now)\b",
    re.IGNORECASE,
)


#: A question in the simple present ("where do I live?", "what battery does the efoil
#: have?", "where's Sam based?"): it asks about the present as much as one that says
#: "now". A user asks "where do I live?" after telling a move, not "where do I live now?".
_PRESENT_QUESTION = re.compile(
    r"^\s*(?:(?:what|which|who|whom|whose|where|how)\b[^?]*?\b(?:do|does|am|is|are)\b|"
    r"(?:what|which|who|where|how)['’]s\b|(?:do|does|am|is|are)\b)",
    re.IGNORECASE,
)
#: A question whose subject is the wh-word, its verb in the present ("who supplies our
#: electricity?", "what runs the API?", "which bank holds my savings?"): round twelve's
#: user asked "who supplies our electricity?" after changing supplier and was answered
#: with the old one, the question not read as one about now. An auxiliary after it
#: ("what books has John read?", "what fields would she pursue?") asks across time or
#: about another one: left alone.
_PRESENT_SUBJECT_QUESTION = re.compile(
    r"^\s*(?:who|what|which(?:\s+\w+)?)\s+(?!(?:has|was)\b)\w+s\b"
    r"(?!.*\b(?:has|have|had|been|will|wo|would|could|might|may|should|can)(?:n['’]t)?\b)",
    re.IGNORECASE,
)
#: Words that set a present-tense question in the past or across time ("where do I
#: live since 2020", "what is the first city I lived in"): left alone.
_NOT_NOW = re.compile(
    r"\b(?:did|was|were|had|used\s+to|before|previously|formerly|originally|ago|last|"
    r"earlier|first|once|back\s+then|ever|history|since|until|when|(?:19|20)\d\d)\b",
    re.IGNORECASE,
)


#: A question that opens with "when" ("When is the thesis draft due?", "When does book
#: club meet?") asks which time holds now; only a "when" inside it ("where did I live
#: when I was at school") sets the question at another time.
_OPENING_WHEN = re.compile(r"^\s*when\b", re.IGNORECASE)


def asks_now(query: str) -> bool:
    """Whether the query asks about the present: it says so ("now", "currently" ...) or
    is a simple-present question with nothing that sets it in the past."""
    if _NOW.search(query) is not None:
        return True
    if (opening := _OPENING_WHEN.match(query)) is not None:
        query = "what" + query[opening.end() :]  # read as the question it is: "what ... is"
    present = _PRESENT_QUESTION.search(query) or _PRESENT_SUBJECT_QUESTION.search(query)
    return present is not None and _NOT_NOW.search(query) is None


def wanted(stale: StaleReader | None, query: str, cfg: RecallConfig) -> bool:
    """Whether ``closed`` reads which memories stated a closed fact."""
    return stale is not None and cfg.stale_fact_factor < 1.0 and asks_now(query)


def closed(
    stale: StaleReader | None,
    namespace: str,
    query: str,
    cfg: RecallConfig,
    ids: Sequence[str],
    warnings: list[str],
) -> frozenset[str]:
    """Which of ``ids`` stated a fact since closed, when the query asks about now;
    else (or when the read fails: a warning) none."""
    if stale is None or not ids or not wanted(stale, query, cfg):
        return frozenset()
    return _advisory(stale, namespace, ids, "which facts changed", warnings)


def _advisory(
    read: StaleReader, namespace: str, ids: Sequence[str], what: str, warnings: list[str]
) -> frozenset[str]:
    """``read``'s answer, or none when it fails (a warning): recall ranks without it."""
    try:
        return frozenset(read(namespace, list(ids)))
    except Exception as exc:  # advisory: recall ranks without it
        message = f"could not read {what}, ranking without it: {exc}"
        log.warning(message)
        warnings.append(message)
        return frozenset()


def demoted(old: frozenset[str], cfg: RecallConfig, fused: dict[str, float]) -> dict[str, float]:
    """``fused`` with the scores of ``old`` multiplied by ``cfg.stale_fact_factor``."""
    if not old:
        return fused
    factor = cfg.stale_fact_factor
    return {i: score * factor if i in old else score for i, score in fused.items()}


#: A question about a time: "when", "what time", "which day", a day, a date or an hour
#: ("Am I still going to the dentist on Tuesday?", "What's happening on January 13?",
#: the change bench's "Now: Standup is at 9:30.").
_ASKS_TIME = re.compile(
    r"\b(?:when|times?|schedule[ds]?|(?:what|which)\s+days?|how\s+(?:late|early|soon)|date|"
    r"noon|midnight|o['’]clock|\d{1,2}:\d\d|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?|today|tonight|tomorrow|weekend|"
    r"morning|afternoon|evening|\d{1,2}(?:st|nd|rd|th)|\d{1,2}(?::\d\d)?\s?[ap]m|"
    r"jan(?:uary)?|feb(?:ruary)?|march|april|june|july|aug(?:ust)?|sep(?:tember)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b",
    re.IGNORECASE,
)


def asks_time(query: str) -> bool:
    """Whether ``query`` asks about a time (or, of one word, whether it is one)."""
    return _ASKS_TIME.search(query) is not None


#: A question about a place: "where", a venue, "at" a name ("Are we still eating at
#: Bellini?").
_ASKS_PLACE = re.compile(
    r"\b(?:where|venue|place|location|address|(?i:at)\s+(?-i:[A-Z])[\w'’-]+)", re.IGNORECASE
)


def asks_place(query: str) -> bool:
    """Whether ``query`` asks about a place ("where", a venue, "at" a name)."""
    return _ASKS_PLACE.search(query) is not None


def untimed(
    retimed: KindReader | None,
    namespace: str,
    query: str,
    old: frozenset[str],
    warnings: list[str],
) -> frozenset[str]:
    """Those of ``old`` (memories of closed facts) whose closed facts are all times,
    when the query asks no time, or all an event's places, when it asks no place: "the
    dentist moved to Thursday" closed the Tuesday of "My dentist appointment is on
    Tuesday the 15th ... with Dr. Okafor", and "Which dentist am I seeing?" is still
    answered by it (new-user round twenty-two: demoted, it fell from first to third);
    "the team dinner is at Rosa's Kitchen now" leaves "What time is the team dinner?"
    to the first statement (round twenty-three). Any error: none (and a warning)."""
    if retimed is None or not old:
        return frozenset()
    kept: frozenset[str] = frozenset()
    for kinds, asks, what in (
        (TIME_TYPES, _ASKS_TIME, "times"),
        (PLACE_TYPES, _ASKS_PLACE, "places"),
    ):
        if asks.search(query) is None:
            read = partial(retimed, kinds=kinds)
            kept |= _advisory(
                read, namespace, sorted(old), f"which changed facts were {what}", warnings
            )
    return kept
