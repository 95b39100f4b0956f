"""Round thirty-three (fp36; docs/safety.md, "Round thirty-three: acknowledgements that
carry a code"): how the scan reads ``src/engram/data/acks36.json``
(``scripts/fp36_ack_set.py``), per fold, and where a flag comes from.

For each text: the rules (``engram.safety.scan``), then the learned detector (fp32
MiniLM, as it was fitted; each view's reason names it: the combination of the network
and the word and character n-grams, the reported, item, sentence or neighbour view) and
round thirty-one's wish guard, as ``Core._quarantine`` applies it. For a text the
combination fires on, the lexical model's logit is split into its word n-grams' and its
character n-grams' shares, and the network's score is printed beside it.

Run from the worktree root (the shipped detector of the tree on ``PYTHONPATH`` is read;
point it at a base checkout's ``src`` to read main's):

    PYTHONPATH=src python scripts/fp36_measure.py --fold tune [--list]
    PYTHONPATH=src python scripts/fp36_measure.py --fold held_out   # once, at the end
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import zlib
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round30 as r30  # noqa: E402  (the fp32 embedder with its cache)

from engram import injection_detector, safety, safety_wishes  # noqa: E402
from engram.injection_lexical import _TOKEN, Lexical  # noqa: E402

SET = Path(__file__).resolve().parents[1] / "src/engram/data/acks36.json"
CACHE = Path("/tmp/fp36/vectors.npz")
#: ``--precision int8``: the int8 MiniLM a CPU with int8 dot products runs by default.
PRECISION = ["fp32"]


def embedder() -> r30.Callable[[r30.Sequence[str]], r30.np.ndarray]:
    """The MiniLM at ``PRECISION[0]``, vectors cached per precision."""
    if PRECISION[0] == "fp32":
        return r30.fp32_embed(CACHE)
    from engram.config import Config
    from engram.embed import create_embedder

    cfg = r30.replace(Config().embedder, precision=PRECISION[0])
    data = r30.mlp.Data(
        create_embedder(cfg, Path("/tmp/engram-fit-detector")), CACHE.with_suffix(".int8.npz")
    )

    def embed(batch: r30.Sequence[str]) -> r30.np.ndarray:
        return data.features(list(batch), 0.0)[:, : -r30.mlp.N_CUES]

    return embed


def rows(fold: str) -> list[dict[str, str]]:
    return [x for x in json.loads(SET.read_text("utf-8")) if x["fold"] == fold]


def view(reason: str) -> str:
    """The detector's view named in a reason."""
    for key, name in (
        ("together", "combination"),
        ("reported view", "reported"),
        ("item view", "item"),
        ("sentence", "sentence"),
        ("neighbours", "neighbours"),
    ):
        if key in reason:
            return name
    return "other"


def split_logit(lex: Lexical, text: str) -> tuple[float, float]:
    """The lexical logit's word n-gram and character n-gram shares (before the intercept)."""
    words = _TOKEN.findall(" ".join(text.lower().split()))
    grams = words + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]
    grams += [f"{a} {b} {c}" for a, b, c in zip(words, words[1:], words[2:], strict=False)]
    mask = (1 << lex.bits) - 1
    word_b = {zlib.crc32(g.encode()) & mask for g in grams}
    char_b: set[int] = set()
    if lex.chars[0]:
        from engram.injection_lexical import _char_grams

        for w in set(words):
            char_b.update(_char_grams(w, lex.chars, lex.bits))
    allb = word_b | char_b
    n = math.sqrt(max(1, len(allb)))
    only_char = char_b - word_b
    w = float(lex.coef[list(word_b)].sum()) / n
    c = float(lex.coef[list(only_char)].sum()) / n if only_char else 0.0
    return w, c


def verdicts(texts: list[str]) -> list[tuple[tuple[str, ...], str | None]]:
    """Per text, the rules' reasons and the detector's view after the wish guard."""
    embed = embedder()
    det = injection_detector.shipped()
    assert det is not None
    reasons = det.reasons(embed(texts), texts, embed)
    out: list[tuple[tuple[str, ...], str | None]] = []
    for text, reason in zip(texts, reasons, strict=True):
        rules = safety.scan(text)
        learned = None
        if reason is not None and not safety_wishes.wish(text):
            learned = view(reason)
        out.append((rules, learned))
    return out


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fold", choices=("tune", "held_out"), required=True)
    ap.add_argument("--list", action="store_true", help="print each flagged benign text")
    ap.add_argument("--precision", choices=("fp32", "int8"), default="fp32")
    args = ap.parse_args(argv)
    PRECISION[0] = args.precision
    found = rows(args.fold)
    texts = [x["text"] for x in found]
    got = verdicts(texts)
    det = injection_detector.shipped()
    assert det is not None and det.lexical is not None
    embed = embedder()
    network = det.probabilities(embed(texts), texts)
    for label in ("benign", "attack"):
        at = [i for i, x in enumerate(found) if x["label"] == label]
        rules = sum(1 for i in at if got[i][0])
        learned = Counter(got[i][1] for i in at if not got[i][0] and got[i][1])
        flagged = rules + sum(learned.values())
        by_kind = Counter(found[i]["kind"] for i in at if got[i][0] or got[i][1])
        print(
            f"{args.fold} {label}: {flagged} of {len(at)} flagged (rules {rules}; "
            f"detector {dict(learned)}); by kind {dict(by_kind)}"
        )
        if args.list:
            for i in at:
                if bool(got[i][0] or got[i][1]) == (label == "benign"):
                    w, c = split_logit(det.lexical, texts[i])
                    lex = det.lexical.probability(texts[i])
                    print(
                        f"  net {network[i]:.2f} lex {lex:.2f} (words {w:+.2f} chars {c:+.2f}) "
                        f"{got[i][0] or got[i][1] or 'missed'} | {texts[i]}"
                    )


if __name__ == "__main__":
    main(sys.argv[1:])
