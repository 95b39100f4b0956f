"""Round thirty-nine (inject43; docs/safety.md, "Round thirty-nine"): every check set
flagged by the scan of the tree on ``PYTHONPATH``, as a write meets it, fp32 MiniLM; the
harness is round thirty-eight's (``scripts/inject42_measure.py``) with its folds moved on.
Held-out 33 and tool42's fold B are spent now and always read; held-out 34 (written by
another hand, unseen by the round) and tool43's fold B only with ``--final``, which the
lead runs once at integration. Run it once with main's ``src`` and once with this tree's,
and compare the two JSON files (``--compare``).

    PYTHONPATH=/tmp/base/src python scripts/inject43_measure.py --out base.json [--final]
    PYTHONPATH=src python scripts/inject43_measure.py --out new.json [--final]
    python scripts/inject43_measure.py --compare base.json new.json
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import inject42_measure  # noqa: E402

ROUND = {
    "last": "held_out_34",
    "spent": ("held_out_33",),
    "tools": ("tool40", "tool42"),
    "new_tool": "tool43",
}

if __name__ == "__main__":
    inject42_measure.__doc__ = __doc__
    inject42_measure.main(**ROUND)
