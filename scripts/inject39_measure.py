"""Round thirty-five (inject39; docs/safety.md, "Round thirty-five"): the false-positive
shapes of round thirty-four's rules (``src/engram/data/notes39.json``), the misses of the
spent folds, and every check, read with the scan of the tree on ``PYTHONPATH``.

The shipped detector's reasons come from round thirty-four's cache (the stated-value
guard off; ``/tmp/inject38/verdicts-main-noguard.json``, ``fp36_checks.py --verdicts``,
and ``/tmp/inject38/acks-noguard.json``, ``inject38_measure.py --acks``); ``--cache``
adds held-out 29's texts and notes39's to ``/tmp/inject39/``. A text counts as flagged
as a write meets it: the rules (``engram.safety.scan``), else the detector's reason
unless the wish guard or the stated-value guard passes it. Base -> new is this script run
on main's tree (``PYTHONPATH=<main copy>/src``) and on this one: it prints figures only,
never a held-out text.

Ran (10:22-10:34 UTC, fp32): notes39 A 7 -> 2 and B 4 -> 1 of 22; 10 of 11 pieces kept,
none flagging a benign tuning text; leave one fold out +12 of held-out 20 to 29's 59
misses (+6 on 28, +6 on 29, none older); held-out 2 to 29 English 2,456 -> 2,472, every
benign set the same.

    PYTHONPATH=src python scripts/inject39_measure.py --cache
    PYTHONPATH=src python scripts/inject39_measure.py --notes [--fold A|B]
    PYTHONPATH=src python scripts/inject39_measure.py --misses   # held-out 20 to 29's
    PYTHONPATH=src python scripts/inject39_measure.py --pool     # pieces, LOFO, choice
    PYTHONPATH=src python scripts/inject39_measure.py --checks [--final]  # --final: notes39 B
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round19 as r19  # noqa: E402  (the lists probe)
import fit_injection_round21 as r21  # noqa: E402  (the user-facts probe)
import fit_injection_round30 as r30  # noqa: E402  (the embedder, the wishes probe)

from engram import (  # noqa: E402
    injection_detector,
    safety,
    safety_values,
    safety_widened,
    safety_wishes,
)
from engram.bench import injection  # noqa: E402

OLD = Path("/tmp/inject38")
WORK = Path("/tmp/inject39")
NEW_CACHE = WORK / "reasons-noguard.json"
DATA = Path(__file__).resolve().parents[1] / "src/engram/data"
SPENT = tuple(f"held_out_{n}" for n in range(20, 30))

Cached = dict[str, dict[str, str | None]]


def notes39(fold: str = "", shape: str = "") -> list[str]:
    rows = json.loads((DATA / "notes39.json").read_text("utf-8"))
    return [
        r["text"]
        for r in rows
        if (not fold or r["fold"] == fold) and (not shape or r["shape"] == shape)
    ]


def acks(fold: str, label: str) -> list[str]:
    rows = json.loads((DATA / "acks36.json").read_text("utf-8"))
    return [r["text"] for r in rows if r["fold"] == fold and r["label"] == label]


def wishes31(fold: str) -> list[str]:
    rows = json.loads((DATA / "wishes31.json").read_text("utf-8"))
    return [r["text"] for r in rows if r["fold"] == fold]


def cache() -> None:
    """The detector's reasons (fp32, the stated-value guard off) on held-out 29 and
    notes39."""
    texts = sorted(
        {x["text"] for x in injection.load_set() if x["split"] == "held_out_29"} | set(notes39())
    )
    embed = r30.fp32_embed(OLD / "vectors.npz")
    found = injection_detector.shipped()
    assert found is not None
    keep = safety_values.stated
    safety_values.stated = lambda text: False  # type: ignore[assignment]
    try:
        got = found.reasons(embed(texts), texts, embed)
    finally:
        safety_values.stated = keep  # type: ignore[assignment]
    WORK.mkdir(parents=True, exist_ok=True)
    NEW_CACHE.write_text(json.dumps(dict(zip(texts, got, strict=True))))


def cached() -> Cached:
    out: Cached = json.loads((OLD / "verdicts-main-noguard.json").read_text())
    out["acks"] = json.loads((OLD / "acks-noguard.json").read_text())
    new = json.loads(NEW_CACHE.read_text())
    out["set"] = out["set"] | new
    out["notes39"] = new
    return out


def verdict(found: Cached, kind: str) -> Callable[[str], bool]:
    def flagged(text: str) -> bool:
        if safety.scan(text):
            return True
        reason = found[kind].get(text)
        if reason is None or safety_wishes.wish(text):
            return False
        bare = injection_detector.unlabelled(text) if kind == "agent" else text
        return not safety_values.stated(bare)

    return flagged


def why(found: Cached, kind: str, text: str) -> str:
    """The rules' reasons, else the detector's view."""
    return ",".join(safety.scan(text)) or f"detector:{found[kind].get(text)}"


def show_notes(fold: str) -> None:
    found = cached()
    f = verdict(found, "notes39")
    for shape in ("operator", "share"):
        texts = notes39(fold, shape)
        hits = [t for t in texts if f(t)]
        print(f"notes39 {fold or 'A+B'} {shape}: {len(hits)} of {len(texts)}")
        if fold == "A":
            for t in hits:
                print(f"  {why(found, 'notes39', t)}: {t[:120]!r}")


def _units(fold: str) -> list[tuple[str, list[str]]]:
    return r30._units(fold)


def _notes(fold: str) -> list[str]:
    return [x["text"] for x in injection.load_set() if x.get("split") == fold and x.get("benign")]


def misses() -> None:
    """The spent folds' English misses (held-out 20 to 29, all read by earlier rounds)."""
    f = verdict(cached(), "set")
    for fold in SPENT:
        for category, texts in _units(fold):
            if category in injection.ENGLISH and not any(f(t) for t in texts):
                print(f"{fold} {category}: {' || '.join(texts)[:230]}")


def _fired(t: str) -> set[str]:
    views = [t, *([] if t.isascii() else safety._views(t))]
    return {
        name for name, (_, rule, _) in safety_widened.POOL.items() if any(rule(v) for v in views)
    }


def _without(found: Cached, kind: str) -> Callable[[str], bool]:
    """A write's verdict without this round's pieces (``safety_widened``)."""
    keep = safety._RULES
    bare = tuple(r for r in keep if r not in safety_widened.RULES)
    g = verdict(found, kind)

    def flagged(text: str) -> bool:
        safety._RULES = bare  # type: ignore[assignment]
        try:
            return g(text)
        finally:
            safety._RULES = keep  # type: ignore[assignment]

    return flagged


def _benign_tune(bench: str, found: Cached) -> dict[str, tuple[str, list[str]]]:
    real = [t for _, t in injection.real_texts(bench)]
    order = np.random.default_rng(0).permutation(len(real))  # fit_injection_detector.halves
    agent, facts, lists = injection.agent_writes(), r21.facts(), r19.lists()
    out = {
        "real (fitted half)": ("real", [real[i] for i in order[: len(real) // 2]]),
        "agent tune": ("agent", agent["tune"]),
        "training notes": ("notes", sorted(found["notes"])),
        "facts tune": ("facts", facts["tune"]),
        "lists tune": ("lists", lists["tune"]),
        "wishes31 A": ("wishes31", wishes31("A")),
        "acks36 tune notes": ("acks", acks("tune", "benign")),
        "notes39 A": ("notes39", notes39("A")),
    }
    for fold in SPENT:
        out[f"notes {fold}"] = ("set", _notes(fold))
    return out


def pool(bench: str) -> None:
    """Each piece's gain and benign flags, leave one fold out, and the pieces chosen
    (round thirty-four's rule: a piece adds an English catch on the spent folds or acks36's
    tune look-alikes and flags nothing new on a tuning benign text)."""
    found = cached()
    f = _without(found, "set")
    missed = {
        fold: [
            set().union(*map(_fired, ts))
            for c, ts in _units(fold)
            if c in injection.ENGLISH and not any(f(t) for t in ts)
        ]
        for fold in SPENT
    }
    a = _without(found, "acks")
    looks = [_fired(t) for t in acks("tune", "attack") if not a(t)]
    names = list(safety_widened.POOL)
    benign = dict.fromkeys(names, 0)
    for name, (kind, texts) in _benign_tune(bench, found).items():
        g = _without(found, kind)
        for t in texts:
            if not g(t):
                for p in _fired(t):
                    benign[p] += 1
                    print(f"  benign {name} {p}: {t[:160]!r}")
    for p in names:
        gain = {fold[9:]: sum(p in m for m in missed[fold]) for fold in SPENT}
        print(
            f"{p}: English +{sum(gain.values())} {gain}, look-alikes +"
            f"{sum(p in m for m in looks)}, benign {benign[p]}"
        )

    def chosen(out: str) -> list[str]:
        return [
            p
            for p in names
            if benign[p] == 0
            and sum(p in m for fold in SPENT if fold != out for m in missed[fold])
            + sum(p in m for m in looks)
        ]

    total = 0
    for out in SPENT:
        added = sum(bool(m & set(chosen(out))) for m in missed[out])
        total += added
        print(f"  left out {out}: {len(chosen(out))} chosen, English +{added}")
    print(f"  summed +{total} of {sum(len(m) for m in missed.values())} misses")
    print("chosen on all:", chosen(""))


def checks(bench: str, final: bool) -> None:
    """This tree's flags on every benign set, the look-alikes and every spent fold."""
    found = cached()
    agent, facts, lists = injection.agent_writes(), r21.facts(), r19.lists()
    sets: dict[str, tuple[str, list[str]]] = {
        "real (distinct)": ("real", sorted(found["real"])),
        "agent tune": ("agent", agent["tune"]),
        "agent check": ("agent", agent["check"]),
        "facts tune": ("facts", facts["tune"]),
        "facts check": ("facts", facts["check"]),
        "lists tune": ("lists", lists["tune"]),
        "lists check": ("lists", lists["check"]),
        "training notes": ("notes", sorted(found["notes"])),
        "round thirty's wishes probe": ("wishes", list(r30.WISHES)),
        "wishes31 A": ("wishes31", wishes31("A")),
        "wishes31 B": ("wishes31", wishes31("B")),
        "acks36 tune notes": ("acks", acks("tune", "benign")),
        "acks36 held_out notes": ("acks", acks("held_out", "benign")),
        "notes39 A": ("notes39", notes39("A")),
    }
    if final:  # notes39's held-out fold: read once at base and once at the end
        sets["notes39 B"] = ("notes39", notes39("B"))
    for name, (kind, texts) in sets.items():
        g = verdict(found, kind)
        print(f"{name}: {sum(g(t) for t in texts)} of {len(texts)}")
    a = verdict(found, "acks")
    for fold in ("tune", "held_out"):
        texts = acks(fold, "attack")
        print(f"acks36 {fold} look-alikes caught: {sum(a(t) for t in texts)} of {len(texts)}")
    for key in ("lists_attacks", "facts_attacks"):
        g = verdict(found, key)
        print(f"{key} caught: {sum(g(t) for t in sorted(found[key]))} of {len(found[key])}")
    f = verdict(found, "set")
    total = [0, 0, 0]
    for fold in ["tune", "held_out", *(f"held_out_{n}" for n in range(2, 30))]:
        units = _units(fold)
        eng = sum(1 for c, ts in units if c in injection.ENGLISH and any(f(t) for t in ts))
        overall = sum(1 for _, ts in units if any(f(t) for t in ts))
        notes = sum(f(t) for t in _notes(fold))
        alone = sum(
            1 for c, ts in units if c in injection.ENGLISH and any(safety.scan(t) for t in ts)
        )
        if fold.startswith("held_out_"):
            for i, v in enumerate((eng, overall, notes)):
                total[i] += v
        n_eng = sum(1 for c, _ in units if c in injection.ENGLISH)
        print(f"{fold}: English {eng} of {n_eng}; overall {overall}; notes {notes}; alone {alone}")
    print(f"held-out 2 to 29 summed (English, overall, notes): {total}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--fold", default="A")
    for flag in ("cache", "notes", "misses", "pool", "checks", "final"):
        parser.add_argument(f"--{flag}", action="store_true")
    args = parser.parse_args()
    if args.cache:
        cache()
    if args.notes:
        show_notes(args.fold)
    if args.misses:
        misses()
    if args.pool:
        pool(args.data)
    if args.checks:
        checks(args.data, args.final)


if __name__ == "__main__":
    main()
