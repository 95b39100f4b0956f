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


@dataclass(frozen=True, slots=True)
class ReviewConfig:
    """seed 000's memory panel: the graph view (``mem.review.graph``)."""

    graph_max_nodes: int = field(default=600, metadata=_range(1, 10_000))
    """seed 000: "Max nodes 600 (configurable)": the most recent memories the graph
    projects."""


@dataclass(frozen=True, slots=True)
class SessionsConfig:
    """seed 004's session checkpoints and continuity scoring (``continuity`` there)."""

    enabled: bool = True
    """seed 004: the master switch; off, triggers record nothing."""
    prompt_interval: int = field(default=10, metadata=_range(1, 1000))
    """seed 004: promptInterval, prompts between periodic checkpoints."""
    time_interval_s: float = field(default=900.0, metadata=_range(60.0, 3600.0))
    """seed 004: timeIntervalMs 900 000 (15 min), time between periodic checkpoints."""
    max_checkpoints_per_session: int = field(default=50, metadata=_range(1, 500))
    """seed 004: maxCheckpointsPerSession; the oldest beyond it are deleted."""
    retention_days: int = field(default=7, metadata=_range(1, 90))
    """seed 004: retentionDays; older checkpoints are hard-deleted by pruning."""
    recovery_budget_chars: int = field(default=2000, metadata=_range(200, 10_000))
    """seed 004: recoveryBudgetChars, the recovery digest's maximum length."""
    debounce_ms: int = field(default=2500, metadata=_range(0, 60_000))
    """seed 004: the flush queue debounces checkpoint writes at 2 500 ms."""
    confirm_relevance: float = field(default=0.5, metadata=_range(0.0, 1.0))
    """An injected memory scored at least this relevant at session end confirms its
    aspects in the graph (seed 004's aspect feedback)."""


@dataclass(frozen=True, slots=True)
class OrgConfig:
    """seed 002's organisational memory (``org_memory`` there): core policies in every
    context, the extended store retrieved on demand (FEATURES S4)."""

    max_retrieved_per_query: int = field(default=5, metadata=_range(1, 100))
    """seed 002: ``extended_store.max_retrieved_per_query``, the default ``query`` limit."""
    policy_budget_tokens: int = field(default=500, metadata=_range(50, 20_000))
    """The most tokens (about four characters each) the core-policies block may take at
    the head of every context; seed 002 expects 5-10 critical rules."""
    inject_policies: bool = True
    """Put the active core policies at the head of every recall context (seed 002:
    "always in system prompt")."""


@dataclass(frozen=True, slots=True)
class LifecycleConfig:
    """seed 002's consolidation, dual-mode archival and retention rules, and seed 004's
    retention worker (``mem.lifecycle``)."""

    consolidation_interval: str = field(
        default="daily", metadata=_choices("hourly", "daily", "weekly", "never")
    )
    """seed 002: consolidation_interval "daily" (ConsolidationInterval HOURLY, DAILY,
    WEEKLY, NEVER): how often ``engram serve`` compresses old memories."""
    max_memories_per_agent: int = field(default=10_000, metadata=_range(1, 100_000_000))
    """seed 002: max_memories_per_agent 10000; consolidation archives the oldest live
    memories of a namespace past it."""
    archive_max_per_agent: int | None = field(default=10_000, metadata=_range(1, 100_000_000))
    """Archived originals kept verbatim per namespace (ours: the seeds set no archive
    cap; the default mirrors max_memories_per_agent). The retention sweep compacts the
    oldest beyond it (their text goes, their summary memory stays); null = keep all."""
    dual_mode: bool = True
    """seed 002: DualModeConfig.enabled: classify density before choosing the archival
    mode (dense -> extractive, sparse -> abstractive). Off, every group is abstractive."""
    dense_threshold: float = field(default=0.5, metadata=_range(0.0, 1.0))
    """seed 002's DualModeConfig threshold: a density score at or above it is dense."""
    group_size: int = field(default=20, metadata=_range(2, 1000))
    """Originals folded into one summary memory (per category group)."""
    max_facts: int = field(default=10, metadata=_range(1, 100))
    """seed 002's fact limit: key facts an extractive summary keeps verbatim (besides
    its start / mid / end anchors)."""
    summary_max_chars: int = field(default=2000, metadata=_range(200, 50_000))
    """The longest summary memory consolidation writes."""
    retention_days: int | None = field(default=None, metadata=_range(1, 36_500))
    """seed 002: retention_days null = forever; the company global default."""
    working_retention_days: int | None = field(default=None, metadata=_range(1, 36_500))
    """seed 002: the company RetentionRule of the ``working`` category (null = none)."""
    episodic_retention_days: int | None = field(default=None, metadata=_range(1, 36_500))
    """seed 002: the company RetentionRule of the ``episodic`` category."""
    semantic_retention_days: int | None = field(default=None, metadata=_range(1, 36_500))
    """seed 002: the company RetentionRule of the ``semantic`` category."""
    procedural_retention_days: int | None = field(default=None, metadata=_range(1, 36_500))
    """seed 002: the company RetentionRule of the ``procedural`` category."""
    social_retention_days: int | None = field(default=None, metadata=_range(1, 36_500))
    """seed 002: the company RetentionRule of the ``social`` category."""
    retention_interval_s: float = field(default=21_600.0, metadata=_range(60.0, 604_800.0))
    """seed 004: the retention worker's "default 6-hour interval"."""
    tombstone_days: int = field(default=30, metadata=_range(1, 3650))
    """seed 004: tombstones are hard-deleted 30 days after they were soft-deleted."""
    history_days: int = field(default=180, metadata=_range(1, 36_500))
    """seed 004: memory_history rows are purged after 180 days."""
    completed_jobs_days: int = field(default=14, metadata=_range(1, 3650))
    """seed 004: completed jobs are deleted 14 days after they completed."""
    dead_jobs_days: int = field(default=30, metadata=_range(1, 3650))
    """seed 004: dead jobs are deleted 30 days after they failed."""


@dataclass(frozen=True, slots=True)
class MaintenanceConfig:
    """seed 004's maintenance worker (``autonomous`` and ``repair`` there) and its
    embedding tracker (``embeddingTracker``); FEATURES S10."""

    enabled: bool = True
    """seed 004: autonomous.enabled; off, ``engram serve`` runs no maintenance cycles
    (``engram maintenance run`` still works)."""
    frozen: bool = False
    """seed 004: autonomous.frozen; stops the scheduled cycles even when enabled."""
    interval_ms: int = field(default=1_800_000, metadata=_range(60_000, 86_400_000))
    """seed 004: maintenanceIntervalMs, 30 min (range 60 s-24 h)."""
    mode: str = field(default="execute", metadata=_choices("observe", "execute"))
    """seed 004: maintenanceMode of the scheduled cycles; ``observe`` only reports."""
    reembed_cooldown_ms: int = field(default=300_000, metadata=_range(10_000, 3_600_000))
    """seed 004: repair.reembedCooldownMs, 5 min."""
    reembed_hourly_budget: int = field(default=10, metadata=_range(1, 1000))
    """seed 004: repair.reembedHourlyBudget."""
    requeue_cooldown_ms: int = field(default=60_000, metadata=_range(5_000, 3_600_000))
    """seed 004: repair.requeueCooldownMs, 1 min (dead jobs and stale leases)."""
    requeue_hourly_budget: int = field(default=50, metadata=_range(1, 1000))
    """seed 004: repair.requeueHourlyBudget."""
    dedup_cooldown_ms: int = field(default=600_000, metadata=_range(10_000, 3_600_000))
    """seed 004: repair.dedupCooldownMs, 10 min."""
    dedup_hourly_budget: int = field(default=3, metadata=_range(1, 100))
    """seed 004: repair.dedupHourlyBudget."""
    dedup_semantic_threshold: float = field(default=0.92, metadata=_range(0.0, 1.0))
    """seed 004: repair.dedupSemanticThreshold; cosine at or above it is a duplicate."""
    dedup_batch_size: int = field(default=100, metadata=_range(10, 1000))
    """seed 004: repair.dedupBatchSize, memories one dedup run compares."""
    tracker_enabled: bool = True
    """seed 004: embeddingTracker.enabled."""
    tracker_poll_ms: int = field(default=5000, metadata=_range(1000, 60_000))
    """seed 004: embeddingTracker.pollMs, between tracker cycles."""
    tracker_batch_size: int = field(default=8, metadata=_range(1, 20))
    """seed 004: embeddingTracker.batchSize, vectors refreshed per cycle."""


@dataclass(frozen=True, slots=True)
class ProceduralConfig:
    """seed 002's ``ProceduralMemoryConfig``: procedures proposed from failures."""

    enabled: bool = True
    """seed 002: enabled (default True); off, ``mem.procedures.propose`` refuses."""
    model: str = ""
    """seed 002: the proposer's model (its example is "example-small-001"); empty asks
    the ``[llm]`` model. The provider is always ``[llm]``'s."""
    min_confidence: float = field(default=0.5, metadata=_range(0.0, 1.0))
    """seed 002: min_confidence; proposals below it are discarded, not stored."""
    skill_md_directory: str = ""
    """seed 002: skill_md_directory; set, every stored proposal is also written there as
    ``<name>/SKILL.md``. Empty: no file unless a call asks for one."""


@dataclass(frozen=True, slots=True)
class AgentsConfig:
    """seed 002's per-agent ``memory.level`` and ``options.shared_knowledge_base``
    (``mem.agents``, ``mem.shared``; FEATURES S2, S3)."""

    default_level: str = field(
        default="persistent", metadata=_choices("none", "session", "persistent")
    )
    """The level of an agent that never set one. seed 002 documents ``session`` as its
    default; engram keeps ``persistent`` so an upgrade changes no one's memories.
    ``project`` cannot be a default (it needs a project per agent)."""
    shared_knowledge_base: bool = True
    """seed 002: options.shared_knowledge_base (default true); off, ``mem.shared``
    raises ``CapabilityError`` and capabilities report no shared access."""
