"""How ``EngramStore`` maps LangGraph items onto engram memories, and back.

- **Namespaces.** The tuple ``("users", "alice")`` becomes the engram namespace
  ``<root>/users/alice`` (``root`` defaults to ``langgraph``). Letters, digits and
  ``_ : @ + -`` are kept; every other character of a label (``/`` included) is written
  ``.xx`` per UTF-8 byte (LangGraph forbids ``.`` in labels, so the dot is free to escape
  with), which makes the mapping reversible: ``("a/b", "é")`` <-> ``langgraph/a.2fb/.c3.a9``.
- **Keys.** Each item is one memory tagged ``langgraph`` and ``langgraph-key:<key>``
  (the key escaped as below): ``get`` finds it by tag, and ``put`` with the same key
  updates that memory (engram keeps the old value in its history).
- **Content.** The memory's content is the text of the indexed fields, then a line
  ``[key: <key>]``. engram dedups memories by their normalised content per namespace
  (seed 004), so the key is part of what is hashed: two keys with the same value stay
  two memories. The key is written with ``engram.adapters.escape.escaped``, so that
  normalising can never make two keys equal (``Prefs`` -> ``%50refs``).
- **Value.** The value itself is kept exactly in the memory's metadata
  (``metadata["langgraph"]``), with the key and whether the item was indexed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.store.base import get_text_at_path, tokenize_path

from engram.adapters.escape import escaped
from engram.errors import InvalidInputError, shown
from engram.records import MemoryRecord

#: The tag on every memory that is a LangGraph item.
ITEM_TAG = "langgraph"
#: The metadata key that holds the item.
META = "langgraph"
#: engram's namespace rule (engram.validate.namespace_for): at most 200 characters.
MAX_NAMESPACE = 200

_LABEL_SAFE = re.compile(r"[A-Za-z0-9_:@+-]")
_ROOT = re.compile(r"^[A-Za-z0-9_.:@+-]+(/[A-Za-z0-9_.:@+-]+)*$")
#: The comparison operators of a LangGraph search filter (``SearchOp.filter``).
OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")


def check_root(root: object) -> str:
    """The engram namespace under which a store keeps its LangGraph namespaces."""
    if not isinstance(root, str) or not _ROOT.match(root) or len(root) > 100:
        raise InvalidInputError(
            f"root must be an engram namespace of at most 100 characters from letters, "
            f"digits and _ . : @ + - (segments joined by /), got {shown(root)}"
        )
    return root


def _label(text: str) -> str:
    return "".join(
        char if _LABEL_SAFE.fullmatch(char) else "".join(f".{b:02x}" for b in char.encode())
        for char in text
    )


def encode_namespace(root: str, namespace: Sequence[str]) -> str:
    """The engram namespace of a LangGraph namespace tuple (possibly over 200 chars)."""
    return "/".join([root, *(_label(label) for label in namespace)])


def decode_namespace(root: str, namespace: str) -> tuple[str, ...] | None:
    """The LangGraph tuple of an engram namespace, or None if it is not one of ours."""
    if not namespace.startswith(root + "/"):
        return None
    labels = []
    for part in namespace[len(root) + 1 :].split("/"):
        raw = bytearray()
        i = 0
        while i < len(part):
            if part[i] == ".":
                pair = part[i + 1 : i + 3]
                if len(pair) != 2 or not re.fullmatch(r"[0-9a-f]{2}", pair):
                    return None
                raw.append(int(pair, 16))
                i += 3
            else:
                raw.extend(part[i].encode("utf-8"))
                i += 1
        try:
            label = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if not label:
            return None
        labels.append(label)
    return tuple(labels)


def key_tag(key: str) -> str:
    """The tag that finds the memory of ``key``."""
    return f"langgraph-key:{escaped(key)}"


def index_paths(fields: object) -> list[str]:
    """The checked field paths of an index (``["$"]``: the whole value as JSON)."""
    if fields is None:
        return ["$"]
    if isinstance(fields, str) or not isinstance(fields, Sequence):
        raise InvalidInputError(f"index fields must be a list of paths, got {shown(fields)}")
    for path in fields:
        if not isinstance(path, str) or not path:
            raise InvalidInputError(f"index fields must be non-empty strings, got {shown(path)}")
        if path != "$":
            tokenize_path(path)  # a malformed path fails here, before anything is stored
    return list(fields)


def indexed_text(value: Mapping[str, Any], paths: Sequence[str]) -> str:
    """The text of ``value`` at ``paths``, joined one per line (LangGraph embeds each
    text apart; engram keeps one memory per item, so they share one vector)."""
    texts: list[str] = []
    for path in paths:
        texts.extend(get_text_at_path(value, path if path == "$" else tokenize_path(path)))
    return "\n".join(t for t in texts if t.strip())


def content_of(key: str, text: str) -> str:
    """The memory content of an item: its indexed text, then its key line."""
    marker = f"[key: {escaped(key)}]"
    return f"{text}\n{marker}" if text else marker


def metadata_of(key: str, value: Mapping[str, Any], indexed: bool) -> dict[str, Any]:
    """The memory metadata that carries an item."""
    if not isinstance(value, Mapping):
        raise InvalidInputError(f"a LangGraph value must be a dict, got {shown(value)}")
    try:
        exact = json.loads(json.dumps(dict(value), ensure_ascii=False, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise InvalidInputError(
            f"the value of key {key!r} must be JSON-serialisable: {exc}"
        ) from None
    return {META: {"key": key, "value": exact, "indexed": indexed}}


def item_parts(record: MemoryRecord) -> tuple[str, dict[str, Any], bool] | None:
    """(key, value, indexed) of a memory that is a LangGraph item, else None."""
    carried = record.metadata.get(META)
    if ITEM_TAG not in record.tags or not isinstance(carried, Mapping):
        return None
    key, value = carried.get("key"), carried.get("value")
    if not isinstance(key, str) or not isinstance(value, dict):
        return None
    return key, value, bool(carried.get("indexed", True))


def matches(value: Mapping[str, Any], filter: Mapping[str, Any] | None) -> bool:
    """Whether ``value`` passes a LangGraph search filter: exact matches (nested dicts
    compare key by key) and the operators ``$eq $ne $gt $gte $lt $lte``."""
    return not filter or all(_compare(value.get(k), want) for k, want in filter.items())


def _compare(actual: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(isinstance(k, str) and k.startswith("$") for k in wanted):
            return all(_apply(actual, op, operand) for op, operand in wanted.items())
        if not isinstance(actual, Mapping):
            return False
        return all(_compare(actual.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, list | tuple):
        return (
            isinstance(actual, list | tuple)
            and len(actual) == len(wanted)
            and all(_compare(a, w) for a, w in zip(actual, wanted, strict=True))
        )
    return bool(actual == wanted)


def _apply(actual: Any, op: str, operand: Any) -> bool:
    if op not in OPERATORS:
        raise InvalidInputError(
            f"unsupported filter operator {op!r}: LangGraph filters take {', '.join(OPERATORS)}"
        )
    if op == "$eq":
        return bool(actual == operand)
    if op == "$ne":
        return bool(actual != operand)
    try:
        left, right = float(actual), float(operand)
    except (TypeError, ValueError):
        return False  # a missing or non-numeric field is neither above nor below
    if op == "$gt":
        return left > right
    if op == "$gte":
        return left >= right
    if op == "$lt":
        return left < right
    return left <= right
