"""Telling a model's refusal from an answer (FEATURES H1).

Asked to compress a run, a model sometimes declines: "I cannot help with that
request.", "I'm sorry, but I can't assist with that.", "As an AI language model, I
...". Read as an observation, the refusal becomes the title of a memory that recall
then returns for the run's topic: worse than no summary. :func:`is_refusal` spots one
by how it opens (the answer, or the title or narrative read from it), so the caller
can use the offline summary instead.

Only the opening counts: a title such as "Why the parser cannot help with nested
quotes" is a finding, not a refusal, and so is an output that quotes a refusal.
"""

from __future__ import annotations

import re

# "I can't", "I'm unable to", "I won't" ... followed by what the model would not do.
_DECLINE = (
    r"I\s*(?:cannot|can\s*not|can't|won't|will\s+not|am\s+unable\s+to|'m\s+unable\s+to|"
    r"am\s+not\s+able\s+to|'m\s+not\s+able\s+to|must\s+decline|have\s+to\s+decline|"
    r"must\s+refuse|do\s+not\s+feel\s+comfortable|don't\s+feel\s+comfortable)"
    r"(?:\s+(?:help|assist|comply|provide|fulfil|fulfill|complete|process|do|create|"
    r"produce|generate|write|summari[sz]e|answer|support|engage|continue|share|with|"
    r"to|that|this|your|the|in)\b|\s*[.!,]|$)"
)
_REFUSAL = re.compile(
    r"^(?:(?:I'm|I\s+am)\s+(?:so\s+|very\s+|really\s+)?sorry\b|sorry\s*[,.!]|apologies\s*[,.!]|"
    r"(?:unfortunately|regrettably)\s*,?\s*" + _DECLINE + r"|" + _DECLINE + r"|"
    r"as\s+an?\s+(?:ai|a\.i\.|artificial\s+intelligence|language\s+model|large\s+language\s+model|"
    r"ai\s+(?:language\s+)?model|ai\s+assistant)\b)",
    re.IGNORECASE,
)
# Markup and quotes a model wraps its answer in: "**", "> ", '"', "Title:".
_WRAPPING = re.compile(
    r"^[\s>*_`\"'“”#-]*(?:(?:title|narrative|answer)\s*:\s*)?[\s*_`\"'“”]*", re.I
)


def is_refusal(text: str | None) -> bool:
    """Whether ``text`` opens the way a model's refusal does ("I cannot help with
    that", "I'm sorry, but ...", "As an AI ..."); False for None or empty text."""
    if not text:
        return False
    opening = _WRAPPING.sub("", text.strip().replace("\u2019", "'"), count=1)
    return _REFUSAL.match(opening) is not None
