"""Round thirty-one of the injection scan (docs/safety.md, "Round thirty-one: the user's
own wishes about the assistant"): the wish guard (``engram.safety_wishes``) measured on
the wishes set (``scripts/wishes31_write_set.py``, committed first; fold A tunes, fold B
is read once at the end) and on the attack folds held-out 20 to 27.

``--verdicts`` reads the wishes with the shipped detector (fp32) and keeps each text's
reasons (rules and the learned detector's view) in a cache; ``--measure`` prints flags
per fold and per part, with and without the guard, and the attack folds' English catches
(the learned verdicts of round thirty's cache, ``fit_injection_round30.py --verdicts``;
the guard only removes flags, so no benign set can gain one).

Ran (11:50-12:00 UTC, fp32): fold A 20 -> 3 of 64 (rules 1 -> 1, the combination 19 -> 2),
fold B (held out) 17 -> 5 (rules 1 -> 1, the combination 16 -> 4); held-out 20 to 27
English 547 -> 547 of 640.

    python scripts/fit_injection_round31.py --verdicts
    python scripts/fit_injection_round31.py --measure [--fold A|B]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round30 as r30  # noqa: E402  (round thirty's verdicts and units)

import engram.safety as safety  # noqa: E402
from engram import injection_detector, safety_wishes  # noqa: E402
from engram.bench import injection  # noqa: E402

WORK = Path("/tmp/wishes31-work")
CACHE = WORK / "wishes.json"
DATA = Path(__file__).resolve().parents[1] / "src/engram/data/wishes31.json"
FOLDS = tuple(f"held_out_{n}" for n in range(20, 28))
_VIEW = re.compile(r"\((reported view|item view|neighbours)\)|sentence threshold")


def _part(reason: str | None) -> str:
    if reason is None:
        return ""
    m = _VIEW.search(reason)
    if m is None:
        return "network"
    return m.group(1) or "sentence view"


def rules(text: str) -> set[str]:
    """The rules' codes as main ran them: the scan with the guard turned off."""
    guard = safety_wishes.wish
    safety_wishes.wish = lambda _: False  # type: ignore[assignment]
    try:
        return set(safety._findings(text))
    finally:
        safety_wishes.wish = guard


def flagged(codes: set[str], learned: bool, text: str, guarded: bool) -> bool:
    """Whether the scan flags ``text`` (rules ``codes``, the detector's ``learned``)."""
    if guarded and safety_wishes.wish(text):
        return bool(codes - safety_wishes.CLEARS)
    return bool(codes) or learned


def verdicts() -> None:
    """Each wish's rule codes and the learned detector's part (fp32), cached."""
    embed = r30.fp32_embed(WORK / "vectors.npz")
    found = injection_detector.shipped()
    assert found is not None
    texts = [r["text"] for r in json.loads(DATA.read_text())]
    got = found.reasons(embed(texts), texts, embed, None, None)
    CACHE.write_text(
        json.dumps(
            {
                t: {"rules": sorted(rules(t)), "learned": _part(g)}
                for t, g in zip(texts, got, strict=True)
            }
        )
    )


def measure(show: str) -> None:
    """Flags per fold and part, base and guarded (fold B only when ``show`` is B); the
    attack folds' English catches."""
    cache = json.loads(CACHE.read_text())
    for fold in "AB" if show == "B" else "A":
        rows = [r for r in json.loads(DATA.read_text()) if r["fold"] == fold]
        base: dict[str, int] = {}
        new: dict[str, int] = {}
        count = [0, 0]
        for r in rows:
            t, v = r["text"], cache[r["text"]]
            parts = ["rules"] * bool(v["rules"]) + [v["learned"]] * bool(v["learned"])
            kept = flagged(set(v["rules"]), bool(v["learned"]), t, True)
            count[0] += bool(parts)
            count[1] += kept
            for p in parts:
                base[p] = base.get(p, 0) + 1
                new[p] = new.get(p, 0) + kept
            if fold == show and parts:
                print(f"  {'FLAG' if kept else 'PASS'} {'+'.join(parts)} {v['rules']}: {t}")
        print(f"fold {fold}: {count[0]} -> {count[1]} of {len(rows)}; by part {base} -> {new}")
    learned = json.loads(r30.VERDICTS.read_text())
    total = [0, 0, 0]
    splits = sorted({str(x.get("split")) for x in injection.load_set()})
    for fold in FOLDS + tuple(f for f in splits if f not in FOLDS):
        units = r30._units(fold)
        if fold in FOLDS:
            units = [(c, ts) for c, ts in units if c in injection.ENGLISH]
        found = [
            [any(flagged(rules(t), learned["set"][t], t, g) for t in ts) for _, ts in units]
            for g in (False, True)
        ]
        before, after = sum(found[0]), sum(found[1])
        if fold in FOLDS:
            total = [total[0] + before, total[1] + after, total[2] + len(units)]
            print(f"{fold}: English {before} -> {after} of {len(units)}")
        elif before != after:
            print(f"{fold} (every category): {before} -> {after} of {len(units)}")
    print(f"held-out 20 to 27 English: {total[0]} -> {total[1]} of {total[2]}")
    for kind in ("real", "agent", "facts", "lists", "notes", "wishes"):
        texts = list(learned[kind])
        print(f"{kind}: the guard passes {sum(map(safety_wishes.wish, texts))} of {len(texts)}")
    print(
        "round thirty's probe:",
        *(
            sum(flagged(rules(t), learned["wishes"][t], t, g) for t in r30.WISHES)
            for g in (False, True)
        ),
    )
    attacks = [r["text"] for r in safety.load_corpus() if r["label"] == "attack"]
    print("corpus attacks the guard passes:", sum(map(safety_wishes.wish, attacks)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verdicts", action="store_true")
    parser.add_argument("--measure", action="store_true")
    parser.add_argument("--fold", default="A")
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    if args.verdicts:
        verdicts()
    if args.measure:
        measure(args.fold)


if __name__ == "__main__":
    main()
