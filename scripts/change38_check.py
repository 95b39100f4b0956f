"""Round sixteen's check (change38): round fifteen's check (``scripts/changes36_check.py``:
new first, closed, wrong) run on one fold of ``scripts/change38_cases.json``.

    PYTHONPATH=src python scripts/change38_check.py tune [OUT.json]
    PYTHONPATH=/tmp/base/src python scripts/change38_check.py held OUT.json
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    ROUND15 = runpy.run_path(str(HERE / "changes36_check.py"))
    # the check's fold reader names its case file as a global of its own module
    ROUND15["main"].__globals__["CASES"] = HERE / "change38_cases.json"
    ROUND15["main"](sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
