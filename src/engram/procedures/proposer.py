"""The procedural-memory proposer: a failure payload in, a three-tier procedure out
(seed 002's "Procedural Memory Auto-Generation"; FEATURES S7).

seed 002 follows "the EvoSkill three-agent separation principle: the failed agent does
not write its own lesson; a separate proposer LLM call analyses the failure". The
proposal has three tiers of progressive disclosure:

- discovery (~100 tokens): a concise summary for retrieval ranking;
- activation: condition + action + rationale (when / what / why);
- execution: ordered steps for applying the knowledge.

With an LLM configured, ``propose`` asks it with its own prompt and a JSON schema;
without one, or when it fails (the seed: "non-critical ... never block"), an offline
template builds the procedure from the payload itself, with a confidence that reflects
how much evidence the payload carries.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engram.errors import EngramError, InvalidInputError, shown
from engram.llm import LlmProvider, parse_json
from engram.store.protocols.record import Record
from engram.validate import no_nul, type_name

log = logging.getLogger("engram.procedures")

#: seed 002: discovery is "~100 tokens"; about four characters a token.
DISCOVERY_CHARS = 400
#: Agent Skills: a skill's name is at most 64 lowercase letters, digits and hyphens.
NAME_CHARS = 64
#: How much of each payload field reaches the prompt and the template.
FIELD_CHARS = 4000
MAX_STEPS = 12

#: The offline template's confidence: a base, and what each kind of evidence adds. A
#: bare task and error (0.4) stay under seed 002's default ``min_confidence`` 0.5; the
#: attempted steps or a trace lift it over.
TEMPLATE_BASE = 0.4
TEMPLATE_STEPS = 0.1
TEMPLATE_TRACE = 0.1

PROMPT = """\
You analyse a failed agent task and write the lesson as a reusable procedure, so the
next agent that meets this situation does the right thing first. You are not the agent
that failed. Base the procedure only on the failure below; do not invent facts.

Answer with JSON only:
{{"name": "kebab-case-skill-name", "discovery": "one or two sentences (under 100
tokens) saying when this procedure applies", "condition": "when to apply it",
"action": "what to do", "rationale": "why", "steps": ["ordered concrete steps"],
"confidence": 0.0-1.0 (how sure you are the procedure prevents this failure)}}

Failure:
{payload}"""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "discovery": {"type": "string"},
        "condition": {"type": "string"},
        "action": {"type": "string"},
        "rationale": {"type": "string"},
        "steps": {"type": "array", "items": {"type": "string"}},
        "confidence": {"type": "number"},
    },
    "required": ["discovery", "condition", "action", "steps", "confidence"],
}


@dataclass(frozen=True, slots=True)
class Failure(Record):
    """seed 002's ``FailureAnalysisPayload``: what the proposer sees of a failed task
    (never the raw conversation: the seed's privacy boundary)."""

    task: str
    error: str
    steps: tuple[str, ...] = ()
    """What the agent tried (tool calls made), in order."""
    trace: str = ""
    retries: int = 0
    turns: int = 0


@dataclass(frozen=True, slots=True)
class Procedure:
    """A proposed procedure in seed 002's three tiers, and what became of it."""

    name: str
    discovery: str
    condition: str
    action: str
    rationale: str
    steps: tuple[str, ...]
    confidence: float
    method: str
    """``llm`` or ``template`` (offline)."""
    memory_id: str | None = None
    """The procedural memory it was stored as; None when it was not stored."""
    skill_path: str | None = None
    """The SKILL.md written for it, if any."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "name": self.name,
            "discovery": self.discovery,
            "activation": {
                "condition": self.condition,
                "action": self.action,
                "rationale": self.rationale,
            },
            "execution": list(self.steps),
            "confidence": self.confidence,
            "method": self.method,
            "memory_id": self.memory_id,
            "skill_path": self.skill_path,
        }


def _field(name: str, value: object, *, required: bool = False) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise InvalidInputError(f"failure {name} must be a string, got {type_name(value)}")
    if required and not value.strip():
        raise InvalidInputError(f"failure {name} must not be empty")
    return no_nul(name, value.strip())[:FIELD_CHARS]


def _count(name: str, value: object) -> int:
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidInputError(
            f"failure {name} must be a non-negative integer, got {shown(value)}"
        )
    return value


def failure_value(value: object, scrub: Callable[[str], str]) -> Failure:
    """A ``Failure`` from itself or a dict of its fields (``tool_calls`` is accepted
    for ``steps``, ``retry_count``/``turn_count`` for ``retries``/``turns``), every text
    passed through ``scrub`` (secret redaction). Errors name the bad field."""
    if isinstance(value, Failure):
        value = value.to_dict()
    if not isinstance(value, Mapping):
        raise InvalidInputError(
            "failure must be a dict with task and error (and optionally steps, trace, "
            f"retries, turns), got {type_name(value)}"
        )
    known = {"task", "error", "steps", "tool_calls", "trace", "retries", "retry_count"}
    known |= {"turns", "turn_count"}
    unknown = sorted(str(k) for k in set(value) - known)
    if unknown:
        raise InvalidInputError(
            f"unknown failure field {', '.join(map(repr, unknown))}; the fields are task, "
            "error, steps, trace, retries, turns"
        )
    raw_steps = value.get("steps", value.get("tool_calls")) or []
    if not isinstance(raw_steps, Sequence) or isinstance(raw_steps, str):
        raise InvalidInputError(f"failure steps must be a list of strings, got {shown(raw_steps)}")
    steps = tuple(scrub(_field("steps item", s, required=True)) for s in raw_steps)
    return Failure(
        task=scrub(_field("task", value.get("task"), required=True)),
        error=scrub(_field("error", value.get("error"), required=True)),
        steps=steps[:50],
        trace=scrub(_field("trace", value.get("trace"))),
        retries=_count("retries", value.get("retries", value.get("retry_count"))),
        turns=_count("turns", value.get("turns", value.get("turn_count"))),
    )


def slug(text: str) -> str:
    """A kebab-case Agent Skills name from ``text``."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    out = "-".join(words)[:NAME_CHARS].strip("-")
    return out or "procedure"


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), text.strip())


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def template(failure: Failure) -> Procedure:
    """The offline proposer: the procedure the payload itself supports."""
    error = _first_line(failure.error)
    task = _clip(failure.task, 160)
    tried = "; ".join(failure.steps)
    steps = [f"Before starting, check for the condition behind this error: {_clip(error, 200)}."]
    if failure.trace:
        steps.append(f"Look where the trace points: {_clip(_first_line(failure.trace), 200)}.")
    if failure.steps:
        steps.append(f"Do not repeat the approach that failed ({_clip(tried, 300)}) unchanged.")
    steps.append("Fix the cause, then run the task again and confirm the error is gone.")
    confidence = TEMPLATE_BASE
    confidence += TEMPLATE_STEPS if failure.steps else 0.0
    confidence += TEMPLATE_TRACE if failure.trace else 0.0
    rationale = f"A previous attempt at this task failed with: {_clip(error, 300)}"
    if failure.retries or failure.turns:
        rationale += f" (after {failure.retries} retries and {failure.turns} turns)"
    return Procedure(
        name=slug(f"avoid {error}")[:NAME_CHARS],
        discovery=_clip(f"When doing '{task}', watch for: {error}", DISCOVERY_CHARS),
        condition=_clip(f"A task like '{task}' that can hit: {error}", 600),
        action=_clip(f"Check for and resolve the cause of '{error}' before retrying", 600),
        rationale=rationale + ".",
        steps=tuple(steps),
        confidence=round(confidence, 4),
        method="template",
    )


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    return " ".join(str(value).split()) if value is not None else ""


def parse_proposal(raw: str) -> Procedure:
    """The LLM's answer read leniently; ``EngramError`` when it holds no usable
    procedure (no JSON object, no discovery, or no steps)."""
    data = parse_json(raw)
    if not isinstance(data, Mapping):
        raise EngramError(f"the proposer answered {type(data).__name__}, not an object")
    steps = data.get("steps")
    if isinstance(steps, str):
        steps = [steps]
    clean = tuple(" ".join(str(s).split()) for s in (steps or []) if str(s).strip())
    discovery = _text(data, "discovery")
    if not discovery or not clean:
        raise EngramError("the proposer's answer has no discovery summary or no steps")
    try:
        confidence = min(1.0, max(0.0, float(data.get("confidence", 0.0))))
    except (TypeError, ValueError):
        confidence = 0.0
    return Procedure(
        name=slug(_text(data, "name") or discovery),
        discovery=_clip(discovery, DISCOVERY_CHARS),
        condition=_text(data, "condition"),
        action=_text(data, "action"),
        rationale=_text(data, "rationale"),
        steps=clean[:MAX_STEPS],
        confidence=round(confidence, 4),
        method="llm",
    )


def propose(llm: LlmProvider | None, failure: Failure) -> Procedure:
    """Ask the LLM when one is configured; use the offline template when there is none
    or it fails (logged, never raised: seed 002's proposer is non-critical)."""
    if llm is None:
        return template(failure)
    prompt = PROMPT.format(payload=json.dumps(failure.to_dict(), ensure_ascii=False, indent=1))
    try:
        return parse_proposal(llm.generate(prompt, schema=SCHEMA))
    except (EngramError, json.JSONDecodeError, ValueError) as exc:
        log.warning("the procedure proposer LLM failed, using the template: %s", exc)
        return template(failure)
