"""Build an ONNX graph of a BERT sentence encoder from its safetensors weights.

Nothing on PyPI ships all-MiniLM-L6-v2 as ONNX, and converting with torch would pull
1.5 GB of dependencies, so engram writes the graph itself with ``onnx.helper``: the
encoder is small and regular (embeddings, N identical layers, mean pooling). The graph
is built once per weights file and cached under ``ENGRAM_HOME``; onnxruntime fuses the
LayerNorm/GELU patterns when it loads it.

The graph takes ``input_ids`` and ``attention_mask`` (int64, ``[batch, seq]``) and
returns ``embeddings`` (float32, ``[batch, hidden]``): masked mean (or CLS) pooling,
L2-normalised, the same as sentence-transformers' Pooling + Normalize modules.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.errors import EmbeddingError

#: Bump when the graph layout changes, so stale cached files are rebuilt.
GRAPH_VERSION = 3
#: onnx opset with LayerNormalization (17) that onnxruntime >= 1.14 runs.
OPSET = 17


@dataclass(frozen=True, slots=True)
class BertShape:
    """The hyper-parameters a BERT ``config.json`` gives."""

    layers: int
    hidden: int
    heads: int
    eps: float
    pooling: str
    """``mean`` or ``cls``."""

    @classmethod
    def from_dir(cls, model_dir: Path) -> BertShape:
        """Read ``config.json`` and, if present, ``1_Pooling/config.json``."""
        try:
            cfg = json.loads((model_dir / "config.json").read_text())
        except (OSError, ValueError) as exc:
            raise EmbeddingError(f"cannot read {model_dir / 'config.json'}: {exc}") from exc
        if cfg.get("model_type", "bert") != "bert" or cfg.get("hidden_act", "gelu") != "gelu":
            raise EmbeddingError(
                f"{model_dir} holds a {cfg.get('model_type')!r} model with "
                f"{cfg.get('hidden_act')!r} activation; engram's local embedder builds "
                "BERT encoders with GELU only (e.g. all-MiniLM-L6-v2)"
            )
        pooling = "mean"
        pooling_file = model_dir / "1_Pooling" / "config.json"
        if pooling_file.is_file():
            pool = json.loads(pooling_file.read_text())
            if pool.get("pooling_mode_cls_token"):
                pooling = "cls"
        return cls(
            layers=int(cfg["num_hidden_layers"]),
            hidden=int(cfg["hidden_size"]),
            heads=int(cfg["num_attention_heads"]),
            eps=float(cfg.get("layer_norm_eps", 1e-12)),
            pooling=pooling,
        )


Weights = dict[str, npt.NDArray[Any]]


class _GraphBuilder:
    """Accumulates nodes and initializers with unique names."""

    def __init__(self, weights: Weights) -> None:
        from onnx import helper, numpy_helper

        self._helper = helper
        self._numpy_helper = numpy_helper
        self.weights = weights
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self._count = 0

    def name(self, hint: str) -> str:
        self._count += 1
        return f"{hint}_{self._count}"

    def const(self, hint: str, value: npt.NDArray[Any]) -> str:
        name = self.name(hint)
        self.initializers.append(self._numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def weight(self, key: str, *, transpose: bool = False) -> str:
        try:
            value = self.weights[key]
        except KeyError:
            raise EmbeddingError(f"model weights lack {key!r}; is this a BERT encoder?") from None
        value = value.astype(np.float32)
        return self.const(key.replace(".", "_"), value.T if transpose else value)

    def op(
        self, op_type: str, inputs: list[str], hint: str = "", domain: str = "", **attrs: Any
    ) -> str:
        out = self.name(hint or op_type.lower())
        self.nodes.append(
            self._helper.make_node(op_type, inputs, [out], domain=domain or None, **attrs)
        )
        return out

    def linear(self, x: str, prefix: str) -> str:
        # torch Linear stores weight as [out, in]; x @ W.T + b
        matmul = self.op("MatMul", [x, self.weight(f"{prefix}.weight", transpose=True)])
        return self.op("Add", [matmul, self.weight(f"{prefix}.bias")])

    def layer_norm(self, x: str, prefix: str, eps: float) -> str:
        return self.op(
            "LayerNormalization",
            [x, self.weight(f"{prefix}.weight"), self.weight(f"{prefix}.bias")],
            axis=-1,
            epsilon=eps,
        )


def _strip_prefix(weights: Weights) -> Weights:
    # Some checkpoints save the encoder under "bert." (BertModel inside a head model).
    if any(k.startswith("bert.") for k in weights):
        return {k.removeprefix("bert."): v for k, v in weights.items()}
    return weights


def _fused_layer(g: _GraphBuilder, x: str, p: str, shape: BertShape, mask: str) -> str:
    """One encoder layer from onnxruntime's fused CPU kernels (``com.microsoft``
    Attention, BiasGelu, SkipLayerNormalization): the same maths in far fewer nodes."""
    w = g.weights
    qkv_weight = np.concatenate(
        [w[f"{p}.attention.self.{n}.weight"].T for n in ("query", "key", "value")], axis=1
    ).astype(np.float32)
    qkv_bias = np.concatenate(
        [w[f"{p}.attention.self.{n}.bias"] for n in ("query", "key", "value")]
    ).astype(np.float32)
    context = g.op(
        "Attention",
        [x, g.const(f"{p}_qkv_w", qkv_weight), g.const(f"{p}_qkv_b", qkv_bias), mask],
        domain="com.microsoft",
        num_heads=shape.heads,
    )
    attn = g.op("MatMul", [context, g.weight(f"{p}.attention.output.dense.weight", transpose=True)])
    x = _skip_norm(g, attn, x, f"{p}.attention.output", shape.eps)
    inner = g.op("MatMul", [x, g.weight(f"{p}.intermediate.dense.weight", transpose=True)])
    gelu = g.op(
        "BiasGelu", [inner, g.weight(f"{p}.intermediate.dense.bias")], domain="com.microsoft"
    )
    ff = g.op("MatMul", [gelu, g.weight(f"{p}.output.dense.weight", transpose=True)])
    return _skip_norm(g, ff, x, f"{p}.output", shape.eps)


def _skip_norm(g: _GraphBuilder, value: str, residual: str, prefix: str, eps: float) -> str:
    """LayerNorm(value + residual + ``prefix``'s dense bias) with ``prefix``'s LayerNorm
    weights, as one fused SkipLayerNormalization (after attention and after the FFN)."""
    return g.op(
        "SkipLayerNormalization",
        [
            value,
            residual,
            g.weight(f"{prefix}.LayerNorm.weight"),
            g.weight(f"{prefix}.LayerNorm.bias"),
            g.weight(f"{prefix}.dense.bias"),
        ],
        domain="com.microsoft",
        epsilon=eps,
    )


class _PlainLayers:
    """Encoder layers from standard ONNX operators only (any ONNX runtime runs them)."""

    def __init__(self, g: _GraphBuilder, shape: BertShape, mask_f: str) -> None:
        self.g, self.shape = g, shape
        head_dim = shape.hidden // shape.heads
        # Additive attention bias: 0 where attended, a large negative where padded.
        mask_4d = g.op("Unsqueeze", [mask_f, g.const("axes12", np.array([1, 2], np.int64))])
        inverted = g.op("Sub", [g.const("one", np.array(1.0, np.float32)), mask_4d])
        self.bias = g.op("Mul", [inverted, g.const("neg", np.array(-1e4, np.float32))])
        self.split = g.const("split", np.array([0, 0, shape.heads, head_dim], np.int64))
        self.merge = g.const("merge", np.array([0, 0, shape.hidden], np.int64))
        self.sqrt_d = g.const("sqrt_d", np.array(math.sqrt(head_dim), np.float32))
        self.sqrt2 = g.const("sqrt2", np.array(math.sqrt(2.0), np.float32))
        self.half = g.const("half", np.array(0.5, np.float32))
        self.one = g.const("one_f", np.array(1.0, np.float32))

    def _heads(self, t: str) -> str:
        g = self.g
        return g.op("Transpose", [g.op("Reshape", [t, self.split])], perm=[0, 2, 1, 3])

    def layer(self, x: str, p: str) -> str:
        g, eps = self.g, self.shape.eps
        q = self._heads(g.linear(x, f"{p}.attention.self.query"))
        k = self._heads(g.linear(x, f"{p}.attention.self.key"))
        v = self._heads(g.linear(x, f"{p}.attention.self.value"))
        k_t = g.op("Transpose", [k], perm=[0, 1, 3, 2])
        scores = g.op("Add", [g.op("Div", [g.op("MatMul", [q, k_t]), self.sqrt_d]), self.bias])
        probs = g.op("Softmax", [scores], axis=-1)
        context = g.op("Transpose", [g.op("MatMul", [probs, v])], perm=[0, 2, 1, 3])
        context = g.op("Reshape", [context, self.merge])
        attn_out = g.linear(context, f"{p}.attention.output.dense")
        x = g.layer_norm(g.op("Add", [attn_out, x]), f"{p}.attention.output.LayerNorm", eps)
        # Exact (erf) GELU, as BERT's "gelu".
        inner = g.linear(x, f"{p}.intermediate.dense")
        erf = g.op("Erf", [g.op("Div", [inner, self.sqrt2])])
        gelu = g.op("Mul", [g.op("Mul", [inner, self.half]), g.op("Add", [erf, self.one])])
        ff = g.linear(gelu, f"{p}.output.dense")
        return g.layer_norm(g.op("Add", [ff, x]), f"{p}.output.LayerNorm", eps)


def build_graph(weights: Weights, shape: BertShape, *, fused: bool = False) -> bytes:
    """Serialise an ONNX model computing pooled, normalised sentence embeddings.

    ``fused`` uses onnxruntime's contrib kernels for attention, GELU and LayerNorm;
    without it the graph uses standard ONNX operators only.
    """
    from onnx import TensorProto, helper

    g = _GraphBuilder(_strip_prefix(weights))

    # Embeddings: word + position[0:seq] + token type 0, then LayerNorm.
    word = g.op("Gather", [g.weight("embeddings.word_embeddings.weight"), "input_ids"])
    ids_shape = g.op("Shape", ["input_ids"])
    seq_len = g.op("Gather", [ids_shape, g.const("one_idx", np.array([1], np.int64))])
    positions = g.op(
        "Slice",
        [
            g.weight("embeddings.position_embeddings.weight"),
            g.const("zero", np.array([0], np.int64)),
            seq_len,
            g.const("axis0", np.array([0], np.int64)),
        ],
    )
    token_type = g.const(
        "token_type0", g.weights["embeddings.token_type_embeddings.weight"][0].astype(np.float32)
    )
    summed = g.op("Add", [g.op("Add", [word, positions]), token_type])
    x = g.layer_norm(summed, "embeddings.LayerNorm", shape.eps)

    mask_f = g.op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    if fused:
        mask_i32 = g.op("Cast", ["attention_mask"], to=TensorProto.INT32)
        for i in range(shape.layers):
            x = _fused_layer(g, x, f"encoder.layer.{i}", shape, mask_i32)
    else:
        plain = _PlainLayers(g, shape, mask_f)
        for i in range(shape.layers):
            x = plain.layer(x, f"encoder.layer.{i}")

    if shape.pooling == "cls":
        pooled = g.op(
            "Squeeze",
            [
                g.op("Gather", [x, g.const("cls_idx", np.array([0], np.int64))], axis=1),
                g.const("axis1", np.array([1], np.int64)),
            ],
        )
    else:
        mask_3d = g.op("Unsqueeze", [mask_f, g.const("axis2", np.array([2], np.int64))])
        axis1 = g.const("sum_axis", np.array([1], np.int64))
        total = g.op("ReduceSum", [g.op("Mul", [x, mask_3d]), axis1], keepdims=0)
        count = g.op("ReduceSum", [mask_3d, axis1], keepdims=0)
        count = g.op("Max", [count, g.const("tiny", np.array(1e-9, np.float32))])
        pooled = g.op("Div", [total, count])
    # In opset 17 ReduceL2 still takes its axes as an attribute (ReduceSum: an input).
    norm = g.op("ReduceL2", [pooled], axes=[1], keepdims=1)
    norm = g.op("Max", [norm, g.const("eps_norm", np.array(1e-12, np.float32))])
    g.nodes.append(helper.make_node("Div", [pooled, norm], ["embeddings"]))

    graph = helper.make_graph(
        g.nodes,
        "engram_bert_encoder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"]),
        ],
        [helper.make_tensor_value_info("embeddings", TensorProto.FLOAT, ["batch", shape.hidden])],
        g.initializers,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid("com.microsoft", 1)],
        producer_name="engram",
    )
    # onnxruntime 1.18+ reads IR version 9/10; pin one it accepts.
    model.ir_version = 9
    data: bytes = model.SerializeToString()
    return data
