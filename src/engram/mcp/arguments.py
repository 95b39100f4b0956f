"""A ``tools/call``'s arguments in engram's words: what was wrong with them, and what
the tool takes. The MCP server's refusals of a call's arguments, in the words the HTTP
API's 422s use (``engram.validation_words``).

Two readings the SDK does not do as engram needs:

- ``arguments`` that is not a JSON object (a list, a string, a number): MCP's
  ``CallToolRequest`` takes an object of named arguments, and the SDK answers anything
  else with a bare -32602 "Invalid request parameters". MCP (2025-11-25, tools, error
  handling: "Malformed requests (requests that fail to satisfy CallToolRequest
  schema)" are protocol errors; input validation errors are tool errors) keeps this a
  -32602, which is what clients already get; :class:`ArgumentsObject` gives it a
  message saying what was wrong and which names the tool takes.
- a ``name`` that is not a string (a number, null, a list), or none at all: the same
  bare -32602 from the SDK, for the same reason a protocol error; :func:`not_a_name`
  words it as the arguments' errors are worded, and points to tools/list.
- an argument given ``true`` or ``false`` where a number is wanted: the tools' models
  are lax and read ``true`` as 1; and a number sent as a string, read as the number
  only when the string spells it as JSON does (clients that stringify numbers)
  (:func:`strict_errors`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.types import INVALID_PARAMS
from pydantic import ConfigDict, TypeAdapter, ValidationError

from engram.validation_words import Subject, describe, model_fields

#: How an argument given a boolean is read: as HTTP reads numbers (``strict=True``).
_STRICT = ConfigDict(strict=True)

#: Where each refusal points for the rest.
_SCHEMA = "the tool's input schema in tools/list gives each argument's type and range"


#: A number as JSON writes it (RFC 8259, section 6): what a client that sends numbers as
#: strings puts between the quotes.
_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_JSON_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)")

#: The JSON spelling of each scalar kind an argument's schema may take.
_SPELLED: dict[str, Callable[[str], bool]] = {
    "integer": lambda text: _JSON_INTEGER.fullmatch(text) is not None,
    "number": lambda text: _JSON_NUMBER.fullmatch(text) is not None,
    "boolean": lambda text: text in {"true", "false"},
}


def strict_errors(arguments: Mapping[str, Any], model: Any) -> list[dict[str, Any]]:
    """pydantic's strict errors (as the HTTP API reads its numbers) for each argument
    :func:`_read_strictly` picks out; the tools' models are lax, and read the rest."""
    fields = getattr(model, "model_fields", {})
    errors: list[dict[str, Any]] = []
    for key, value in arguments.items():
        info = fields.get(key) or next((f for f in fields.values() if f.alias == key), None)
        if info is None or not _read_strictly(value, info.annotation):
            continue
        try:
            TypeAdapter(info.annotation, config=_STRICT).validate_python(value)
        except ValidationError as refused:
            errors.extend({**e, "loc": (key, *e["loc"])} for e in refused.errors())
    return errors


def _read_strictly(value: object, annotation: Any) -> bool:
    """Whether an argument's ``value`` is read strictly against its ``annotation``:

    - ``true`` or ``false``, always: the lax model takes ``true`` for 1 (``limit: true``
      was one hit, ``importance: true`` 1.0) where HTTP answers "limit must be an
      integer, got true";
    - a string where the argument takes a number or a boolean but no string, unless
      the string spells one as JSON does (an integer's digits for an integer,
      ``true``/``false`` for a boolean). Clients that send numbers as strings send
      ``"4"``, which the lax model reads as 4 (docs/mcp.md, "Numbers sent as strings");
      it also read ``"4_0"`` as 40, ``" +4 "`` and ``"4.0"`` as 4, spellings no JSON
      writer makes of an integer, which are refused as HTTP refuses any string there.
    """
    if isinstance(value, bool):
        return True
    if not isinstance(value, str):
        return False
    kinds = _kinds(annotation)
    scalar = kinds & _SPELLED.keys()
    if "string" in kinds or not scalar:
        return False
    return not any(_SPELLED[kind](value) for kind in scalar)


def _kinds(annotation: Any) -> set[str]:
    """The JSON types an argument's schema takes (each arm of a union)."""
    schema = TypeAdapter(annotation).json_schema()
    arms = schema.get("anyOf") or schema.get("oneOf") or [schema]
    return {str(arm["type"]) for arm in arms if "type" in arm}


def _subject(tool: str, model: Any) -> Subject:
    return Subject(
        whole=f"the arguments of {tool}",
        member=f"an argument of {tool}",
        known=lambda loc: model_fields(model, loc),
    )


def argument_errors(tool: str, errors: Sequence[Mapping[str, Any]], model: Any = None) -> str:
    """One line naming each bad argument of a ``tool`` call (pydantic's ``errors``) and
    what it must be; ``model`` (the tool's argument model) lets an unknown argument's
    refusal list the tool's arguments."""
    return f"invalid arguments for {tool}: {describe(errors, _subject(tool, model))} ({_SCHEMA})"


def not_an_object(tool: str, given: object, model: Any = None) -> str:
    """What was wrong with ``arguments`` that is not a JSON object, and the names
    ``tool`` takes (``model``: its argument model; None for a tool there is not)."""
    error = {"type": "dict_type", "loc": (), "input": given, "msg": ""}
    names = model_fields(model)
    if names is None:  # no such tool: the SDK says so once the arguments are an object
        takes = "tools/list names the tools and each one's arguments"
    else:
        takes = f"{tool} takes {', '.join(names) or 'none'}; {_SCHEMA}"
    return (
        f"invalid arguments for {tool}: {describe([error], _subject(tool, model))}; name each "
        f'argument, as in {{"name": value}} ({takes})'
    )


def not_a_name(given: Mapping[str, Any]) -> str | None:
    """What was wrong with a ``tools/call``'s ``name`` (the call's ``params``), or None
    when it is a string."""
    if isinstance(given.get("name"), str):
        return None
    if "name" in given:
        error = {"type": "string_type", "loc": ("name",), "input": given["name"], "msg": ""}
    else:
        error = {"type": "missing", "loc": ("name",), "input": given, "msg": ""}
    subject = Subject(whole="the tools/call request", member="a parameter of tools/call")
    return (
        f"invalid tools/call: {describe([error], subject)}; give the tool's name as a string "
        "(tools/list names the tools and each one's arguments)"
    )


def unknown_tool(name: str, tools: Sequence[str]) -> str:
    """A ``tools/call`` of a tool this server does not have: the nearest name, and every
    name (the SDK said "Unknown tool: X" alone; a model that guessed a name then has to
    ask tools/list again, new-user round twenty-five)."""
    near = difflib.get_close_matches(name, tools, n=1)
    guess = f"; did you mean {near[0]!r}?" if near else ""
    return (
        f"unknown tool {name!r}{guess} This server's {len(tools)} tools (tools/list gives "
        f"each one's arguments): {', '.join(sorted(tools))}"
    )


class ArgumentsObject:
    """Server middleware: a ``tools/call`` whose ``name`` is not a string, or whose
    ``arguments`` is there but is not a JSON object, is refused -32602 with
    :func:`not_a_name`'s or :func:`not_an_object`'s message, before the SDK validates
    the request (which would answer "Invalid request parameters" alone). ``model_of``
    gives a tool's argument model by name (None for an unknown tool)."""

    def __init__(self, model_of: Callable[[str], Any]) -> None:
        self._model_of = model_of

    async def __call__(
        self, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        params = ctx.params
        if ctx.method == "tools/call" and isinstance(params, Mapping):
            unnamed = not_a_name(params)
            if unnamed is not None:
                raise MCPError(code=INVALID_PARAMS, message=unnamed)
            given = params.get("arguments")
            if given is not None and not isinstance(given, Mapping):
                name = params.get("name")
                tool = name if isinstance(name, str) else "the tool"
                model = self._model_of(name) if isinstance(name, str) else None
                raise MCPError(code=INVALID_PARAMS, message=not_an_object(tool, given, model))
        return await call_next(ctx)
