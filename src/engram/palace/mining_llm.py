"""Mining's LLM path: the model names each window's topic and the entities (FEATURES G8).

seed 003: "Mining extracts entities and topics via a small LLM call", and for "massive
conversations (>50 turns)" it "batches the entity-extraction call across windows of
8-10 turns to keep the LLM input bounded". So a conversation of up to
:data:`SINGLE_CALL_TURNS` turns is **one** call, and only a longer one is batched, one
call per window. Every window is read by the rules first
(:func:`engram.palace.mining.read_window`): relations, speakers and dates always come
from them. With a model configured (``[llm]``, and ``[pipeline] extractor`` not
``offline``), the windows that hold a turn being filed are sent, each as a numbered
part of the prompt, asking for ``{"topics": [str, one per part], "entities": [{"name",
"type"}]}``. A checked answer replaces the rules' topic of each part (its closet) and
the entities (the drawers' AAAK tags, and the types the graph gets with
``graph=True``).

What can go wrong, and what happens (never an exception: mining still files):

- an answer that is not JSON (after ``<think>`` blocks and code fences are removed),
  not an object, or without a usable topic or entity list: the rules read the call's
  windows, and a warning says why (a single ``"topic"`` is taken for every part);
- a part whose topic is missing or not a name: the rules name that part, with a warning;
- an entity with a bad name or type, one the call's turns never mention, or one past
  :data:`MAX_ENTITIES`: dropped, with a warning; the rest are kept;
- a provider failure (timeout, HTTP error): the rules read that call's windows **and
  every later window of the mining call**, with one warning. There is no retry: mining
  is called synchronously, and a dead server would otherwise cost a timeout per window
  (a 100-window export at 60 s each). Mining again later does not re-read filed turns
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
#: seed 003: only "massive conversations (>50 turns)" are batched across windows; a
#: conversation of at most this many turns is read in one call.
SINGLE_CALL_TURNS = 50
#: At most this many entities are taken from one answer.
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
You index a conversation for a memory palace. Its turns are given in {count} part(s).
For each part, in order, give its topic: 1 to 4 words saying what its turns are about
(not who speaks).
List the entities the turns name, each with a type: person, location, event or item
(item: a thing, pet, project, tool or anything else owned, used or liked).
Answer with JSON only, like:
{example}

{parts}
"""

SCHEMA: JsonSchema = {
    "type": "object",
    "properties": {
        "topics": {"type": "array", "items": {"type": "string"}},
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
    "required": ["topics", "entities"],
}

_EXAMPLE = {"topics": ["battery wiring"], "entities": [{"name": "Derek", "type": "person"}]}


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
    """A checked answer: per part its topic (None where the rules must name it), the
    ``(kind, name)`` entities, and what was wrong with it."""

    topics: list[str | None]
    entities: list[tuple[str, str]]
    warnings: list[str]

    @property
    def used(self) -> bool:
        """Whether any part takes the model's topic."""
        return any(t is not None for t in self.topics)


def provider_for(core: Core) -> LlmProvider | None:
    """The model mining asks, or None: ``[pipeline] extractor = "offline"`` keeps every
    model call out of the write side, mining included."""
    return None if core.config.pipeline.extractor == "offline" else core.llm()


def calls(turns: int, windows: Sequence[int]) -> list[list[int]]:
    """Which of ``windows`` (indexes) each model call reads: all of them in one call
    for a conversation of at most :data:`SINGLE_CALL_TURNS` turns, else one call per
    window (seed 003)."""
    if not windows:
        return []
    if turns <= SINGLE_CALL_TURNS:
        return [list(windows)]
    return [[n] for n in windows]


def build_prompt(turns: Sequence[mining.Turn], spans: Sequence[range]) -> str:
    """The parts' turns, one a line under a numbered header, each turn cut to
    :data:`MAX_TURN_CHARS`."""
    parts = []
    for number, span in enumerate(spans, 1):
        lines = [f"Part {number}:"]
        for i in span:
            turn = turns[i]
            text = " ".join(turn.content.split())[:MAX_TURN_CHARS]
            lines.append(f"{turn.role}: {text}" if turn.role else text)
        parts.append("\n".join(lines))
    return PROMPT.format(count=len(spans), example=json.dumps(_EXAMPLE), parts="\n\n".join(parts))


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
        return None, f"entity {name!r} is not mentioned in the turns"
    return (ENTITY_KINDS[kind.strip().lower()], name), None


def _topic(value: object) -> tuple[str | None, str | None]:
    """A checked topic, lower-cased, or None and why not."""
    topic = " ".join(value.split()) if isinstance(value, str) else value
    if not isinstance(topic, str) or not any(c.isalnum() for c in topic):
        return None, f"topic {topic!r} is not a name"
    if len(topic) > MAX_TOPIC_CHARS:
        return None, f"topic is {len(topic)} characters, over {MAX_TOPIC_CHARS}"
    return topic.lower(), None


def _topics(data: dict[str, Any], parts: int) -> tuple[list[str | None], list[str]]:
    """Per part its topic from ``topics`` (or one ``topic`` for every part)."""
    given = data.get("topics")
    if given is None and "topic" in data:
        given = [data["topic"]] * parts
    if not isinstance(given, list):
        return [None] * parts, ["the answer holds no list of topics"]
    notes: list[str] = []
    if len(given) != parts:
        notes.append(f"{len(given)} topics for {parts} part(s)")
    topics: list[str | None] = []
    for n in range(parts):
        topic, why = _topic(given[n]) if n < len(given) else (None, "no topic")
        if why is not None:
            notes.append(f"part {n + 1}: {why}; the rules name it")
        topics.append(topic)
    return topics, notes


def parse_answer(raw: str, parts: Sequence[Sequence[str]]) -> Answer:
    """Check an answer against the texts of each part's turns; never raises."""
    nothing: list[str | None] = [None] * len(parts)
    try:
        data: Any = parse_json(raw)
    except LlmError as exc:
        return Answer(nothing, [], [str(exc)])
    if not isinstance(data, dict):
        return Answer(nothing, [], ["the answer is not a JSON object"])
    items = data.get("entities")
    if not isinstance(items, list):
        return Answer(nothing, [], ["the answer holds no list of entities"])
    topics, notes = _topics(data, len(parts))
    if len(items) > MAX_ENTITIES:
        notes.append(f"{len(items)} entities, over {MAX_ENTITIES}; the rest were dropped")
    text = "\n".join(t for part in parts for t in part)
    found: dict[str, tuple[str, str]] = {}
    for item in items[:MAX_ENTITIES]:
        entity, why = _entity(item, text)
        if why is not None:
            notes.append(f"{why}; dropped")
        elif entity is not None:
            found.setdefault(entity[1].lower(), entity)
    return Answer(topics, list(found.values()), notes)


def _ask(provider: LlmProvider, prompt: str, timeout: float | None) -> str:
    try:
        return provider.generate(prompt, schema=SCHEMA, timeout=timeout)
    except LlmError:
        raise
    except Exception as exc:  # a third-party provider may raise anything
        raise LlmError(f"{provider.name}: {type(exc).__name__}: {exc}") from exc


def with_answer(
    turns: Sequence[mining.Turn], rules: mining.Window, topic: str, entities: list[tuple[str, str]]
) -> None:
    """Put the model's topic and entities in place of the rules' (in ``rules``)."""
    rules.topic = topic
    rules.tags = mining.tag_turns(turns, rules.turns, entities)
    rules.entity_types.update({name: mining.ENTITY_TYPE[k] for k, name in entities})


def _where(group: Sequence[int]) -> str:
    return f"window {group[0]}" if len(group) == 1 else f"windows {group[0]}-{group[-1]}"


def read_windows(core: Core, turns: Sequence[mining.Turn], todo: Collection[int]) -> Reading:
    """Every window of ``turns``; those holding a turn in ``todo`` read by the rules,
    and by the model (when one is configured): one call for a conversation of up to
    :data:`SINGLE_CALL_TURNS` turns, one per window above. A window with nothing to
    file keeps only its span: reading it would cost the rules' time on every turn of a
    long conversation (dogfood round seven) for tags and a topic nothing files."""
    spans = [
        mining.read_window(turns, span)
        if any(i in todo for i in span)
        else mining.Window(span, None)
        for span in mining.windows(len(turns))
    ]
    provider = provider_for(core)
    if provider is None:
        return Reading(spans)
    timeout = core.config.llm.timeout_s
    used: list[int] = []
    warnings: list[str] = []
    sent = [n for n, w in enumerate(spans) if any(i in todo for i in w.turns)]
    for group in calls(len(turns), sent):
        where = _where(group)
        try:
            raw = _ask(provider, build_prompt(turns, [spans[n].turns for n in group]), timeout)
        except LlmError as exc:
            after = sum(1 for n in sent if n > group[-1])
            warnings.append(f"{where}: {exc}; the rules read it and the {after} window(s) after it")
            break
        answer = parse_answer(raw, [[turns[i].content for i in spans[n].turns] for n in group])
        if not answer.used:
            warnings.extend(f"{where}: {w}; the rules read it" for w in answer.warnings)
            continue
        warnings.extend(f"{where}: {w}" for w in answer.warnings)
        for n, topic in zip(group, answer.topics, strict=True):
            if topic is not None:
                with_answer(turns, spans[n], topic, answer.entities)
                used.append(n)
    return Reading(spans, tuple(used), tuple(warnings[:MAX_WARNINGS]))
