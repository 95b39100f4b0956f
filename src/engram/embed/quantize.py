"""Static int8 quantisation of engram's plain BERT graph (``build_graph(fused=False)``).

Why int8 at all: on CPU the encoder spends ~80% of its time in the six layers' linear
maps. onnxruntime's ``MatMulIntegerToFloat`` multiplies uint8 activations by int8
weights with MLAS's VNNI kernels (about 2.5x the fp32 GEMM on AVX512-VNNI) and
dequantises and adds the bias in the same pass, so everything between two linears stays
fp32: attention scores, softmax, LayerNorm, GELU and pooling are untouched.

Why *static* activation scales: onnxruntime's dynamic quantisation computes one scale
over the whole batch tensor, so a text's vector would depend on which texts share its
batch. Here every scale is fixed when the graph is built, from a small calibration text
set, so a text's vector is a function of that text alone (and repeatable).

Why SmoothQuant: BERT's LayerNorm and GELU outputs carry a few outlier channels (max
~30 where most channels stay within ~2), and one per-tensor uint8 scale sized for them
leaves the ordinary channels a handful of levels. Dividing channel ``j`` by ``s_j`` (one
``Mul`` before the ``QuantizeLinear``) and multiplying row ``j`` of the weight by ``s_j``
leaves ``x @ W`` unchanged while moving the outliers into the weights, which are
quantised per output column. The attention context (a convex mix of value rows) has no
such outliers, so its linear gets no ``Mul``.

Why a search: the best migration strength ``alpha`` and activation clipping differ per
layer; each linear picks the pair that minimises its own relative output error on the
calibration activations, a cheap proxy that tracks the end-to-end cosine well. Everything
is a pure function of the weights and the calibration texts, so rebuilding the graph
gives the same bytes.
"""

from __future__ import annotations

import platform
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engram.errors import EmbeddingError

Array = npt.NDArray[np.float32]

#: Bump when the int8 rewrite or the search changes, so cached graphs and shipped plans
#: made by an older one are not used.
QUANT_VERSION = 1

#: Migration strengths tried per linear (``None``: no smoothing, no extra ``Mul``).
ALPHAS: tuple[float | None, ...] = (None, 0.5, 0.6, 0.7, 0.8, 0.9)
#: Fractions of the calibrated activation range kept (the rest saturates). Wider grids
#: (0.5-1.0) and 2048 scoring rows chose near-identical plans at 3x the build time.
CLIPS: tuple[float, ...] = tuple(round(0.7 + 0.05 * i, 2) for i in range(7))
#: Calibration rows (tokens) used to score each candidate; ranges use all rows.
SEARCH_ROWS = 1024
#: Producers whose outputs have outlier channels worth a smoothing ``Mul``.
_SMOOTHABLE = ("LayerNormalization", "Mul")


@dataclass(frozen=True, slots=True)
class _Linear:
    """``Add(MatMul(x, weight), bias)`` with constant weight ``[in, out]`` and bias."""

    x: str
    weight: str
    bias: str
    matmul_out: str
    out: str


@dataclass(frozen=True, slots=True)
class Plan:
    """How one activation tensor is quantised: ``u8 = round(x / smooth / scale) + zp``."""

    smooth: Array | None
    scale: float
    zero_point: int


def fast_int8() -> bool:
    """Whether this CPU has int8 dot-product instructions (x86 VNNI), where the int8
    graph is 2.7x fp32 per CPU-second. On AVX2 without VNNI onnxruntime's u8 x s8
    kernels add in 16 bits and saturate: measured there, int8 ran 1.09x fp32 with a
    min cosine of 0.957 on LoCoMo turns (docs/benchmarks.md, "int8 embeddings"), so
    ``auto`` keeps fp32. ARM is not measured and keeps fp32 too."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        cpuinfo = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return re.search(r"\b(avx512_vnni|avx_vnni)\b", cpuinfo) is not None


def calibration_texts() -> list[str]:
    """The calibration set shipped with engram (``engram/data/calibration_texts.txt``):
    varied chat, notes, preferences, dates, code and a little non-English, written for
    this purpose and never benchmark data."""
    text = (resources.files("engram") / "data" / "calibration_texts.txt").read_text("utf-8")
    return [line for line in text.splitlines() if line.strip()]


def plan_quantization(
    model_bytes: bytes,
    calibration: Sequence[str],
    tokenizer_file: Path,
    *,
    max_seq_length: int = 256,
) -> dict[str, Plan]:
    """How each linear input of the graph is quantised (the expensive part: running the
    fp32 graph over the calibration texts and searching each input's parameters), keyed
    by the input's tensor name. A pure function of the graph and the texts."""
    import onnx

    texts = [t for t in calibration if t.strip()]
    if not texts:
        raise EmbeddingError("int8 quantisation needs at least one calibration text")
    model = onnx.load_from_string(model_bytes)
    groups = _groups(model)
    weights = _weights(model)
    activations = _calibrate(model_bytes, list(groups), texts, tokenizer_file, max_seq_length)
    producer = {out: node.op_type for node in model.graph.node for out in node.output}
    return {
        x: _search(
            activations[x],
            [weights[lin.weight] for lin in group],
            smoothable=producer.get(x) in _SMOOTHABLE,
        )
        for x, group in groups.items()
    }


def apply_plan(model_bytes: bytes, plans: Mapping[str, Plan]) -> bytes:
    """The int8 graph: every linear input quantised as ``plans`` says (milliseconds)."""
    import onnx

    model = onnx.load_from_string(model_bytes)
    groups = _groups(model)
    missing = sorted(set(groups) - set(plans))
    if missing:
        raise EmbeddingError(f"the quantisation plan lacks the graph's inputs {missing[:3]}")
    return _rewrite(model, groups, plans, _weights(model))


def save_plans(plans: Mapping[str, Plan], path: Path) -> None:
    """Write ``plans`` as one ``.npz`` file (three arrays per input)."""
    arrays: dict[str, npt.NDArray[Any]] = {}
    for x, plan in plans.items():
        arrays[f"{x}/scale"] = np.array(plan.scale, np.float64)
        arrays[f"{x}/zero_point"] = np.array(plan.zero_point, np.int64)
        if plan.smooth is not None:
            arrays[f"{x}/smooth"] = plan.smooth
    with path.open("wb") as out:
        np.savez(out, **arrays)  # type: ignore[arg-type]


def load_plans(path: Path) -> dict[str, Plan]:
    """Read what ``save_plans`` wrote."""
    with np.load(path) as data:
        names = {key.rsplit("/", 1)[0] for key in data.files}
        return {
            x: Plan(
                data[f"{x}/smooth"].astype(np.float32) if f"{x}/smooth" in data.files else None,
                float(data[f"{x}/scale"]),
                int(data[f"{x}/zero_point"]),
            )
            for x in sorted(names)
        }


def _groups(model: Any) -> dict[str, list[_Linear]]:
    """The graph's linear maps by the input they share (Q, K and V share one)."""
    linears = _find_linears(model)
    if not linears:
        raise EmbeddingError("the graph has no MatMul+Add linear maps to quantise")
    groups: dict[str, list[_Linear]] = {}
    for linear in linears:
        groups.setdefault(linear.x, []).append(linear)
    return groups


def _weights(model: Any) -> dict[str, Array]:
    from onnx import numpy_helper

    return {
        init.name: numpy_helper.to_array(init).astype(np.float32)
        for init in model.graph.initializer
    }


def _find_linears(model: Any) -> list[_Linear]:
    """Every ``MatMul`` by a 2-D constant whose only consumer adds a 1-D constant bias."""
    shapes = {init.name: len(init.dims) for init in model.graph.initializer}
    consumers: dict[str, list[Any]] = {}
    for node in model.graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    found = []
    for node in model.graph.node:
        if node.op_type != "MatMul" or shapes.get(node.input[1]) != 2:
            continue
        users = consumers.get(node.output[0], [])
        if len(users) != 1 or users[0].op_type != "Add":
            continue
        add = users[0]
        bias = add.input[1] if add.input[0] == node.output[0] else add.input[0]
        if shapes.get(bias) == 1:
            found.append(_Linear(node.input[0], node.input[1], bias, node.output[0], add.output[0]))
    return found


def _calibrate(
    model_bytes: bytes,
    names: list[str],
    texts: list[str],
    tokenizer_file: Path,
    max_seq_length: int,
) -> dict[str, Array]:
    """The fp32 activations ``names`` over all calibration tokens, ``[tokens, channels]``.

    Texts run one at a time, so no padding token ever enters a range; one thread keeps
    the fp32 sums, hence the ranges, identical run to run."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper
    from tokenizers import Tokenizer

    model = onnx.load_from_string(model_bytes)
    for name in names:
        model.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    session = ort.InferenceSession(
        model.SerializeToString(), sess_options=options, providers=["CPUExecutionProvider"]
    )
    tokenizer = Tokenizer.from_file(str(tokenizer_file))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=max_seq_length)
    rows: dict[str, list[Array]] = {name: [] for name in names}
    for encoding in tokenizer.encode_batch(texts):
        ids = np.array([encoding.ids], dtype=np.int64)
        outs = session.run(names, {"input_ids": ids, "attention_mask": np.ones_like(ids)})
        for name, out in zip(names, outs, strict=True):
            rows[name].append(np.asarray(out, np.float32).reshape(-1, out.shape[-1]))
    return {name: np.concatenate(parts) for name, parts in rows.items()}


def _quantize_weight(weight: Array) -> tuple[npt.NDArray[np.int8], Array]:
    """Symmetric int8 per output column: ``weight ~= q * scale``."""
    scale = (np.abs(weight).max(axis=0) / 127.0).astype(np.float32)
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(weight / scale), -127, 127).astype(np.int8)
    return q, scale


def _activation_params(low: float, high: float) -> tuple[float, int]:
    """Asymmetric uint8 scale and zero point covering ``[low, high]`` (and 0)."""
    low, high = min(low, 0.0), max(high, 0.0)
    scale = max(high - low, 1e-8) / 255.0
    return scale, int(np.clip(np.rint(-low / scale), 0, 255))


def _smoothing(x_max: Array, w_max: Array, alpha: float) -> Array:
    s = np.maximum(x_max, 1e-5) ** alpha / np.maximum(w_max, 1e-5) ** (1.0 - alpha)
    return s.astype(np.float32)


def _search(x: Array, weights: list[Array], *, smoothable: bool) -> Plan:
    """The (alpha, clip) whose int8 linear(s) best reproduce ``x @ W`` on calibration data.

    The error is summed relative squared error of each linear's output, so the three
    attention projections sharing one input are weighed alike."""
    sample = x[:: max(1, x.shape[0] // SEARCH_ROWS)]
    targets = [sample @ w for w in weights]
    norms = [max(float((t * t).sum()), 1e-12) for t in targets]
    x_max = np.abs(x).max(axis=0)
    w_max = np.max([np.abs(w).max(axis=1) for w in weights], axis=0)
    best: tuple[float, Plan] | None = None
    for alpha in ALPHAS if smoothable else (None,):
        smooth = None if alpha is None else _smoothing(x_max, w_max, alpha)
        inv = np.ones_like(x_max) if smooth is None else 1.0 / smooth
        dequantized = []
        for w in weights:
            q, scale = _quantize_weight(w if smooth is None else w * smooth[:, None])
            dequantized.append(q.astype(np.float32) * scale)
        low, high = float((x * inv).min()), float((x * inv).max())
        scaled = sample * inv
        for clip in CLIPS:
            a_scale, zp = _activation_params(low * clip, high * clip)
            xq = (np.clip(np.rint(scaled / a_scale) + zp, 0, 255) - zp) * a_scale
            err = sum(
                float(((xq @ w - t) ** 2).sum()) / n
                for w, t, n in zip(dequantized, targets, norms, strict=True)
            )
            if best is None or err < best[0]:
                best = (err, Plan(smooth, a_scale, zp))
    assert best is not None
    return best[1]


def _rewrite(
    model: Any,
    groups: dict[str, list[_Linear]],
    plans: Mapping[str, Plan],
    weights: dict[str, Array],
) -> bytes:
    """Replace each group's MatMul+Add pairs by one ``[Mul] -> QuantizeLinear`` and a
    ``MatMulIntegerToFloat`` (dequantisation and bias fused) per linear."""
    from onnx import helper, numpy_helper

    added: list[Any] = []

    def const(name: str, value: npt.NDArray[Any]) -> str:
        added.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    replaced: dict[str, list[Any]] = {}  # first MatMul's output -> new nodes
    dropped: set[str] = set()
    for x, group in groups.items():
        plan, tag = plans[x], f"{x}_q8"
        nodes: list[Any] = []
        source = x
        if plan.smooth is not None:
            inv = const(f"{tag}_inv_smooth", (1.0 / plan.smooth).astype(np.float32))
            nodes.append(helper.make_node("Mul", [x, inv], [f"{tag}_smoothed"]))
            source = f"{tag}_smoothed"
        a_scale = const(f"{tag}_scale", np.array(plan.scale, np.float32))
        a_zero = const(f"{tag}_zero", np.array(plan.zero_point, np.uint8))
        nodes.append(helper.make_node("QuantizeLinear", [source, a_scale, a_zero], [tag]))
        for lin in group:
            w = weights[lin.weight]
            q, w_scale = _quantize_weight(w if plan.smooth is None else w * plan.smooth[:, None])
            inputs = [
                tag,
                const(f"{lin.weight}_q8", q),
                a_scale,
                const(f"{lin.weight}_q8_scale", w_scale),
                a_zero,
                "",
                lin.bias,
            ]
            nodes.append(
                helper.make_node("MatMulIntegerToFloat", inputs, [lin.out], domain="com.microsoft")
            )
            dropped.update((lin.matmul_out, lin.out))
        replaced[group[0].matmul_out] = nodes
    new_nodes: list[Any] = []
    for node in model.graph.node:
        new_nodes.extend(replaced.get(node.output[0], []))
        if node.output[0] not in dropped:
            new_nodes.append(node)
    del model.graph.node[:]
    model.graph.node.extend(new_nodes)
    used = {name for node in model.graph.node for name in node.input}
    kept = [init for init in [*model.graph.initializer, *added] if init.name in used]
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept)
    if not any(op.domain == "com.microsoft" for op in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    data: bytes = model.SerializeToString()
    return data
