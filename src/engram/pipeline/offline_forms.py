"""Sentence forms the offline extractor used to drop whole (issue 28, third pass).

Of the gold facts the extractor missed on fold A (conv-26, conv-30, conv-41), 181 of
235 come from turns that gave no fact at all (docs/benchmarks.md, offline extraction,
experiment 14). Most of those turns speak to the listener or only thank them, which the
labelling criteria count as trivial; two forms that state something about the
speaker or their view were dropped for their form alone:

- a view closed by a rhetorical tag: "Camping with pets can be so soul-nourishing,
  right?" is a statement, not a question (:func:`untag`);
- a subject contracted with "is": "Pottery's so relaxing and creative", "The store's
  doing great" have a verb the tense test did not see (:func:`contracted_present`);
- a sentence without a subject whose first clause has "me" as object ("Really made me
  think") was read as first person; its subject is not "I" (:func:`speaker_is_object`).
"""

from __future__ import annotations

import re

# ", right?", ", huh?", ", don't you think?": a tag that asks for agreement with the
# statement before it. Only after a comma (or a dash), so "Is it right?" stays a question.
_RHETORICAL_TAG = re.compile(
    r"\s*(?:,|\s-|\s—)\s*(?:right|huh|eh|isn't\s+it|don't\s+you\s+think|you\s+know)\s*\?+\s*$",
    re.IGNORECASE,
)
# Openers of a real question: the statement before a tag never starts with these.
_QUESTION_START = re.compile(
    r"^(?:what|who|why|how|where|when|which|do|does|did|is|are|was|were|have|has|can|"
    r"could|would|will|should|shall|may|wanna|want)\b",
    re.IGNORECASE,
)

# "Pottery's so ...", "The store's doing great", "Searching for a studio's a tough job":
# "'s" after the subject (up to five words) followed by what only follows "is"/"has".
# A pronoun's "'s" ("it's", "that's") is not a subject of its own: "No doubt it's been
# tough" leans on another turn.
_CONTRACTED_IS = re.compile(
    r"^(?:[\w-]+\s+){0,5}?(?!(?:it|that|there|here|he|she|what|who|where|how|this|let)'s)"
    r"[\w-]+'s\s+(?:so|such|a|an|really|very|just|been|always|pretty|"
    r"super|quite|too|not|never|definitely|truly|doing|going|getting|[a-z]+ly)\b",
    re.IGNORECASE,
)


def untag(sentence: str) -> str | None:
    """The statement before a rhetorical tag ("X, right?" -> "X."), or None when the
    sentence is not a tagged statement."""
    found = _RHETORICAL_TAG.search(sentence)
    if found is None:
        return None
    statement = sentence[: found.start()].rstrip(" ,")
    if not statement or "?" in statement or _QUESTION_START.match(statement):
        return None
    return statement + "."


def contracted_present(sentence: str) -> bool:
    """Whether the sentence's subject is contracted with "is" or "has" ("Pottery's so
    relaxing"): a present-tense statement."""
    return _CONTRACTED_IS.match(sentence) is not None


# "Really made me think", "Losing my job gave me the push": "me" in the first clause of
# a sentence without a subject says the speaker is the object, so the dropped subject
# is not "I".
_SPEAKER_OBJECT = re.compile(r"^[^,;:—–-]*?\bme\b", re.IGNORECASE)


def speaker_is_object(sentence: str) -> bool:
    """Whether the first clause of a subjectless sentence has the speaker as object
    ("Really made me think"): its dropped subject is not "I"."""
    return _SPEAKER_OBJECT.match(sentence) is not None
