"""References from the labelled contradiction set to the dev data it was built from.

LoCoMo (CC BY-NC 4.0) and BEAM may not be committed into this repository
(``shared/bench/README.md``), so a pair side taken from them is shipped as a reference that
is resolved against the data folder at load time (as ``tests/data/extraction_labels.json``
keeps only keys):

- ``{"locomo": "conv-43", "dia_id": "D12:6", "sha256": "…"}``: the stored turn text
  ``"<speaker>: <text>"`` (plus ``" [image: <caption>]"``), as ``engram bench locomo``
  ingests it;
- ``{"beam": "1", "message": 58, "sha256": "…"}``: BEAM 100K chat folder ``1``, message
  id 58, as ``engram bench beam`` stores it (``"<role>: <content>"``);
- either with ``"parts"``: the side is not the whole turn but is rebuilt from it, a list of
  ``[start, end]`` character spans of the turn and short literal strings (what engram's
  extraction wrote around them, e.g. a resolved name). A sentence is one span; a mined fact
  is spans of its turn with the rewritten words between them.

``sha256`` is the first :data:`KEY_CHARS` hex digits of the resolved text's sha256: a
data file that differs from the one the set was built on fails loudly, naming the row.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from engram.bench import beam, locomo
from engram.errors import InvalidInputError

KEY_CHARS = 12
#: Where the two data sets sit under the data folder (``shared/bench/README.md``).
LOCOMO_FILE = Path("locomo") / "locomo10_dev.json"
BEAM_DIR = Path("beam-100k")
#: Matches shorter than this become literals: a rebuilt side is a few long spans of its
#: turn, not a scatter of single letters.
MIN_SPAN = 4
#: The longest literal :func:`encode` writes; longer means the text was not taken from
#: that turn (and a literal this short carries no dev text worth the name).
MAX_LITERAL = 40
#: The least share of a rebuilt text copied from its turn: below it, the text was not
#: taken from that turn, only pieced together from common words (the set's mined facts
#: copy 0.61 or more).
MIN_COPIED = 0.5

Turns = Mapping[tuple[str, str, str], str]
"""(``"locomo"`` | ``"beam"``, conversation or chat, dia_id or message id) -> turn text."""


def key(text: str) -> str:
    """The short sha256 a reference carries for ``text``."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:KEY_CHARS]


def is_ref(side: object) -> bool:
    """Whether a pair side is a reference (a hand-written side is a plain string)."""
    return isinstance(side, dict)


def _address(side: Mapping[str, Any]) -> tuple[str, str, str]:
    if "locomo" in side and "dia_id" in side:
        return ("locomo", str(side["locomo"]), str(side["dia_id"]))
    if "beam" in side and "message" in side:
        return ("beam", str(side["beam"]), str(int(side["message"])))
    raise InvalidInputError(
        f"a reference needs locomo + dia_id or beam + message, not {sorted(side)}"
    )


def load_turns(data: str | Path) -> dict[tuple[str, str, str], str]:
    """Every LoCoMo and BEAM turn text under the data folder ``data``, by address (a data
    set missing from the folder adds nothing; see :func:`available`)."""
    root = Path(data).expanduser()
    turns: dict[tuple[str, str, str], str] = {}
    if (root / LOCOMO_FILE).is_file():
        for conv in locomo.load(str(root / LOCOMO_FILE)).conversations:
            turns.update({("locomo", conv.id, t.id): t.text for t in conv.turns})
        turns[("locomo", "", "")] = ""  # marks the data set as present
    if (root / BEAM_DIR).is_dir():
        for conv in beam.load(str(root / BEAM_DIR)).conversations:
            chat = conv.id.removeprefix("beam-")  # beam.load names chat folder N "beam-N"
            turns.update({("beam", chat, t.id): t.text for t in conv.turns})
        turns[("beam", "", "")] = ""
    return turns


def available(side: Mapping[str, Any], turns: Turns) -> bool:
    """Whether the data set ``side`` refers to was loaded (a missing turn in a loaded data
    set is an error :func:`resolve` raises, not a row to leave out)."""
    return (_address(side)[0], "", "") in turns


def resolve(side: Mapping[str, Any], turns: Turns, *, row: str, where: str) -> str:
    """The text ``side`` refers to, checked against its key (``row`` and ``where``, the
    data folder, name what failed)."""
    address = _address(side)
    turn = turns.get(address)
    if turn is None:
        raise InvalidInputError(
            f"contradiction set row {row}: {':'.join(address)} is not in {where}; "
            "pass the dev data folder the set was built on with --data"
        )
    text = turn if "parts" not in side else _rebuild(turn, side["parts"], row)
    if key(text) != side.get("sha256"):
        raise InvalidInputError(
            f"contradiction set row {row}: {':'.join(address)} in {where} resolves to a "
            f"text whose sha256 starts {key(text)}, not {side.get('sha256')}; the data "
            "file differs from the one the set was built on"
        )
    return text


def _rebuild(turn: str, parts: object, row: str) -> str:
    if not isinstance(parts, list):
        raise InvalidInputError(f"contradiction set row {row}: parts must be a list")
    out: list[str] = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, list) and len(part) == 2 and all(isinstance(i, int) for i in part):
            out.append(turn[part[0] : part[1]])
        else:
            raise InvalidInputError(
                f"contradiction set row {row}: a part is a [start, end] span or a string, "
                f"not {part!r}"
            )
    return "".join(out)


def encode(text: str, turn: str) -> list[Any] | None:
    """``text`` as parts of ``turn`` (``None``: it is the whole turn), or raise
    :class:`InvalidInputError` if it is not taken from ``turn`` (a literal longer than
    :data:`MAX_LITERAL`, or less than :data:`MIN_COPIED` of it copied)."""
    if text == turn:
        return None
    start = turn.find(text)
    if start >= 0:
        return [[start, start + len(text)]]
    matcher = difflib.SequenceMatcher(None, turn, text, autojunk=False)
    parts: list[Any] = []
    done = 0  # how much of ``text`` the parts cover
    for a, b, size in matcher.get_matching_blocks():
        if size < MIN_SPAN:
            continue
        if b > done:
            parts.append(text[done:b])
        parts.append([a, a + size])
        done = b + size
    if done < len(text):
        parts.append(text[done:])
    merged: list[Any] = []
    for part in parts:  # adjacent literals are one
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        else:
            merged.append(part)
    longest = max((len(p) for p in merged if isinstance(p, str)), default=0)
    copied = sum(p[1] - p[0] for p in merged if isinstance(p, list))
    if longest > MAX_LITERAL or copied < MIN_COPIED * len(text):
        raise InvalidInputError(
            f"the text is not derived from that turn ({copied} of {len(text)} characters "
            f"copied, a {longest}-character literal)"
        )
    return merged


def reference(address: tuple[str, str, str], text: str, turn: str) -> dict[str, Any]:
    """The reference that resolves to ``text``, taken from ``turn`` at ``address``."""
    family, conv, item = address
    side: dict[str, Any] = (
        {"locomo": conv, "dia_id": item}
        if family == "locomo"
        else {"beam": conv, "message": int(item)}
    )
    parts = encode(text, turn)
    if parts is not None:
        side["parts"] = parts
    side["sha256"] = key(text)
    return side


def origin(
    text: str, turns: Turns, preferred: Sequence[tuple[str, str, str]] = ()
) -> tuple[str, str, str] | None:
    """The turn ``text`` was taken from: a ``preferred`` one that holds it, else any that
    does, else the one it can be rebuilt from with the most characters copied."""
    for pool in (preferred, list(turns)):
        for address in pool:
            if address in turns and text in turns[address]:
                return address
    words = _words(text)
    ranked = sorted(turns, key=lambda a: len(words & _words(turns[a])), reverse=True)
    best: tuple[int, tuple[str, str, str] | None] = (0, None)
    for address in [*preferred, *ranked[:20]]:
        try:
            parts = encode(text, turns[address])
        except InvalidInputError:
            continue
        copied = sum(p[1] - p[0] for p in parts or [] if isinstance(p, list))
        best = max(best, (copied, address), key=lambda b: b[0])
    return best[1]


def _words(text: str) -> set[str]:
    return {w for w in text.lower().split() if len(w) > 3}


def referenced_texts(pairs: Iterable[Mapping[str, Any]]) -> Iterable[str]:
    """Every string value a shipped row holds in its references (for the check that none
    is dev text)."""
    for pair in pairs:
        for side in (pair["old"], pair["new"]):
            if is_ref(side):
                for value in side.values():
                    if isinstance(value, str):
                        yield value
                    elif isinstance(value, list):
                        yield from (p for p in value if isinstance(p, str))
