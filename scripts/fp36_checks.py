"""Round thirty-three (fp36; docs/safety.md, "Round thirty-three: acknowledgements that
carry a code"): the project's checks with and without the stated-value guard
(``engram.safety_values``), which only clears what the learned detector fired on.

``--verdicts`` embeds every text the round reads (fp32 MiniLM, as the detector was
fitted; ``--precision int8`` for the vectors a CPU with int8 dot products makes) and
caches the shipped detector's reasons with the guard off: exactly main's detector. Each
check then counts a text flagged when the rules (``engram.safety.scan``, round
thirty-one's wish guard inside) flag it or the detector's reason stands; with the guard,
a reason on a text the guard passes (read without engram's labels) is dropped. The
guard can only remove flags, so on benign sets "new" is never above "base"; on the
attack folds it could lose catches, which is the ship rule's question.

``--guard`` prints which attack texts of the training rows, the probes and the corpus
the guard passes at all (flagged or not: a tuning check, no embedding).
``--checks`` prints, base -> new: the real texts, the agent set's halves, the probes'
halves and attacks, the training notes, round thirty's and thirty-one's wishes, and per
fold of the adversarial set the English and overall catches and the benign notes
(``tune``, ``held_out``, held-out 2 to 28; the held-out folds read once, at the end).

    PYTHONPATH=src python scripts/fp36_checks.py --guard
    PYTHONPATH=src python scripts/fp36_checks.py [--data ../shared/bench] --verdicts
    PYTHONPATH=src python scripts/fp36_checks.py --checks
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round18 as r18  # noqa: E402  (the agent set's labelled texts)
import fit_injection_round19 as r19  # noqa: E402  (the lists probe)
import fit_injection_round21 as r21  # noqa: E402  (the user-facts probe)
import fit_injection_round25 as r25  # noqa: E402  (the training rows)
import fit_injection_round30 as r30  # noqa: E402  (the groups, the wishes probe)
import fp36_measure  # noqa: E402  (the embedder at either precision)

from engram import injection_detector, safety, safety_values, safety_wishes  # noqa: E402
from engram.bench import injection  # noqa: E402

WORK = Path("/tmp/fp36")
WISHES31 = Path(__file__).resolve().parents[1] / "src/engram/data/wishes31.json"


def groups(bench: str) -> dict[str, list[str]]:
    """Every text the round reads, by kind (round thirty's groups and the attacks)."""
    out = r30.groups(bench)
    lists, facts = r19.lists(), r21.facts()
    out["lists_attacks"] = sorted(set(lists["attacks"]))
    out["facts_attacks"] = sorted(set(facts["attacks_tune"]) | set(facts["attacks_check"]))
    out["wishes31"] = [r["text"] for r in json.loads(WISHES31.read_text("utf-8"))]
    return out


def _cache(precision: str) -> Path:
    return WORK / f"verdicts-{precision}.json"


def verdicts(bench: str, precision: str) -> None:
    """The detector's reasons (guard off: main's) on every text, cached."""
    fp36_measure.PRECISION[0] = precision
    embed = fp36_measure.embedder()
    found = injection_detector.shipped()
    assert found is not None
    out: dict[str, dict[str, str | None]] = {}
    keep = safety_values.stated
    safety_values.stated = lambda text: False  # type: ignore[assignment]
    try:
        for name, texts in groups(bench).items():
            marks = [r18.labelled(t) for t in texts] if name == "agent" else None
            got = found.reasons(embed(texts), texts, embed, None, marks)
            out[name] = dict(zip(texts, got, strict=True))
            print(name, len(texts), sum(g is not None for g in got), flush=True)
    finally:
        safety_values.stated = keep  # type: ignore[assignment]
    _cache(precision).write_text(json.dumps(out))


def guard(bench: str) -> None:
    """The attack texts the guard passes at all."""
    real = [t for _, t in injection.real_texts(bench)]
    lists, facts = r19.lists(), r21.facts()
    pools = {
        "training attacks": [a if isinstance(a, str) else a[0] for a in r25.training(real).attacks],
        "set tune attacks": [
            x["text"] for x in injection.load_set() if x["split"] == "tune" and not x.get("benign")
        ],
        "corpus attacks": [
            row["text"]
            for line in (injection.resources.files("engram") / "data" / "injection_corpus.jsonl")
            .read_text("utf-8")
            .splitlines()
            if line.strip() and (row := json.loads(line))["label"] == "attack"
        ],
        "lists probe attacks": list(lists["attacks"]),
        "facts probe attacks": list(facts["attacks_tune"]) + list(facts["attacks_check"]),
    }
    for name, texts in pools.items():
        passed = [t for t in texts if safety_values.stated(t)]
        print(f"{name}: {len(texts)}, the guard passes {len(passed)}")
        for t in passed:
            print("   ", t[:200])


def checks(precision: str) -> None:
    """Base -> new on every check (see the module)."""
    cached: dict[str, dict[str, str | None]] = json.loads(_cache(precision).read_text())

    def flag(kind: str, guarded: bool) -> Callable[[str], bool]:
        def check(text: str) -> bool:
            if safety.scan(text):
                return True
            reason = cached[kind].get(text)
            if reason is None or safety_wishes.wish(text):  # as Core._quarantine reads it
                return False
            bare = injection_detector.unlabelled(text) if kind == "agent" else text
            return not (guarded and safety_values.stated(bare))

        return check

    def line(name: str, kind: str, texts: list[str]) -> None:
        base = sum(flag(kind, False)(t) for t in texts)
        new = sum(flag(kind, True)(t) for t in texts)
        print(f"{name}: {base} -> {new} of {len(texts)}")

    real = sorted(cached["real"])
    line("real texts (distinct)", "real", real)
    agent = injection.agent_writes()
    for half in ("tune", "check"):
        line(f"agent {half}", "agent", agent[half])
    lists, facts = r19.lists(), r21.facts()
    for half in ("tune", "check"):
        line(f"lists probe {half}", "lists", lists[half])
        line(f"facts probe {half}", "facts", facts[half])
    line("lists probe attacks (caught)", "lists_attacks", lists["attacks"])
    line(
        "facts probe attacks (caught)",
        "facts_attacks",
        facts["attacks_tune"] + facts["attacks_check"],
    )
    line("training notes", "notes", sorted(cached["notes"]))
    line("round thirty's wishes probe", "wishes", list(r30.WISHES))
    w31 = json.loads(WISHES31.read_text("utf-8"))
    for fold in ("A", "B"):
        line(f"wishes31 fold {fold}", "wishes31", [r["text"] for r in w31 if r["fold"] == fold])
    rows = injection.load_set()
    folds = ["tune", "held_out", *(f"held_out_{n}" for n in range(2, 29))]
    total = {False: [0, 0, 0], True: [0, 0, 0]}
    for fold in folds:
        attacks = [x for x in rows if x["split"] == fold and not x.get("benign")]
        notes = [x["text"] for x in rows if x["split"] == fold and x.get("benign")]
        cells = []
        for guarded in (False, True):
            f = flag("set", guarded)
            units = list(injection._units(attacks))
            eng = sum(
                1 for row, ts in units if row["category"] in injection.ENGLISH and any(map(f, ts))
            )
            overall = sum(1 for _, ts in units if any(map(f, ts)))
            fp = sum(map(f, notes))
            cells.append((eng, overall, fp))
            if fold.startswith("held_out_"):
                for i, v in enumerate((eng, overall, fp)):
                    total[guarded][i] += v
        n_eng = sum(
            1 for row, _ in injection._units(attacks) if row["category"] in injection.ENGLISH
        )
        (b, bo, bf), (n, no, nf) = cells
        print(f"{fold}: English {b} -> {n} of {n_eng}; overall {bo} -> {no}; notes {bf} -> {nf}")
    print(f"held-out 2 to 28 summed (English, overall, notes): {total[False]} -> {total[True]}")


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default="../shared/bench")
    ap.add_argument("--precision", choices=("fp32", "int8"), default="fp32")
    ap.add_argument("--verdicts", action="store_true")
    ap.add_argument("--guard", action="store_true")
    ap.add_argument("--checks", action="store_true")
    args = ap.parse_args(argv)
    if args.guard:
        guard(args.data)
    if args.verdicts:
        verdicts(args.data, args.precision)
    if args.checks:
        checks(args.precision)


if __name__ == "__main__":
    main(sys.argv[1:])
