"""Prospective indexing (seed 004, FEATURES P8): the questions a memory would answer,
written after the memory and searched beside its content.

seed 004: "the pipeline asks the extraction LLM to imagine what questions a user might
ask that this memory would help answer. The LLM returns up to hints.max (default 5)
hint strings per memory." With a provider (``[llm]``), :func:`llm_hints` asks exactly
that. Without one, :func:`template_hints` writes them by rule from what the offline
extractor (:mod:`engram.pipeline.offline`) reads in the memory: its speaker, its facts
with first person resolved, their entity triples and dates, an attached picture:

- a fact "Caroline went to a support group yesterday" asks "When did Caroline go to a
  support group?" (irregular past tenses go back to the base form the question uses;
  the stemmer already joins "painted" and "paint", not "went" and "go");
- "Caroline is keen on counseling" asks "Is Caroline keen on counseling?";
- a triple asks its relation: "Where does Jon live?", "What does Melanie like?";
- a shared picture asks "What picture of <caption> did Melanie share?".

A memory none of these rules reads (a greeting, a long answer of prose) gets no
template hints: questions built from its bare key words were measured and dropped
(docs/benchmarks.md, "Hints").

The ``hints`` job handler (:func:`handle_hints_job`) loads the memory, generates, and
stores the hints with ``store.hints.put`` (outside any transaction but the store's own).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engram.errors import ConfigError, InvalidInputError, LlmError
from engram.llm import JsonSchema, parse_json
from engram.pipeline import offline, patterns
from engram.pipeline.handlers import register
from engram.store.protocols import Job, Store, clean_hints
from engram.text import keywords

if TYPE_CHECKING:
    from engram.core import Core
    from engram.llm import LlmProvider

log = logging.getLogger("engram.pipeline")

#: The ``model`` recorded for hints the templates wrote.
TEMPLATE_MODEL = "template"
#: seed 004: hints.max default.
DEFAULT_MAX_HINTS = 5
#: Memories longer than this are cut before the prompt: a hint asks about the gist.
MAX_PROMPT_CHARS = 4000

PROMPT_TEMPLATE = """You index a memory so that it can be found later.
Write up to {n} short questions that someone might ask in the future which this memory
would help answer. Name people, places, things and dates as the memory does; write
each question so that it reads on its own (names, not "I" or "you"); do not repeat a
question in other words.
Answer with JSON only, in this shape: {{"hints": ["question 1", "question 2"]}}

Memory:
{text}
"""


def hints_schema(n: int) -> JsonSchema:
    """The JSON schema of the answer (sent where the server enforces it)."""
    return {
        "type": "object",
        "properties": {"hints": {"type": "array", "items": {"type": "string"}, "maxItems": n}},
        "required": ["hints"],
    }


class UnusableHints(LlmError):
    """The model answered, but its answer holds no usable hint. Asking the same model
    the same prompt again mostly gives the same answer, so this is not retried."""


@dataclass(frozen=True, slots=True)
class GeneratedHints:
    """What one generation produced."""

    hints: tuple[str, ...]
    model: str
    warnings: tuple[str, ...] = ()


# -- the LLM --------------------------------------------------------------------------


def llm_hints(
    provider: LlmProvider, text: str, *, limit: int, timeout: float | None = None
) -> GeneratedHints:
    """Ask ``provider`` for up to ``limit`` hints (seed 004: the timeout is the
    provider's, 45 s by default, unless ``timeout`` is given).

    A provider failure raises :class:`~engram.errors.LlmError` (worth a retry); an
    answer without a usable hint raises :class:`UnusableHints` (not worth one).
    """
    prompt = PROMPT_TEMPLATE.format(n=limit, text=text[:MAX_PROMPT_CHARS])
    answer = provider.generate(prompt, schema=hints_schema(limit), timeout=timeout)
    try:
        value = parse_json(answer)
    except LlmError as exc:
        raise UnusableHints(f"no usable hints: {exc}") from exc
    # A bare list is accepted too: small models often drop the wrapping object.
    items = value.get("hints") if isinstance(value, dict) else value
    if not isinstance(items, list):
        raise UnusableHints('no usable hints: the answer has no "hints" list')
    warnings = []
    if len(items) > limit:
        warnings.append(f"the model gave {len(items)} hints; the first {limit} are kept")
    kept = clean_hints((i for i in items if isinstance(i, str)), limit)
    if not kept:
        raise UnusableHints("no usable hints: the answer's list holds no question")
    return GeneratedHints(tuple(kept), provider.model, tuple(warnings))


# -- the templates --------------------------------------------------------------------

#: Irregular past tenses and the base form a question uses ("went" -> "did ... go").
_BASE = {
    "went": "go", "got": "get", "made": "make", "took": "take", "saw": "see",
    "found": "find", "felt": "feel", "thought": "think", "bought": "buy",
    "brought": "bring", "came": "come", "gave": "give", "knew": "know", "left": "leave",
    "lost": "lose", "met": "meet", "ran": "run", "said": "say", "sent": "send",
    "spent": "spend", "told": "tell", "won": "win", "wrote": "write", "began": "begin",
    "caught": "catch", "chose": "choose", "drew": "draw", "drove": "drive", "ate": "eat",
    "fell": "fall", "flew": "fly", "forgot": "forget", "grew": "grow", "heard": "hear",
    "held": "hold", "kept": "keep", "led": "lead", "paid": "pay", "rode": "ride",
    "sang": "sing", "sat": "sit", "slept": "sleep", "spoke": "speak", "stood": "stand",
    "swam": "swim", "taught": "teach", "threw": "throw", "woke": "wake", "wore": "wear",
    "built": "build", "became": "become", "broke": "break", "sold": "sell", "had": "have",
    "did": "do", "understood": "understand", "hung": "hang", "shot": "shoot",
    "fought": "fight", "hid": "hide", "lit": "light", "stole": "steal",
}  # fmt: skip
_COPULA = frozenset({"is", "was", "are", "were"})
#: "Caroline thinks X": the question asks what the subject thinks about X.
_OPINION = frozenset({"thinks", "says", "feels", "believes", "finds", "hopes", "wishes"})
_MODALS = frozenset({"will", "would", "can", "could", "should", "might", "must"})
_SKIP = frozenset(
    """
    also just really still always never often usually sometimes finally recently actually
    totally absolutely even already definitely only truly currently now
    """.split()  # noqa: SIM905 - a word list reads better as prose
)
# A fact's first clause: it ends at a comma, a dash, or a conjunction that starts another.
_CLAUSE_END = re.compile(
    r"\s*(?:[,;:]|\s[-–—]\s|\s+(?:and|but|so|because|since|while|though|which|as)\s+"
    r"(?:it|that|this|they|he|she|there|I|we|[A-Z]\w+\s+(?:is|was|has|had|and))\b)"
)
# A named subject, "and others" (a resolved "we"), or a name's thing ("Melanie's kids").
_SUBJECT = re.compile(
    r"^(?P<s>[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2}(?:\s+and\s+others|'s\s+[a-z]+)?)"
    r"\s+(?P<rest>.+)$"
)
_CAPTION = re.compile(r"\[(?:image|photo|picture):\s*([^\]]+)\]", re.IGNORECASE)
_CAPTION_LEAD = re.compile(r"^(?:a|an)\s+(?:photo|picture|image|close up)\s+of\s+", re.I)
# The question each triple relation asks ("{s}" subject, "{t}" target).
_RELATION_QUESTIONS: dict[str, str] = {
    "works_at": "Where does {s} work?",
    "lives_in": "Where does {s} live?",
    "moved_to": "Where did {s} move to?",
    "moved_from": "Where did {s} move from?",
    "married": "Who is {s} married to?",
    "born_in": "Where was {s} born?",
    "from": "Where is {s} from?",
    "attended": "When did {s} go to {t}?",
    "visited": "When did {s} visit {t}?",
    "joined": "When did {s} join {t}?",
    "owns": "What does {s} own?",
    "has": "What does {s} have?",
    "likes": "What does {s} like?",
    "dislikes": "What does {s} dislike?",
    "prefers": "What does {s} prefer?",
    "uses": "What does {s} use?",
    "chose": "What did {s} choose?",
}


def template_hints(
    text: str, *, limit: int = DEFAULT_MAX_HINTS, speaker: str | None = None
) -> list[str]:
    """Up to ``limit`` questions ``text`` answers, by rule (no model); deterministic.

    ``speaker`` names whoever "I" is when ``text`` has no ``"Name:"`` prefix. Triples
    ask first (the most natural questions), then facts, then a shared picture; a
    question whose key words an earlier one already holds is dropped.
    """
    analysis = offline.analyse(text, speaker=speaker)
    subject = analysis.speaker
    found: list[str] = []
    for triple in analysis.triples:
        template = _RELATION_QUESTIONS.get(triple.relationship)
        if template is None and not triple.relationship.startswith("has_"):
            template = "What is {s}'s " + triple.relationship.replace("_", " ") + "?"
        if template is not None:
            found.append(template.format(s=triple.source, t=triple.target))
    for fact in analysis.facts:
        if fact.type == "preference" and subject:
            found.append(f"What does {subject} like?")
        found.append(_fact_question(fact.content) or "")
    caption = _CAPTION.search(text)
    if caption and subject:
        shown = _CAPTION_LEAD.sub("", caption.group(1).strip().rstrip("."))
        found.append(f"What picture of {shown} did {subject} share?")
    return clean_hints(_new_words_only(found), limit)


def _new_words_only(questions: list[str]) -> list[str]:
    """Drop empty questions and those whose key words an earlier one already holds
    ("When did Caroline go to LGBTQ support group?" after "... to a LGBTQ ...")."""
    kept: list[tuple[str, set[str]]] = []
    for question in questions:
        words = set(keywords(question, limit=64))
        if question and not any(words <= earlier for _, earlier in kept):
            kept.append((question, words))
    return [q for q, _ in kept]


def _fact_question(fact: str) -> str | None:
    """One question a resolved fact answers ("Caroline went to X" -> "When did Caroline
    go to X?"), or None when its shape is not one the templates know."""
    clause = _CLAUSE_END.split(fact.rstrip(".!?"), maxsplit=1)[0]
    anchored = bool(patterns.DATE.search(clause))
    clause = re.sub(r"\s{2,}", " ", patterns.DATE.sub("", clause)).strip(" ,")
    match = _SUBJECT.match(clause)
    if match is None:
        return None
    subject, words = match.group("s"), match.group("rest").split()
    while words and words[0].lower() in _SKIP:
        words = words[1:]
    if len(words) < 2:
        return None
    verb, obj = words[0].lower(), " ".join(words[1:])
    if verb in _COPULA:
        # "Caroline is going to a conference" -> "When is Caroline going to ...?"
        if words[1].endswith("ing"):
            return f"When {verb} {subject} {obj}?"
        return f"{verb.capitalize()} {subject} {obj}?"
    if verb in _OPINION:
        return f"What does {subject} {_present_base(verb)} about {obj}?"
    if verb in _MODALS:
        return f"{verb.capitalize()} {subject} {obj}?"
    if verb in _BASE:
        return f"When did {subject} {_BASE[verb]} {obj}?"
    if verb.endswith("ed") and len(verb) > 4:
        # A regular past tense is also the participle: no guessing at its base form
        # ("hiked" -> "hike", "visited" -> "visit"); the index stems it either way.
        return f"{'When' if anchored else 'What'} has {subject} {verb} {obj}?"
    if verb.endswith("s") and not verb.endswith("ss") and len(verb) > 3:
        return f"Does {subject} {_present_base(verb)} {obj}?"
    return None


def _present_base(verb: str) -> str:
    """``loves`` -> ``love``, ``studies`` -> ``study``, ``watches`` -> ``watch``."""
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return verb[:-2]
    return verb[:-1]


# -- choosing, storing, the job -------------------------------------------------------


def generate(
    text: str,
    *,
    provider: LlmProvider | None,
    limit: int = DEFAULT_MAX_HINTS,
    extractor: str = "auto",
    timeout: float | None = None,
) -> GeneratedHints:
    """Hints for ``text``, from the LLM or the templates as ``[pipeline] extractor``
    chooses for extraction: ``auto`` asks the LLM when there is a provider, ``offline``
    never does, ``llm`` without a provider is a configuration error. LLM failures raise
    :class:`~engram.errors.LlmError` (see :func:`llm_hints`)."""
    if extractor == "offline" or (extractor == "auto" and provider is None):
        return GeneratedHints(tuple(template_hints(text, limit=limit)), TEMPLATE_MODEL)
    if provider is None:
        raise ConfigError(
            "pipeline.extractor is 'llm' but no LLM provider is configured; set [llm] "
            "provider, or pipeline.extractor = 'auto' or 'offline'"
        )
    return llm_hints(provider, text, limit=limit, timeout=timeout)


def backfill(
    store: Store, namespace: str, *, limit: int = DEFAULT_MAX_HINTS, batch: int = 1000
) -> int:
    """Give every live memory of ``namespace`` that has no hints template hints (no
    model); returns how many memories got some. Safe to run again: a memory that holds
    hints is skipped, one the templates find nothing for is tried once per call."""
    done = 0
    tried: set[str] = set()
    while True:
        ids = [i for i in store.hints.missing(namespace, batch + len(tried)) if i not in tried]
        if not ids:
            return done
        for memory_id in ids[:batch]:
            tried.add(memory_id)
            record = store.memories.get(namespace, memory_id)
            if record is None:
                continue
            found = template_hints(record.content, limit=limit)
            if found:
                store.hints.put(namespace, memory_id, found, model=TEMPLATE_MODEL)
                done += 1


def handle_hints_job(core: Core, job: Job) -> Mapping[str, Any]:
    """The ``hints`` handler: generate the memory's hints and store them; the result is
    ``{"hints": n, "model": ...}``.

    A provider failure raises (the worker retries it) until the job's last attempt,
    which stores template hints instead, so no memory is left without an index; an
    unusable answer falls back to the templates at once (asking again would not help).
    Safe to run again: ``put`` replaces the memory's hints.
    """
    if job.memory_id is None:
        raise InvalidInputError(f"job {job.id} names no memory")
    cfg = core.config.pipeline
    if not cfg.hints:
        return {"hints": 0, "model": None, "skipped": "hints are off ([pipeline] hints)"}
    record = core.store.memories.get(job.namespace, job.memory_id)
    if record is None:
        return {"hints": 0, "model": None, "skipped": "the memory is gone (deleted or purged)"}
    limit = int(job.payload.get("max_hints", cfg.max_hints))
    warnings: list[str] = []
    try:
        made = generate(record.content, provider=core.llm(), limit=limit, extractor=cfg.extractor)
        warnings.extend(made.warnings)
    except LlmError as exc:
        if not isinstance(exc, UnusableHints) and job.attempts < job.max_attempts:
            raise
        log.warning("hints for %s fall back to the templates: %s", record.id, exc)
        warnings.append(f"{exc}; template hints stored instead")
        made = GeneratedHints(tuple(template_hints(record.content, limit=limit)), TEMPLATE_MODEL)
    stored = core.store.hints.put(record.namespace, record.id, made.hints, model=made.model)
    out: dict[str, Any] = {"hints": len(stored.hints), "model": stored.model}
    if warnings:
        out["warnings"] = warnings
    return out


register("hints", handle_hints_job)
