"""Mining's LLM path: one small call per window for its topic and entities (FEATURES G8).

seed 003: "Mining extracts entities and topics via a small LLM call", batched "across
windows of 8-10 turns to keep the LLM input bounded". Every window is read by the rules
first (:func:`engram.palace.mining.read_window`): relations, speakers and dates always
come from them. With a model configured (``[llm]``, and ``[pipeline] extractor`` not
``offline``), each window that holds a turn being filed is then sent once, asking for
``{"topic": str, "entities": [{"name", "type"}]}``. A checked answer replaces the rules'
topic (the window's closet) and entities (its drawers' AAAK tags, and the types the
graph gets with ``graph=True``).

What can go wrong, and what happens (never an exception: mining still files):

- an answer that is not JSON (after ``<think>`` blocks and code fences are removed),
  not an object, or without a usable topic or entity list: the rules read the window,
  and a warning says why;
- an entity with a bad name or type, one the window never mentions, or one past
  :data:`MAX_ENTITIES`: dropped, with a warning; the rest are kept;
- a provider failure (timeout, HTTP error): the rules read that window **and every
  later window of the call**, with one warning. There is no retry: mining is called
  synchronously, and a dead server would otherwise cost a timeout per window (a
  100-window export at 60 s each). Mining again later does not re-read filed turns
  (mining is idempotent), so a failed call's closets stay the rules'.

The calls are made before anything is written, never inside a transaction.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engram.errors import LlmError
from engram.llm import JsonSchema, parse_json
from engram.palace import mining

if TYPE_CHECKING:
    from engram.core import Core
    from engram.llm import LlmProvider

#: The entity types asked for: the AAAK tag kinds of seed 003 (@p @l @e @i).
ENTITY_KINDS = {v: k for k, v in mining.ENTITY_TYPE.items()}
#: At most this many entities are taken from one window's answer.
MAX_ENTITIES = 20
#: Longest entity name accepted; longer is a phrase, not a name.
MAX_ENTITY_CHARS = 80
#: Longest topic accepted (a closet name, a few words).
MAX_TOPIC_CHARS = 60
#: A turn is cut to this many characters in the prompt (seed 003: bounded input).
MAX_TURN_CHARS = 1000
#: A result keeps at most this many warnings.
MAX_WARNINGS = 50

PROMPT = """\
You index one part of a conversation for a memory palace.
Give its topic: 1 to 4 words saying what these turns are about (not who speaks).
List the entities the turns name, each with a type: person, location, event or item
(item: a thing, pet, project, tool or anything else owned, used or liked).
Answer with JSON only, like:
{example}

Turns:
{turns}
"""

SCHEMA: JsonSchema = {
    "type": "object",
    "properties": {
        "topic": {"type": "string"},
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "type": {"type": "string", "enum": list(ENTITY_KINDS)},
                },
                "required": ["name", "type"],
            },
        },
    },
    "required": ["topic", "entities"],
}

_EXAMPLE = {"topic": "battery wiring", "entities": [{"name": "Derek", "type": "person"}]}


@dataclass(frozen=True, slots=True)
class Reading:
    """The windows of a conversation as mining files them."""

    windows: list[mining.Window]
    llm_windows: tuple[int, ...] = ()
    """Indexes (0-based, in ``windows``) of the windows the model read."""
    warnings: tuple[str, ...] = ()
    """What went wrong with the model's answers, and what the rules did instead."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A checked answer: its topic and ``(kind, name)`` entities, or None if the rules
    must read the window; and what was wrong with it."""

    topic: str | None
    entities: list[tuple[str, str]]
    warnings: list[str]


def provider_for(core: Core) -> LlmProvider | None:
    """The model mining asks, or None: ``[pipeline] extractor = "offline"`` keeps every
    model call out of the write side, mining included."""
    return None if core.config.pipeline.extractor == "offline" else core.llm()


def build_prompt(turns: Sequence[mining.Turn], span: range) -> str:
    """The window's turns, one a line, each cut to :data:`MAX_TURN_CHARS`."""
    lines = []
    for i in span:
        turn = turns[i]
        text = " ".join(turn.content.split())[:MAX_TURN_CHARS]
        lines.append(f"{turn.role}: {text}" if turn.role else text)
    return PROMPT.format(example=json.dumps(_EXAMPLE), turns="\n".join(lines))


def _entity(item: object, text: str) -> tuple[tuple[str, str] | None, str | None]:
    """One answered entity as ``(kind, name)``, or None and why it was dropped."""
    if not isinstance(item, dict):
        return None, f"entity {item!r} is not a {{name, type}} object"
    name, kind = item.get("name"), item.get("type")
    if not isinstance(name, str) or not mining.can_name(name) or len(name) > MAX_ENTITY_CHARS:
        return None, f"entity name {name!r} is not a short name"
    name = " ".join(name.split())
    if not isinstance(kind, str) or kind.strip().lower() not in ENTITY_KINDS:
        return None, f"entity {name!r}: type {kind!r} is not one of {', '.join(ENTITY_KINDS)}"
    if not mining.mentions(text, name):
        return None, f"entity {name!r} is not mentioned in the window"
    return (ENTITY_KINDS[kind.strip().lower()], name), None


def parse_answer(raw: str, texts: Sequence[str]) -> Answer:
    """Check a window's answer against its turns' ``texts``; never raises."""
    try:
        data: Any = parse_json(raw)
    except LlmError as exc:
        return Answer(None, [], [str(exc)])
    if not isinstance(data, dict):
        return Answer(None, [], ["the answer is not a JSON object"])
    topic, items = data.get("topic"), data.get("entities")
    topic = " ".join(topic.split()) if isinstance(topic, str) else topic
    if not isinstance(topic, str) or not any(c.isalnum() for c in topic):
        return Answer(None, [], [f"topic {topic!r} is not a name"])
    if len(topic) > MAX_TOPIC_CHARS:
        return Answer(None, [], [f"topic is {len(topic)} characters, over {MAX_TOPIC_CHARS}"])
    if not isinstance(items, list):
        return Answer(None, [], ["the answer holds no list of entities"])
    notes: list[str] = []
    if len(items) > MAX_ENTITIES:
        notes.append(f"{len(items)} entities, over {MAX_ENTITIES}; the rest were dropped")
    text = "\n".join(texts)
    found: dict[str, tuple[str, str]] = {}
    for item in items[:MAX_ENTITIES]:
        entity, why = _entity(item, text)
        if why is not None:
            notes.append(f"{why}; dropped")
        elif entity is not None:
            found.setdefault(entity[1].lower(), entity)
    return Answer(topic.lower(), list(found.values()), notes)


def _ask(provider: LlmProvider, prompt: str, timeout: float | None) -> str:
    try:
        return provider.generate(prompt, schema=SCHEMA, timeout=timeout)
    except LlmError:
        raise
    except Exception as exc:  # a third-party provider may raise anything
        raise LlmError(f"{provider.name}: {type(exc).__name__}: {exc}") from exc


def with_answer(turns: Sequence[mining.Turn], rules: mining.Window, answer: Answer) -> None:
    """Put the model's topic and entities in place of the rules' (in ``rules``)."""
    assert answer.topic is not None
    rules.topic = answer.topic
    rules.tags = mining.tag_turns(turns, rules.turns, answer.entities)
    rules.entity_types.update({name: mining.ENTITY_TYPE[k] for k, name in answer.entities})


def read_windows(core: Core, turns: Sequence[mining.Turn], todo: Collection[int]) -> Reading:
    """Every window of ``turns``, read by the rules, and by the model (when one is
    configured) for the windows holding a turn in ``todo``."""
    spans = [mining.read_window(turns, span) for span in mining.windows(len(turns))]
    provider = provider_for(core)
    if provider is None:
        return Reading(spans)
    timeout = core.config.llm.timeout_s
    used: list[int] = []
    warnings: list[str] = []
    for n, window in enumerate(spans):
        if not any(i in todo for i in window.turns):
            continue  # nothing of it is filed now: no call
        try:
            raw = _ask(provider, build_prompt(turns, window.turns), timeout)
        except LlmError as exc:
            warnings.append(
                f"window {n}: {exc}; the rules read it and the {len(spans) - n - 1} "
                "window(s) after it"
            )
            break
        answer = parse_answer(raw, [turns[i].content for i in window.turns])
        if answer.topic is None:
            warnings.extend(f"window {n}: {w}; the rules read it" for w in answer.warnings)
            continue
        warnings.extend(f"window {n}: {w}" for w in answer.warnings)
        with_answer(turns, window, answer)
        used.append(n)
    return Reading(spans, tuple(used), tuple(warnings[:MAX_WARNINGS]))
