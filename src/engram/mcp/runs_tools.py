"""The run MCP tools (FEATURES H1, H2): ``compress_and_store`` and ``record_run``, a thin
translation of ``mem.runs`` for agents that run as a harness.

``engram.mcp.server`` registers them next to the memory tools and runs each through the
same ``call`` (see ``engram.mcp.graph_tools``). ``get_context`` (in the server) takes a
``run_id`` too, and then logs the memories it returned as injected into that run.

No ``from __future__ import annotations``: the SDK builds each tool's schema from its
evaluated signature.
"""

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from engram.mcp.annotations import IDEMPOTENT_WRITE, WRITE, Tools
from engram.mcp.graph_tools import Call
from engram.memory import Memory

#: The run tools, in the order they are listed (after the memory tools).
RUNS_TOOL_NAMES = ("compress_and_store", "record_run")

RunIdArg = Annotated[
    str | None,
    Field(
        pattern=r"^[A-Za-z0-9_.:@/+-]{1,200}$",
        description="Your harness's id for this run (compress_and_store and record_run "
        "make one when it is left out).",
    ),
]
ScoreArg = Annotated[
    float | None, Field(ge=0, le=10, description="The evaluator's final score, 0-10.")
]
IssuesArg = Annotated[
    list[Annotated[str, Field(max_length=2000)]] | None,
    Field(max_length=100, description="The evaluator's issues; kept as [wiggum] facts."),
]
TaskTypeArg = Annotated[
    str | None, Field(max_length=200, description="The kind of task, e.g. research.")
]
TokensArg = Annotated[int | None, Field(ge=0, description="Tokens used.")]


class RunSummary(BaseModel):
    """A run of the run log."""

    run_id: str
    status: str
    task: str | None
    task_type: str | None
    score: float | None
    issues: list[str]
    finished_at: str | None


class Observation(BaseModel):
    """The observation compress_and_store stored."""

    id: str = Field(description="The observation's memory id.")
    created: bool = Field(description="False if the same observation was already stored.")
    run_id: str
    title: str | None
    narrative: str | None
    facts: list[str]
    summarizer: str = Field(description='"llm:<provider>:<model>" or "offline".')
    dropped_issues: list[str] = Field(
        description="Evaluator issues the injection scan kept out of the facts."
    )
    warnings: list[str]


def _run(run: Any) -> RunSummary:
    """The summary of a run: its own dict (times as ISO 8601), the fields the model names."""
    return RunSummary.model_validate(run.to_dict())


def runs_tools(memory: Memory, call: Call) -> Tools:
    """The run tools over ``memory``, each with its MCP annotations."""

    async def compress_and_store(
        task: Annotated[
            str, Field(min_length=1, max_length=100_000, description="What the run was asked.")
        ],
        output: Annotated[str, Field(max_length=10_000_000, description="What the run produced.")],
        task_type: TaskTypeArg = None,
        queries: Annotated[
            list[Annotated[str, Field(max_length=10_000)]] | None,
            Field(max_length=100, description="The search queries the run issued."),
        ] = None,
        score: ScoreArg = None,
        issues: IssuesArg = None,
        run_id: RunIdArg = None,
    ) -> Observation:
        """Call when a task is finished: it compresses the task and its output into one
        observation (a title, a 2-3 sentence narrative and key facts) that get_context
        returns to later runs on related topics, and records the run. Pass the
        evaluator's score and issues when there are any, and the run_id you passed to
        get_context."""

        def run(ns: str) -> Observation:
            done = memory.runs.compress_and_store(
                task,
                output,
                task_type=task_type,
                queries=queries,
                score=score,
                issues=issues,
                run_id=run_id,
                namespace=ns,
            )
            return Observation(
                id=done.memory.id,
                created=done.created,
                run_id=done.run.run_id,
                title=done.memory.title,
                narrative=done.memory.narrative,
                facts=list(done.memory.facts),
                summarizer=done.summarizer,
                dropped_issues=[b.issue for b in done.blocked_issues],
                warnings=list(done.warnings),
            )

        return await call(run)

    async def record_run(
        run_id: RunIdArg = None,
        task: Annotated[
            str | None, Field(max_length=100_000, description="What the run was asked.")
        ] = None,
        task_type: TaskTypeArg = None,
        status: Annotated[
            Literal["running", "completed", "failed"] | None,
            Field(description="running, completed (the default for a new run) or failed."),
        ] = None,
        score: ScoreArg = None,
        issues: IssuesArg = None,
        tokens_in: TokensArg = None,
        tokens_out: TokensArg = None,
    ) -> RunSummary:
        """Call to record a run in the run log (at its start with status running, or when
        it ends), or to update the fields given of a recorded run: status, score,
        issues, token counts. It stores no memory; compress_and_store does."""

        def run(ns: str) -> RunSummary:
            return _run(
                memory.runs.record_run(
                    run_id,
                    task=task,
                    task_type=task_type,
                    status=status,
                    score=score,
                    issues=issues,
                    tokens_in=tokens_in,
                    tokens_out=tokens_out,
                    namespace=ns,
                )
            )

        return await call(run)

    return {
        "compress_and_store": (
            compress_and_store,
            WRITE,
        ),
        "record_run": (
            record_run,
            IDEMPOTENT_WRITE,
        ),
    }
