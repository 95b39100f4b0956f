"""Replace the dev-data texts of a contradiction set with references (issue 28 §1).

LoCoMo and BEAM text may not be committed (``shared/bench/README.md``). A row added to
``src/engram/data/contradictions.json`` with its texts written out (``source`` starting
``locomo`` or ``beam``) is turned into references by this script: each side is located
in the dev data (the turns its ``source`` names first) and shipped as a turn address, the
parts that rebuild it, and a short sha256 (``engram.bench.contradiction_refs``). A side
that no turn can rebuild drops its row; the dropped rows are listed.

    python scripts/contradiction_refs.py [--set FILE] [--data ../shared/bench]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from engram.bench import contradiction_refs as refs

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "src" / "engram" / "data" / "contradictions.json"
DATA = ROOT.parent / "shared" / "bench"
#: ``locomo:conv-43:D12:6/D14:5`` or ``beam:1:58/24``: the turns a row's source names.
NAMED = re.compile(r"^(locomo|beam):([^:]+):(.+)/(.+)$")


def _named(source: str) -> list[tuple[str, str, str]]:
    match = NAMED.match(source)
    if not match:
        return []
    family, conv, *items = match.groups()
    return [(family, conv, item) for item in items]


def convert(pairs: list[dict[str, Any]], turns: refs.Turns) -> tuple[list[Any], list[str]]:
    """The rows with dev texts replaced by references, and the ids of rows dropped."""
    kept: list[dict[str, Any]] = []
    dropped: list[str] = []
    for pair in pairs:
        if pair["source"] == "hand":
            kept.append(pair)
            continue
        row = dict(pair)
        for side in ("old", "new"):
            if refs.is_ref(row[side]):
                continue
            address = refs.origin(row[side], turns, _named(pair["source"]))
            if address is None:
                break
            row[side] = refs.reference(address, row[side], turns[address])
        else:
            kept.append(row)
            continue
        dropped.append(pair["id"])
    return kept, dropped


def dump(pairs: list[dict[str, Any]]) -> str:
    """The set as the shipped file lays it out: one key per line, a reference on one."""
    rows = []
    for pair in pairs:
        fields = (
            f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False, separators=(', ', ': '))}"
            for k, v in pair.items()
        )
        rows.append(" {\n" + ",\n".join(fields) + "\n }")
    return "[\n" + ",\n".join(rows) + "\n]\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=SET)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    pairs = json.loads(args.set.read_text(encoding="utf-8"))
    kept, dropped = convert(pairs, refs.load_turns(args.data))
    args.set.write_text(dump(kept), encoding="utf-8")
    print(f"{len(kept)} rows written to {args.set}; dropped (no turn rebuilds them): {dropped}")


if __name__ == "__main__":
    main()
