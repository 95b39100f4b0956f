"""One change, one review item (new-user pass, round thirteen): "I live in Bristol."
then "I moved to Glasgow last month." queued two pending UPDATEs for the same pair,
the extract job's (its claim "User moved to Glasgow last month") and the retroactive
supersession's (the statement itself), so a person reviewing saw the change twice and
had to reject the second after approving the first."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

from engram import Config, Memory
from engram.embed.minilm import MiniLMEmbedder

T0 = datetime(2026, 10, 1, 9, tzinfo=UTC)


def test_a_change_is_queued_for_review_once(
    config: Config, store_location: str, tmp_path: Path
) -> None:
    # the default embedder: with it the new attribute lands on the old one's aspect, and
    # retroactive supersession proposes the change as the extract job does
    minilm = MiniLMEmbedder(None, tmp_path / "home")
    with Memory(store_location, config=config, embedder=minilm) as mem:
        mem.add("I live in Bristol.", user_id="kim", created_at=T0)
        mem.jobs.process_pending()
        later = T0 + timedelta(days=20)
        mem.add("I moved to Glasgow last month.", user_id="kim", created_at=later)
        mem.jobs.process_pending()
        items = mem.review.list(user_id="kim")
    assert items, "the change is held for review (the default pipeline mode)"
    pairs = Counter((i.memory_id, i.target_id, i.action) for i in items)
    assert max(pairs.values()) == 1, pairs


def test_the_store_returns_the_pending_item_of_the_same_pair(mem: Memory) -> None:
    a = mem.add("I live in Bristol.", user_id="kim")
    b = mem.add("I moved to Glasgow.", user_id="kim")
    review = mem.store.review
    first = review.add(
        "user:kim", b.id, target_id=a.id, action="UPDATE", proposal={"content": "x"},
        reason="one residence", now=T0,
    )  # fmt: skip
    again = review.add(
        "user:kim", b.id, target_id=a.id, action="UPDATE", proposal={"content": "y"},
        reason="retroactive", now=T0,
    )  # fmt: skip
    assert again.id == first.id and review.count("user:kim") == 1
    # another action, or the same pair once the first is resolved, is a new item
    other = review.add(
        "user:kim", b.id, target_id=a.id, action="DELETE", proposal={}, reason="r", now=T0
    )
    assert other.id != first.id
    review.resolve("user:kim", first.id, status="rejected", actor=None, note=None, now=T0)
    later = review.add(
        "user:kim", b.id, target_id=a.id, action="UPDATE", proposal={}, reason="r", now=T0
    )
    assert later.id not in (first.id, other.id)
