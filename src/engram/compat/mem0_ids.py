"""Where a mem0 id's memories live: its engram namespace.

mem0 takes any id without whitespace (``"a#1"``, ``"josé"``, ``"org,42"``); engram's
namespace names take letters, digits and ``_ . : @ / + -`` (``validate.namespace_for``).
An id made of those characters keeps the plain namespace rule (``user:<id>``, else
``agent:<id>``, else ``run:<id>``), so stores written before this module are read as
they were. Any other id gets an escaped name, ``user::<escaped>``: every UTF-8 byte
outside ``A-Z a-z 0-9 _ . @ -`` is written ``+XX`` (``"a#1"`` is ``user::a+231``).

The map is one-to-one, so each id keeps a namespace of its own: a plain id never starts
with ``:`` (one that does is escaped), so no plain name begins ``user::``, and ``+`` is
itself escaped inside an escaped name.

``/`` is escaped too, though namespace names take it: ``user:alice/x`` is a
sub-namespace of ``user:alice``, which alice's API key reaches (``keys.may_reach``),
and mem0 treats ``"alice/x"`` as an opaque id of another user. An id with ``/`` had its
plain name before (``legacy_owner``); the door keeps reading and writing such an id
where its memories already are, so nothing stored before becomes unreachable.
"""

from __future__ import annotations

import re

from engram.errors import InvalidInputError

#: What ``validate.namespace_for`` accepts after the ``user:`` prefix, but ``/`` (which
#: makes a sub-namespace of another id's).
_PLAIN = re.compile(r"[A-Za-z0-9_.:@+-]+")
#: The plain names of the door before ``/`` was escaped (see ``legacy_owner``).
_LEGACY = re.compile(r"[A-Za-z0-9_.:@/+-]+")
#: The bytes an escaped name keeps as they are.
_KEPT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.@-")
#: engram's longest namespace name (``validate.namespace_for``).
MAX_NAME = 200


def escaped(value: str) -> str:
    """``value`` with every byte outside ``_KEPT`` written ``+XX``."""
    return "".join(chr(b) if b in _KEPT else f"+{b:02X}" for b in value.encode("utf-8"))


def name_of(kind: str, value: str) -> str:
    """The namespace of one id of ``kind`` (``user``, ``agent`` or ``run``), plain or
    escaped. ``InvalidInputError`` when the escaped name is longer than a namespace may
    be."""
    # A plain id may not end with ':' either: ``user:alice:`` is not a namespace
    # (``validate.namespace_for``), so such an id is escaped like any other.
    if _PLAIN.fullmatch(value) and not value.startswith(":") and not value.endswith(":"):
        return f"{kind}:{value}"
    name = f"{kind}::{escaped(value)}"
    if len(name) > MAX_NAME:
        raise InvalidInputError(
            f"{kind}_id {value[:40]!r}... is too long: written with +XX for each byte "
            f"outside letters, digits and _ . @ - it needs a namespace of {len(name)} "
            f"characters, and engram's hold {MAX_NAME}; use a shorter id"
        )
    return name


def _widest(
    user_id: str | None, agent_id: str | None, run_id: str | None
) -> tuple[str, str] | None:
    """The kind and value of the widest id given (a memory's owner), or None."""
    for kind, value in (("user", user_id), ("agent", agent_id), ("run", run_id)):
        if value is not None:
            return kind, value
    return None


def owner_namespace(user_id: str | None, agent_id: str | None, run_id: str | None) -> str | None:
    """The escaped namespace of the widest id given, or None when the plain namespace
    rule names it (no id, or an id of namespace characters)."""
    owner = _widest(user_id, agent_id, run_id)
    if owner is None:
        return None
    name = name_of(*owner)
    return None if name == f"{owner[0]}:{owner[1]}" else name


def legacy_name(kind: str, value: str) -> str | None:
    """The plain namespace an id holding ``/`` had before it was escaped
    (``user:alice/x``), or None for every other id."""
    if "/" in value and _LEGACY.fullmatch(value) and not value.startswith(":"):
        return f"{kind}:{value}"
    return None


def legacy_owner(user_id: str | None, agent_id: str | None, run_id: str | None) -> str | None:
    """``legacy_name`` of the widest id given (the one ``owner_namespace`` names)."""
    owner = _widest(user_id, agent_id, run_id)
    return None if owner is None else legacy_name(*owner)


__all__ = ["escaped", "legacy_name", "legacy_owner", "name_of", "owner_namespace"]
