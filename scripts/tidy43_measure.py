"""tidy43's check: left42's measure (``scripts/left42_measure.py``: each story told one
``add`` a turn and in one ``add_many``, in a fresh namespace of one in-memory ``Memory``,
library defaults, no embedder) over ``scripts/tidy43_cases.py``'s stories: a family's
plural possessive, "his"/"her"/"their" with no one named, a joint possessive with the
user's own.

    PYTHONPATH=src python scripts/tidy43_measure.py tune [OUT.json] [--verbose]
    PYTHONPATH=/tmp/base-tidy43/src python scripts/tidy43_measure.py held OUT.json
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import left42_measure  # noqa: E402
from tidy43_cases import HELD, TUNE  # noqa: E402


def main(fold: str, out: str | None, verbose: bool) -> None:
    left42_measure.folds = lambda: {"tune": TUNE, "held": HELD}  # these stories, told alike
    left42_measure.main(fold, out, verbose)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--verbose"]
    main(args[0], args[1] if len(args) > 1 else None, "--verbose" in sys.argv)
