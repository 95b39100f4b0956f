"""Facts that change, round two (changes20): a replacement on a relation that holds
many values at once closes the replaced value only, and kinds of change that round
eleven's held-out fold E left open are read. Every sentence here is written for this
file; none is from a benchmark fold."""

from __future__ import annotations

import pytest

from engram import Memory
from test_dogfood19_changes import _rows, _told

MANY = [
    # "uses" a tool of no known category, "likes", "drinks": several hold at once. The
    # store closed the newest fact of the type (Airtable, hiking, water) and left the
    # replaced one open.
    ("We use Zapier.", "We use Airtable.", "We switched from Zapier to Make.",
     ("user", "uses", "Zapier"), ("user", "uses", "Make"), "What do we use now, Zapier?"),
    ("We use Zapier.", "We use Airtable.", "We replaced Zapier with Make.",
     ("user", "uses", "Zapier"), ("user", "uses", "Make"), "What do we use now, Zapier?"),
    ("I like sushi.", "I like hiking.", "I switched from sushi to ramen.",
     ("user", "likes", "sushi"), ("user", "likes", "ramen"), "Do I still like sushi?"),
    ("I drink tea.", "I drink water.", "I switched from tea to coffee.",
     ("user", "drinks", "tea"), ("user", "drinks", "coffee"), "Do I still drink tea?"),
]  # fmt: skip


@pytest.mark.parametrize(("first", "beside", "change", "old", "new", "question"), MANY)
def test_a_replacement_among_many_closes_the_replaced_value_only(
    mem: Memory,
    first: str,
    beside: str,
    change: str,
    old: tuple[str, str, str],
    new: tuple[str, str, str],
    question: str,
) -> None:
    earlier, _, later = _told(mem, first, beside, change)
    rows = _rows(mem)
    kept = next(k for k in rows if k not in (old, new))
    assert rows == {old: False, kept: True, new: True}
    _answers_the_new_one_first(mem, question, earlier, later)


def _answers_the_new_one_first(mem: Memory, question: str, earlier: str, later: str) -> None:
    """Recall asked about now ranks the memory of the new fact above the old one's."""
    ranked = [h.memory.id for h in mem.recall(question, user_id="dana").hits]
    assert later in ranked
    assert earlier not in ranked or ranked.index(later) < ranked.index(earlier)
