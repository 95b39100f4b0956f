"""Task resid28: the attribute test's residual read from the question's token states
(no second model call) against the masked question's, on recorded rows.

Reads the rows ``scripts/abstain27_measure.py`` wrote (recall's defaults, the test
off) and, for every confident answer, the best residual among the notes the context
showed, three ways:

- ``masked``: the cosine of the note to the question with the words it shares taken
  out (``abstain_attribute.masked``), embedded: one more model call (session
  twenty-five's test);
- ``projected``: the question's vector with the direction of the shared words' last-
  layer token states projected out, from the one call that embedded the question;
- ``rest``: the normalised mean of the other tokens' states.

A note that shares no word (or all) keeps its cosine; a residual is capped at it. The
token states come from the cached graph with its last layer added as an output (the
same tensor the pooling reads). Prints, per half and kind, how many residuals fall
below each floor and each variant's AUC (answerable above unanswerable).

    python scripts/resid28_states.py ROWS.json [fp32|int8]
"""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path
from typing import Any

import numpy as np

from engram.embed.minilm import MiniLMEmbedder
from engram.recall.abstain import _starts_a_word, stem
from engram.recall.abstain_attribute import _WORD, masked
from engram.text import keywords

FLOORS = (0.10, 0.15, 0.20, 0.25)
VARIANTS = ("masked", "projected", "rest")


class States:
    """The question's vector and token states from one run of the cached graph."""

    def __init__(self, precision: str) -> None:
        import onnx
        import onnxruntime as ort
        from onnx import TensorProto, helper

        self.model = MiniLMEmbedder(None, Path.home() / ".engram", precision=precision)
        self.model.embed("load")
        graph = onnx.load(str(self.model.cache_file()))
        made = {out: node for node in graph.graph.node for out in node.output}
        pool = next(
            n
            for n in graph.graph.node
            if n.op_type == "ReduceSum" and getattr(made.get(n.input[0]), "op_type", "") == "Mul"
        )
        self.name = made[pool.input[0]].input[0]  # what the masked mean reads
        graph.graph.output.append(helper.make_tensor_value_info(self.name, TensorProto.FLOAT, None))
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        self.session = ort.InferenceSession(graph.SerializeToString(), options)
        self.vectors: dict[str, Any] = {}

    def embed(self, text: str) -> Any:
        if text not in self.vectors:
            self.vectors[text] = self.model.embed(text)
        return self.vectors[text]

    def residuals(self, query: str, note: str) -> dict[str, float]:
        """``projected`` and ``rest`` of ``query`` against ``note``'s vector."""
        encoding = self.model._tokenizer.encode(query)  # noqa: SLF001
        ids = np.asarray([encoding.ids], np.int64)
        pooled, states = self.session.run(
            ["embeddings", self.name], {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        )
        states = states[0]
        shared = {t for t in keywords(query) if _starts_a_word(note.lower(), stem(t))}
        spans = [
            (w.start(), w.end())
            for w in _WORD.finditer(query)
            if unicodedata.normalize("NFKC", w.group(0)).lower() in shared
        ]
        inside = np.array(
            [
                not special and any(a >= lo and b <= hi for lo, hi in spans)
                for (a, b), special in zip(
                    encoding.offsets, encoding.special_tokens_mask, strict=True
                )
            ]
        )
        topic = states[inside].mean(0)
        topic /= np.linalg.norm(topic)
        projected = pooled[0] - (pooled[0] @ topic) * topic
        rest = states[~inside].mean(0)
        target = self.embed(note)
        return {
            "projected": float(projected @ target / np.linalg.norm(projected)),
            "rest": float(rest @ target / np.linalg.norm(rest)),
        }


def best(states: States, row: dict[str, Any]) -> dict[str, float]:
    """Each variant's best residual among the shown notes of one answer."""
    out = dict.fromkeys(VARIANTS, -1.0)
    for hit in row["hits"]:
        if not hit["shown"] or hit["sim"] is None:
            continue
        sim, note = hit["sim"], hit["text"]
        rest = masked(row["q"], note)
        found = (
            dict.fromkeys(VARIANTS, sim)
            if rest is None
            else {"masked": float(states.embed(rest) @ states.embed(note))}
            | states.residuals(row["q"], note)
        )
        for k in VARIANTS:
            out[k] = max(out[k], min(sim, found[k]))
    return out


def main() -> None:
    rows = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    states = States(sys.argv[2] if len(sys.argv) > 2 else "auto")
    scored = [
        {"set": r["set"], "kind": r["kind"], **best(states, r)}
        for r in rows
        if r["verdict"] == "confident"
    ]
    for half in sorted({r["set"] for r in scored}):
        for kind in sorted({r["kind"] for r in scored}):
            group = [r for r in scored if r["set"] == half and r["kind"] == kind]
            below = "; ".join(
                f"{v} " + "/".join(str(sum(r[v] < f for r in group)) for f in FLOORS)
                for v in VARIANTS
            )
            print(f"{half} {kind} ({len(group)}), below {FLOORS}: {below}")
        good = [r for r in scored if r["set"] == half and r["kind"] == "answerable"]
        bad = [r for r in scored if r["set"] == half and r["kind"] == "unanswerable"]
        for v in VARIANTS:
            pairs = [(a[v] > b[v]) + 0.5 * (a[v] == b[v]) for a in good for b in bad]
            print(f"  {half} AUC {v}: {sum(pairs) / max(len(pairs), 1):.3f}")


if __name__ == "__main__":
    main()
