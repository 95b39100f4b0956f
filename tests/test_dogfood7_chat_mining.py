"""Round seven of the new-user pass: chat mining's three leftovers, on both backends.

1. A client with a sliding window (the last N messages, or a summary in place of the
   oldest) has every new exchange filed once, in order, after what was said before.
2. Mining an exchange reads what aligning it needs, not the whole room.
3. Chat jobs of one conversation run out of order (here: in reverse, by the worker)
   never re-file or resurrect an older reply.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from engram import Memory
from engram.chat import mine_job
from engram.pipeline.handlers import Registry
from engram.pipeline.worker import Worker
from engram.records import utcnow
from engram.store.protocols import Job
from test_dogfood6_regenerate import _mined as _mine

ASK = "Suggest a name for my new kitten"


def _said(texts: list[str]) -> list[dict[str, str]]:
    roles = ["user", "assistant"] * len(texts)
    return [{"role": r, "content": t} for r, t in zip(roles, texts, strict=False)]


def _room(mem: Memory) -> list[str]:
    [wing] = mem.palace.tree(user_id="ann")
    room = wing.rooms[0].room
    drawers = mem.palace.drawers(wing.wing.slug, room.number, user_id="ann")
    by_turn = sorted(drawers, key=lambda d: d.turn)
    assert [d.turn for d in by_turn] == list(range(len(by_turn)))  # no turn skipped
    return [mem.get(d.memory_id, user_id="ann").content for d in by_turn]


def test_a_sliding_window_files_every_new_exchange_once_in_order(mem: Memory) -> None:
    talk = [ASK, "How about Ada?", "Ada it is", "Great.", "She sleeps all day", "Kittens do."]
    _mine(mem, _said(talk[:5]), talk[5])  # the whole conversation so far
    # The client now keeps its last four messages only.
    window = _said(talk)[-4:] + [{"role": "user", "content": "She chewed my charger"}]
    first = _mine(mem, window, "Hide the cables.")
    assert len(first["added"]) == 2 and first["replaced"] == 0
    talk += ["She chewed my charger", "Hide the cables."]
    assert _room(mem) == talk
    # The window moves on: its oldest messages are ones filed two exchanges ago.
    window = _said(talk)[-4:] + [{"role": "user", "content": "Done, thanks"}]
    _mine(mem, window, "Anytime.")
    talk += ["Done, thanks", "Anytime."]
    assert _room(mem) == talk
    # A summary in place of everything but the last two messages.
    summary = {"role": "user", "content": "(Summary: a kitten named Ada who chews cables.)"}
    later = [summary, *_said(talk)[-2:], {"role": "user", "content": "She is purring"}]
    _mine(mem, later, "Happy cat.")
    talk += ["She is purring", "Happy cat."]
    assert _room(mem) == talk  # the summary is not filed: nobody said it
    # The same window sent again (a retried job) files nothing.
    again = _mine(mem, later, "Happy cat.")
    assert again["added"] == [] and _room(mem) == talk


def test_a_regenerated_reply_inside_a_window_is_still_a_branch(mem: Memory) -> None:
    talk = [ASK, "How about Ada?", "Ada it is", "Great.", "Any toy ideas?"]
    _mine(mem, _said(talk), "A feather wand.")
    window = _said(talk)[-3:]
    again = _mine(mem, window, "A cardboard box.")  # the same window, regenerated
    assert again["replaced"] == 1
    assert _room(mem) == [*talk, "A cardboard box."]


def test_mining_reads_only_what_alignment_needs(mem: Memory) -> None:
    talk = [f"message number {i} about the kitten" for i in range(120)]
    _mine(mem, _said(talk[:119]), talk[119])
    store = mem._core.store  # type: ignore[attr-defined]
    read: list[int] = []
    drawers, get_many = store.palace.drawers, store.memories.get_many

    def counted_drawers(*args: Any, **kwargs: Any) -> Any:
        found = drawers(*args, **kwargs)
        read.append(len(found))
        return found

    def counted_get_many(*args: Any, **kwargs: Any) -> Any:
        found = get_many(*args, **kwargs)
        read.append(len(found))
        return found

    store.palace.drawers, store.memories.get_many = counted_drawers, counted_get_many
    try:
        window = _said(talk)[-6:] + [{"role": "user", "content": "one more thing"}]
        result = _mine(mem, window, "Sure.")
    finally:
        store.palace.drawers, store.memories.get_many = drawers, get_many
    assert len(result["added"]) == 2
    assert sum(read) <= len(window) + 1, read  # never the room's 120 drawers
    assert _room(mem) == [*talk, "one more thing", "Sure."]


def _reverse_worker(mem: Memory, jobs: list[Job]) -> list[int]:
    """Run ``jobs`` with the worker, newest first: a job fails (a passing fault) while a
    newer one of the conversation has not completed, and is retried after its backoff.
    Returns the ids in the order they completed."""
    core = mem._core  # type: ignore[attr-defined]
    done: list[int] = []
    ids = [j.id for j in jobs]

    def flaky(core: Any, job: Job) -> Mapping[str, Any]:
        if any(i > job.id and i not in done for i in ids):
            raise ConnectionError("the embedder's server reset the connection")
        result = mine_job.mine_turn(core, job)
        done.append(job.id)
        return result

    registry = Registry()
    registry.register(mine_job.KIND, flaky)
    clock = [utcnow()]
    worker = Worker(core, (mine_job.KIND,), clock=lambda: clock[0], handlers=registry)
    worker._rng = random.Random(7)  # noqa: SLF001 - a fixed backoff for the test
    for _ in range(len(jobs)):
        worker.run_pending()
        clock[0] += timedelta(hours=1)  # past every backoff
    return done


def test_chat_jobs_run_in_reverse_never_resurrect_an_older_reply(mem: Memory) -> None:
    ask = _said([ASK])
    jobs = [
        mem.chat.after(ask, "How about Ada?", user_id="ann", conversation_id="c-7"),
        mem.chat.after(ask, "How about Miso?", user_id="ann", conversation_id="c-7"),
        mem.chat.after(
            _said([ASK, "How about Miso?", "Miso it is"]),
            "Great choice.",
            user_id="ann",
            conversation_id="c-7",
        ),
    ]
    assert all(j is not None for j in jobs)
    order = _reverse_worker(mem, [j for j in jobs if j is not None])
    assert order == [j.id for j in reversed(jobs) if j is not None]
    assert _room(mem) == [ASK, "How about Miso?", "Miso it is", "Great choice."]
    [wing] = mem.palace.tree(user_id="ann")
    for drawer in mem.palace.drawers("chat", wing.rooms[0].room.number, user_id="ann"):
        assert mem.get(drawer.memory_id, user_id="ann").superseded_by is None
    hits = mem.search("How about Ada?", user_id="ann", limit=10)
    assert all("Ada" not in h.memory.content for h in hits)  # never filed, so never found
    # A retried old job, after the newest: still nothing re-filed.
    first = jobs[0]
    assert first is not None
    again = mine_job.mine_turn(mem._core, mem.jobs.get(first.id))  # type: ignore[attr-defined]
    assert again["added"] == [] and again["replaced"] == 0


def test_an_older_job_still_fills_a_gap_but_never_branches(mem: Memory) -> None:
    newest = mem.palace.mine_conversation(
        _said([ASK, "How about Miso?"]), wing="chat", session="c-8", user_id="ann", sequence=5
    )
    assert len(newest.added) == 2
    old = mem.palace.mine_conversation(
        _said([ASK, "How about Ada?", "Ada it is"]),
        wing="chat",
        session="c-8",
        user_id="ann",
        sequence=3,
    )
    assert old.added == () and old.replaced == 0
    newer = mem.palace.mine_conversation(
        _said([ASK, "How about Luna?"]), wing="chat", session="c-8", user_id="ann", sequence=6
    )
    assert newer.replaced == 1  # a newer request's regenerated reply is a branch
