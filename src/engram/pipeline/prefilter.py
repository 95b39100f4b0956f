"""Cheap tests the write path's rules run before their slow patterns (issue 29, rules26).

The rules of the write path (the inline linker, the closing plan) read every memory, and
most memories hold none of the words a rule needs. A rule family is gated by a test
built from the rule's own vocabulary (never a hand-listed copy of it), so the gate can
only skip a text the rule could not have matched.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from typing import Any

#: A trie node: the next character -> its node; :data:`_END` marks a word ending here.
_Node = dict[str, "_Node"]
_END = ""


def any_literal(words: Iterable[str]) -> re.Pattern[str]:
    """A pattern that finds whether any of ``words`` occurs in a string, as
    ``re.compile("|".join(map(re.escape, words)))`` does, but with the alternatives
    merged into a trie ("mov|migrat|..." tried one character at a time, not word after
    word at each position): several times faster on the write path.

    Only whether it matches is kept: where a shorter word ends, a longer word that
    starts with it is dropped ("new" covers "new job"), so the match's extent may
    differ from the plain alternation's. Use it as ``pattern.search(s) is None``."""
    root: _Node = {}
    for word in words:
        if not word:
            raise ValueError("any_literal needs non-empty words: '' matches everywhere")
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[_END] = {}
    if not root:
        raise ValueError("any_literal needs at least one word")
    return re.compile(_alternation(root))


def _alternation(node: _Node) -> str:
    if _END in node:
        return ""  # a word ends here: whatever follows it matches already
    branches = [re.escape(ch) + _alternation(child) for ch, child in sorted(node.items())]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


# -- gates derived from a pattern itself -------------------------------------------------

# The standard library's own reader of pattern syntax (typeshed has no stubs for it).
_sre: Any = importlib.import_module("re._parser")
_c: Any = importlib.import_module("re._constants")

#: A set of strings one of which every match holds; None: no such set is known.
_Needs = frozenset[str] | None


def needed_literals(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """Strings, lower-cased, one of which every match of ``pattern`` holds (lower-cased),
    read from the pattern's own syntax tree: its literal runs, alternations and repeats
    of at least one; None when the pattern needs no literal (or one it cannot read)."""
    try:
        tree = _sre.parse(pattern.pattern, pattern.flags)
    except Exception:  # noqa: BLE001 - an unreadable tree only costs the gate
        return None
    found = _sequence(list(tree))
    if found is None or not found or not all(s and all(map(_plain_char, s)) for s in found):
        return None
    return frozenset(s.lower() for s in found)


def _plain_char(ch: str) -> bool:
    """Whether a literal's character is compared as itself in lower case: ASCII, or a
    symbol with no case ("→"). Unicode case folding maps some letters onto ASCII ones
    ("ſ" onto "s", the Kelvin sign onto "k"): a gate over them could skip a match."""
    return ch.isascii() or not (ch.isalpha() or ch.lower() != ch or ch.upper() != ch)


def _sequence(items: list[tuple[Any, Any]]) -> _Needs:
    """The best requirement of a sequence: a run of literals, or one item's set."""
    best: _Needs = None
    run = ""
    for op, arg in [*items, (None, None)]:
        if op is _c.LITERAL:
            run += chr(arg)
            continue
        if run:
            best = _better(best, frozenset((run,)))
            run = ""
        if op is not None:
            best = _better(best, _item(op, arg))
    return best


def _item(op: Any, arg: Any) -> _Needs:
    if op is _c.SUBPATTERN:
        return _sequence(list(arg[-1]))
    if op is _c.BRANCH:
        sets = [_sequence(list(branch)) for branch in arg[1]]
        if any(s is None for s in sets):
            return None
        return frozenset().union(*(s for s in sets if s is not None))
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT):
        low, _, body = arg
        return _sequence(list(body)) if low >= 1 else None
    if op is _c.ATOMIC_GROUP:
        return _sequence(list(arg))
    return None  # classes, anchors, lookarounds, backreferences: no literal needed


def _better(a: _Needs, b: _Needs) -> _Needs:
    """The more selective of two requirements: the one whose shortest string is longer
    (a longer literal is rarer), then the smaller set."""
    if a is None or not a:
        return b if b else a
    if b is None or not b:
        return a
    rank_a, rank_b = (min(map(len, a)), -len(a)), (min(map(len, b)), -len(b))
    return b if rank_b > rank_a else a


class Gated:
    """A compiled pattern whose ``search`` and ``match`` first ask whether the text holds
    one of the literals every match needs (:func:`needed_literals`): on ASCII text that
    holds none, no match is possible and None is returned without running the pattern;
    otherwise the pattern's own result. The same answers, cheaper on most texts."""

    __slots__ = ("needs", "pattern", "regex", "_gate")

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.regex = regex
        self.pattern = regex.pattern
        self.needs = needed_literals(regex)
        self._gate = any_literal(self.needs) if self.needs else None

    def possible(self, text: str) -> bool:
        """Whether ``text`` may hold a match (False only when it cannot)."""
        return self._gate is None or not text.isascii() or bool(self._gate.search(text.lower()))

    def search(self, text: str) -> re.Match[str] | None:
        return self.regex.search(text) if self.possible(text) else None

    def match(self, text: str) -> re.Match[str] | None:
        return self.regex.match(text) if self.possible(text) else None


def gated(regex: re.Pattern[str]) -> Gated:
    """``regex`` behind the gate of its own literals (:class:`Gated`)."""
    return Gated(regex)
