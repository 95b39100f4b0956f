"""Turning a model's answer into JSON, the same way for every caller (seed 004).

seed 004: "The model's output is post-processed before validation. <think> blocks
emitted by chain-of-thought models like qwen3 are stripped first. Then Markdown code
fences are removed if present. The resulting string is parsed as JSON." Small local
models also wrap their JSON in a sentence ("Here is the result: {...}"), so
:func:`parse_json` falls back to the largest JSON object or array inside the text.

Whether the JSON has the right shape and types is the caller's business.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engram.errors import LlmError
from engram.llm.http import excerpt

#: A closed reasoning block (qwen3 writes ``<think>``; some models ``<thinking>``).
_THINK_BLOCK = re.compile(r"<(think|thinking)>.*?</\1>", re.S | re.I)
_THINK_CLOSE = re.compile(r"</think(?:ing)?>", re.I)
_THINK_OPEN = re.compile(r"\A\s*<think(?:ing)?>", re.I)
#: Where the answer resumes after an unclosed reasoning block: a fence or a line that
#: opens JSON.
_ANSWER_START = re.compile(r"^[ \t]*(?:```|[{\[])", re.M)
#: A fenced block whose fences sit on their own lines; an unclosed one runs to the end
#: (the answer was cut off). A fence inside a JSON string cannot start a line, since JSON
#: strings hold no raw newline.
_FENCED = re.compile(r"^[ \t]*```[^\n`]*\n(.*?)(?:^[ \t]*```|\Z)", re.S | re.M)
#: A fence on one line: ```json {"a": 1}```.
_INLINE_FENCE = re.compile(r"\A```[A-Za-z0-9_+-]*\s*(.*?)\s*```\Z", re.S)
#: Start positions tried when looking for JSON inside prose; bounds the work on a long,
#: bracket-heavy answer.
_MAX_STARTS = 64


def strip_think(text: str) -> str:
    """``text`` without reasoning blocks: closed ``<think>...</think>`` blocks, a
    reasoning prefix whose opening tag the chat template swallowed (``...</think>``),
    and an unclosed leading ``<think>`` (up to the first line that opens JSON or a
    fence; if none follows, the whole answer was reasoning and nothing is left)."""
    out = _THINK_BLOCK.sub("", text)
    closes = list(_THINK_CLOSE.finditer(out))
    if closes:
        out = out[closes[-1].end() :]
    opened = _THINK_OPEN.match(out)
    if opened:
        rest = out[opened.end() :]
        start = _ANSWER_START.search(rest)
        out = rest[start.start() :] if start else ""
    return out.strip()


def strip_fences(text: str) -> str:
    """The content of the first Markdown code fence in ``text``, or ``text`` itself."""
    stripped = text.strip()
    inline = _INLINE_FENCE.match(stripped)
    if inline:
        return inline.group(1).strip()
    fenced = _FENCED.search(stripped)
    return fenced.group(1).strip() if fenced else stripped


def clean_response(text: str) -> str:
    """A model's answer with reasoning blocks and code fences removed (seed 004's
    order: ``<think>`` first, then fences)."""
    return strip_fences(strip_think(text))


def _cut_off(exc: json.JSONDecodeError) -> bool:
    """Whether decoding failed because the text ended inside the value."""
    return exc.pos >= len(exc.doc.rstrip()) or exc.msg.startswith("Unterminated string")


def _embedded(text: str) -> tuple[bool, Any, json.JSONDecodeError | None]:
    """The largest JSON object or array that decodes inside ``text``, if any.

    A block that runs into the end of the text is truncated JSON, not prose: the search
    stops there, with that error, rather than return a fragment of the cut-off value.
    """
    decoder = json.JSONDecoder()
    best: Any = None
    best_len = 0
    covered = 0
    for tried, match in enumerate(re.finditer(r"[\[{]", text)):
        if tried >= _MAX_STARTS:
            break
        if match.start() < covered:
            continue  # inside a block already decoded: only an inner part of it
        try:
            value, end = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError as exc:
            if _cut_off(exc):
                # After a whole block, a cut-off one is trailing prose; before any,
                # the answer itself was cut off.
                return best_len > 0, best, None if best_len else exc
            continue
        covered = end
        if end - match.start() > best_len:
            best, best_len = value, end - match.start()
    return best_len > 0, best, None


def _why(exc: json.JSONDecodeError) -> str:
    if _cut_off(exc):
        return "cut off: truncated JSON"
    return f"{exc.msg} at character {exc.pos}"


def parse_json(text: str) -> Any:
    """Parse a model's answer as JSON after :func:`clean_response`.

    Accepts JSON wrapped in prose by taking the largest object or array inside it.
    Raises :class:`~engram.errors.LlmError` with the reason and a short excerpt when
    there is no JSON to be had (empty, truncated, or plain prose).
    """
    cleaned = clean_response(text)
    if not cleaned:
        where = " once its <think> block is removed" if text.strip() else ""
        raise LlmError(f"the model's answer holds no JSON: it is empty{where}")
    try:
        return json.loads(cleaned)
    except json.JSONDecodeError as exc:
        first = exc
    found, value, truncated = _embedded(cleaned)
    if found:
        return value
    reason = _why(truncated or first)
    raise LlmError(f"the model's answer is not JSON ({reason}): {excerpt(cleaned)!r}")
