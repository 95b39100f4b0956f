"""H1: a model's refusal is never stored as an observation's title. Refusals are told
from titles by how they open (engram.runs.refusal), and ``compress_and_store`` against
a scripted model server on 127.0.0.1 that refuses falls back to the offline summary,
on both backends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.runs.refusal import is_refusal
from engram.runs.summarize import offline_summary
from llmserver import ScriptedLlm, fenced

TASK = "Compare vector indexes for a 10M-row PostgreSQL table"
OUTPUT = """HNSW indexes answer top-10 queries in 4 ms on 10M rows with recall 0.98.
IVFFlat builds five times faster than HNSW but recall drops to 0.91 at the same speed.
pgvector 0.7 added halfvec, which halves the index size.
Building the HNSW index took 41 minutes on 8 cores.
"""

REFUSALS = [
    "I cannot help with that request.",
    "I'm sorry, but I can't assist with that.",
    "I’m sorry, but I can’t help with this.",
    "As an AI language model, I cannot summarise this content.",
    "As an AI, I don't have the ability to do that.",
    "Sorry, I can't do that.",
    "Unfortunately, I am unable to complete this task.",
    "I must decline this request.",
    "**I'm unable to help with that.**",
]


@pytest.mark.parametrize("text", REFUSALS)
def test_refusals_are_recognised(text: str) -> None:
    assert is_refusal(text)


@pytest.mark.parametrize(
    "text",
    [
        "Vector indexes for PostgreSQL compared",
        "Why the parser cannot help with nested quotes",
        "I compared three vector stores on 10M rows",
        "Icons cannot render in the sidebar",
        "As-built documentation of the billing API",
        "Sorting algorithms, sorted by speed",
        "",
        None,
    ],
)
def test_titles_are_not_refusals(text: str | None) -> None:
    assert not is_refusal(text)


@pytest.fixture
def llm() -> Iterator[ScriptedLlm]:
    with ScriptedLlm() as server:
        yield server


def _llm_mem(tmp_path: Path, llm: ScriptedLlm, store: str) -> Memory:
    config = Config.load(
        env={},
        home=str(tmp_path / "home"),
        llm={"provider": "ollama", "base_url": llm.url, "timeout_s": 5},
        pipeline={"enabled": False},
    )
    return Memory(store, config=config, embedder=HashEmbedder())


@pytest.mark.parametrize(
    "answer",
    [
        "I cannot help with that request.",
        "I'm sorry, but I can't help with summarising this run.",
        "<think>\nThe user wants a summary.\n</think>\n\nAs an AI language model, I cannot.",
        "```text\nTitle: I cannot help with that request.\nNarrative: n/a\nFacts: []\n```",
        fenced({"title": "I'm sorry, but I can't assist with that.", "narrative": "", "facts": []}),
        "Title: Vector index results\nNarrative: I'm sorry, but I cannot summarise it.\nFacts: []",
    ],
)
def test_a_refusing_model_falls_back_to_the_offline_summary(
    tmp_path: Path, llm: ScriptedLlm, store_location: str, answer: str
) -> None:
    llm.script(answer)
    with _llm_mem(tmp_path, llm, store_location) as mem:
        done = mem.runs.compress_and_store(TASK, OUTPUT, run_id="refused")
        stored = mem.get(done.memory.id)
    offline = offline_summary(TASK, OUTPUT)
    assert len(llm.requests) == 1 and llm.pending == 0  # the model was asked, once
    assert done.summarizer == "offline"
    assert stored.title == offline.title == TASK
    assert stored.narrative == offline.narrative and stored.facts == offline.facts
    assert not is_refusal(stored.title) and not is_refusal(stored.narrative)
    [warning] = done.warnings
    assert warning.startswith("the model refused (") and "offline summary was used" in warning
