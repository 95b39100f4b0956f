"""The memory tools an agent calls, as framework-neutral definitions (FEATURES S5).

seed 002's tool-based strategy "exposes ``search_memory`` and ``recall_memory`` (by ID)
tools"; the self-editing strategy adds the core/archival/recall block tools
(``core_memory_append``, ``core_memory_replace``, ``archival_memory_insert``,
``archival_memory_search``, ``conversation_search``). Each is a ``ToolSpec``: a name, a
description and a JSON schema of its arguments, given to any agent framework in OpenAI's
function-calling shape (``spec.openai()``); ``check_arguments`` validates a call's
arguments against the schema before anything runs. The MCP server's tools of the same
names agree with these (tests/test_inject.py compares them); the MCP core-block tools
take their descriptions from here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model

from engram.errors import InvalidInputError, shown
from engram.records import MemoryType
from engram.validate import choice, type_name
from engram.validation_words import Subject, describe, model_fields

#: seed 002: ``memory.retrieval.strategy: context | tool_based | self_editing``.
STRATEGIES = ("context", "tool_based", "self_editing")

#: How much of a memory's content search results show (the MCP server's preview too).
PREVIEW_CHARS = 300


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: its name, what it is for, and the JSON schema of its arguments."""

    name: str
    description: str
    properties: dict[str, dict[str, Any]]
    required: tuple[str, ...] = ()
    read_only: bool = True
    """True when calling it changes nothing."""
    defaults: dict[str, Any] = field(default_factory=dict)

    @property
    def parameters(self) -> dict[str, Any]:
        """The arguments' JSON schema (an object that allows no other keys)."""
        return {
            "type": "object",
            "properties": self.properties,
            "required": list(self.required),
            "additionalProperties": False,
        }

    def openai(self) -> dict[str, Any]:
        """The definition in OpenAI's function-calling shape, which most agent
        frameworks (LangChain, LlamaIndex, the OpenAI Agents SDK ...) accept."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


_QUERY = {"type": "string", "minLength": 1, "maxLength": 10_000, "description": "What to look for."}
_LIMIT = {"type": "integer", "minimum": 1, "maximum": 50, "description": "How many hits."}
_LABEL = {
    "type": "string",
    "minLength": 1,
    "maxLength": 64,
    "description": "The core block's label, e.g. persona or human.",
}

SEARCH_MEMORY = ToolSpec(
    name="search_memory",
    description=(
        "Call mid-task to look something up in memory: ranked hits with ids, scores and the "
        "start of their content (hybrid keyword + semantic search, weighted by quality and "
        "recency). Follow up with recall_memory for the full text of a hit."
    ),
    properties={
        "query": _QUERY,
        "limit": _LIMIT,
        "type": {
            "type": "string",
            "enum": [t.value for t in MemoryType],
            "description": "Only this type.",
        },
        "tags": {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": 200},
            "maxItems": 32,
            "description": "Only memories with all these tags.",
        },
    },
    required=("query",),
    defaults={"limit": 10},
)

RECALL_MEMORY = ToolSpec(
    name="recall_memory",
    description=(
        "Call to read whole memories by id, e.g. the search_memory hits whose shortened "
        "content you need in full. Unknown ids are listed in not_found; it is an error only "
        "when none of the ids is found."
    ),
    properties={
        "ids": {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": 200},
            "minItems": 1,
            "maxItems": 50,
            "description": "Ids from search_memory hits.",
        }
    },
    required=("ids",),
)

CORE_MEMORY_APPEND = ToolSpec(
    name="core_memory_append",
    description=(
        "Call to add a line to one of your core memory blocks (always in your context), "
        "e.g. a lasting fact about the user in human. Fails past the block's character limit: "
        "then replace or shorten text first, or use archival_memory_insert."
    ),
    properties={
        "label": _LABEL,
        "content": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100_000,
            "description": "The text to add.",
        },
    },
    required=("label", "content"),
    read_only=False,
)

CORE_MEMORY_REPLACE = ToolSpec(
    name="core_memory_replace",
    description=(
        "Call to replace text in one of your core memory blocks: old_content exactly as it appears "
        "there, new_content in its place (empty to delete it)."
    ),
    properties={
        "label": _LABEL,
        "old_content": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100_000,
            "description": "Text in the block, exactly.",
        },
        "new_content": {
            "type": "string",
            "maxLength": 100_000,
            "description": "What replaces it.",
        },
    },
    required=("label", "old_content", "new_content"),
    read_only=False,
)

ARCHIVAL_MEMORY_INSERT = ToolSpec(
    name="archival_memory_insert",
    description=(
        "Call to store a memory in archival memory (long-term, not in your context; "
        "archival_memory_search finds it later). One self-contained statement."
    ),
    properties={
        "content": {
            "type": "string",
            "minLength": 1,
            "maxLength": 100_000,
            "description": "The statement to store.",
        },
        "tags": {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": 200},
            "maxItems": 32,
            "description": "Tags to file it under.",
        },
    },
    required=("content",),
    read_only=False,
)

ARCHIVAL_MEMORY_SEARCH = ToolSpec(
    name="archival_memory_search",
    description=(
        "Call to search archival memory (everything stored, not only what is in your context): "
        "ranked hits with ids and the start of their content."
    ),
    properties={"query": _QUERY, "limit": _LIMIT},
    required=("query",),
    defaults={"limit": 10},
)

CONVERSATION_SEARCH = ToolSpec(
    name="conversation_search",
    description=(
        "Call to search recall memory: the stored messages of past conversations (memories of type "
        "message), ranked, with ids and the start of their content."
    ),
    properties={"query": _QUERY, "limit": _LIMIT},
    required=("query",),
    defaults={"limit": 10},
)

#: Every tool by name.
TOOLS: dict[str, ToolSpec] = {
    t.name: t
    for t in (
        SEARCH_MEMORY,
        RECALL_MEMORY,
        CORE_MEMORY_APPEND,
        CORE_MEMORY_REPLACE,
        ARCHIVAL_MEMORY_INSERT,
        ARCHIVAL_MEMORY_SEARCH,
        CONVERSATION_SEARCH,
    )
}

#: The tools each strategy hands the agent (the context strategy hands none).
BY_STRATEGY: dict[str, tuple[str, ...]] = {
    "context": (),
    "tool_based": ("search_memory", "recall_memory"),
    "self_editing": (
        "core_memory_append",
        "core_memory_replace",
        "archival_memory_insert",
        "archival_memory_search",
        "conversation_search",
    ),
}


def strategy_value(strategy: object) -> str:
    """One of ``STRATEGIES``, or a clear error."""
    return choice("strategy", strategy, STRATEGIES)


def tool_spec(name: object) -> ToolSpec:
    """The tool named ``name``, or an error listing the tools there are."""
    spec = TOOLS.get(name) if isinstance(name, str) else None
    if spec is None:
        raise InvalidInputError(f"no memory tool {shown(name)}; the tools are {', '.join(TOOLS)}")
    return spec


def check_arguments(spec: ToolSpec, arguments: Mapping[str, Any] | str | None) -> dict[str, Any]:
    """The call's arguments checked against the tool's schema, defaults filled in.
    ``arguments`` may be the JSON text a model produced. What was wrong is said in the
    words of the HTTP API's 422s and the MCP tools' errors (``engram.validation_words``):
    a number is strict (``true`` is not 1), as it is there."""
    if arguments is None:
        arguments = {}
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments or "{}")
        except json.JSONDecodeError as exc:
            raise InvalidInputError(
                f"{spec.name}: arguments are not valid JSON ({exc.msg} at {exc.pos})"
            ) from None
    if not isinstance(arguments, Mapping):
        raise InvalidInputError(
            f"{spec.name}: arguments must be a JSON object, got {type_name(arguments)}"
        )
    model = arguments_model(spec)
    try:
        model.model_validate(dict(arguments))
    except ValidationError as error:
        subject = Subject(
            whole=f"the arguments of {spec.name}",
            member=f"an argument of {spec.name}",
            known=lambda loc: model_fields(model, loc),
        )
        raise InvalidInputError(
            f"invalid arguments for {spec.name}: {describe(error.errors(), subject)}"
        ) from None
    out = dict(spec.defaults)
    out.update((name, value) for name, value in arguments.items() if value is not None)
    return out


#: Each tool's argument model, built from its schema once.
_MODELS: dict[str, type[BaseModel]] = {}


def arguments_model(spec: ToolSpec) -> type[BaseModel]:
    """A pydantic model of ``spec``'s arguments: its JSON schema as field types and
    bounds, strict, no other keys; an argument not required may be null."""
    model = _MODELS.get(spec.name)
    if model is None:
        fields: dict[str, Any] = {}
        for name, schema in spec.properties.items():
            kind = _field_type(schema)
            fields[name] = (kind, ...) if name in spec.required else (kind | None, None)
        model = create_model(
            f"{spec.name}_arguments", __config__=ConfigDict(extra="forbid"), **fields
        )
        _MODELS[spec.name] = model
    return model


def _field_type(schema: Mapping[str, Any]) -> Any:
    """The annotated type a property's JSON schema describes (string, integer, array)."""
    kind = schema["type"]
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]
    if kind == "string":
        length = Field(
            strict=True, min_length=schema.get("minLength"), max_length=schema.get("maxLength")
        )
        return Annotated[str, length]
    if kind == "integer":
        bounds = Field(strict=True, ge=schema.get("minimum"), le=schema.get("maximum"))
        return Annotated[int, bounds]
    items = _field_type(schema["items"])
    count = Field(strict=True, min_length=schema.get("minItems"), max_length=schema.get("maxItems"))
    return Annotated[list[items], count]  # type: ignore[valid-type]
