"""AAAK pointers (FEATURES G7; seed 003): ``§ W-042/R-11/D-007 @p derek @t 2026-04-30``.

Grammar (spaces are any run of whitespace)::

    pointer := "§" [space] "W-" number "/" "R-" number "/" "D-" number { space tag }
    number  := digit { digit }            (leading zeros allowed; value >= 1)
    tag     := "@" kind space value       (kind: p l e i t; value: a slug, no spaces)

``W-042`` is the wing numbered 42 in the namespace, ``R-11`` the 11th room of that
wing, ``D-007`` the 7th drawer of that room. The tags describe the drawer (seed 003:
@p people, @l locations, @e events, @i items, @t time); they are an index for the
reader, never part of the address, so ``resolve`` ignores them.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from engram.errors import InvalidInputError, shown

#: seed 003's tags: what each one marks.
TAG_KINDS = {"p": "person", "l": "location", "e": "event", "i": "item", "t": "time"}
#: Tags a drawer keeps per kind: a pointer stays a short citation, not a summary.
MAX_TAGS_PER_KIND = 3

_POINTER = re.compile(
    r"^\s*§\s*W-(?P<w>\d{1,9})/R-(?P<r>\d{1,9})/D-(?P<d>\d{1,9})(?P<tags>(?:\s+@[a-z]\s+\S+)*)\s*$"
)
_TAG = re.compile(r"@([a-z])\s+(\S+)")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
#: A slug longer than this is cut (a room named by a long sentence still gets one).
MAX_SLUG_CHARS = 64


def slugify(name: str) -> str:
    """Lowercase ASCII words joined by hyphens: "Dr. Alice Smith" -> "dr-alice-smith".

    Accents fold to their letter ("Zoë" -> "zoe"). A name with no ASCII letter or digit
    at all (a name in another script) gets ``x-`` and a short hash of it, so it still
    has a stable slug of its own.
    """
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    slug = _NOT_SLUG.sub("-", folded.lower()).strip("-")[:MAX_SLUG_CHARS].strip("-")
    if slug:
        return slug
    digest = hashlib.sha256(" ".join(name.split()).lower().encode("utf-8")).hexdigest()
    return f"x-{digest[:10]}"


@dataclass(frozen=True, slots=True)
class Pointer:
    """A parsed AAAK pointer: the drawer's address and its tags."""

    wing: int
    room: int
    drawer: int
    tags: tuple[tuple[str, str], ...] = ()
    """(kind, value) pairs in the order written, kind one of ``TAG_KINDS``."""


def parse(text: object) -> Pointer:
    """The pointer in ``text``; ``InvalidInputError`` saying what is wrong otherwise."""
    if not isinstance(text, str):
        raise InvalidInputError(f"an AAAK pointer must be a string, got {shown(text)}")
    match = _POINTER.match(text)
    if match is None:
        raise InvalidInputError(
            f"not an AAAK pointer: {shown(text)}; expected '§ W-<n>/R-<n>/D-<n>' optionally "
            "followed by tags like '@p derek', e.g. '§ W-042/R-11/D-007'"
        )
    numbers = [int(match[k]) for k in ("w", "r", "d")]
    if min(numbers) < 1:
        raise InvalidInputError(f"AAAK numbers start at 1, got {shown(text)}")
    tags: list[tuple[str, str]] = []
    for kind, value in _TAG.findall(match["tags"]):
        if kind not in TAG_KINDS:
            raise InvalidInputError(
                f"unknown AAAK tag @{kind} in {shown(text)}; tags are "
                + ", ".join(f"@{k} ({v})" for k, v in TAG_KINDS.items())
            )
        tags.append((kind, value))
    return Pointer(numbers[0], numbers[1], numbers[2], tuple(tags))


def tags(kind_values: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """``("@p derek", "@t 2026-04-30")`` from (kind, value) pairs: values slugged,
    duplicates dropped, at most ``MAX_TAGS_PER_KIND`` per kind, in ``TAG_KINDS`` order."""
    by_kind: dict[str, list[str]] = {k: [] for k in TAG_KINDS}
    for kind, value in kind_values:
        slug = slugify(value)
        found = by_kind[kind]
        if slug not in found and len(found) < MAX_TAGS_PER_KIND:
            found.append(slug)
    return tuple(f"@{k} {v}" for k, values in by_kind.items() for v in values)
