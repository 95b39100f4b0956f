"""Validated settings with the seeds' defaults and ranges.

Values come from keyword arguments, ``ENGRAM_*`` environment variables and a TOML file,
in that order of precedence, over the defaults below (the twelve-factor order: the
environment of one run overrides the file shared by every run). Environment variables
are named ``ENGRAM_<SECTION>_<KEY>`` (``ENGRAM_RECALL_ALPHA``) or ``ENGRAM_<KEY>`` for
top-level keys (``ENGRAM_INJECTION_MODE``). The data directory is ``ENGRAM_HOME``
(``~/.engram``). An ``ENGRAM_*`` variable that names no setting emits a
:class:`ConfigWarning` (once per name per process) naming the closest one, since a
typo would otherwise be ignored.
"""

from __future__ import annotations

import difflib
import os
import tomllib
import typing
import warnings
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from engram.errors import ConfigError, InvalidInputError, shown
from engram.settings import (
    AgentsConfig,
    ChatConfig,
    DocumentsConfig,
    GraphConfig,
    LifecycleConfig,
    LlmConfig,
    MaintenanceConfig,
    OrgConfig,
    PipelineConfig,
    ProceduralConfig,
    ReviewConfig,
    SessionsConfig,
    WorkerConfig,
    _choices,
    _range,
)
from engram.settings import (
    RecallConfig as RecallConfig,  # re-exported: the recall settings live in settings.py
)

T = TypeVar("T")

#: URL schemes of a PostgreSQL store; every other location is a SQLite file.
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
SQLITE_SCHEME = "sqlite://"

#: ``ENGRAM_*`` variables engram (or its docs and tests) uses that are not settings, so
#: ``_from_env`` cannot derive them from the fields: the config file, ``engram mcp``'s
#: namespace, the shell variable docs/mcp.md keeps an API key in, and the test suite's
#: own knobs (``ENGRAM_TEST_*``). ``ENGRAM_HOME`` and ``ENGRAM_STORE`` are the ``home``
#: and ``store`` fields, derived like every setting.
NOT_SETTINGS = frozenset(
    {
        "ENGRAM_CONFIG",
        "ENGRAM_MCP_NAMESPACE",
        "ENGRAM_KEY",
        "ENGRAM_TEST_POSTGRES_URL",
    }
)


#: The unknown ``ENGRAM_*`` names already warned about in this process.
_WARNED: set[str] = set()


class ConfigWarning(UserWarning):
    """A setting looks wrong but engram can go on (an unknown ``ENGRAM_*`` variable)."""


@dataclass(frozen=True, slots=True)
class EmbedderConfig:
    """Which embedder turns text into vectors."""

    name: str = field(default="minilm", metadata=_choices("minilm", "ollama", "openai", "none"))
    """``minilm`` (all-MiniLM-L6-v2 on onnxruntime), ``ollama`` (an Ollama server),
    ``openai`` (any OpenAI-compatible ``/embeddings`` server) or ``none`` (keyword recall
    only)."""
    model_dir: str | None = None
    """A directory with model.safetensors, config.json and tokenizer.json."""
    hub_download: bool = True
    """Without ``model_dir`` and without the weights package, fetch all-MiniLM-L6-v2 from
    the Hugging Face hub (``HF_ENDPOINT``, the hub cache) on first use, SHA-256 checked."""
    hub_revision: str = "main"
    """The hub revision to fetch; the pinned digests must still match."""
    batch_size: int = field(default=32, metadata=_range(1, 1024))
    max_seq_length: int = field(default=256, metadata=_range(8, 512))
    precision: str = field(default="auto", metadata=_choices("auto", "fp32", "int8"))
    """``minilm``'s arithmetic: ``int8`` (static int8 linear maps, 2.7x the fp32
    throughput, vectors at cosine >= 0.99 to fp32), ``fp32``, or ``auto``: int8 on CPUs
    with int8 dot products (x86 VNNI), fp32 elsewhere. Vectors of either answer the
    same queries (docs/benchmarks.md, "int8"); ``engram reindex`` makes a store uniform."""
    threads: int | None = field(default=None, metadata=_range(1, 256))
    model: str = ""
    """The served embedding model (``ollama``, ``openai``); empty: nomic-embed-text on
    Ollama, text-embedding-3-small on openai (seed 003's default)."""
    base_url: str = ""
    """Empty: http://localhost:11434 (``ollama``) or https://api.openai.com/v1 (``openai``)."""
    api_key_env: str = "OPENAI_API_KEY"
    """The environment variable holding the ``openai`` server's key, if any."""
    dimension: int | None = field(default=None, metadata=_range(1, 65_536))
    """The served model's vector size; unset, a remote embedder asks the server once
    (embedding a probe text) when the store first needs it."""
    timeout_s: float = field(default=30.0, metadata=_range(1.0, 600.0))
    """Seconds a remote embedder waits for one batch."""


@dataclass(frozen=True, slots=True)
class ApiConfig:
    """The HTTP API (``engram serve``)."""

    host: str = "127.0.0.1"
    """Loopback by default: exposing the API is a deliberate choice."""
    port: int = field(default=8765, metadata=_range(0, 65_535))
    max_body_bytes: int = field(default=1_048_576, metadata=_range(1_024, 1_073_741_824))
    """Requests with a larger body get 413 before anything is parsed (default 1 MiB)."""
    rate_limit_per_minute: int = field(default=0, metadata=_range(0, 1_000_000))
    """Requests per minute per API key (token bucket; 429 with ``Retry-After`` past it);
    0, the default, turns rate limits off (docs/operations.md, "Rate limits")."""
    rate_limit_burst: int = field(default=0, metadata=_range(0, 1_000_000))
    """Requests a key may send at once before the per-minute rate applies; 0: the
    per-minute number."""
    metrics_public: bool = False
    """Serve ``/metrics`` without a key; by default it needs an admin key."""
    log_format: str = field(default="text", metadata=_choices("text", "json"))
    """``engram serve``'s log lines: ``text``, or ``json`` (one JSON object a line)."""
    cors_origins: str = ""
    """Origins a browser page may call the API from, comma-separated
    (``https://app.example.com``), or ``*``; empty, the default, sends no CORS headers."""
    mcp_stateless: bool = True
    """Serve ``/mcp`` without server-side MCP sessions, so clients keep working across a
    server restart (every request carries its own key and namespace)."""
    mcp_allowed_hosts: str = ""
    """``Host`` values ``/mcp`` accepts behind a reverse proxy, comma-separated
    (``memory.example.com``, ``memory.example.com:443``); empty: loopback names when
    serving on loopback, anything otherwise (the MCP SDK's DNS-rebinding check)."""
    root_path: str = ""
    """The path a reverse proxy serves engram under when it strips it before forwarding
    (``/engram`` for ``https://tools.example.com/engram/``), so the URLs engram writes
    into answers (MCP discovery, ``/docs``) keep it; empty: served at the root."""
    forwarded_allow_ips: str = "127.0.0.1"
    """Addresses of the reverse proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` engram believes, comma-separated (IPs, networks such as
    ``172.17.0.0/16``, or ``*`` for any peer); the access line's ``client``, the
    per-client rate limit of requests without a key and the URLs engram writes then
    use the forwarded address and scheme. The default is a proxy on this machine only:
    no peer on the network is believed; empty believes none."""


@dataclass(frozen=True, slots=True)
class PostgresConfig:
    """The PostgreSQL store (``store = "postgresql://..."``); see docs/deploy-postgres.md."""

    pool_min_size: int = field(default=1, metadata=_range(0, 1000))
    """Connections the pool keeps open."""
    pool_max_size: int = field(default=10, metadata=_range(1, 1000))
    """Connections the pool may open; about the number of threads that query at once."""
    pool_timeout: float = field(default=30.0, metadata=_range(0.1, 3600.0))
    """Seconds a call waits for a free connection before failing."""
    connect_timeout: int = field(default=10, metadata=_range(1, 600))
    """Seconds to wait for the server when opening."""
    ef_search: int = field(default=200, metadata=_range(1, 1000))
    """pgvector ``hnsw.ef_search``: candidates an HNSW search keeps (raised to
    ``ef_search_per_k`` × k if lower; pgvector caps it at 1000)."""
    ef_search_per_k: int = field(default=4, metadata=_range(1, 100))
    """HNSW candidates kept per result asked for: a search for k rows keeps at least
    this many times k, so recall's deeper dense read (``recall.dense_top_n``) is as
    exact as a top 10 (docs/benchmarks.md, "PostgreSQL vector recall (issue 29)")."""
    ef_search_rows: int = field(default=100_000, metadata=_range(0, 1_000_000_000))
    """Namespace size (live memories) up to which ``ef_search`` applies as is; past it a
    search keeps ``ef_search`` × (1 + 0.5 × log2(size / this)) candidates, half as many
    more per doubling (capped at 1000: 300 at 200k, 533 at 1M), so recall@10 does not
    sink as a namespace grows (a fixed 200 gave 0.938 at 1M; docs/benchmarks.md, issue
    29, round 4). 0 turns the growth off."""
    hnsw_m: int = field(default=16, metadata=_range(2, 100))
    """HNSW ``m`` of a newly created vector index (pgvector's default)."""
    hnsw_ef_construction: int = field(default=64, metadata=_range(4, 1000))
    """HNSW ``ef_construction`` of a newly created vector index (pgvector's default)."""
    iterative_scan: str = field(
        default="strict_order", metadata=_choices("off", "strict_order", "relaxed_order")
    )
    """pgvector 0.8 ``hnsw.iterative_scan``: keep scanning when the namespace filter
    leaves fewer than k rows ("off" on pgvector < 0.8)."""
    read_only: bool = False
    """For a read replica: skip migrations and index creation at open (writes fail)."""


@dataclass(frozen=True, slots=True)
class Config:
    """All of engram's settings."""

    home: str = ""
    """Data directory; empty means ``$ENGRAM_HOME`` or ``~/.engram``."""
    store: str = ""
    """Store location: a SQLite path, ``sqlite:///path``, ``:memory:`` or a
    ``postgresql://`` URL (``ENGRAM_STORE``); empty means ``<home>/engram.db``."""
    default_namespace: str = "default"
    max_content_chars: int = field(default=100_000, metadata=_range(1, 50_000_000))
    injection_mode: str = field(default="block", metadata=_choices("block", "flag", "off"))
    busy_timeout_ms: int = field(default=5000, metadata=_range(0, 600_000))
    embedder: EmbedderConfig = field(default_factory=EmbedderConfig)
    recall: RecallConfig = field(default_factory=RecallConfig)
    postgres: PostgresConfig = field(default_factory=PostgresConfig)
    api: ApiConfig = field(default_factory=ApiConfig)
    pipeline: PipelineConfig = field(default_factory=PipelineConfig)
    llm: LlmConfig = field(default_factory=LlmConfig)
    worker: WorkerConfig = field(default_factory=WorkerConfig)
    documents: DocumentsConfig = field(default_factory=DocumentsConfig)
    graph: GraphConfig = field(default_factory=GraphConfig)
    review: ReviewConfig = field(default_factory=ReviewConfig)
    sessions: SessionsConfig = field(default_factory=SessionsConfig)
    org: OrgConfig = field(default_factory=OrgConfig)
    maintenance: MaintenanceConfig = field(default_factory=MaintenanceConfig)
    lifecycle: LifecycleConfig = field(default_factory=LifecycleConfig)
    procedural: ProceduralConfig = field(default_factory=ProceduralConfig)
    agents: AgentsConfig = field(default_factory=AgentsConfig)
    chat: ChatConfig = field(default_factory=ChatConfig)

    @property
    def home_path(self) -> Path:
        """The resolved data directory."""
        raw = self.home or os.environ.get("ENGRAM_HOME") or "~/.engram"
        return Path(raw).expanduser()

    @property
    def store_path(self) -> str:
        """The resolved store location."""
        return self.store or str(self.home_path / "engram.db")

    @classmethod
    def load(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        env: typing.Mapping[str, str] | None = None,
        **overrides: Any,
    ) -> Config:
        """Build a config from defaults, a TOML file, the environment and ``overrides``,
        each overriding the one before.

        ``path`` defaults to ``$ENGRAM_CONFIG`` or ``<home>/config.toml`` if it exists.
        ``overrides`` take nested dicts for sections: ``recall={"alpha": 0.3}``.
        """
        environ = os.environ if env is None else env
        from_env = _from_env(cls, environ)
        data: dict[str, Any] = {}
        # Where each key was set, so an error names the file or the variable to fix.
        sources: dict[str, str] = {}
        toml_path = _config_file(path, environ, overrides.get("home"))
        if toml_path is not None:
            from_file = _read_toml(toml_path)
            _deep_merge(data, from_file)
            sources.update(dict.fromkeys(_dotted(from_file), f"in {toml_path}"))
        _deep_merge(data, from_env)
        sources.update(
            {key: f"by ENGRAM_{key.replace('.', '_').upper()}" for key in _dotted(from_env)}
        )
        _deep_merge(data, overrides)
        for key in _dotted(overrides):
            sources.pop(key, None)
        return _build(cls, data, "", sources)

    def with_overrides(self, **overrides: Any) -> Config:
        """A copy with ``overrides`` (nested dicts for sections) applied and validated."""
        data = _as_dict(self)
        _deep_merge(data, overrides)
        return _build(Config, data, "")

    def recall_for_call(self, overrides: typing.Mapping[str, Any]) -> RecallConfig:
        """Recall's settings with one call's keyword overrides (``mem.recall(q,
        alpha=0.3)``). A bad one is the caller's argument, not the configuration:
        ``InvalidInputError`` naming the keyword ("min_relevance must be in [0.0, 10.0],
        got -1.0"; the CLI then names its flag), where a ``ConfigError`` named the config
        key ``recall.min_relevance`` and made ``engram recall`` exit 1 as for a broken
        config file."""
        if not overrides:
            return self.recall
        known = [f.name for f in fields(RecallConfig)]
        for name in sorted(set(overrides) - set(known), key=str):
            close = difflib.get_close_matches(str(name), known, n=1, cutoff=0.75)
            fix = f"did you mean {close[0]}?" if close else "docs/configuration.md lists them"
            raise InvalidInputError(f"recall has no setting {shown(name)}; {fix}")
        try:
            return self.with_overrides(recall=dict(overrides)).recall
        except ConfigError as exc:
            said = str(exc).replace("config key recall.", "", 1)
            raise InvalidInputError(f"{said} (a per-call recall setting)") from None


def _config_file(
    path: str | os.PathLike[str] | None, environ: typing.Mapping[str, str], home: Any
) -> Path | None:
    if path is not None:
        p = Path(path).expanduser()
        _not_a_file(p)
        if not p.is_file():
            raise ConfigError(f"config file {p} does not exist; create it or pass another path")
        return p
    if environ.get("ENGRAM_CONFIG"):
        return _config_file(environ["ENGRAM_CONFIG"], environ, home)
    base = Path(str(home or environ.get("ENGRAM_HOME") or "~/.engram")).expanduser()
    candidate = base / "config.toml"
    # A directory of that name was skipped silently, and its settings with it.
    _not_a_file(candidate)
    return candidate if candidate.is_file() else None


def _not_a_file(path: Path) -> None:
    if path.exists() and not path.is_file():
        raise ConfigError(
            f"config file {path} is a directory, not a file: engram reads its settings from"
            " a TOML file of that name; move the directory away and put the settings there"
        )


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
        # utf-8-sig: a byte order mark some editors write is not a TOML error.
        return tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"config file {path} is not UTF-8 text (byte {raw[exc.start]:#04x} at offset"
            f" {exc.start}): save it as UTF-8"
        ) from exc
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from exc


def _from_env(cls: type[Any], environ: typing.Mapping[str, str]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    known: set[str] = set()
    for f in fields(cls):
        section = _section_type(f.type)
        if section is not None:
            sub: dict[str, Any] = {}
            for sf in fields(section):
                key = f"ENGRAM_{f.name}_{sf.name}".upper()
                known.add(key)
                if key in environ:
                    sub[sf.name] = environ[key]
            if sub:
                data[f.name] = sub
        else:
            key = f"ENGRAM_{f.name}".upper()
            known.add(key)
            # ENGRAM_HOME is read where the home is resolved (``home_path``), so an
            # explicit ``home=`` still wins over it.
            if key in environ and f.name != "home":
                data[f.name] = environ[key]
    _warn_unknown(environ, known)
    return data


def _warn_unknown(environ: typing.Mapping[str, str], known: set[str]) -> None:
    """Warn about ``ENGRAM_*`` variables that name no setting: a misspelt one would
    otherwise be ignored without a word, and the run would use the default.

    Once per name per process: ``Memory()`` loads the config each time it opens, and a
    program that opens many would repeat the same line (Python's own once-per-place
    filter does not hold under ``-W always`` or inside ``catch_warnings``)."""
    # The names that are not settings are real too: ``ENGRAM_CONFG`` means ENGRAM_CONFIG.
    candidates = sorted(known | NOT_SETTINGS)
    for name in sorted(environ):
        if (
            not name.startswith("ENGRAM_")
            or name in known
            or name in NOT_SETTINGS
            or name.startswith("ENGRAM_TEST_")
            or name in _WARNED
        ):
            continue
        _WARNED.add(name)
        close = difflib.get_close_matches(name, candidates, n=1, cutoff=0.8)
        hint = (
            f"did you mean {close[0]}?"
            if close
            else "docs/configuration.md lists the variables engram reads"
        )
        warnings.warn(
            f"{name} is not an engram setting and is ignored; {hint}",
            ConfigWarning,
            stacklevel=4,
        )


def sqlite_file(location: str) -> str | None:
    """The file a store location opens, or None for ``:memory:`` and PostgreSQL.

    ``sqlite:///rel/path`` is relative and ``sqlite:////abs/path`` absolute, as in
    SQLAlchemy (the rule ``engram.store.sqlite_path`` follows); a plain path is itself.
    """
    if location.startswith(POSTGRES_SCHEMES):
        return None
    path = location
    if location.startswith(SQLITE_SCHEME):
        rest = location[len(SQLITE_SCHEME) :]
        if rest in ("", "/", "/:memory:"):
            return None
        if not rest.startswith("/"):
            raise ConfigError(f"store {shown(location)}: write sqlite:///path (three slashes)")
        path = rest[1:]
    return None if path == ":memory:" else path


def _section_type(annotation: Any) -> type[Any] | None:
    resolved = _resolve(annotation)
    return resolved if isinstance(resolved, type) and is_dataclass(resolved) else None


_NAMES = {
    "EmbedderConfig": EmbedderConfig,
    "RecallConfig": RecallConfig,
    "PostgresConfig": PostgresConfig,
    "ApiConfig": ApiConfig,
    "PipelineConfig": PipelineConfig,
    "LlmConfig": LlmConfig,
    "WorkerConfig": WorkerConfig,
    "DocumentsConfig": DocumentsConfig,
    "GraphConfig": GraphConfig,
    "ReviewConfig": ReviewConfig,
    "SessionsConfig": SessionsConfig,
    "MaintenanceConfig": MaintenanceConfig,
    "OrgConfig": OrgConfig,
    "LifecycleConfig": LifecycleConfig,
    "ProceduralConfig": ProceduralConfig,
    "AgentsConfig": AgentsConfig,
    "ChatConfig": ChatConfig,
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
}


def _resolve(annotation: Any) -> Any:
    # Annotations are strings under ``from __future__ import annotations``.
    if isinstance(annotation, str):
        parts = [p.strip() for p in annotation.split("|")]
        resolved = [_NAMES.get(p, type(None) if p == "None" else p) for p in parts]
        if len(resolved) == 1:
            return resolved[0]
        return tuple(resolved)
    return annotation


def _deep_merge(base: dict[str, Any], extra: typing.Mapping[str, Any]) -> None:
    for key, value in extra.items():
        if is_dataclass(value) and not isinstance(value, type):
            value = _as_dict(value)
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            _deep_merge(base[key], value)
        else:
            base[key] = dict(value) if isinstance(value, dict) else value


def _as_dict(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(obj):
        value = getattr(obj, f.name)
        out[f.name] = _as_dict(value) if is_dataclass(value) else value
    return out


def _dotted(data: typing.Mapping[str, Any], prefix: str = "") -> list[str]:
    """Every key of ``data`` as a dotted name, sections and the keys in them."""
    out = []
    for key, value in data.items():
        out.append(prefix + key)
        if isinstance(value, typing.Mapping):
            out.extend(_dotted(value, f"{prefix}{key}."))
    return out


def _setting_names() -> list[str]:
    """Every section and key of ``Config`` as a dotted name (``recall``, ``recall.limit``)."""
    names = []
    for f in fields(Config):
        names.append(f.name)
        section = _section_type(f.type)
        if section is not None:
            names.extend(f"{f.name}.{sf.name}" for sf in fields(section))
    return names


def _meant(key: str) -> str | None:
    """The setting a misspelt ``key`` most likely means: the closest dotted name, or the
    one section's key of that name when it was written outside its section."""
    names = _setting_names()
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.75)
    if close:
        return close[0]
    leaf = key.rpartition(".")[2]
    owners = [name for name in names if name.endswith(f".{leaf}")]
    return owners[0] if len(owners) == 1 else None


def _build(
    cls: type[T],
    data: typing.Mapping[str, Any],
    prefix: str,
    sources: typing.Mapping[str, str] | None = None,
) -> T:
    where = sources or {}
    if not isinstance(data, typing.Mapping):
        raise ConfigError(f"config section {prefix.rstrip('.') or 'root'} must be a table")
    known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - set(known))
    if unknown:
        key = prefix + unknown[0]
        set_in = f" {where[key]}" if key in where else ""
        meant = _meant(key)
        fix = (
            f"did you mean {meant}? (docs/configuration.md lists every key)"
            if meant
            else f"known keys: {', '.join(sorted(known))}"
        )
        raise ConfigError(f"unknown config key {key}{set_in}; {fix}")
    values: dict[str, Any] = {}
    for name, f in known.items():
        key = prefix + name
        section = _section_type(f.type)
        if section is not None:
            values[name] = _build(section, data.get(name, {}), key + ".", where)
            continue
        if name not in data:
            continue
        try:
            values[name] = _coerce(key, data[name], f)
        except ConfigError as exc:
            if key not in where:
                raise
            raise ConfigError(f"{exc} (set {where[key]})") from None
    default = cls()
    return replace(default, **values)  # type: ignore[type-var]


def _coerce(key: str, value: Any, f: Any) -> Any:
    resolved = _resolve(f.type)
    allowed = resolved if isinstance(resolved, tuple) else (resolved,)
    optional = type(None) in allowed
    target = next(t for t in allowed if t is not type(None))
    if value is None or (isinstance(value, str) and value == "" and optional):
        if optional:
            return None
        raise ConfigError(f"config key {key} cannot be empty")
    try:
        coerced = _to_type(value, target)
    except (TypeError, ValueError, OverflowError, RecursionError):
        raise ConfigError(
            f"config key {key} must be {target.__name__}, got {shown(value)}"
        ) from None
    meta = f.metadata
    if "choices" in meta and coerced not in meta["choices"]:
        raise ConfigError(
            f"config key {key} must be one of {', '.join(meta['choices'])}, got {shown(coerced)}"
        )
    if "range" in meta:
        lo, hi = meta["range"]
        if (lo is not None and coerced < lo) or (hi is not None and coerced > hi):
            raise ConfigError(f"config key {key} must be in [{lo}, {hi}], got {shown(coerced)}")
    return coerced


def _to_type(value: Any, target: type[Any]) -> Any:
    if target is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in {"1", "true", "yes", "on"}:
            return True
        if isinstance(value, str) and value.lower() in {"0", "false", "no", "off"}:
            return False
        raise ValueError(value)
    if target is int:
        if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
            raise ValueError(value)
        return int(value)
    if target is float:
        if isinstance(value, bool):
            raise ValueError(value)
        return float(value)
    if target is str:
        if isinstance(value, os.PathLike):
            return os.fspath(value)
        if not isinstance(value, str):
            raise TypeError(value)
        return value
    raise TypeError(target)  # pragma: no cover - every field type is handled above
