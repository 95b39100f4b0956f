"""The settings of the write pipeline, its LLM and its worker, and of documents: small
validated value objects that ``engram.config.Config`` holds as sections (``[pipeline]``,
``[llm]``, ``[worker]``, ``[documents]``), with seed 004's defaults and ranges.

Kept apart from ``config.py`` so neither module outgrows one screenful of concerns;
``Config.load`` reads them from TOML and ``ENGRAM_<SECTION>_<KEY>`` like every section."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engram.errors import ConfigError
from engram.netguard import UrlPolicy


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
    contradiction_action: str = field(default="apply_flag", metadata=_choices("hold", "apply_flag"))
    """What full mode (``allow_update_delete``) does with an UPDATE or DELETE the
    contradiction check flags: ``hold`` queues it in ``mem.review`` for a person;
    ``apply_flag`` applies it and marks its audit row ``review_needed`` (seed 004).
    Measured (docs/benchmarks.md, "Contradictions (issue 28)"): the claim-based
    detector's precision is 1.00 and 0.98 on the two folds of the labelled set, and it
    queued no false proposal mining 2,760 LoCoMo dev turns, so a flagged proposal is a
    real change; applying it keeps the old memory (superseded, not deleted). Controlled
    mode queues flagged proposals either way, since it applies none itself."""
    hints: bool = False
    """seed 004: prospective indexing (hypothetical future queries per memory); off, as in
    the seed: offline hints did not help LoCoMo and BEAM dev (docs/benchmarks.md, "Hints")."""
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
    aspect_decay_sessions: int = field(default=10, metadata=_range(0, 1_000_000))
    """seed 004: "Session decay is governed by a counter so it runs every N sessions":
    aspect decay runs in a namespace at every Nth session end (``mem.sessions.end``);
    0 = never by sessions. The seed gives no N; 10 is ours. The lifecycle's retention
    sweep runs it too (docs/graph.md, "Aspect feedback")."""

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
    allow_private_urls: bool = False
    """Let URL ingest fetch loopback, private, link-local, multicast, unspecified and
    reserved addresses (refused by default: any API key could otherwise make the server
    read its own loopback services, its network or the cloud metadata service, engram
    issue 26). Only for a server every one of whose users may read the network it sits
    in; ``allowed_private_hosts`` is the narrower opt-in. docs/safety.md, "URL ingest"."""
    allowed_private_hosts: str = ""
    """Host names (``wiki.internal``), ``*.suffix`` patterns (``*.corp.example``),
    addresses and networks (``10.1.2.0/24``, ``fd00::/8``), comma-separated, that URL
    ingest may fetch although they are private: a listed name may resolve to any
    address, a listed network admits its addresses whatever name led there."""

    def __post_init__(self) -> None:
        self.url_policy()  # a malformed allowed_private_hosts fails at load time

    def url_policy(self) -> UrlPolicy:
        """What the URL fetcher may reach beyond public addresses."""
        return UrlPolicy.parse(self.allow_private_urls, self.allowed_private_hosts)


@dataclass(frozen=True, slots=True)
class ReviewConfig:
    """seed 000's memory panel: the graph view (``mem.review.graph``)."""

    graph_max_nodes: int = field(default=600, metadata=_range(1, 10_000))
    """seed 000: "Max nodes 600 (configurable)": the most recent memories the graph projects."""


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
    compress_after_days: int | None = field(default=90, metadata=_range(1, 36_500))
    """seed 002's consolidation "compress[es] old memories" every
    ``consolidation_interval``, below the cap too: live memories written more than this
    many days ago are folded into summaries in full groups of ``group_size``. The seed
    gives no age; 90 days is ours (docs/lifecycle.md); null = only the cap."""
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


@dataclass(frozen=True, slots=True)
class RecallConfig:
    """How recall finds, fuses, weights and packs memories."""

    strategy: str = field(default="hybrid", metadata=_choices("hybrid", "dense", "bm25"))
    fusion: str = field(default="weighted", metadata=_choices("weighted", "rrf"))
    alpha: float = field(default=0.7, metadata=_range(0.0, 1.0))
    """Weight of the dense leg in weighted fusion (seed 004: alpha*vector + (1-alpha)*bm25)."""
    rrf_k: int = field(default=60, metadata=_range(1, 10_000))
    """seed 002: RRF smoothing constant, default 60."""
    candidates: int = field(default=12, metadata=_range(1, 10_000))
    """seed 000: SEMANTIC_CANDIDATES = 12, the over-fetch before re-ranking."""
    limit: int = field(default=4, metadata=_range(1, 1000))
    """seed 000: MAX_CONTEXT_OBSERVATIONS = 4."""
    dense_top_n: int = field(default=50, metadata=_range(1, 10_000))
    bm25_top_n: int = field(default=25, metadata=_range(1, 10_000))
    context_dense: float = field(default=1.0, metadata=_range(0.0, 100.0))
    """Weight of a memory's session neighbours in its dense score (session context)."""
    context_dense_previous: float = field(default=0.5, metadata=_range(0.0, 10.0))
    """The weight of the previous turn in a memory's dense neighbour context (the next
    turn weighs 0.5). 0 lifted BEAM dev R@10 on both folds (+0.002 / +0.012) but lowered
    LoCoMo dev session R@5 (0.9075 -> 0.9060), so the default stays 0.5 (issue 24;
    docs/benchmarks.md, "BEAM in two folds")."""
    session_dense: float = field(default=1.0, metadata=_range(0.0, 100.0))
    """Weight of its session's mean similarity in its dense score."""
    context_keyword: float = field(default=4.0, metadata=_range(0.0, 100.0))
    """Weight of its session neighbours in its keyword score."""
    session_keyword: float = field(default=2.0, metadata=_range(0.0, 100.0))
    """Weight of its session's keyword matches in its keyword score."""
    session_max_members: int = field(default=500, metadata=_range(1, 100_000))
    """A session with more live memories is too broad to be one episode: scored alone."""
    time_weight: float = field(default=0.6, metadata=_range(0.0, 100.0))
    """Weight of nearness to a time the query names ("on 9 November 2022", "last week")."""
    time_candidates: int = field(default=50, metadata=_range(0, 10_000))
    """Memories from the named time added as candidates; 0 adds none."""
    quality_weighting: bool = True
    recency_weight: float = field(default=0.1, metadata=_range(0.0, 1.0))
    decay_rate: float = field(default=0.001, metadata=_range(0.0, 10.0))
    """Per hour; 0.001 halves recency in about 29 days."""
    personal_boost: float = field(default=0.0, metadata=_range(0.0, 1.0))
    min_relevance: float | None = field(default=None, metadata=_range(0.0, 10.0))
    """seed 002: drop hits scored below this. Unset: the calibrated ``abstain`` decision
    applies; any value, 0 included, replaces it (docs/recall.md)."""
    abstain: bool = True
    """Return nothing (``Recall.abstain_reason`` says why) when nothing stored looks related
    (FEATURES E7; calibrated in ``engram/recall/abstain_weights.py`` for the default model,
    or in ``<home>/calibration/abstain-<embedder>.json`` by ``engram bench abstain --fit``)."""
    low_confidence: bool = True
    """Unsure decisions return the hits marked ``Recall.low_confidence`` and one line in
    the context under "Possibly related"; false: nothing (issue 24, docs/recall.md)."""
    standing: bool = False
    """Read the best cosine's rank in its own store (the store standing, issue 24 round 5)
    in the abstain decision's off-topic test; off: in stores of a few hundred memories it
    silences answerable paraphrases (docs/recall.md; docs/benchmarks.md, round 5)."""
    relative_floor: float | None = field(default=None, metadata=_range(0.0, 1.0))
    """Drop kept hits whose cosine and fused relevance are both below this share of the
    best's (0 keeps all; unset: the calibration's 0.6 for its own embedder, else 0)."""
    attribute_floor: float | None = field(default=None, metadata=_range(0.0, 1.0))
    """On-topic notes that answer nothing asked -> one marked line; unset/0 off (docs/recall.md)."""
    tie_margin: float | None = field(default=None, metadata=_range(0.0, 1.0))
    """Best note's cosine this near a second's -> marked low confidence (recall/abstain_tie.py)."""
    dedup_by_title: bool = True
    derived_once: bool = True
    """derived27: never both a memory and a fact derived from it among the hits (docs/recall.md)."""
    context_style: str = field(
        default="memory_context", metadata=_choices("memory_context", "prior_work")
    )
    gravity: bool = False
    """seed 004 dampening stage 1 (on in the seed; off here until it measures better)."""
    gravity_penalty: float = field(default=0.5, metadata=_range(0.0, 1.0))
    hub: bool = False
    """seed 004 dampening stage 2 (needs the entity graph)."""
    hub_percentile: float = field(default=0.9, metadata=_range(0.0, 1.0))
    hub_penalty: float = field(default=0.7, metadata=_range(0.0, 1.0))
    resolution: bool = False
    """seed 004 dampening stage 3."""
    resolution_boost: float = field(default=1.2, metadata=_range(1.0, 10.0))
    rerank: str = field(
        default="none", metadata=_choices("none", "embedding", "cross-encoder", "llm")
    )
    """seeds 003/004: an optional rerank of the top ``rerank_top_n``."""
    rerank_top_n: int = field(default=20, metadata=_range(1, 100))
    rerank_timeout_ms: int = field(default=2000, metadata=_range(100, 30_000))
    rerank_model: str = ""
    """The cross-encoder's model name (sentence-transformers), when ``rerank`` uses one."""
    hints: bool = False
    """Match hints (prospective index) too, merged by max(); off (docs/benchmarks.md, "Hints")."""
    graph_boost: bool = False
    """seed 004's graph boost (FEATURES G4): candidates that mention an entity the query
    names, or one of its neighbours, get ``graph_boost_weight`` added to their fused
    score. docs/recall.md, "Graph boost"."""
    graph_boost_weight: float = field(default=0.15, metadata=_range(0.0, 1.0))
    """seed 004: graph.boostWeight 0.15 (0.0-1.0)."""
    graph_boost_timeout_ms: int = field(default=500, metadata=_range(50, 5000))
    """seed 004: graph.boostTimeoutMs 500 (50-5000); past it the lookup stops."""
    graph_boost_hub: int = field(default=100, metadata=_range(0, 1_000_000))
    """An entity more memories than this mention is a hub: it adds no memories and is not
    expanded; 0: no cap (docs/benchmarks.md, "Graph boost and the inline linker")."""
    diversity: str = field(default="none", metadata=_choices("none", "session", "mmr"))
    """issue 24: spread the final ranking over sessions, or MMR (docs/recall.md)."""
    diversity_per_session: int = field(default=2, metadata=_range(1, 1000))
    diversity_margin: float = field(default=0.05, metadata=_range(0.0, 1.0))
    diversity_top_n: int = field(default=20, metadata=_range(2, 1000))
    mmr_lambda: float = field(default=0.7, metadata=_range(0.0, 1.0))
    coverage_top_n: int = field(default=50, metadata=_range(0, 1000))
    """issue 24: a thread question's first hits spread over sessions (recall/coverage.py); 0: off"""
    list_parts: bool = False  # issue 24 (T2): a 3+ item list ranked per item; off (fold rule)
    said_alone: bool = True  # issue 24 (C2): "did you recommend …?" ranks by own cosines (said.py)
    between_parts: bool = True  # issue 24 (C2): "between A and B" also ranks A and B (decompose.py)
    decompose: bool = False
    """issue 24: a question joining two names or saying both/compare/before/after is also
    ranked as its two parts, interleaved (docs/recall.md, "Decomposition")."""
    anchor_share: float | None = field(default=None, metadata=_range(0.0, 1.0))
    """issue 24: the dense query drops the known names more than this share of a namespace's
    memories mention (its speakers); None: the whole query (docs/recall.md, "Anchor names")."""
    flagged_context: str = field(default="omit", metadata=_choices("omit", "mark"))
    """What the context block does with memories the injection scan flagged (flag mode): leave them
    out (the default: flagged text never reaches a prompt), or show them inside an explicit
    untrusted marker. Either way the hit, with its flags, stays in ``Recall.hits``."""
    chunk_chars: int = field(default=0, metadata=_range(0, 100_000))
    """A memory whose embedded text is longer than this also gets a vector per window of this
    size past its head; 0: none. Read at write time (``reindex`` fills older memories)."""
    long_alpha: float | None = field(default=1.0, metadata=_range(0.0, 1.0))
    """Weighted fusion's dense weight for memories longer than ``long_chars``; None:
    ``alpha`` for all (1.0 measured best on BEAM dev: docs/benchmarks.md)."""
    long_chars: int = field(default=2000, metadata=_range(1, 1_000_000))
    """What ``long_alpha`` counts as long: over this many characters (BEAM dev; LoCoMo: 444)."""
    context_alone_chars: int = field(default=0, metadata=_range(0, 1_000_000))  # C3: length.py
    directive_alpha: float | None = field(default=0.7, metadata=_range(0.0, 1.0))
    """Weighted fusion's dense weight for standing instructions ("Always ... when I ask
    about ...": recall/directives.py), whose dense leg is then their own cosine, without
    their neighbours' context; None: they are fused like any memory. 0.7 (= ``alpha``:
    only the context goes) was chosen on BEAM dev chats 1-5 and held on 6-10, and the
    swap held too (issue 24; docs/benchmarks.md, "BEAM in two folds")."""
    keyword_spread_rank: int = field(default=4, metadata=_range(0, 1000))
    """Weighted fusion scales the keyword leg of memories outside any session by
    ``(b1 - bk) / b1``, how far its best match stands above its k-th best; 0: never (issue 24,
    round 9: k = 4 chosen on padded paraphrase stores; docs/configuration.md)."""
    keyword_spread_margin: float = field(default=0.02, metadata=_range(0.0, 1.0))
    """Notes and session turns among the candidates: the turns' keyword leg is scaled
    by the spread too when a note is the nearest by cosine, nearer than every turn by
    this much (0.02 on MiniLM's scale: issue 24, round 10; docs/benchmarks.md)."""
    keyword_share: bool = True
    """A note's keyword leg scaled by the share of the question's keywords it holds
    (issue 24, round 11; recall/keyword_share.py, docs/configuration.md)."""
    centred_weight: float = field(default=0.0, metadata=_range(0.0, 1.0))  # recall/centred.py
    centred_k: float = field(default=10.0, metadata=_range(1.0, 1000.0))  # measured: 0.01, 10
    chunk_overlap: int = field(default=200, metadata=_range(0, 100_000))  # chunks' shared chars
    chunk_pooling: bool = False  # dense leg: own vector pooled with its best chunk's
    chunk_weight: float = field(default=1.0, metadata=_range(0.0, 1.0))
    """The share of the best chunk's gain over the own cosine that counts (1: the max; 0: none)."""
    condition_weight: float = field(default=1.0, metadata=_range(0.0, 1.0))
    """A standing instruction's condition ("when I ask about X") gets a vector of X at add time,
    pooled as ``own + w × max(0, X − own)``; 0: none (recall/conditions.py; benchmarks "C1")."""
    standing_items: int = field(default=3, metadata=_range(0, 50))
    """A request's standing block: its nearest standing items (recall/standing_items.py)."""
    ann_min_vectors: int = field(default=20_000, metadata=_range(1, 1_000_000_000))
    """SQLite: a namespace with at least this many vectors is searched by an HNSW graph (usearch,
    a core dependency), built in the background when first needed and then persisted beside a
    file store (``<store>.vindex``), so the next open memory-maps it. Read when the store opens;
    PostgreSQL always uses pgvector HNSW (docs/benchmarks.md, "Scale", "ANN by default")."""
    ann_ef_search: int = field(default=128, metadata=_range(8, 4096))
    """HNSW search breadth on SQLite up to 100k vectors; 128 with exact re-scoring: recall@10
    0.986 at 100k (docs/benchmarks.md, "ANN by default (issue 29)")."""
    ann_ef_growth: float = field(default=0.5, metadata=_range(0.0, 16.0))
    """SQLite: past 100k vectors the breadth grows by this share per doubling (ann.scaled_ef)."""
    ann_ef_construction_rows: int = field(default=200_000, metadata=_range(1, 1_000_000_000))
    """SQLite: graphs of more vectors are built with ef_construction 160, not 80 (storage.md)."""
    ann_retry_below: float = field(default=0.45, metadata=_range(-1.0, 1.0))
    """SQLite: with ``ann_retry_factor`` above 1, a graph search whose best candidate's exact
    cosine is below this is unsure (short queries: "the vet") and searches again that much
    wider, merged. Chosen on half the labels and questions at 100k ("Short queries, round two")."""
    ann_retry_factor: int = field(default=1, metadata=_range(1, 64))
    """How much wider the second search is than ``ann_ef_search``; 1 (default): none. 4 lifted
    held-out labels' recall@10 0.788 -> 0.935 (pre-registered: 0.95), questions' 0.988 -> 0.995."""
    ann_background: bool = True
    """Build the HNSW graph on a worker thread (exact search answers meanwhile); False
    builds it inside the first recall that needs it."""
    keyword_index_min: int = field(default=200, metadata=_range(1, 1_000_000_000))
    """SQLite: a namespace with at least this many live memories is ranked by keywords
    from an in-memory term index (the same terms and BM25 as its FTS5 index, a fraction
    of the time: docs/benchmarks.md, "Scale"), built in the background when first
    needed; FTS5 answers below it and while it builds. PostgreSQL ranks in the database."""
    keyword_index_background: bool = True
    """Build term indexes on a worker thread (FTS5 answers meanwhile); False builds one
    inside the first keyword search that needs it."""
    stale_fact_factor: float = field(default=0.1, metadata=_range(0.0, 1.0))
    """issue 28 (FEATURES G2): in a recall that asks about the present ("now", "these days",
    "where do I live?"), a memory that stated a fact the graph has since closed has its fused
    score multiplied by this; 1.0 turns it off. 0.1 was chosen on change folds A, C, E, G
    (the new fact first 91/96 at 0.2 -> 96/96; the check folds B, D 46/48 -> 48/48):
    docs/benchmarks.md, "Recall answers the new fact (now20)"."""
    residual_weight: float = field(default=0.0, metadata=_range(0.0, 10.0))
    """issue 24 (R1, ``recall/residual.py``): the question without its anchor names ranks
    the candidates again by cosine, each gains ``residual_weight / (k + rank)``; 0.5
    passes LoCoMo's fold rule, off for p50 at 100k (+0.3-0.5 ms; docs/benchmarks.md)."""
    residual_k: int = field(default=10, metadata=_range(1, 1000))
    """issue 24 (R1): that fusion's rank constant (10 on both LoCoMo folds; 5 lost some)."""
    residual_share: float = field(default=0.2, metadata=_range(0.0, 1.0))
    """issue 24 (R1): a name is an anchor when more than this share of the namespace's
    memories mention it (as ``anchor_share``, which replaces the dense query instead)."""
    judgement_weight: float = field(default=1.0, metadata=_range(0.0, 10.0))
    """issue 24 (hop39, ``recall/judgement.py``): a would/might/likely question's
    candidates gain ``judgement_weight / (judgement_k + their session's rank)`` by the
    question without its anchor names; chosen on LoCoMo fold A, 0 turns it off."""
    judgement_k: int = field(default=3, metadata=_range(1, 1000))
    statement: str = field(default="off", metadata=_choices("off", "leg", "query", "mean"))
    """issue 24 (Q1, ``recall/statement.py``): the question read as the statement that
    answers it, by rules: a second dense leg fused by rank (``statement_weight`` / (k +
    rank)), the dense query, or the mean of both; off, it fails LoCoMo's fold rule."""
    statement_weight: float = field(default=0.2, metadata=_range(0.0, 10.0))
    statement_k: int = field(default=10, metadata=_range(1, 1000))
    statement_person: str = field(default="first", metadata=_choices("third", "first"))


@dataclass(frozen=True, slots=True)
class ChatConfig:
    """seed 003's automatic memory around every chat turn (``mem.chat`` and the OpenAI-compatible
    proxy ``POST /v1/proxy/chat/completions``; issue 31). These are the defaults; a user's own
    settings (``mem.chat.set_settings``, ``PUT /v1/chat/settings``) override them for that user."""

    enabled: bool = True
    """seed 003: "Enabled — turn auto-mining + recall on or off entirely"."""
    top_k: int = field(default=5, metadata=_range(1, 50))
    """seed 003: "Top-K — how many drawers to inject per turn (default 5)"."""
    rerank: str = field(
        default="none", metadata=_choices("none", "embedding", "cross-encoder", "llm")
    )
    """seed 003's "Use rerank": recall's ``rerank`` for chat turns (``llm`` asks the
    ``[llm]`` model to reorder the top ``recall.rerank_top_n``, seed 003's top 20)."""
    auto_mine: bool = True
    """seed 003: "Auto-mine — disable to make mining manual-only"; on, each completed
    turn is queued for mining into the palace (never mined inline)."""
    recall_off_agents: str = ""
    """seed 003's per-agent override (``agents.config.memory``): comma-separated agent
    ids whose turns get no recalled context (mining still runs, seed 003's edge case)."""
    upstream_url: str = ""
    """Where the proxy forwards chat completions: an OpenAI-compatible base URL ending
    in ``/v1``. Empty: the ``[llm]`` server (``base_url``; Ollama's ``/v1``)."""
    upstream_timeout_s: float = field(default=300.0, metadata=_range(1.0, 3600.0))
    """How long the proxy waits for the upstream's reply (a long generation streams)."""
