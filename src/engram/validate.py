"""Turning caller input into a ``MemoryRecord``, or a clear error saying what to fix.

Everything here runs before the store is touched, so bad input never changes what is
already stored.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from engram.errors import (
    ContentTooLargeError,
    EmptyContentError,
    InvalidInputError,
    shown,  # noqa: F401 (re-exported: messages echo input)
)
from engram.records import MemoryCategory, MemoryRecord, MemoryType, new_id, utcnow
from engram.refusals import NAMESPACE_SEPARATORS, not_text, open_ended, pattern_rule
from engram.text import NormalizedContent, normalize_content

_NAMESPACE = re.compile(r"^[A-Za-z0-9_.:@/+-]{1,200}$")

Content = str | Sequence[Mapping[str, Any]]

#: How deep dicts and lists may nest in metadata (the metadata dict itself is level 1).
#: Real metadata rarely passes five levels. Metadata is nested again wherever it goes
#: (a history row's ``before``/``after``, an export line, a hit inside an HTTP
#: response), and the JSON encoders on those paths (Python's, pydantic's) recurse per
#: level, so unbounded nesting stored fine and then broke every read of its namespace.
MAX_METADATA_DEPTH = 32
#: The most metadata one memory may carry, in bytes of its JSON (UTF-8). Metadata is
#: copied into every history row (twice), every export line, every response and every
#: recall hit, and filters parse it per row. 64 KiB is a sixteenth of one HTTP body
#: (``api.max_body_bytes``, 1 MiB) and keeps large data where it belongs: in content
#: (up to ``max_content_chars``) or outside engram, referenced.
MAX_METADATA_BYTES = 64 * 1024
#: The most tags one filter may require: enough for any real "all of these", and a
#: bound on the work one request can ask of the store.
MAX_FILTER_TAGS = 100
#: The deepest page ``get_all`` serves (the HTTP API's bound too). OFFSET makes the
#: database walk and drop every row before the page, so deeper pages are reached with
#: filters instead; the bound also keeps the value inside every backend's integer.
MAX_OFFSET = 10_000_000


def namespace_for(
    namespace: str | None,
    user_id: str | None,
    agent_id: str | None,
    run_id: str | None,
    default: str,
    *,
    held: Callable[[str], bool] | None = None,
) -> str:
    """The namespace rule (FEATURES C2).

    An explicit ``namespace`` wins. Otherwise the widest owner present names it:
    ``user:<user_id>``, else ``agent:<agent_id>``, else ``run:<run_id>``, else the
    configured default. Narrower ids are stored on the record and filter within it.
    """
    for label, value in (("user_id", user_id), ("agent_id", agent_id), ("run_id", run_id)):
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise InvalidInputError(f"{label} must be a non-empty string, got {shown(value)}")
        if value is not None:
            # A narrower id is compared in SQL (get_all filters on it), not only named.
            no_nul(label, value)
    if namespace is not None:
        chosen = namespace
    elif user_id is not None:
        chosen = f"user:{user_id}"
    elif agent_id is not None:
        chosen = f"agent:{agent_id}"
    elif run_id is not None:
        chosen = f"run:{run_id}"
    else:
        chosen = default
    if not isinstance(chosen, str) or not _NAMESPACE.match(chosen):
        raise InvalidInputError(
            f"invalid namespace {shown(chosen)}: use {pattern_rule(_NAMESPACE.pattern)}"
        )
    # A store may hold an open-ended name from before the rule (``held`` asks it, last,
    # so only for such a name): it keeps working, so its memories can be read, exported
    # and erased; no new one is made.
    open_end = chosen[0] in NAMESPACE_SEPARATORS or chosen[-1] in NAMESPACE_SEPARATORS
    if open_end and (held is None or not held(chosen)):
        raise InvalidInputError(open_ended(chosen, namespace, user_id, agent_id, run_id))
    return chosen


class Transcript(str):
    """A message list as engram rendered it (:func:`content_text`), with ``turns``: the
    offset of each message's ``role: `` label in the text. Only engram's own framing
    makes one, so the injection detector reads a label at one of these offsets as
    engram's, and a line inside a message's content (or a plain string's body) that
    starts with "user: " as that text's own (docs/safety.md, "Round twenty")."""

    turns: tuple[int, ...]

    def __new__(cls, text: str, turns: Sequence[int]) -> Transcript:
        out = super().__new__(cls, text)
        out.turns = tuple(turns)
        return out


def content_text(content: object) -> str:
    """A string, or a list of ``{role, content}`` messages rendered one per line (a
    :class:`Transcript`, which knows where each message starts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence) and not isinstance(content, bytes | bytearray):
        lines: list[str] = []
        starts: list[int] = []
        at = 0
        for i, message in enumerate(content):
            if not isinstance(message, Mapping):
                raise InvalidInputError(
                    f"message {i} must be a dict with 'role' and 'content', got "
                    f"{type(message).__name__}"
                )
            role, text = message.get("role"), message.get("content")
            if not isinstance(role, str) or not isinstance(text, str):
                raise InvalidInputError(
                    f"message {i} needs string 'role' and 'content' fields, got "
                    f"{shown(dict(message))}"
                )
            if text.strip():  # a blank message says nothing; all blank: content is empty
                lines.append(f"{role}: {text}")
                starts.append(at)
                at += len(lines[-1]) + 1
        return Transcript("\n".join(lines), starts)
    raise InvalidInputError(
        "content must be a string or a list of {role, content} messages, "
        f"got {type(content).__name__}"
    )


def utf8_text(data: bytes, source: str, offset: int = 0) -> str:
    """``data`` decoded as UTF-8 (a byte order mark dropped), or an ``InvalidInputError``
    naming ``source`` and the first bad byte, its position counted from ``offset`` (where
    ``data`` starts in a longer stream)."""
    try:
        return data.decode("utf-8-sig" if offset == 0 else "utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInputError(
            f"{source} is not UTF-8 text (byte {data[exc.start]:#04x} at offset"
            f" {offset + exc.start}): convert it to UTF-8 first, for example with"
            " `iconv -f latin1 -t utf-8`"
        ) from None


def no_nul(name: str, text: str) -> str:
    """``text``, refused if it holds U+0000 or a lone surrogate, which no backend's text
    columns can store (PostgreSQL rejects NUL outright), so a store never depends on
    where it lives."""
    if "\x00" in text:
        raise InvalidInputError(
            f"{name} contains a NUL character (U+0000), which no store can hold; remove it "
            "and send it again"
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        # A lone surrogate (from broken UTF-16 or surrogateescape decoding) is not text
        # any store can hold.
        raise InvalidInputError(not_text(name, text[exc.start])) from None
    return text


def choice(name: str, value: object, allowed: Collection[str]) -> str:
    """``value`` if it is one of ``allowed``, else an ``InvalidInputError`` listing them
    (checked as a string first: a list or dict is not hashable, a deep one not printable
    by ``repr``)."""
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInputError(f"{name} must be one of {', '.join(allowed)}, got {shown(value)}")
    return value


def text_value(name: str, value: object) -> str:
    """A string any store can hold (no NUL, no lone surrogate)."""
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} must be a string, got {type_name(value)}")
    return no_nul(name, value)


def optional_str(name: str, value: object) -> str | None:
    """A string or None."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} must be a string, got {type(value).__name__}")
    return no_nul(name, value)


def optional_float(name: str, value: object, lo: float, hi: float) -> float | None:
    """A number in [lo, hi] or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInputError(f"{name} must be a number in [{lo}, {hi}], got {shown(value)}")
    # Compared before float(): an int too large for a float is out of range, not an
    # OverflowError.
    if not lo <= value <= hi:
        raise InvalidInputError(f"{name} must be in [{lo}, {hi}], got {shown(value)}")
    return float(value)


def string_list(name: str, value: object) -> tuple[str, ...]:
    """A list of non-empty strings (tags, facts)."""
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise InvalidInputError(f"{name} must be a list of strings, got {shown(value)}")
    out = []
    for item in value:
        if not isinstance(item, str) or not item.strip():
            raise InvalidInputError(f"{name} must hold non-empty strings, got {shown(item)}")
        out.append(no_nul(name, item.strip()))
    return tuple(dict.fromkeys(out))


def metadata_dict(value: object) -> dict[str, Any]:
    """A JSON-serialisable dict with string keys, at most ``MAX_METADATA_DEPTH`` levels
    deep and ``MAX_METADATA_BYTES`` of JSON."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"metadata must be a dict, got {type(value).__name__}")
    if not all(isinstance(k, str) for k in value):
        raise InvalidInputError("metadata keys must be strings")
    _check_shape(value)
    try:
        text = json.dumps(dict(value), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(f"metadata must be JSON-serialisable: {exc}") from None
    decoded = dict(json.loads(text))
    _check_strings(decoded)
    _check_size(len(text.encode("utf-8")))
    return decoded


def _check_shape(value: Mapping[Any, Any]) -> None:
    """Refuse metadata nested deeper than ``MAX_METADATA_DEPTH`` or surely larger than
    ``MAX_METADATA_BYTES``, before ``json.dumps`` sees it.

    Walked with an explicit stack, not recursion: metadata deep enough to exhaust
    Python's recursion limit (or a dict that contains itself) is refused like any
    other, and ``json.dumps`` only ever sees bounded nesting. The walk also sums a lower
    bound of the JSON's size, so an object that repeats references to one list (a
    million elements in a few kilobytes of Python) is refused after at most
    ``MAX_METADATA_BYTES`` steps instead of being expanded.
    """
    stack: list[tuple[object, int]] = [(value, 1)]
    size = 0
    while stack:
        item, depth = stack.pop()
        children: list[object] = []
        if isinstance(item, Mapping | list | tuple) and depth > MAX_METADATA_DEPTH:
            raise InvalidInputError(
                f"metadata is nested more than {MAX_METADATA_DEPTH} levels deep; flatten it, "
                "or store a deep structure as a JSON string in one key"
            )
        if isinstance(item, Mapping):
            children = list(item.values())
            # Braces, commas, and per key its quotes and colon (a non-string key
            # becomes a string of at least one character).
            size += 1 + len(children) + sum(len(k) + 3 if isinstance(k, str) else 4 for k in item)
        elif isinstance(item, list | tuple):
            children = list(item)
            size += 1 + max(len(children), 1)  # brackets and commas
        else:
            # A string is its characters and two quotes (UTF-8 is at least one byte per
            # character); every other scalar is at least one byte.
            size += len(item) + 2 if isinstance(item, str) else 1
        if size > MAX_METADATA_BYTES:
            _check_size(size, at_least=True)
        stack.extend((child, depth + 1) for child in children)


def _check_size(size: int, *, at_least: bool = False) -> None:
    if size > MAX_METADATA_BYTES:
        raise InvalidInputError(
            f"metadata is {'at least ' if at_least else ''}{size} bytes of JSON, over the "
            f"limit of {MAX_METADATA_BYTES} bytes ({MAX_METADATA_BYTES // 1024} KiB); keep "
            "large data in content or outside engram, and store a reference in metadata"
        )


def _check_strings(value: Any) -> None:
    """``no_nul`` on every key and string inside metadata."""
    if isinstance(value, str):
        no_nul("metadata", value)
    elif isinstance(value, dict):
        for key, item in value.items():
            no_nul("metadata", key)
            _check_strings(item)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item)


def memory_type(value: object) -> MemoryType:
    """A ``MemoryType`` from its name."""
    if value is None:
        return MemoryType.FACT
    try:
        return MemoryType(value if isinstance(value, str) else shown(value))
    except ValueError:
        raise InvalidInputError(
            f"unknown type {shown(value)}; use one of {', '.join(t.value for t in MemoryType)}"
        ) from None


def memory_category(value: object) -> MemoryCategory | None:
    """A ``MemoryCategory`` from its name, or None."""
    if value is None:
        return None
    try:
        return MemoryCategory(value if isinstance(value, str) else shown(value))
    except ValueError:
        raise InvalidInputError(
            f"unknown category {shown(value)}; use one of "
            f"{', '.join(c.value for c in MemoryCategory)}"
        ) from None


def timestamp(name: str, value: object) -> datetime | None:
    """A timezone-aware datetime from a datetime or an ISO 8601 string (naive = UTC)."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            raise InvalidInputError(
                f"{name} must be an ISO 8601 date-time such as 2024-05-08T13:56:00Z, "
                f"got {shown(value)}"
            ) from None
    if not isinstance(value, datetime):
        raise InvalidInputError(f"{name} must be a datetime, got {type(value).__name__}")
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def checked_content(text: str, max_chars: int) -> str:
    """Refuse empty or oversized content; returns ``text`` itself, the storage text."""
    _checked(text, max_chars)
    return text


def _checked(text: str, max_chars: int) -> NormalizedContent:
    """``checked_content``, with the whole normalisation of ``text``.

    Content is stored exactly as given, newlines and indentation included (issue 26: a
    code block or a list must come back as it went in; seed 004's raw-first write and
    seed 000's observations keep the caller's text). Seed 004's normalisation still
    decides what counts as the same content (the hash) and what the keyword index
    reads (the ``normalized`` column), so dedupe and search are unchanged. Text that is
    only whitespace normalises to nothing and is refused as empty. ``max_chars`` counts
    the text with its whitespace collapsed, as it always has: keeping the caller's
    whitespace refuses nothing that was accepted before (a BEAM dev message of 348,864
    characters is 4,724 without its run of padding)."""
    normal = normalize_content(no_nul("content", text))
    if not normal.storage:
        raise EmptyContentError("content is empty; pass the text to remember")
    if len(normal.storage) > max_chars:
        raise ContentTooLargeError(
            f"content is {len(normal.storage)} characters, over the limit of {max_chars} "
            "(counted with whitespace collapsed); split it into smaller memories or raise "
            "max_content_chars"
        )
    return normal


def build_record(
    content: object,
    *,
    namespace: str,
    max_chars: int,
    user_id: str | None = None,
    agent_id: str | None = None,
    run_id: str | None = None,
    session_id: str | None = None,
    metadata: object = None,
    tags: object = None,
    type: object = None,
    category: object = None,
    importance: object = None,
    score: object = None,
    confidence: object = None,
    title: object = None,
    narrative: object = None,
    facts: object = None,
    created_at: object = None,
    who: object = None,
    why: object = None,
    source_memory_id: object = None,
    document_id: object = None,
    extraction_model: object = None,
) -> MemoryRecord:
    """Validate every field and build the record to store."""
    is_messages = not isinstance(content, str)
    text = content_text(content)
    content_hash = _checked(text, max_chars).content_hash
    kind = memory_type(type if type is not None else ("message" if is_messages else None))
    when = timestamp("created_at", created_at) or utcnow()
    return MemoryRecord(
        id=new_id(),
        namespace=namespace,
        content=text,
        content_hash=content_hash,
        type=kind,
        category=memory_category(category),
        title=optional_str("title", title),
        narrative=optional_str("narrative", narrative),
        facts=string_list("facts", facts),
        tags=string_list("tags", tags),
        importance=optional_float("importance", importance, 0.0, 1.0),
        score=optional_float("score", score, 0.0, 10.0),
        confidence=optional_float("confidence", confidence, 0.0, 1.0),
        user_id=optional_str("user_id", user_id),
        agent_id=optional_str("agent_id", agent_id),
        run_id=optional_str("run_id", run_id),
        session_id=optional_str("session_id", session_id),
        who=optional_str("who", who),
        why=optional_str("why", why),
        source_memory_id=optional_str("source_memory_id", source_memory_id),
        document_id=optional_str("document_id", document_id),
        extraction_model=optional_str("extraction_model", extraction_model),
        metadata=metadata_dict(metadata),
        created_at=when,
        updated_at=when,
    )


def rating_value(rating: object) -> int:
    """+1 / -1 from ``1``, ``-1``, ``"up"`` or ``"down"``."""
    if rating in ("up", "+1", "+", "👍"):
        return 1
    if rating in ("down", "-1", "-", "👎"):
        return -1
    if isinstance(rating, int) and not isinstance(rating, bool) and rating in (1, -1):
        return rating
    raise InvalidInputError(f"rating must be +1 or -1 ('up' or 'down'), got {shown(rating)}")


def name_value(what: str, value: object, *, limit: int = 200) -> str:
    """A name a caller gives (an agent id, a session key, a fact id): a non-empty string
    of at most ``limit`` characters, stripped, without NUL. The refusal shows a string as
    it came ('' or '   '), since "got str" told a CLI user who typed "" nothing."""
    if not isinstance(value, str):
        raise InvalidInputError(f"{what} must be a non-empty string, got {type_name(value)}")
    text = value.strip()
    if not text:
        raise InvalidInputError(f"{what} must be a non-empty string, got {shown(value)}")
    if len(text) > limit:
        raise InvalidInputError(f"{what} is {len(text)} characters; at most {limit}")
    return no_nul(what, text)


def path_value(what: str, value: object) -> str:
    """A file path a caller gives, as a string: refused when it is not a path, holds a
    NUL, or is empty or blank (``Path("")`` is the current directory, so an empty path
    was read as "<cwd> is a directory")."""
    raw = os.fspath(value) if isinstance(value, str | os.PathLike) else None
    if not isinstance(raw, str):
        raise InvalidInputError(f"{what} must be a file path, got {type_name(value)}")
    if "\x00" in raw:  # no file system takes one: say it of a path, not of a store
        raise InvalidInputError(f"{what} must be a file path, and a path holds no NUL (U+0000)")
    text = no_nul(what, raw)
    if not text.strip():
        raise InvalidInputError(f"{what} is {'empty' if not text else 'blank'}: give a file's path")
    return text


def session_key_value(value: object) -> str:
    """A session key: a non-empty string of at most 200 characters."""
    return name_value("session key", value)


def positive_int(name: str, value: object, *, upper: int = 10_000) -> int:
    """An int in [1, upper]."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= upper:
        raise InvalidInputError(f"{name} must be an integer in [1, {upper}], got {shown(value)}")
    return value


def offset_value(value: object) -> int:
    """A page offset: an int in [0, ``MAX_OFFSET``]."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_OFFSET:
        raise InvalidInputError(
            f"offset must be an integer in [0, {MAX_OFFSET}], got {shown(value)}; narrow the "
            "listing with filters instead of paging that deep"
        )
    return value


#: The largest row id a store can hold: both engines keep ids in a signed 64-bit INTEGER.
MAX_ROW_ID = 2**63 - 1


def row_id(name: str, value: object) -> int:
    """A stored row's integer id (a review item's, a job's): an int in [1, ``MAX_ROW_ID``].

    Out of that range the id cannot exist, and the driver would raise ``OverflowError``
    binding it; it is bad input (``InvalidInputError``, HTTP 422) like id 0 or "abc", on
    every surface."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROW_ID:
        raise InvalidInputError(
            f"{name} must be an integer from 1 to {MAX_ROW_ID}, got {shown(value)}"
        )
    return value


def filter_key(key: object) -> str:
    """A filter's key: a string any backend can compare."""
    if not isinstance(key, str):
        raise InvalidInputError(f"filter keys must be strings, got {shown(key)}")
    return no_nul("filter key", key)


def filter_tags(value: object) -> tuple[str, ...]:
    """The tags a filter requires, all of them: a string or a list of at most
    ``MAX_FILTER_TAGS`` strings."""
    tags = [value] if isinstance(value, str) else value
    if not isinstance(tags, Sequence | set | frozenset) or isinstance(tags, bytes | bytearray):
        raise InvalidInputError(
            f"the tags filter must be a string or a list of strings, got {type_name(value)}"
        )
    if len(tags) > MAX_FILTER_TAGS:
        raise InvalidInputError(
            f"a filter may require at most {MAX_FILTER_TAGS} tags, got {len(tags)}; "
            "filter on fewer tags and narrow the results yourself"
        )
    out = []
    for tag in tags:
        if not isinstance(tag, str):
            raise InvalidInputError(f"the tags filter must hold strings, got {shown(tag)}")
        out.append(no_nul("tags filter", tag))
    return tuple(out)


#: The integers every backend compares exactly (SQLite's and PostgreSQL's 64-bit ones).
_INT64 = range(-(2**63), 2**63)


def filter_scalar(key: str, value: object) -> str | int | float | bool | None:
    """A filter value the store compares in SQL: None, a string, a boolean, a 64-bit
    integer or a finite float."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return no_nul(f"filter {shown(key)}", value)
    if isinstance(value, int):
        if value not in _INT64:
            raise InvalidInputError(
                f"filter {shown(key)} is {shown(value)}, outside the 64-bit integers the "
                "store compares"
            )
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInputError(
                f"filter {shown(key)} must be a finite number, got {shown(value)}"
            )
        return value
    raise InvalidInputError(
        f"get_all filter {shown(key)} takes one string or number, got {shown(value)}; "
        "use recall or search for any-of filters"
    )


def query_text(query: object, name: str = "query") -> str:
    """A non-empty query string, refused as a write is if it holds a NUL or a lone
    surrogate: no stored text can match one, and a read that answers it anyway hides
    the caller's broken input. ``name`` is what the caller's surface calls it."""
    if not isinstance(query, str):
        raise InvalidInputError(f"{name} must be a string, got {type(query).__name__}")
    if not query.strip():
        raise InvalidInputError(f"{name} is empty; pass the text to search for")
    return no_nul(name, query)


def memory_id_value(memory_id: object) -> str:
    """A memory id: a non-empty string, stripped."""
    if not isinstance(memory_id, str) or not memory_id.strip():
        raise InvalidInputError(f"memory id must be a non-empty string, got {shown(memory_id)}")
    return no_nul("memory id", memory_id.strip())


def type_name(value: object) -> str:
    """The type name of ``value`` for error messages."""
    return type(value).__name__
