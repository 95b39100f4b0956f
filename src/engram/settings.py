"""The settings of the write pipeline, its LLM and its worker, and of documents: small
validated value objects that ``engram.config.Config`` holds as sections (``[pipeline]``,
``[llm]``, ``[worker]``, ``[documents]``), with seed 004's defaults and ranges.

Kept apart from ``config.py`` so neither module outgrows one screenful of concerns;
``Config.load`` reads them from TOML and ``ENGRAM_<SECTION>_<KEY>`` like every section.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engram.errors import ConfigError


def _range(lo: float | None, hi: float | None) -> dict[str, Any]:
    return {"range": (lo, hi)}


def _choices(*values: str) -> dict[str, Any]:
    return {"choices": values}


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """seed 004's pipeline v2: what happens to a memory after it is stored."""

    enabled: bool = True
    """seed 004: master switch. When false, ``add`` enqueues no jobs."""
    shadow_mode: bool = False
    """seed 004: extract and decide, audit every proposal, write nothing."""
    allow_update_delete: bool = False
    """seed 004: let UPDATE and DELETE proposals change memories (full mode). engram
    applies them (the seed left them unimplemented): the old memory is kept, marked
    superseded and linked to its successor."""
    mutations_frozen: bool = False
    """seed 004: emergency brake; forces shadow mode."""
    extractor: str = field(default="auto", metadata=_choices("auto", "llm", "offline"))
    """``auto`` uses the LLM when ``[llm] provider`` names one, else the offline,
    rule-based extractor that needs no model."""
    min_fact_confidence: float = field(default=0.7, metadata=_range(0.0, 1.0))
    """seed 004: minFactConfidenceForWrite; ADD proposals below it are skipped."""
    max_input_chars: int = field(default=12_000, metadata=_range(100, 1_000_000))
    """seed 004: input longer than this is truncated before the extraction prompt."""
    semantic_contradiction: bool = False
    """seed 004: semanticContradictionEnabled (the LLM check of UPDATE proposals)."""
    semantic_contradiction_timeout_s: float = field(default=45.0, metadata=_range(5.0, 300.0))
    """seed 004: semanticContradictionTimeoutMs 45 000 (5 000-300 000)."""
    hints: bool = False
    """seed 004: prospective indexing (hypothetical future queries per memory); off, as
    in the seed, because offline template hints did not help LoCoMo and BEAM dev recall
    (docs/benchmarks.md, "Hints")."""
    max_hints: int = field(default=5, metadata=_range(1, 20))
    """seed 004: hints.max."""
    graph: bool = True
    """seed 004: graphEnabled; extracted entity triples are kept as a graph."""
    linker: bool = True
    """seed 004's inline entity linker (FEATURES G3): speakers, names and rule-read
    triples go into the graph in the memory's own write transaction (needs
    ``graph``; independent of ``enabled``). docs/graph.md, "Linking at write time"."""
    classify: bool = True
    """seed 004's structural classification: a ``classify`` job per entity files its
    facts under named aspects (needs ``graph``)."""
    classify_batch_size: int = field(default=20, metadata=_range(1, 200))
    """seed 004: structural.classifyBatchSize, the most facts of one entity per LLM
    call. The seed gives no default; 20 is extraction's cap of facts per memory."""


@dataclass(frozen=True, slots=True)
class GraphConfig:
    """seed 004's aspect feedback (FEATURES G5). The seed names delta, minWeight,
    maxWeight, staleDays and decayRate but gives no numbers: these defaults are
    engram's choice (docs/graph.md, "Aspect feedback")."""

    aspect_delta: float = field(default=0.05, metadata=_range(0.0, 1.0))
    """Weight added to an aspect per confirmation of one of its memories."""
    aspect_min_weight: float = field(default=0.1, metadata=_range(0.0, 1.0))
    """Floor of an aspect's weight under feedback and decay."""
    aspect_max_weight: float = field(default=1.0, metadata=_range(0.0, 1.0))
    """Ceiling of an aspect's weight under feedback."""
    aspect_stale_days: float = field(default=30.0, metadata=_range(0.0, 3650.0))
    """An aspect not confirmed for this long decays."""
    aspect_decay_rate: float = field(default=0.05, metadata=_range(0.0, 1.0))
    """Weight a stale aspect loses per decay run."""

    def __post_init__(self) -> None:
        if self.aspect_min_weight > self.aspect_max_weight:
            raise ConfigError(
                f"graph.aspect_min_weight ({self.aspect_min_weight}) is above "
                f"graph.aspect_max_weight ({self.aspect_max_weight}); lower the floor or "
                "raise the ceiling"
            )


@dataclass(frozen=True, slots=True)
class LlmConfig:
    """The LLM the pipeline asks (seed 004's provider abstraction)."""

    provider: str = field(default="none", metadata=_choices("none", "ollama", "openai", "cli"))
    """``none`` (offline), ``ollama``, ``openai`` (any OpenAI-compatible server: vLLM,
    llama.cpp, LM Studio, OpenRouter, OpenAI) or ``cli`` (a command run per prompt)."""
    model: str = ""
    """Empty: the provider's default (seed 004: qwen3:4b on Ollama, haiku on the CLI)."""
    base_url: str = ""
    """Empty: http://localhost:11434 (Ollama) or https://api.openai.com/v1 (openai)."""
    api_key_env: str = "OPENAI_API_KEY"
    """The environment variable holding the OpenAI-compatible server's key, if any."""
    command: str = (
        "claude -p {prompt} --model {model} --no-session-persistence --output-format text"
    )
    """The ``cli`` provider's command line; ``{prompt}`` and ``{model}`` are filled in
    (seed 004's ClaudeCodeProvider)."""
    timeout_s: float = field(default=45.0, metadata=_range(1.0, 600.0))
    """seed 004: 45 s per generate call (the CLI provider's own default is 60 s)."""
    structured_output: bool = True
    """Send a JSON schema (Ollama ``format``, OpenAI ``response_format``) where the
    server supports it."""


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    """seed 004's job worker: leasing, retries, backoff."""

    poll_ms: int = field(default=2000, metadata=_range(100, 60_000))
    """seed 004: workerPollMs."""
    max_attempts: int = field(default=3, metadata=_range(1, 10))
    """seed 004: maxRetries / max_attempts; then the job is dead."""
    lease_timeout_s: int = field(default=300, metadata=_range(10, 600))
    """seed 004: leaseTimeoutMs 300 000; a lease older than this is re-leased."""
    reaper_interval_s: int = field(default=60, metadata=_range(1, 3600))
    """seed 004: the stale-lease reaper's fixed interval."""
    backoff_base_ms: int = field(default=1000, metadata=_range(10, 60_000))
    """seed 004: each failure doubles the delay from 1 000 ms ..."""
    backoff_cap_ms: int = field(default=30_000, metadata=_range(100, 600_000))
    """seed 004: ... up to 30 000 ms ..."""
    jitter_ms: int = field(default=500, metadata=_range(0, 10_000))
    """seed 004: ... plus up to 500 ms of random jitter."""


@dataclass(frozen=True, slots=True)
class DocumentsConfig:
    """seed 004's document ingest."""

    chunk_size: int = field(default=2000, metadata=_range(200, 50_000))
    """seed 004: documentChunkSize."""
    chunk_overlap: int = field(default=200, metadata=_range(0, 10_000))
    """seed 004: documentChunkOverlap."""
    max_content_bytes: int = field(default=10_485_760, metadata=_range(1024, 104_857_600))
    """seed 004: documentMaxContentBytes (10 MB)."""
    fetch_timeout_s: float = field(default=30.0, metadata=_range(1.0, 600.0))
    """seed 004: the URL fetcher's 30 s timeout."""
