"""mem0's config dict (``Memory.from_config``) read as engram's settings.

A mem0 app builds its store with ``Memory.from_config({...})``; without it the app
stops at its first line on the door (round thirty, pass42). engram does not run mem0's
vector stores, LLM or embedder classes, so each part of the dict becomes the engram
setting that plays its role (docs/compat-mem0.md, "Memory.from_config"):

- ``vector_store``: ``pgvector`` gives a PostgreSQL URL; any store with a ``path``
  (mem0's local Qdrant, Chroma, FAISS ...) gives a SQLite file in that directory, one
  per ``collection_name`` as mem0 keeps collections apart; a store without either
  (a remote Qdrant, none named) gives engram's configured store.
- ``llm``: ``openai`` (and the OpenAI-compatible ``vllm``, ``lmstudio``) and
  ``ollama`` give engram's ``[llm]``; the key stays in the environment.
- ``embedder``: ``openai`` and ``ollama`` give engram's ``[embedder]``; others keep
  engram's local MiniLM (its vectors are engram's own: a store has one model).
- ``history_db_path`` and ``version`` need nothing (history lives in the store).

What is set but not carried is said in one warning (``ConfigWarning``), never
dropped silently; a dict mem0 itself refuses (not a dict, a section not a dict) is
refused with ``InvalidInputError``.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

from engram.config import Config, ConfigWarning
from engram.errors import InvalidInputError
from engram.validate import type_name

#: Top-level keys of mem0's ``MemoryConfig`` that need no engram setting.
_QUIET = ("history_db_path", "version")
#: mem0 LLM providers that speak OpenAI's API, and the config key of their URL.
_OPENAI_LIKE = {
    "openai": "openai_base_url",
    "vllm": "vllm_base_url",
    "lmstudio": "lmstudio_base_url",
}


def settings(
    config_dict: Any, config: Config | None, *, embedder_given: bool = False, stacklevel: int = 2
) -> tuple[str | None, Config]:
    """The store location (None: the config's own) and the engram ``Config`` for a
    mem0 config dict; ``config`` is the base (``Config.load()`` when None).
    ``embedder_given``: the caller passes an embedder, so mem0's is not read."""
    if not isinstance(config_dict, Mapping):
        raise InvalidInputError(f"from_config takes a dict, not {type_name(config_dict)}")
    base = config or Config.load()
    ignored: list[str] = []
    location = _location(_section(config_dict, "vector_store"), ignored)
    overrides: dict[str, Any] = {}
    llm = _llm(_section(config_dict, "llm"), ignored)
    if llm:
        overrides["llm"] = llm
    embedder = {} if embedder_given else _embedder(_section(config_dict, "embedder"), ignored)
    if embedder:
        overrides["embedder"] = embedder
    for key in config_dict:
        if key not in ("vector_store", "llm", "embedder", *_QUIET):
            ignored.append(str(key))
    if ignored:
        warnings.warn(
            "mem0 door: from_config does not carry "
            + ", ".join(ignored)
            + " (engram uses its own; docs/compat-mem0.md, Memory.from_config)",
            ConfigWarning,
            stacklevel=stacklevel,
        )
    return location, base.with_overrides(**overrides) if overrides else base


def door_options(config_dict: Any, options: Mapping[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """The door's ``(path, {config=, embedder= ...})`` for ``from_config``: the dict's
    settings over ``options["config"]``; a given ``embedder`` wins over the dict's."""
    rest = dict(options)
    location, rest["config"] = settings(
        config_dict, rest.pop("config", None), embedder_given="embedder" in rest, stacklevel=4
    )
    return location, rest


def _section(config_dict: Mapping[str, Any], name: str) -> tuple[str, dict[str, Any]] | None:
    """A section's provider and its ``config`` (None when the section is absent)."""
    section = config_dict.get(name)
    if section is None:
        return None
    if not isinstance(section, Mapping):
        raise InvalidInputError(f"{name} must be a dict, not {type_name(section)}")
    inner = section.get("config") or {}
    if not isinstance(inner, Mapping):
        raise InvalidInputError(f"{name}.config must be a dict, not {type_name(inner)}")
    return str(section.get("provider") or ""), dict(inner)


def _location(section: tuple[str, dict[str, Any]] | None, ignored: list[str]) -> str | None:
    if section is None:
        return None
    provider, cfg = section
    if provider == "pgvector":
        return _postgres_url(cfg)
    if cfg.get("path"):
        # mem0 keeps each collection apart in one directory; so does one file each.
        collection = re.sub(r"[^\w.-]", "_", str(cfg.get("collection_name") or "mem0"))
        directory = Path(str(cfg["path"])).expanduser()
        directory.mkdir(parents=True, exist_ok=True)
        return str(directory / f"{collection}.engram.db")
    ignored.append(f"vector_store {provider or '(default)'} without a path")
    return None


def _postgres_url(cfg: Mapping[str, Any]) -> str:
    if cfg.get("connection_string"):
        return str(cfg["connection_string"])
    missing = [k for k in ("user", "host", "dbname") if not cfg.get(k)]
    if missing:
        raise InvalidInputError(
            "vector_store pgvector needs connection_string or user, host and dbname"
            f" (missing: {', '.join(missing)})"
        )
    password = f":{quote(str(cfg['password']), safe='')}" if cfg.get("password") else ""
    port = f":{cfg['port']}" if cfg.get("port") else ""
    return (
        f"postgresql://{quote(str(cfg['user']), safe='')}{password}@{cfg['host']}{port}"
        f"/{cfg['dbname']}"
    )


def _llm(section: tuple[str, dict[str, Any]] | None, ignored: list[str]) -> dict[str, Any]:
    if section is None:
        return {}
    provider, cfg = section
    if provider in _OPENAI_LIKE:
        out: dict[str, Any] = {
            "provider": "openai",
            "base_url": str(cfg.get(_OPENAI_LIKE[provider]) or ""),
        }
    elif provider == "ollama":
        out = {"provider": "ollama", "base_url": str(cfg.get("ollama_base_url") or "")}
    else:
        ignored.append(f"llm {provider or '(none named)'}")
        return {}
    if cfg.get("model"):
        out["model"] = str(cfg["model"])
    if cfg.get("api_key"):
        ignored.append("llm api_key (engram reads the key from OPENAI_API_KEY)")
    return out


def _embedder(section: tuple[str, dict[str, Any]] | None, ignored: list[str]) -> dict[str, Any]:
    if section is None:
        return {}
    provider, cfg = section
    if provider == "openai":
        out: dict[str, Any] = {"name": "openai", "base_url": str(cfg.get("openai_base_url") or "")}
    elif provider == "ollama":
        out = {"name": "ollama", "base_url": str(cfg.get("ollama_base_url") or "")}
    else:
        ignored.append(f"embedder {provider or '(none named)'}")
        return {}
    if cfg.get("model"):
        out["model"] = str(cfg["model"])
    if cfg.get("embedding_dims"):
        out["dimension"] = int(cfg["embedding_dims"])
    return out
