"""The feedback log as a preference data set (FEATURES H3, seed 000): one JSON object
per rating with the memory it rates, oldest first, for fine-tuning the model that
writes observations (seed 000: "structurally analogous to the preference pairs in
dpo.jsonl").

Rows are read in pages by the log's id, so a large log streams in constant memory.
Ratings of a memory that was later tombstoned (pruned, say) stay in: a downvote is a
label too. ``admin.purge`` removes a purged memory's ratings with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engram.core import Core, Scope
from engram.errors import InvalidInputError, shown
from engram.records import plain
from engram.store.protocols import PreferenceRow
from engram.validate import MAX_ROW_ID, positive_int

#: Rows read per store call while streaming the export.
PAGE = 500
#: The fields of one exported line, in order (docs/review.md, "Preference export").
FIELDS = ("memory_id", "content", "title", "rating", "comment", "at", "quality")


def as_line(row: PreferenceRow) -> dict[str, Any]:
    """One exported line: ``FIELDS`` of the row, in order (``at`` as ISO 8601 UTC)."""
    return {name: plain(getattr(row, name)) for name in FIELDS}


def page(core: Core, scope: Scope, after: int, limit: int) -> list[PreferenceRow]:
    """Rows of the log with ``id > after``, oldest first."""
    if isinstance(after, bool) or not isinstance(after, int) or not 0 <= after <= MAX_ROW_ID:
        raise InvalidInputError(
            f"after must be a row id, an integer from 0 to {MAX_ROW_ID}, got {shown(after)}"
        )
    positive_int("limit", limit, upper=10_000)
    return core.store.curation.preference_rows(scope.namespace, after_id=after, limit=limit)


def stream(core: Core, scope: Scope) -> Iterator[dict[str, Any]]:
    """Every line of the export, read page by page."""
    after = 0
    while True:
        core.check_open()
        rows = page(core, scope, after, PAGE)
        for row in rows:
            yield as_line(row)
        if len(rows) < PAGE:
            return
        after = rows[-1].id
