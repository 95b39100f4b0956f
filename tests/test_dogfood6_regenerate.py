"""Round six of the new-user pass: a regenerated chat reply (the same request through
the chat proxy, a different answer, and the conversation goes on from the new one) is
filed, and the reply it replaced is superseded, visibly, on both backends."""

from __future__ import annotations

from engram import Memory

ASK = [{"role": "user", "content": "Suggest a name for my new kitten"}]


def _mined(mem: Memory, messages: list[dict[str, str]], reply: str) -> dict[str, object]:
    job = mem.chat.after(messages, reply, user_id="ann", conversation_id="c-42")
    assert job is not None
    mem.jobs.process_pending()
    done = mem.jobs.get(job.id)
    assert done.status == "completed", done.error
    return dict(done.result)


def _room_texts(mem: Memory) -> list[str]:
    [wing] = mem.palace.tree(user_id="ann")
    room = wing.rooms[0].room
    drawers = mem.palace.drawers(wing.wing.slug, room.number, user_id="ann")
    return [mem.get(d.memory_id, user_id="ann").content for d in drawers]


def test_a_regenerated_reply_is_filed_and_supersedes_the_first(mem: Memory) -> None:
    first = _mined(mem, ASK, "How about Ada?")
    [_, old_id] = first["added"]  # type: ignore[misc]
    again = _mined(mem, ASK, "How about Miso?")
    assert again["replaced"] == 1 and len(again["added"]) == 1  # type: ignore[arg-type]
    [new_id] = again["added"]  # type: ignore[misc]
    # The room holds the conversation as it goes on: the ask and the newest reply.
    assert _room_texts(mem) == [ASK[0]["content"], "How about Miso?"]
    old = mem.get(old_id, user_id="ann")
    assert old.superseded_by == new_id  # kept, visibly replaced
    assert "superseded" in [h.event for h in mem.history(old_id, user_id="ann")]
    hits = mem.search("kitten name Ada Miso", user_id="ann", limit=10)
    assert old_id not in [h.id for h in hits]
    # The conversation goes on from the new reply: its next turn is filed after it.
    goes_on = [*ASK, {"role": "assistant", "content": "How about Miso?"}]
    goes_on.append({"role": "user", "content": "Miso it is"})
    later = _mined(mem, goes_on, "Great choice.")
    assert later["replaced"] == 0 and len(later["added"]) == 2  # type: ignore[arg-type]
    assert _room_texts(mem)[1:] == ["How about Miso?", "Miso it is", "Great choice."]


def test_the_same_exchange_again_or_an_earlier_prefix_replaces_nothing(mem: Memory) -> None:
    _mined(mem, ASK, "How about Ada?")
    longer = [*ASK, {"role": "assistant", "content": "How about Ada?"}]
    longer.append({"role": "user", "content": "Ada it is"})
    _mined(mem, longer, "Great.")
    # A retried job of the first exchange (a prefix of what is filed) changes nothing.
    again = _mined(mem, ASK, "How about Ada?")
    assert again["added"] == [] and again["replaced"] == 0
    assert len(_room_texts(mem)) == 4


def test_a_regenerated_earlier_reply_unfiles_the_branch_after_it(mem: Memory) -> None:
    _mined(mem, ASK, "How about Ada?")
    longer = [*ASK, {"role": "assistant", "content": "How about Ada?"}]
    longer.append({"role": "user", "content": "Ada it is"})
    third = _mined(mem, longer, "Great.")
    abandoned = third["added"]
    # The user went back and regenerated the first reply.
    again = _mined(mem, ASK, "How about Miso?")
    assert again["replaced"] == 3
    assert _room_texts(mem) == [ASK[0]["content"], "How about Miso?"]
    for memory_id in abandoned:  # type: ignore[attr-defined]
        assert mem.get(memory_id, user_id="ann").superseded_by == again["added"][0]  # type: ignore[index]


def test_a_reply_edited_by_the_user_is_not_a_branch(mem: Memory) -> None:
    first = _mined(mem, ASK, "How about Ada?")
    reply_id = first["added"][1]  # type: ignore[index]
    mem.update(reply_id, content="How about Ada (after Lovelace)?", user_id="ann")
    again = _mined(mem, ASK, "How about Ada?")
    assert again["added"] == [] and again["replaced"] == 0
    assert mem.get(reply_id, user_id="ann").superseded_by is None


def test_a_trimmed_or_summarised_window_is_not_a_branch(mem: Memory) -> None:
    """A client with a sliding window sends the newest turns only (or a summary in place
    of the oldest): positions shift, and nothing filed may be superseded for it."""
    turns = ["Suggest a name for my new kitten", "How about Ada?", "Ada it is", "Great."]
    said = [
        {"role": r, "content": c} for r, c in zip(["user", "assistant"] * 2, turns, strict=True)
    ]
    first = _mined(mem, said[:3], turns[3])
    trimmed = [*said[2:], {"role": "assistant", "content": "Great."}]
    trimmed.append({"role": "user", "content": "She sleeps all day"})
    shifted = _mined(mem, trimmed, "Kittens do.")
    summary = [{"role": "user", "content": "(Earlier: we picked the name Ada.)"}, *said[2:]]
    summarised = _mined(mem, summary, "Great.")
    assert shifted["replaced"] == 0 and summarised["replaced"] == 0
    for memory_id in first["added"]:  # type: ignore[attr-defined]
        assert mem.get(memory_id, user_id="ann").superseded_by is None
