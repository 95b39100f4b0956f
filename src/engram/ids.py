"""One resolver for every id a user types: the id itself, or a unique prefix of it, as
git takes a short hash. Memories (``Admin.resolve_id``), org facts (``Org.resolve``)
and archived memories (``Lifecycle.restore``) all go through ``resolve_prefix``, so a
12-character id from a table works the same everywhere and fails the same way."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engram.errors import InvalidInputError, NotFoundError, shown

#: The shortest id prefix accepted. Ids start with their creation time
#: (``records.new_id``), so shorter prefixes would match whole minutes of records.
MIN_ID_PREFIX = 8
#: How many matches an ambiguous prefix counts before it says "more than".
COUNTED_MATCHES = 10
#: The length of the ids engram makes (``records.new_id``: 32 hex characters).
WHOLE_ID_CHARS = 32


def no_memory(memory_id: object, namespace: str) -> str:
    """The not-found message of a memory id given to the library, HTTP or MCP, which take whole
    ids only (docs/http.md's id rule). An id shorter than engram's may be a prefix
    copied from a CLI table: the message says to give it whole, since only the CLI,
    where people type, resolves prefixes (an API client holds the whole ids it was
    given; a prefix there could name a sibling written in the same millisecond)."""
    message = f"no memory {shown(memory_id)} in namespace {shown(namespace)}"
    if isinstance(memory_id, str) and len(memory_id) < MIN_ID_PREFIX:
        # Not even a prefix the CLI would take: say so, as the CLI's rule does, rather
        # than leave "not found" to read as a memory that was there and is gone.
        # (Imported ids may be this short, so the lookup still ran first.)
        message += (
            f"; {shown(memory_id)} is too short to be a memory id: give the whole id "
            f"({WHOLE_ID_CHARS} characters, as a search, a list or an add returned it); "
            f"only the CLI takes a prefix, of at least {MIN_ID_PREFIX} characters"
        )
    elif isinstance(memory_id, str) and MIN_ID_PREFIX <= len(memory_id) < WHOLE_ID_CHARS:
        message += (
            f"; if it is the start of an id, give the whole id ({WHOLE_ID_CHARS} characters): "
            "only the CLI takes a prefix (`engram show PREFIX` prints the whole id)"
        )
    return message


def resolve_prefix(
    wanted: str,
    *,
    exact: Callable[[str], bool],
    starting: Callable[[str, int], Sequence[str]],
    what: str,
    where: str,
    listed: str,
) -> str:
    """The full id ``wanted`` names: itself when ``exact`` finds it, else the one id
    ``starting(prefix, limit)`` returns (at most ``limit`` ids starting with it).

    ``what`` names the record ("memory", "org fact"), ``where`` the place searched
    (" in namespace 'x'" or ""), and ``listed`` where the caller finds the ids.
    ``NotFoundError`` when nothing matches; ``InvalidInputError`` when the prefix is
    shorter than ``MIN_ID_PREFIX`` or matches several ids (saying how many)."""
    # An exact id wins even when it is also a prefix of a longer one, and ids that are
    # not engram's own (kept by an import) may be shorter than a prefix.
    if exact(wanted):
        return wanted
    if len(wanted) < MIN_ID_PREFIX:
        raise InvalidInputError(
            f"{shown(wanted)} is not {_article(what)} {what} id{where}, and too short to be an "
            f"id prefix: give at least {MIN_ID_PREFIX} characters of the id ({listed})"
        )
    found = sorted(set(starting(wanted, COUNTED_MATCHES + 1)))
    if not found:
        raise NotFoundError(f"no {what} {shown(wanted)}{where} (as an id or id prefix); {listed}")
    if len(found) > 1:
        many = f"more than {COUNTED_MATCHES}" if len(found) > COUNTED_MATCHES else str(len(found))
        raise InvalidInputError(
            f"ambiguous id prefix {shown(wanted)}: it matches {many} {_plural(what)}{where}; "
            f"give more characters of the id ({listed})"
        )
    return found[0]


def _plural(noun: str) -> str:
    # memory -> memories, key -> keys
    return noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"


def _article(noun: str) -> str:
    return "an" if noun[:1] in "aeiou" else "a"
