"""A mem0 personal assistant moved to engram (new-user pass, round thirty): it builds
its store with ``Memory.from_config(config_dict)`` as mem0's docs show, and on the
door that first line raised ``AttributeError`` (scripts/pass42_assistant.py runs the
app on real mem0 2.2.1 and on the door and compares)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import AsyncMemory, Memory
from engram.compat.mem0_config import settings
from engram.config import ConfigWarning
from engram.errors import InvalidInputError


def qdrant(path: Path, collection: str = "assistant") -> dict[str, Any]:
    """mem0's documented local config: Qdrant on a path, a history db beside it."""
    return {
        "vector_store": {
            "provider": "qdrant",
            "config": {"collection_name": collection, "path": str(path)},
        },
        "history_db_path": str(path / "history.db"),
        "version": "v1.1",
    }


def test_from_config_opens_a_store_per_path_and_collection(tmp_path: Path) -> None:
    config = Config.load(env={}, home=str(tmp_path / "home"))
    where = tmp_path / "mem0data"
    opened = [
        Memory.from_config(qdrant(where, name), config=config, embedder=HashEmbedder())
        for name in ("assistant", "planner")
    ]
    try:
        first, second = opened
        first.add("I am allergic to penicillin.", user_id="maya", infer=False)
        second.add("Prefer trains over flights.", user_id="maya", infer=False)
        # mem0 keeps two collections in one directory apart; so do the two files.
        assert [r["memory"] for r in first.get_all(filters={"user_id": "maya"})["results"]] == [
            "I am allergic to penicillin."
        ]
        assert [r["memory"] for r in second.get_all(filters={"user_id": "maya"})["results"]] == [
            "Prefer trains over flights."
        ]
        assert (where / "assistant.engram.db").is_file()
        assert not (tmp_path / "home" / "engram.db").exists()  # not the default store
    finally:
        for door in opened:
            door.close()
    # Opened again from the same dict, the memories are there (the store persists).
    with Memory.from_config(qdrant(where), config=config, embedder=HashEmbedder()) as again:
        found = again.search("penicillin allergy", filters={"user_id": "maya"})
        assert [r["memory"] for r in found["results"]] == ["I am allergic to penicillin."]


def test_from_config_pgvector_opens_the_database(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    config = Config.load(env={}, home=str(tmp_path / "home"))
    if backend == "postgres":
        where = str(request.getfixturevalue("pg_url"))
        mem0_config = {
            "vector_store": {"provider": "pgvector", "config": {"connection_string": where}}
        }
    else:
        mem0_config = qdrant(tmp_path / "q")
        where = str(tmp_path / "q" / "assistant.engram.db")
    with Memory.from_config(mem0_config, config=config, embedder=HashEmbedder()) as door:
        added = door.add(
            [{"role": "user", "content": "I work from home on Mondays."}],
            user_id="maya",
            run_id="s-07",
            infer=False,
        )
        memory_id = added["results"][0]["id"]
    # The memory is in the database the config named, read by a door opened on it.
    with Memory(where, config=config, embedder=HashEmbedder()) as plain:
        got = plain.get(memory_id)
        assert got is not None and got["run_id"] == "s-07"


def test_a_mem0_config_maps_to_engrams_settings(tmp_path: Path) -> None:
    base = Config.load(env={}, home=str(tmp_path))
    location, config = settings(
        {
            "vector_store": {
                "provider": "pgvector",
                "config": {"user": "app", "password": "p@ss", "host": "db", "port": 5433}
                | {"dbname": "mem"},
            },
            "llm": {"provider": "ollama", "config": {"model": "qwen3:4b"}} | {"ignored": None},
            "embedder": {
                "provider": "openai",
                "config": {"model": "text-embedding-3-small", "embedding_dims": 1536},
            },
        },
        base,
    )
    assert location == "postgresql://app:p%40ss@db:5433/mem"
    assert (config.llm.provider, config.llm.model) == ("ollama", "qwen3:4b")
    assert (config.embedder.name, config.embedder.model, config.embedder.dimension) == (
        "openai",
        "text-embedding-3-small",
        1536,
    )
    _, vllm = settings(
        {"llm": {"provider": "vllm", "config": {"vllm_base_url": "http://gpu:8000/v1"}}}, base
    )
    assert (vllm.llm.provider, vllm.llm.base_url) == ("openai", "http://gpu:8000/v1")


def test_what_is_not_carried_is_said(tmp_path: Path) -> None:
    base = Config.load(env={}, home=str(tmp_path))
    with pytest.warns(ConfigWarning, match="llm anthropic, embedder huggingface, reranker"):
        location, config = settings(
            qdrant(tmp_path)
            | {"embedder": {"provider": "huggingface", "config": {"model": "all-MiniLM-L6-v2"}}}
            | {"llm": {"provider": "anthropic", "config": {}}}
            | {"reranker": {"provider": "cohere"}},
            base,
        )
    assert location == str(tmp_path / "assistant.engram.db")
    assert config.llm == base.llm and config.embedder == base.embedder
    # Given an embedder, mem0's embedder section is not read (nothing to say about it).
    settings(
        qdrant(tmp_path) | {"embedder": {"provider": "huggingface"}}, base, embedder_given=True
    )


@pytest.mark.parametrize(
    "bad",
    [["vector_store"], {"vector_store": "qdrant"}, {"llm": {"provider": "openai", "config": 3}}]
    + [{"vector_store": {"provider": "pgvector", "config": {"host": "db"}}}],
)
def test_a_config_mem0_refuses_is_refused(bad: Any, tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError) as caught:
        Memory.from_config(bad, config=Config.load(env={}, home=str(tmp_path)))
    assert isinstance(caught.value, ValueError)  # mem0's ValidationError is one too


def test_async_from_config(tmp_path: Path) -> None:
    config = Config.load(env={}, home=str(tmp_path / "home"))

    async def session() -> list[str]:
        async with AsyncMemory.from_config(
            qdrant(tmp_path / "q"), config=config, embedder=HashEmbedder()
        ) as door:
            await door.add("Window seats please.", user_id="chen", infer=False)
            listed = await door.get_all(filters={"user_id": "chen"})
            return [r["memory"] for r in listed["results"]]

    assert asyncio.run(session()) == ["Window seats please."]


def test_a_text_said_in_two_runs_outlives_deleting_one(config: Config, store_location: str) -> None:
    # mem0 keeps one memory per add, so a fact said in two sessions survives deleting
    # the first session. The door keeps one memory per text, with the first add's ids:
    # delete_all(run_id="s-01") deleted the allergy session s-08 had said too.
    said = [{"role": "user", "content": "I am allergic to penicillin."}]
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        first = m.add(said, user_id="maya", agent_id="aria", run_id="s-01", infer=False)
        again = m.add(said, user_id="maya", agent_id="aria", run_id="s-08", infer=False)
        memory_id = first["results"][0]["id"]
        assert again["results"][0]["event"] == "NONE"
        m.add("I work from home on Mondays.", user_id="maya", run_id="s-01", infer=False)
        m.delete_all(user_id="maya", run_id="s-01")
        item = m.get(memory_id)
        assert item is not None and item["run_id"] == "s-08"
        assert item["metadata"] is None  # the door's note of the runs is not the caller's
        listed = m.get_all(filters={"user_id": "maya"})["results"]
        assert [r["memory"] for r in listed] == ["I am allergic to penicillin."]
        assert m.get_all(filters={"user_id": "maya", "run_id": "s-01"})["results"] == []
        assert [r["event"] for r in m.history(memory_id)] == ["ADD", "NONE"]
        # Deleting the last run that said it deletes it, as on mem0.
        m.delete_all(run_id="s-08")
        assert m.get(memory_id) is None
        # Deleting the owner deletes a text said in two runs at once.
        m.add(said, user_id="ben", run_id="s-1", infer=False)
        m.add(said, user_id="ben", run_id="s-2", infer=False)
        m.delete_all(user_id="ben")
        assert m.get_all(filters={"user_id": "ben"})["results"] == []
