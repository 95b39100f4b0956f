"""The words of input refusals that take more than a line to say well: a namespace
open at one end (``validate.namespace_for``), and text that is not text
(``validate.no_nul``), each naming what the caller passed and what to do."""

from __future__ import annotations

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
