"""Round nine's sets (changes27): held-out fold S, then its tune set Y.

Drafted as Python lists (s.py; y.py for the tune set, written after S was committed and
run with `--tune`) in the directory given as the argument; the JSON written is the
record. Round eight's script supplies the shaping, the difflib nearness check (0.8
against every earlier set, S included for Y) and the writer; only counts are printed,
so no held-out row is shown.
"""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("round8", HERE / "changes26_write_sets.py")
assert _spec is not None and _spec.loader is not None
_round8 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_round8)
stories, near, _write, _statements = (
    _round8.stories, _round8.near, _round8._write, _round8._statements
)  # fmt: skip
DATA = _round8.DATA
HELD = DATA / "changes_heldout8.json"
TUNE = HERE / "changes27_tune.json"


def write(
    src: Path,
    tune_only: bool,
    folds: tuple[str, str],
    paths: tuple[Path, Path],
    tunes: tuple[str, ...],
    about: tuple[str, str],
    check_only: bool = False,
) -> None:
    """Shape the fold drafted in ``src`` (the held-out one of ``folds``, or with
    ``tune_only`` its tune set), print how many of its statements are near an earlier
    set's (and, for the tune set, the held-out fold's), and write it to ``paths``."""
    fold = folds[1] if tune_only else folds[0]
    held = paths[0]
    scope: dict[str, Any] = {}
    exec((src / f"{fold.lower()}.py").read_text(), scope)
    earlier_paths = [p for p in sorted(DATA.glob("changes*.json")) if p.name not in
                     (held.name, "changes_questions.json")]  # fmt: skip
    earlier_paths += [HERE / f"changes{n}.json" for n in tunes]
    # The tune set, written after the held-out fold was committed, is held apart from it
    # as from the rest.
    checks = {"an earlier set": [s for path in earlier_paths for s in _statements(path)]}
    if tune_only:
        checks[folds[0]] = _statements(held)
    rows = stories(fold, scope[f"{fold}_CHANGE"], scope[f"{fold}_KEEP"])
    text = [s for r in rows for s in r["statements"]]
    for name, earlier in checks.items():
        print(f"{fold} statements near {name}:", near(text, earlier))
    kinds = Counter(r["kind"] for r in rows)
    print(fold, kinds["change"], "changes,", kinds["keep"], "keeps")
    if not check_only:
        _write(paths[1] if tune_only else held, about[1] if tune_only else about[0], rows)


def main() -> None:
    write(
        Path(sys.argv[1]), "--tune" in sys.argv[2:], ("S", "Y"), (HELD, TUNE),
        ("23_tune", "24_tune", "25_tune", "25_check", "26_tune"), (ABOUT_HELD, ABOUT_TUNE),
    )  # fmt: skip


ABOUT_HELD = (
    "Held-out change stories for `engram bench changes` (issue 28, FEATURES G2), written for "
    "engram in session twenty-three (changes27) before any rule of that round changed and "
    "read once at its end: fold S, changes said the plain ways people say them (migrated, "
    "moved or switched from A to B, sold A and bought B, replaced A with B, A is gone and "
    "we use B, handed to, took over, is X now) in chat, notes and one-message turns; each "
    "first statement states the held value plainly. 40 changes and 16 look-alikes that "
    "must close nothing (a second thing beside the first, a plan not done, a question, "
    "someone else's, a comparison, a temporary cover, a trial rolled back)."
)
ABOUT_TUNE = (
    "Round nine's tune set (changes27, fold Y): plain change verbs (migrated, moved, "
    "switched, sold and bought, replaced, handed to, took over, is X now), first statements "
    "that record nothing on the base (a couple, a firm that handles something, an agreed "
    "host, 'orchestrated with', 'runs on'), and look-alikes. Tuned on; never a held-out fold."
)

if __name__ == "__main__":
    main()
