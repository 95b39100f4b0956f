"""The extraction stage (seed 004, FEATURES P2): text in, facts and entity triples out.

An LLM is asked for a JSON object ``{"facts": [...], "entities": [...]}`` (the prompt
and the JSON schema are here); without one, the offline extractor
(:mod:`engram.pipeline.offline`) produces the same shape by rule. Either answer goes
through :func:`validate`, which applies seed 004's rules exactly:

- at most 20 facts; a fact shorter than 10 characters is rejected, one longer than
  2000 is truncated; an unknown type becomes ``fact``, with a warning;
- at most 50 entities, each with a non-empty source, relationship and target;
- confidences are clamped to [0, 1]; a missing one is :data:`DEFAULT_CONFIDENCE`;
- nothing the model says can raise: every problem becomes a warning in the result,
  and whatever was valid is kept (seed 004: "partial results are always returned").

Failures carry a kind, so the job layer can choose to retry (:class:`Failure`).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engram.errors import ConfigError, LlmError
from engram.llm import LlmProvider, parse_json
from engram.pipeline import offline
from engram.records import MemoryType
from engram.settings import PipelineConfig
from engram.store.protocols.record import Record
from engram.text import normalize_content

log = logging.getLogger("engram.pipeline")

#: seed 004: "Facts are capped at 20 per input."
MAX_FACTS = 20
#: seed 004: "Any fact shorter than 10 characters is rejected."
MIN_FACT_CHARS = 10
#: seed 004: "Any fact longer than 2000 characters is truncated."
MAX_FACT_CHARS = 2000
#: seed 004: "Entities are capped at 50 per input."
MAX_ENTITIES = 50
#: The confidence of a fact or triple whose model gave none. Seed 004 does not say;
#: 0.5 keeps it in the result (and in shadow-mode audit) but below the write gate
#: (seed 004: minFactConfidenceForWrite 0.7), so a model that did not vouch for a fact
#: never writes it on its own.
DEFAULT_CONFIDENCE = 0.5
#: seed 004: "a type discriminant (fact, preference, decision, procedural, or semantic)".
FACT_TYPES: tuple[MemoryType, ...] = (
    MemoryType.FACT,
    MemoryType.PREFERENCE,
    MemoryType.DECISION,
    MemoryType.PROCEDURAL,
    MemoryType.SEMANTIC,
)
#: The ``model`` recorded for the rule-based extractor.
OFFLINE_MODEL = "offline"
#: A model that answers with thousands of broken items should not produce thousands of
#: warnings: past this many, the rest are counted in one last warning.
MAX_WARNINGS = 50


class Failure(StrEnum):
    """Why an extraction produced nothing, and so whether trying again can help.

    - ``provider``: the model was not reached or did not answer (timeout, refused
      connection, HTTP 5xx). The same call may well succeed later: **retry**.
    - ``output``: the model answered, but not with JSON of the expected shape. Asking
      the same model the same prompt again mostly gives the same answer and costs a
      whole generation: **do not retry**. The raw memory is already stored (seed 004's
      raw-first rule), so nothing is lost by giving up.
    """

    PROVIDER = "provider"
    OUTPUT = "output"


@dataclass(frozen=True, slots=True)
class ExtractedFact:
    """One discrete, reusable fact."""

    content: str
    type: MemoryType
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"content": self.content, "type": str(self.type), "confidence": self.confidence}


@dataclass(frozen=True, slots=True)
class ExtractedEntity(Record):
    """One entity relationship triple: ``source --relationship--> target``."""

    source: str
    relationship: str
    target: str
    confidence: float


@dataclass(frozen=True, slots=True)
class ExtractionResult:
    """What one extraction produced; seed 004 surfaces it in the job's result payload."""

    facts: tuple[ExtractedFact, ...] = ()
    entities: tuple[ExtractedEntity, ...] = ()
    warnings: tuple[str, ...] = ()
    model: str = ""
    """The model that extracted (``"offline"`` for the rules)."""
    failure: Failure | None = None
    """None when the model answered usably (even with no facts); else why not."""
    error: str | None = None
    """The failure's message, for the job's ``last_error``."""

    @property
    def failed(self) -> bool:
        """True when nothing usable came back."""
        return self.failure is not None

    @property
    def retryable(self) -> bool:
        """True when trying again may help (the provider failed, not the output)."""
        return self.failure is Failure.PROVIDER

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (the job's result payload)."""
        return {
            "facts": [f.to_dict() for f in self.facts],
            "entities": [e.to_dict() for e in self.entities],
            "warnings": list(self.warnings),
            "model": self.model,
            "failure": None if self.failure is None else str(self.failure),
            "error": self.error,
        }


# -- validation ------------------------------------------------------------------------


@dataclass
class _Notes:
    """Warnings, bounded at :data:`MAX_WARNINGS`."""

    items: list[str] = field(default_factory=list)
    dropped: int = 0

    def add(self, message: str) -> None:
        if len(self.items) < MAX_WARNINGS:
            self.items.append(message)
        else:
            self.dropped += 1

    def final(self) -> tuple[str, ...]:
        if self.dropped:
            return (*self.items, f"{self.dropped} more warnings not shown")
        return tuple(self.items)


def _confidence(value: object, where: str, notes: _Notes) -> float:
    if value is None:
        notes.add(f"{where}: no confidence; using {DEFAULT_CONFIDENCE}")
        return DEFAULT_CONFIDENCE
    number: float
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        notes.add(f"{where}: confidence {value!r} is not a number; using {DEFAULT_CONFIDENCE}")
        return DEFAULT_CONFIDENCE
    try:
        number = float(value)
    except ValueError:
        notes.add(f"{where}: confidence {value!r} is not a number; using {DEFAULT_CONFIDENCE}")
        return DEFAULT_CONFIDENCE
    if math.isnan(number):
        notes.add(f"{where}: confidence is NaN; using {DEFAULT_CONFIDENCE}")
        return DEFAULT_CONFIDENCE
    if isinstance(value, str):
        notes.add(f"{where}: confidence given as text {value!r}")
    if not 0.0 <= number <= 1.0:
        clamped = min(1.0, max(0.0, number))
        notes.add(f"{where}: confidence {number:g} clamped to {clamped:g}")
        return clamped
    return number


def _fact_type(value: object, where: str, notes: _Notes) -> MemoryType:
    name = value.strip().lower() if isinstance(value, str) else ""
    for kind in FACT_TYPES:
        if name == kind.value:
            return kind
    notes.add(f"{where}: unknown type {value!r} coerced to 'fact'")
    return MemoryType.FACT


def _text_field(item: dict[str, Any], key: str, aliases: Sequence[str]) -> tuple[object, str]:
    """The item's ``key``, or the first alias a model used instead (and which)."""
    if key in item:
        return item[key], key
    for alias in aliases:
        if alias in item:
            return item[alias], alias
    return None, key


def _fact(item: object, where: str, notes: _Notes) -> ExtractedFact | None:
    if isinstance(item, str):
        # Some models answer with bare strings; the content is usable, the rest default.
        notes.add(f"{where}: a bare string, not an object; type 'fact' assumed")
        item = {"content": item, "type": "fact", "confidence": None}
    if not isinstance(item, dict):
        notes.add(f"{where}: {type(item).__name__} is not a fact object; rejected")
        return None
    raw, used = _text_field(item, "content", ("text", "fact"))
    if used != "content" and raw is not None:
        notes.add(f"{where}: content given as {used!r}")
    if not isinstance(raw, str):
        notes.add(f"{where}: content is missing or not text; rejected")
        return None
    content = normalize_content(raw).storage
    if len(content) < MIN_FACT_CHARS:
        notes.add(f"{where}: shorter than {MIN_FACT_CHARS} characters; rejected")
        return None
    if len(content) > MAX_FACT_CHARS:
        notes.add(f"{where}: {len(content)} characters truncated to {MAX_FACT_CHARS}")
        content = content[:MAX_FACT_CHARS]
    kind = _fact_type(item.get("type"), where, notes)
    return ExtractedFact(content, kind, _confidence(item.get("confidence"), where, notes))


def _entity(item: object, where: str, notes: _Notes) -> ExtractedEntity | None:
    if not isinstance(item, dict):
        notes.add(f"{where}: {type(item).__name__} is not an entity object; rejected")
        return None
    relationship, used = _text_field(item, "relationship", ("relation",))
    if used != "relationship" and relationship is not None:
        notes.add(f"{where}: relationship given as {used!r}")
    parts: list[str] = []
    for name, value in (
        ("source", item.get("source")),
        ("relationship", relationship),
        ("target", item.get("target")),
    ):
        text = normalize_content(value).storage if isinstance(value, str) else ""
        if not text:
            notes.add(f"{where}: {name} is missing or empty; rejected")
            return None
        parts.append(text)
    source, rel, target = parts
    return ExtractedEntity(source, rel, target, _confidence(item.get("confidence"), where, notes))


def _items(raw: dict[str, Any], key: str, notes: _Notes) -> list[Any]:
    value = raw.get(key)
    if value is None:
        notes.add(f"the answer has no {key!r} array")
        return []
    if not isinstance(value, list):
        notes.add(f"{key!r} is a {type(value).__name__}, not an array; ignored")
        return []
    return value


def _failed(
    failure: Failure, message: str, model: str, warnings: Sequence[str]
) -> ExtractionResult:
    return ExtractionResult(
        warnings=(*warnings, message), model=model, failure=failure, error=message
    )


def validate(raw: object, *, model: str = "", warnings: Sequence[str] = ()) -> ExtractionResult:
    """Check a model's answer against seed 004's rules; never raises.

    ``raw`` is the model's text (``<think>`` blocks and Markdown fences are stripped
    before it is parsed as JSON) or an already parsed JSON value. ``warnings`` are
    carried into the result ahead of those validation adds.
    """
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", errors="replace")
    if isinstance(raw, str):
        try:
            raw = parse_json(raw)
        except LlmError as exc:
            return _failed(Failure.OUTPUT, str(exc), model, warnings)
    notes = _Notes(list(warnings))
    if isinstance(raw, list):
        notes.add("the answer is a bare array; read as the facts")
        raw = {"facts": raw, "entities": []}
    if not isinstance(raw, dict):
        message = f"the answer is a JSON {type(raw).__name__}, not an object with facts"
        return _failed(Failure.OUTPUT, message, model, notes.final())
    if "facts" not in raw and "entities" not in raw:
        message = "the answer has neither 'facts' nor 'entities'"
        return _failed(Failure.OUTPUT, message, model, notes.final())
    facts: list[ExtractedFact] = []
    raw_facts = _items(raw, "facts", notes)
    for index, item in enumerate(raw_facts):
        if len(facts) == MAX_FACTS:
            notes.add(f"{len(raw_facts) - index} facts over the cap of {MAX_FACTS} dropped")
            break
        fact = _fact(item, f"fact {index}", notes)
        if fact is not None:
            facts.append(fact)
    entities: list[ExtractedEntity] = []
    raw_entities = _items(raw, "entities", notes)
    for index, item in enumerate(raw_entities):
        if len(entities) == MAX_ENTITIES:
            notes.add(
                f"{len(raw_entities) - index} entities over the cap of {MAX_ENTITIES} dropped"
            )
            break
        entity = _entity(item, f"entity {index}", notes)
        if entity is not None:
            entities.append(entity)
    return ExtractionResult(tuple(facts), tuple(entities), notes.final(), model)


# -- the prompt ------------------------------------------------------------------------

#: JSON schema of the answer, sent as structured output where the server supports it
#: (Ollama ``format``, OpenAI ``response_format``). It holds shapes and the type enum
#: only: the caps and ranges are :func:`validate`'s job, because strict servers (OpenAI)
#: refuse length and range keywords, and a grammar that enforced ``maxItems`` would cut
#: the answer off mid-list rather than let the model choose what to keep.
EXTRACTION_SCHEMA: dict[str, Any] = {
    "title": "extraction",
    "type": "object",
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "content": {"type": "string"},
                    "type": {"type": "string", "enum": [t.value for t in FACT_TYPES]},
                    "confidence": {"type": "number"},
                },
                "required": ["content", "type", "confidence"],
                "additionalProperties": False,
            },
        },
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "source": {"type": "string"},
                    "relationship": {"type": "string"},
                    "target": {"type": "string"},
                    "confidence": {"type": "number"},
                },
                "required": ["source", "relationship", "target", "confidence"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["facts", "entities"],
    "additionalProperties": False,
}

_EXAMPLE_IN = (
    "Priya: We finally moved the billing service from MySQL to Postgres last week. "
    "I still prefer tabs over spaces, don't @ me. My sister Ana lives in Lisbon. "
    "Anyway, lunch was good."
)
_EXAMPLE_OUT = {
    "facts": [
        {
            "content": "Priya's team moved the billing service from MySQL to Postgres.",
            "type": "decision",
            "confidence": 0.9,
        },
        {"content": "Priya prefers tabs over spaces.", "type": "preference", "confidence": 0.9},
        {"content": "Priya's sister Ana lives in Lisbon.", "type": "fact", "confidence": 0.85},
    ],
    "entities": [
        {
            "source": "billing service",
            "relationship": "uses",
            "target": "Postgres",
            "confidence": 0.9,
        },
        {"source": "Ana", "relationship": "sister_of", "target": "Priya", "confidence": 0.85},
        {"source": "Ana", "relationship": "lives_in", "target": "Lisbon", "confidence": 0.85},
    ],
}
_EXAMPLE_EMPTY_IN = "ok thanks, sounds good!"

PROMPT_TEMPLATE = """\
Extract durable memories from the text below.

Return a JSON object with two arrays:
- "facts": discrete, reusable statements, each with
  "content" (one standalone sentence: name people and things instead of "I", "you",
  "it"), "type" (one of: fact, preference, decision, procedural, semantic) and
  "confidence" (a number from 0 to 1: how sure you are that the text states it).
  Types: preference = likes, dislikes, wants; decision = a choice that was made;
  procedural = how to do something; semantic = general knowledge; fact = anything else.
- "entities": relationship triples between named things, each with "source",
  "relationship" (short, snake_case), "target" and "confidence".

Skip greetings, small talk, questions and ephemeral details (what someone had for
lunch, how a conversation is going). At most {max_facts} facts and {max_entities}
entities. If nothing is worth keeping, return {{"facts": [], "entities": []}}.

Example
Text: {example_in}
Answer: {example_out}

Example
Text: {example_empty_in}
Answer: {{"facts": [], "entities": []}}

Text:
<<<
{text}
>>>

Return only the JSON object, with no text before or after it."""


def truncate_input(text: str, max_chars: int) -> tuple[str, bool]:
    """``text`` cut to ``max_chars`` (seed 004: input over 12 000 characters is
    truncated before the prompt is built), and whether it was cut."""
    if len(text) <= max_chars:
        return text, False
    return text[:max_chars], True


def build_prompt(text: str, *, max_input_chars: int = PipelineConfig().max_input_chars) -> str:
    """The extraction prompt for ``text`` (truncated to ``max_input_chars`` first)."""
    body, _ = truncate_input(text, max_input_chars)
    return PROMPT_TEMPLATE.format(
        max_facts=MAX_FACTS,
        max_entities=MAX_ENTITIES,
        example_in=_EXAMPLE_IN,
        example_out=json.dumps(_EXAMPLE_OUT, ensure_ascii=False),
        example_empty_in=_EXAMPLE_EMPTY_IN,
        text=body,
    )


# -- running it ------------------------------------------------------------------------


def extract_with_llm(
    provider: LlmProvider,
    text: str,
    *,
    config: PipelineConfig,
    structured: bool = True,
    timeout: float | None = None,
) -> ExtractionResult:
    """Ask ``provider`` for facts and triples in ``text``; never raises.

    A provider failure (timeout, unreachable, HTTP error) gives an empty result with
    ``failure=Failure.PROVIDER`` (retryable); an unusable answer gives
    ``failure=Failure.OUTPUT`` (not retryable). ``structured`` sends
    :data:`EXTRACTION_SCHEMA` with the request.
    """
    body, cut = truncate_input(text, config.max_input_chars)
    notes = [f"input of {len(text)} characters truncated to {len(body)}"] if cut else []
    prompt = build_prompt(body, max_input_chars=config.max_input_chars)
    model = provider.model
    try:
        answer = provider.generate(
            prompt, schema=EXTRACTION_SCHEMA if structured else None, timeout=timeout
        )
    except LlmError as exc:
        return _failed(Failure.PROVIDER, f"{provider.name}: {exc}", model, notes)
    except Exception as exc:  # noqa: BLE001 - a third-party provider may raise anything
        # Still a provider failure: the job records it and retries up to its limit.
        log.warning("LLM provider %s raised %s", provider.name, type(exc).__name__, exc_info=True)
        return _failed(
            Failure.PROVIDER, f"{provider.name}: {type(exc).__name__}: {exc}", model, notes
        )
    return validate(answer, model=model, warnings=notes)


def extract_offline(
    text: str, *, speaker: str | None = None, before: str | None = None
) -> ExtractionResult:
    """Facts and triples by rule (:mod:`engram.pipeline.offline`), validated like a
    model's answer. ``before`` is the chat turn said just before ``text``, read only for
    what a pointer in ``text`` stands for (issue 28's fifth pass)."""
    return validate(
        offline.analyse(text, speaker=speaker, before=before).as_raw(), model=OFFLINE_MODEL
    )


def uses_rules(config: PipelineConfig, provider: LlmProvider | None) -> bool:
    """Whether ``extract`` reads with the offline rules rather than the model."""
    return config.extractor == "offline" or (config.extractor == "auto" and provider is None)


def extract(
    text: str,
    *,
    provider: LlmProvider | None,
    config: PipelineConfig,
    before: str | None = None,
    speaker: str | None = None,
) -> ExtractionResult:
    """Extract with the LLM or the rules, as ``config.extractor`` says.

    ``auto`` uses the LLM when a provider is given and the rules otherwise; ``llm``
    without a provider is a configuration error (raised: it is not bad model output,
    and silently using the rules would hide it); ``offline`` never calls a model.
    A failed LLM call is returned as is, not replaced by the rules, so the job layer
    sees the failure and can retry it. ``before`` (the turn said just before) and
    ``speaker`` (who "I" is where the text names no one) serve the rules only: the model
    reads ``text`` as it always has.
    """
    if uses_rules(config, provider):
        return extract_offline(text, speaker=speaker, before=before)
    if provider is None:
        raise ConfigError(
            "pipeline.extractor is 'llm' but no LLM provider is configured; set [llm] "
            "provider, or pipeline.extractor = 'auto' or 'offline'"
        )
    return extract_with_llm(provider, text, config=config)
