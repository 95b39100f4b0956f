"""Identifiers written into memory content so that engram's dedup keeps them apart.

engram dedups memories by their normalised content per namespace (seed 004:
whitespace collapsed, lower-cased, trailing punctuation stripped). An adapter that must
keep two equal texts as two memories (two LangGraph keys with one value, one chat
message sent twice) writes an identifier into the content; ``escaped`` writes it so that
normalising can never make two different identifiers equal: ``[a-z0-9_.:@/+-]`` stay,
every other character (capitals, spaces, brackets, ``%``, non-ASCII) becomes ``%xx`` per
UTF-8 byte, lower-case hex (``Prefs`` -> ``%50refs``).
"""

from __future__ import annotations

import re

_SAFE = re.compile(r"[a-z0-9_.:@/+-]")


def escaped(text: str) -> str:
    """``text`` with every character normalisation could change written ``%xx``."""
    return "".join(
        char if _SAFE.fullmatch(char) else "".join(f"%{b:02x}" for b in char.encode("utf-8"))
        for char in text
    )
