"""mem0's ``AsyncMemory`` through the import swap (new-user pass, round three): mem0
documents ``from mem0 import AsyncMemory`` with the same verbs and shapes as ``Memory``,
awaited. ``from engram.compat.mem0 import AsyncMemory`` failed with an ImportError.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import AsyncMemory


def test_the_async_door_answers_as_the_sync_one(tmp_path: Path) -> None:
    config = Config.load(env={}, home=str(tmp_path))

    async def session() -> None:
        async with AsyncMemory(str(tmp_path / "m.db"), config=config, embedder=HashEmbedder()) as m:
            added = await m.add(
                [{"role": "user", "content": "I love sushi"}], user_id="alice", infer=False
            )
            assert [r["event"] for r in added["results"]] == ["ADD"]
            assert added["results"][0]["memory"] == "I love sushi"
            memory_id = added["results"][0]["id"]
            found = await m.search("sushi", filters={"user_id": "alice"}, top_k=5)
            assert [r["id"] for r in found["results"]] == [memory_id]
            assert (await m.get(memory_id))["memory"] == "I love sushi"
            listed = await m.get_all(filters={"user_id": "alice"})
            assert [r["id"] for r in listed["results"]] == [memory_id]
            updated = await m.update(memory_id, "I love ramen")
            assert updated == {"message": "Memory updated successfully!"}
            events = [h["event"] for h in await m.history(memory_id)]
            assert events == ["ADD", "UPDATE"]
            assert await m.delete(memory_id) == {"message": "Memory deleted successfully!"}
            assert await m.get(memory_id) is None
            await m.add("I walk to work", user_id="alice", infer=False)
            gone = await m.delete_all(user_id="alice")
            assert gone == {"message": "Memories deleted successfully!"}
            assert (await m.get_all(filters={"user_id": "alice"}))["results"] == []

    asyncio.run(session())


def test_two_awaited_adds_at_once_both_land(tmp_path: Path) -> None:
    config = Config.load(env={}, home=str(tmp_path))

    async def session() -> int:
        async with AsyncMemory(str(tmp_path / "m.db"), config=config, embedder=HashEmbedder()) as m:
            await asyncio.gather(
                *(m.add(f"note {i}", user_id="bob", infer=False) for i in range(8))
            )
            return len((await m.get_all(filters={"user_id": "bob"}))["results"])

    assert asyncio.run(session()) == 8
