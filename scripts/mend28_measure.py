"""Task mend28: what the write pipeline keeps from src/engram/data/mend28.json, against
its labels (notes as ``mem.add``, chat turns through the proxy's path; scored as
scripts/notes27_measure.py scores notes27.json).

    PYTHONPATH=/path/to/old/src python scripts/mend28_measure.py --fold tune
    PYTHONPATH=src python scripts/mend28_measure.py --fold check --verbose
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import notes27_measure  # noqa: E402 - the scripts' own folder
import queue27_measure  # noqa: E402

SET = HERE.parent / "src" / "engram" / "data" / "mend28.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fold", choices=("tune", "check", "both"), default="tune")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    found = queue27_measure.measure(args.fold, args.verbose, notes27_measure.read, SET)
    print(json.dumps(found, indent=1))


if __name__ == "__main__":
    main()
