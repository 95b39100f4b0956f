"""Issue 24, task beam26 (C2): offline variants on a ``beam26_dump.py`` dump, scored as
``engram bench beam`` scores R@10, per ability and fold (A = chats 1-5, B = 6-10):

- ``dense if S``: a question's whole top 10 taken from the dense leg alone when signal S
  says "trust dense" (the question asks what the assistant recommended / said; what the
  user said; the two top 10s share at most t memories; the dense leg's best cosine leads
  the default's by t or more; the dense top 10's cosine gap from 1st to 10th);
- ``dense top m``: the dense leg's first m kept in the top 10 (in place of the default
  ranking's last ones);
- ``pin f``: the namespace's standing instruction nearest the question (the larger of
  its own cosine and its condition's) put at 10th place when it is not in the top 10 and
  its cosine is at least f times the first hit's.

Usage (the dump, and the store it was made on, for the instructions' vectors):

    PYTHONPATH=src python scripts/beam26_probe.py DUMP.pkl STORE
"""

from __future__ import annotations

import pickle
import re
import sys
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import numpy as np

from engram import Memory
from engram.bench import beam
from engram.recall.conditions import condition_of
from engram.recall.directives import is_directive
from engram.store.protocols.memories import FACTS_HEAD_CHARS

DATA = "../shared/bench/beam-100k"
Row = dict[str, Any]
Variant = Callable[[Row], list[str]]

YOU_SAID = re.compile(
    r"\b(?:did|do|would|could|have) you (?:recommend|suggest|advise|say|tell|mention|propose|"
    r"explain|describe|outline)\b|\byou (?:recommended|suggested|advised|said|told|mentioned|"
    r"proposed|explained|described|outlined)\b",
    re.I,
)
I_SAID = re.compile(
    r"\bdid I (?:say|mention|tell|note|state|write|outline|confirm|plan|describe)\b"
    r"|\bI (?:said|mentioned|told|noted|stated)\b",
    re.I,
)


def turns(hits: list[dict[str, Any]]) -> list[str]:
    return [h["turn"] for h in hits]


def recall10(ranked: list[str], gold: list[str]) -> float:
    return sum(g in ranked[:10] for g in gold) / len(gold)


def nearest_instructions(rows: list[Row], store: str) -> list[tuple[str, float]]:
    """Per question: its namespace's standing instruction nearest it, and that cosine."""
    data = beam.load(DATA)
    with Memory(store) as mem:
        embedder = mem.embedder
        assert embedder is not None
        rules: dict[int, tuple[list[str], Any, Any]] = {}
        for conv in data.conversations:
            found = [t for t in conv.turns if is_directive(t.text[:FACTS_HEAD_CHARS])]
            own = np.asarray(embedder.embed_batch([t.text for t in found]))
            cond = np.asarray(embedder.embed_batch([condition_of(t.text) or t.text for t in found]))
            rules[int(conv.id.rsplit("-", 1)[1])] = ([t.id for t in found], own, cond)
        queries = np.asarray(embedder.embed_batch([r["question"] for r in rows]))
    out = []
    for row, q in zip(rows, queries, strict=True):
        ids, own, cond = rules[row["chat"]]
        scores = np.maximum(own @ q, cond @ q)
        best = int(np.argmax(scores))
        out.append((ids[best], float(scores[best])))
    return out


def variants(rows: list[Row], nearest: list[tuple[str, float]]) -> dict[str, Variant]:
    def dense_if(test: Callable[[Row], bool]) -> Variant:
        return lambda r: turns(r["dense"] if test(r) else r["best"])

    def overlap(r: Row) -> int:
        return len(set(turns(r["best"])[:10]) & set(turns(r["dense"])[:10]))

    def dense_top(m: int) -> Variant:
        def ranked(r: Row) -> list[str]:
            best, dense = turns(r["best"]), turns(r["dense"])
            wanted = [t for t in dense[:m] if t not in best[:10]]
            return best[: 10 - len(wanted)] + wanted

        return ranked

    pinned = {id(r): n for r, n in zip(rows, nearest, strict=True)}

    def pin(share: float) -> Variant:
        def ranked(r: Row) -> list[str]:
            best = turns(r["best"])
            rule, cosine = pinned[id(r)]
            if rule in best[:10] or cosine < share * (r["best"][0]["sim"] or 0.0):
                return best
            rest = [t for t in best if t != rule]
            return [*rest[:9], rule, *rest[9:]]

        return ranked

    out: dict[str, Variant] = {"defaults": lambda r: turns(r["best"])}
    out["dense always"] = lambda r: turns(r["dense"])
    out["dense if you-said"] = dense_if(lambda r: bool(YOU_SAID.search(r["question"])))
    out["dense if I-said"] = dense_if(lambda r: bool(I_SAID.search(r["question"])))
    for t in (1, 2, 3):
        out[f"dense if overlap <= {t}"] = dense_if(lambda r, t=t: overlap(r) <= t)
    for t in (0.05, 0.1):
        out[f"dense if lead >= {t}"] = dense_if(
            lambda r, t=t: r["dense"][0]["sim"] - r["best"][0]["sim"] >= t
        )
    for t in (0.07, 0.25):
        sign = "<=" if t < 0.1 else ">="
        out[f"dense if gap {sign} {t}"] = dense_if(
            lambda r, t=t, sign=sign: (
                (r["dense"][0]["sim"] - r["dense"][9]["sim"] <= t)
                if sign == "<="
                else (r["dense"][0]["sim"] - r["dense"][9]["sim"] >= t)
            )
        )
    for m in (1, 2, 3):
        out[f"dense top {m}"] = dense_top(m)
    for share in (0.0, 0.6, 0.8, 0.9):
        out[f"pin {share}"] = pin(share)
    return out


def main(dump: str, store: str) -> None:
    with open(dump, "rb") as f:
        rows = [r for r in pickle.load(f) if r["gold"]]
    table: dict[str, dict[str, dict[str, list[float]]]] = {}
    for name, ranked in variants(rows, nearest_instructions(rows, store)).items():
        cells: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
        for r in rows:
            fold = "A" if r["chat"] <= 5 else "B"
            value = recall10(ranked(r), r["gold"])
            for ability in ("all (with evidence)", r["category"]):
                cells[ability][fold].append(value)
        table[name] = cells
    names = list(table)
    abilities = sorted(table["defaults"], key=lambda a: (not a.startswith("all"), a))
    print("| variant | " + " | ".join(abilities) + " |")
    print("|---" * (len(abilities) + 1) + "|")
    for name in names:
        shown = []
        for ability in abilities:
            a, b = (sum(v) / len(v) for v in (table[name][ability][f] for f in "AB"))
            shown.append(f"{a:.3f} / {b:.3f}")
        print(f"| {name} | " + " | ".join(shown) + " |")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
