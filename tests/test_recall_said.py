"""Questions about what the agent said before (issue 24, C2): recognised from their
wording, and ranked by each memory's own similarity in the dense leg."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engram.config import Config
from engram.memory import Memory
from engram.recall.said import asks_what_you_said, config_for


@pytest.mark.parametrize(
    "question",
    [
        "How did you recommend managing the flow of requests?",
        "What approach did you recommend for the garden beds?",
        "Did you say the vet closes at six?",
        "You told me a deadline once, what was it?",
        "What had you suggested for the logo colours?",
        "Which library did you once mention for charts?",
    ],
)
def test_questions_about_what_the_agent_said_are_recognised(question: str) -> None:
    assert asks_what_you_said(question)


@pytest.mark.parametrize(
    "question",
    [
        "What would you suggest for dinner?",  # advice asked for now
        "Can you tell me how to water the garden beds?",
        "What did Caroline say about the trip?",
        "How did I confirm the ratio?",
        "What did you think of the film?",
        "Which framework does the API use?",
    ],
)
def test_other_questions_are_not(question: str) -> None:
    assert not asks_what_you_said(question)


def test_only_such_a_question_loses_the_dense_context(config: Config) -> None:
    cfg = config.recall
    assert cfg.said_alone and cfg.context_dense > 0
    alone = config_for("What did you recommend for the garden beds?", cfg)
    assert (alone.context_dense, alone.session_dense) == (0.0, 0.0)
    assert alone.context_keyword == cfg.context_keyword, "the keyword leg keeps its context"
    assert config_for("What grows in the garden beds?", cfg) is cfg
    off = config.with_overrides(recall={"said_alone": False}).recall
    assert config_for("What did you recommend for the garden beds?", off) is off


QUESTION = "what did you recommend for watering the garden beds"


def blended(mem: Memory, question: str, **settings: object) -> dict[str, tuple[float, float]]:
    found = mem.recall(question, limit=10, min_relevance=0.0, **settings)
    return {h.memory.id: (h.breakdown.sim or 0.0, h.breakdown.dense or 0.0) for h in found.hits}


def test_the_agents_answer_ranks_by_its_own_similarity(mem: Memory) -> None:
    start = datetime(2024, 5, 1, tzinfo=UTC)
    texts = [
        "user: my sister visits in May with her two cats",
        "assistant: I recommend watering the garden beds at dawn, twice a week",
        "user: the car needs new tyres before the trip",
    ]
    ids = [
        mem.add(t, session_id="s1", created_at=start + timedelta(minutes=n)).id
        for n, t in enumerate(texts)
    ]
    answer = ids[1]
    asked = blended(mem, QUESTION)
    # Its dense leg is its own cosine: the cats and the tyres next to it do not dilute it.
    assert asked[answer][1] == pytest.approx(max(0.0, asked[answer][0]))
    before = blended(mem, QUESTION, said_alone=False)
    assert before[answer][1] < asked[answer][1]
    # Any other question keeps the session context.
    other = blended(mem, "watering the garden beds")
    assert other[answer][1] < max(0.0, other[answer][0])
