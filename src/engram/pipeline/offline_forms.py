"""Sentence forms the offline extractor used to drop whole (issue 28, third pass).

Of the gold facts the extractor missed on fold A (conv-26, conv-30, conv-41), 181 of
235 come from turns that gave no fact at all (docs/benchmarks.md, offline extraction,
experiment 14). Most of those turns speak to the listener or only thank them, which the
labelling criteria count as trivial; three forms that state something about the
speaker or their view were dropped for their form alone:

- a view closed by a rhetorical tag: "Camping with pets can be so soul-nourishing,
  right?" is a statement, not a question (:func:`untag`);
- a subject contracted with "is": "Pottery's so relaxing and creative", "The store's
  doing great" have a verb the tense test did not see (:func:`contracted_present`);
- a thing the turn shows or names, as subject of a sentence about the speaker: "These
  figurines I bought yesterday remind me of family love" says the same of "some
  figurines" (:func:`shown_subject`).
"""

from __future__ import annotations

import re

from engram.pipeline import patterns

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

# "This necklace ...", "These figurines I bought ...": a demonstrative and a noun
# phrase (one to three words) opening the sentence, then more of the sentence.
_SHOWN_SUBJECT = re.compile(
    r"^(?P<det>this|these)\s+(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+"
    r"(?=(?:I\s|is\b|was\b|are\b|were\b|has\b|have\b|reminds?\b|means?\b|makes?\b|"
    r"gives?\b|brings?\b|helps?\b|stands?\b|keeps?\b))",
    re.IGNORECASE,
)
# Nouns that make "this X" point at the conversation or a moment rather than a thing
# ("these moments", "this pic"): a sentence about them is not standalone.
_VAGUE_NOUNS = patterns.word_set(
    "moment moments time times day days thing things stuff one ones kind sort way "
    "reminder reminders pic pics photo photos picture pictures image shot video idea "
    "news story stories place journey experience process is was are were has have "
    # a time ("this week has been swamped"): the time is the conversation's
    "week weekend month year morning afternoon evening night summer winter spring fall "
    "season semester"
)
_FIRST_PERSON = re.compile(r"\b(?:I|me|my|mine|myself)\b")


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


def shown_subject(sentence: str) -> str | None:
    """``"These figurines I bought remind me ..."`` -> ``"Some figurines I bought remind
    me ..."``: a sentence about the speaker whose subject is a thing the turn shows or
    names. None for any other sentence."""
    found = _SHOWN_SUBJECT.match(sentence)
    if found is None or _FIRST_PERSON.search(sentence, found.end()) is None:
        return None
    words = found["np"].lower().split()
    if any(w in _VAGUE_NOUNS for w in words):
        return None
    if found["det"].lower() == "these":
        article = "Some"
    else:
        article = "An" if words[0][:1] in "aeiou" else "A"
    return f"{article} {sentence[found.start('np') :]}"


# "Really made me think", "Losing my job gave me the push": "me" in the first clause of
# a sentence without a subject says the speaker is the object, so the dropped subject
# is not "I".
_SPEAKER_OBJECT = re.compile(r"^[^,;:—–-]*?\bme\b", re.IGNORECASE)


def speaker_is_object(sentence: str) -> bool:
    """Whether the first clause of a subjectless sentence has the speaker as object
    ("Really made me think"): its dropped subject is not "I"."""
    return _SPEAKER_OBJECT.match(sentence) is not None
