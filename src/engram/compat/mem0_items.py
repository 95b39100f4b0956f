"""mem0's shapes for engram's records, history rows and messages (issue 27).

mem0 2.2.1 keeps a memory as a flat payload: its text, ``user_id``/``agent_id``/
``run_id``, the ``role`` and ``actor_id`` of the message it came from, an
``expiration_date``, and the caller's metadata keys beside them. engram keeps the three
ids as record fields (they choose the namespace and filter within it) and the other
three as metadata keys (``PROMOTED``), so mem0's metadata filters on ``role`` or
``actor_id`` work as on mem0; the item shape lifts them out of ``metadata`` again.
"""

from __future__ import annotations

import hashlib
import logging
import warnings
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import Any

from engram.compat.mem0_filters import SCOPE_KEYS
from engram.errors import InvalidInputError
from engram.records import HistoryEntry, MemoryRecord, iso
from engram.validate import type_name

log = logging.getLogger(__name__)

#: Payload keys mem0 lifts out of ``metadata`` into the item (its ``get``/``search``);
#: engram stores them in the record's metadata.
PROMOTED = ("actor_id", "role", "expiration_date")
#: Keys a caller's metadata may not set: mem0 drops them (``_strip_identity_keys``),
#: because the scope comes from the id arguments and the actor from the message.
IDENTITY = (*SCOPE_KEYS, "actor_id")
#: The metadata key listing the [agent_id, run_id] pairs a text was added under
#: (``compat.mem0_seen``): the door's own, never in an item.
SEEN = "mem0_seen_as"
#: The door's mark of a memory ``SEEN`` names more than one scope of (mem0_seen.MARK).
SAID_AGAIN = "mem0_said_again"
#: engram history events -> mem0's (ADD/UPDATE/DELETE). A pipeline supersession closes
#: the older fact (the door's reads leave it out, and ``add`` reported it as mem0's
#: ``DELETE``), so it is ``DELETE`` here too; every other engram event (a merge of a
#: duplicate write, feedback) changes no text a mem0 user wrote, so it is ``NONE``.
EVENTS = {"create": "ADD", "update": "UPDATE", "delete": "DELETE", "superseded": "DELETE"}


def mem0_hash(text: str) -> str:
    """mem0's ``hash``: the MD5 of the text (an identifier, not a security measure)."""
    return hashlib.md5(text.encode(), usedforsecurity=False).hexdigest()


def item(record: MemoryRecord, *, scored: bool, score: float | None = None) -> dict[str, Any]:
    """mem0's memory item. ``get`` and ``search`` carry ``score`` (None for ``get``);
    ``get_all`` does not (``scored=False``). ``metadata`` is None when there is none."""
    meta = dict(record.metadata)
    meta.pop(SEEN, None)  # the door's own note of the runs a text was said in
    meta.pop(SAID_AGAIN, None)  # and its mark (engram.compat.mem0_seen.MARK)
    out: dict[str, Any] = {
        "id": record.id,
        "memory": record.content,
        "hash": mem0_hash(record.content),
        "created_at": iso(record.created_at),
        "updated_at": iso(record.updated_at),
    }
    if scored:
        out["score"] = score
    for key in SCOPE_KEYS:
        if getattr(record, key) is not None:
            out[key] = getattr(record, key)
    for key in PROMOTED:
        if key in meta:
            out[key] = meta.pop(key)
    out["metadata"] = meta or None
    return out


def held(entry: HistoryEntry) -> bool:
    """Whether ``entry`` records a change of the memory proposed and held for review
    (``controlled`` mode): the memory is as it was."""
    return entry.event == "supersession" and (entry.after or {}).get("outcome") == "review"


def history_row(entry: HistoryEntry) -> dict[str, Any]:
    """mem0's history row: the text before and after, the event in capitals, and the
    memory's own ``actor_id`` and ``role`` (mem0's ``SQLiteManager.get_history``)."""
    before = entry.before or {}
    after = entry.after or {}
    event = EVENTS.get(entry.event, "NONE")
    meta = after.get("metadata") or before.get("metadata") or {}
    return {
        "id": str(entry.id),
        "memory_id": entry.memory_id,
        "old_memory": before.get("content") if event != "ADD" else None,
        "new_memory": after.get("content") if event != "DELETE" else None,
        "event": event,
        "created_at": iso(entry.created_at),
        "updated_at": iso(entry.created_at),
        "is_deleted": event == "DELETE",
        "actor_id": meta.get("actor_id"),
        "role": meta.get("role"),
    }


def messages_of(messages: object) -> list[Mapping[str, Any]]:
    """mem0's ``messages`` as a list: a string is one user message, a dict one message."""
    if isinstance(messages, str):
        return [{"role": "user", "content": messages}]
    if isinstance(messages, Mapping):
        return [messages]
    if isinstance(messages, list | tuple) and all(isinstance(m, Mapping) for m in messages):
        return list(messages)
    raise InvalidInputError(
        "messages must be a string, a {'role', 'content'} dict or a list of them, "
        f"got {type_name(messages)}"
    )


def verbatim(messages: Sequence[Mapping[str, Any]]) -> list[tuple[str, str, str | None]]:
    """The (text, role, actor) of each message mem0 stores with ``infer=False``: every
    message with a role and content but the system ones; ``name`` is the actor."""
    kept: list[tuple[str, str, str | None]] = []
    for message in messages:
        role, content = message.get("role"), message.get("content")
        if role is None or content is None:
            # mem0 skips such a message with a log line; a warning says so to the caller.
            warnings.warn(
                f"mem0 add: skipped a message without role or content: {sorted(message)}",
                stacklevel=3,
            )
            continue
        if role == "system":
            continue
        if isinstance(content, list):  # mem0 keeps the text parts of a multi-part message
            parts = [
                p["text"] for p in content if isinstance(p, Mapping) and p.get("type") == "text"
            ]
            if not parts:
                continue
            content = " ".join(str(p) for p in parts)
        if not isinstance(content, str) or not isinstance(role, str):
            raise InvalidInputError(
                f"a message's role and content must be strings, got {type_name(role)} and "
                f"{type_name(content)}"
            )
        name = message.get("name")
        kept.append((content, role, name if isinstance(name, str) and name else None))
    return kept


def own_metadata(metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    """The caller's metadata without the identity keys mem0 drops from it."""
    if metadata is None:
        return {}
    if not isinstance(metadata, Mapping):
        raise InvalidInputError(f"metadata must be a dict, got {type_name(metadata)}")
    dropped = sorted(k for k in metadata if k in IDENTITY)
    if dropped:
        log.warning("mem0 door: ignoring metadata %s: the scope comes from the ids", dropped)
    return {k: v for k, v in metadata.items() if k not in IDENTITY}


def expiration(value: object) -> str | None:
    """mem0's ``expiration_date``: a date, datetime or ``YYYY-MM-DD`` string, kept as
    ``YYYY-MM-DD`` (``_normalize_expiration_date``)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str):
        try:
            return date.fromisoformat(value).isoformat()
        except ValueError:
            pass
    raise InvalidInputError(
        f"expiration_date must be a date in YYYY-MM-DD format, got {type_name(value)}"
    )


def expired(record: MemoryRecord) -> bool:
    """Whether the memory's ``expiration_date`` is before today (UTC), as mem0 hides it."""
    value = record.metadata.get("expiration_date")
    if not isinstance(value, str):
        return False
    try:
        return date.fromisoformat(value) < datetime.now(UTC).date()
    except ValueError:
        return False


def ignored(verb: str, names: Sequence[str], why: str) -> None:
    """Warn that keywords mem0 accepts do nothing here (issue 27: accepted, never
    raised on)."""
    if names:
        warnings.warn(
            f"mem0 {verb}(): {', '.join(names)} ignored by engram: {why}",
            UserWarning,
            stacklevel=3,
        )
