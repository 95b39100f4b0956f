"""One plural stem (left42): review's overlap and a write batch's own memories match
words with ``engram.text.plural_stem``; a possessive stays whole in review's tokens, as
it always did, and a batch's keywords hold none (``keywords`` splits at "'")."""

from __future__ import annotations

from engram.review.overlap import features
from engram.store import batch_reads
from engram.text import keywords, plural_stem


def test_plural_stem() -> None:
    assert [plural_stem(w) for w in ("costs", "lessons", "class", "bus", "is", "cats")] == [
        "cost",
        "lesson",
        "class",
        "bus",
        "is",
        "cat",
    ]


def test_both_readers_use_it() -> None:
    assert {"cost", "invoice", "cost invoice"} <= features("costs invoices")
    assert "neighbour'" in features("neighbour's boiler")  # review's tokens, unchanged
    assert "'" not in "".join(keywords("My neighbour's boiler’s pipes"))
    assert not hasattr(batch_reads, "_stem")
