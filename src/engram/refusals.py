"""The words of input refusals that take more than a line to say well: a namespace
open at one end (``validate.namespace_for``), and text that is not text
(``validate.no_nul``), each naming what the caller passed and what to do."""

from __future__ import annotations

import re

from engram.errors import shown

#: A namespace's separators: ``:`` after a kind (``user:alice``), ``/`` before a
#: sub-namespace (``user:alice/project``). A name that starts or ends with one names
#: nothing on that side: ``user:`` is a kind with no owner, and reads as the
#: ``user:`` label that starts a chat turn's line (``validate.content_text``), so a
#: store holding it would show "user:" where a reader expects someone's name.
NAMESPACE_SEPARATORS = ":/"


def open_ended(
    chosen: str,
    namespace: str | None,
    user_id: str | None,
    agent_id: str | None,
    run_id: str | None,
) -> str:
    """The refusal of a namespace that starts or ends with a separator, naming what the
    caller passed (an id ending with ':' makes such a name too)."""
    at = "ends" if chosen[-1] in NAMESPACE_SEPARATORS else "starts"
    mark = chosen[-1] if at == "ends" else chosen[0]
    rule = (
        "a namespace may not start or end with ':' or '/', which separate its parts "
        "(user:alice, user:alice/project)"
    )
    if namespace is None:
        label, value = next(
            (label, v)
            for label, v in (("user_id", user_id), ("agent_id", agent_id), ("run_id", run_id))
            if v is not None
        )
        return (
            f"invalid {label} {shown(value)}: it makes the namespace {shown(chosen)}, which "
            f"{at} with {shown(mark)}; {rule}: drop the {shown(mark)} from the id"
        )
    return (
        f"invalid namespace {shown(chosen)}: it {at} with {shown(mark)}, so one part of it "
        f"is empty; {rule}: give the whole name, such as 'user:alice'"
    )


#: Python reads a byte that is not UTF-8 (in a command-line argument, a file name, the
#: environment) as one of these 128 code points, U+DC80 + (byte - 0x80) ("surrogateescape").
_ESCAPED_BYTES = range(0xDC80, 0xDD00)


def not_text(name: str, char: str) -> str:
    """Why ``char`` (a lone surrogate) is not text, in words a user knows, and what to
    do. A byte that was not UTF-8 is named as that byte (a shell argument typed or pasted
    in another encoding); any other surrogate is half of a character pair whose other
    half is missing (JSON's ``\\ud83d`` without its partner, a string cut mid-emoji).
    The technical name follows in brackets, for whoever searches for it."""
    code = ord(char)
    if code in _ESCAPED_BYTES:
        what = (
            f"{name} holds the byte {code - 0xDC00:#04x}, which is not UTF-8 text (it was "
            "typed, pasted or read in another encoding)"
        )
        fix = "send it as UTF-8 text, for example retyped or copied again from where it came"
    else:
        what = (
            f"{name} holds \\u{code:04x}, half of a character written as two \\u escapes "
            "(as JSON writes an emoji), with the other half missing (the text was cut or "
            "escaped wrongly)"
        )
        fix = "send whole characters: both halves of the pair, or the character itself in UTF-8"
    return f"{what}; {fix} (technically: a lone surrogate, U+{code:04X})"


#: A name rule as a regular expression: an optional first character's class, then a
#: class repeated ``{m,n}`` times (``^[A-Za-z0-9_.:@/+-]{1,200}$``, a block label's
#: ``^[a-z][a-z0-9_-]{0,63}$``).
_NAME_RULE = re.compile(r"^\^(?:\[([^\]]+)\])?\[([^\]]+)\]\{(\d+),(\d+)\}\$$")
_RANGES = (("A-Za-z", "letters"), ("a-z", "lowercase letters"), ("A-Z", "capital letters"))


def pattern_rule(pattern: str) -> str | None:
    """A name rule's regular expression in words, for "use ..." (the namespace rule's
    "1-200 characters from letters, digits and _ . : @ / + -"); ``""`` for ``\\S``
    (not blank); None for a pattern it cannot read. The library's own refusals and the
    surfaces' (``engram.validation_words``: HTTP and MCP) both say a rule this way, from the same
    expression the check uses."""
    if pattern == r"\S":
        return ""
    match = _NAME_RULE.match(pattern)
    if match is None:
        return None
    first, chars, low, high = match.groups()
    extra = 1 if first else 0
    size = f"{int(low) + extra}-{int(high) + extra}"
    rule = f"{size} characters from {_char_class(chars)}"
    if not first:
        return rule
    start = _char_class(first)
    # "a lowercase letter" for one kind of letter, else "one of _ -"
    start = f"a {start[:-1]}" if start in {w for _, w in _RANGES} else f"one of {start}"
    return f"{rule}, starting with {start}"


def _char_class(chars: str) -> str:
    """A regular expression's character class in words: ``A-Za-z0-9_.-`` is "letters,
    digits and _ . -"."""
    kinds = []
    for span, words in _RANGES:
        if span in chars:
            kinds.append(words)
            chars = chars.replace(span, "", 1)
    if "0-9" in chars:
        kinds.append("digits")
        chars = chars.replace("0-9", "", 1)
    singles = " ".join(chars.replace("\\", ""))
    if singles:
        return (", ".join(kinds) + " and " + singles) if kinds else singles
    return ", ".join(kinds[:-1]) + " and " + kinds[-1] if len(kinds) > 1 else kinds[0]
