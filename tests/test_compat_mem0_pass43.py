"""A mem0 coding-agent crew moved to engram (new-user pass, round thirty-one,
scripts/pass43_crew.py): a convention every agent repeats in its own pull request
(``run_id``), and the crew's asyncio service closing its ``AsyncMemory`` as mem0's
docs do, without ``await``."""

from __future__ import annotations

import asyncio
import gc
import warnings
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import AsyncMemory, Memory

CONVENTION = "The project uses Python 3.12 and ruff for linting."


def _said_by_three(m: Memory) -> str:
    """The convention said in pr-101 (architect), pr-102 (coder), pr-103 (reviewer)."""
    said = [{"role": "user", "content": CONVENTION}]
    first = m.add(said, user_id="dana", agent_id="architect", run_id="pr-101", infer=False)
    m.add(said, user_id="dana", agent_id="coder", run_id="pr-102", infer=False)
    m.add(said, user_id="dana", agent_id="reviewer", run_id="pr-103", infer=False)
    m.add(
        "Invoices use integer cents.",
        user_id="dana",
        agent_id="coder",
        run_id="pr-102",
        infer=False,
    )
    m.add("Ship after the freeze.", agent_id="reviewer", run_id="pr-103", infer=False)
    return str(first["results"][0]["id"])


def _listed(m: Memory, **filters: Any) -> list[tuple[str, Any, Any]]:
    out = m.get_all(filters=filters)["results"]
    return sorted((r["memory"], r.get("agent_id"), r.get("run_id")) for r in out)


def test_a_text_said_again_is_listed_under_the_later_run(
    config: Config, store_location: str
) -> None:
    # On the base the memory carried pr-101's ids only: pr-103's listing missed the
    # convention its reviewer had said (mem0 lists pr-103's own copy).
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        memory_id = _said_by_three(m)
        assert _listed(m, run_id="pr-103") == [
            ("Ship after the freeze.", "reviewer", "pr-103"),
            (CONVENTION, "reviewer", "pr-103"),
        ]
        assert _listed(m, user_id="dana", agent_id="coder") == [
            ("Invoices use integer cents.", "coder", "pr-102"),
            (CONVENTION, "coder", "pr-102"),
        ]
        assert _listed(m, user_id="dana", run_id="pr-101") == [(CONVENTION, "architect", "pr-101")]
        found = m.search("python version ruff", filters={"run_id": "pr-103"})["results"]
        assert [(r["id"], r["run_id"]) for r in found][:1] == [(memory_id, "pr-103")]
        hits = m.search("python version", filters={"user_id": "dana", "agent_id": "reviewer"})
        assert [r["memory"] for r in hits["results"]] == [CONVENTION]
        # The owner's own listing has the memory once, with its own ids and metadata.
        mine = m.get_all(filters={"user_id": "dana"})["results"]
        assert [r["memory"] for r in mine].count(CONVENTION) == 1
        assert all(r["metadata"] is None or "mem0_said_again" not in r["metadata"] for r in mine)
        # Metadata conditions still apply to what a later run said.
        assert _listed(m, run_id="pr-103", role="assistant") == []


def test_deleting_a_later_run_stops_it_answering(config: Config, store_location: str) -> None:
    # mem0 deletes that run's copy and keeps the first; the door keeps the memory and
    # drops the run from its note, so the run's listing no longer lists it.
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        memory_id = _said_by_three(m)
        m.delete_all(run_id="pr-103")
        assert _listed(m, run_id="pr-103") == []
        item = m.get(memory_id)
        assert item is not None and (item["agent_id"], item["run_id"]) == ("architect", "pr-101")
        assert _listed(m, user_id="dana", run_id="pr-102")[1] == (CONVENTION, "coder", "pr-102")
        m.delete_all(user_id="dana", agent_id="coder")
        assert _listed(m, user_id="dana", agent_id="coder") == []
        assert _listed(m, user_id="dana") == [(CONVENTION, "architect", "pr-101")]
        # Said once now: deleting its run deletes it, as on mem0.
        m.delete_all(run_id="pr-101")
        assert m.get(memory_id) is None
        assert [r["event"] for r in m.history(memory_id)] == ["ADD", "NONE", "NONE", "DELETE"]


def test_async_close_without_await_closes_the_store(config: Config, tmp_path: Any) -> None:
    # mem0's AsyncMemory.close() is a plain method. The door's was a coroutine: called
    # as mem0's docs show, it closed nothing and warned "never awaited".
    location = str(tmp_path / "crew.db")

    async def service() -> None:
        door = AsyncMemory(location, config=config, embedder=HashEmbedder())
        await door.add("Use structured logging.", agent_id="reviewer", infer=False)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            door.close()
            gc.collect()
        assert door.engram._core.closed
        again = AsyncMemory(location, config=config, embedder=HashEmbedder())
        await again.close()  # code written for the coroutine still awaits it
        assert again.engram._core.closed

    asyncio.run(service())


def test_a_later_run_shows_the_metadata_its_add_gave(config: Config, store_location: str) -> None:
    # mem0's copy of each add keeps that add's metadata: a reviewer's listing filtered
    # on its own metadata finds the convention it said, and once the first run is
    # deleted the memory left has the later add's metadata.
    said = [{"role": "user", "content": CONVENTION}]
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        first = m.add(
            said,
            user_id="dana",
            agent_id="architect",
            run_id="pr-101",
            metadata={"area": "design", "severity": 3},
            infer=False,
        )
        m.add(
            said,
            user_id="dana",
            agent_id="reviewer",
            run_id="pr-103",
            metadata={"area": "review", "severity": 4},
            infer=False,
        )
        memory_id = first["results"][0]["id"]
        listed = m.get_all(filters={"run_id": "pr-103", "area": "review"})["results"]
        assert [(r["memory"], r["metadata"]) for r in listed] == [
            (CONVENTION, {"area": "review", "severity": 4})
        ]
        assert m.get_all(filters={"run_id": "pr-103", "area": "design"})["results"] == []
        hits = m.search("ruff", filters={"run_id": "pr-103", "severity": {"gte": 4}})["results"]
        assert [r["metadata"] for r in hits] == [{"area": "review", "severity": 4}]
        item = m.get(memory_id)
        assert item is not None and item["metadata"] == {"area": "design", "severity": 3}
        m.delete_all(run_id="pr-101")
        item = m.get(memory_id)
        assert item is not None and item["metadata"] == {"area": "review", "severity": 4}
        assert (item["agent_id"], item["run_id"]) == ("reviewer", "pr-103")


def test_update_to_another_memorys_text_keeps_both(config: Config, store_location: str) -> None:
    # Decided, not changed (round thirty-one): mem0 keeps two memories with one text;
    # engram keeps one per text in a namespace (seed 004, a unique index), and the
    # door will not make one id answer for another's row. The update raises a
    # ValueError naming the memory that holds the text; neither memory loses its text,
    # ids or history, and a text said under two runs is still listed under both.
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        memory_id = _said_by_three(m)
        other = m.add("Invoices use cents.", user_id="dana", run_id="pr-105", infer=False)
        other_id = other["results"][0]["id"]
        with pytest.raises(ValueError, match=memory_id):
            m.update(other_id, text=CONVENTION)
        assert (m.get(other_id) or {})["memory"] == "Invoices use cents."
        assert (m.get(memory_id) or {})["memory"] == CONVENTION
        assert [r["event"] for r in m.history(other_id)] == ["ADD"]
        assert _listed(m, run_id="pr-102")[1] == (CONVENTION, "coder", "pr-102")
