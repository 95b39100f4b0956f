"""Sentences whose reading depends on the turns around them (offline extractor, issue 28).

A chat turn often reports on something the conversation named earlier or a photo
shows: "The event was really thought-provoking", "The posters were amazing". Read alone,
"Melanie says the event was thought-provoking" does not say which event, so it is not
a standalone fact; in the hand-labelled sample every such report was labelled wrong
(docs/benchmarks.md, offline extraction, experiment 9). "A lot has happened since we
last spoke" says nothing at all. Both are dropped.

The other way round, a sentence that opens with a subordinate clause in the first
person ("Since I lost my job at Door Dash, things have been tough", "When I was younger,
we had money problems") states the speaker's own event, and is read as first person
instead of being dropped for its opening word.
"""

from __future__ import annotations

import re

# A past report whose subject is a definite description, a demonstrative or someone
# else's thing ("the event", "those cookies", "their show"): it names something from
# another turn or a photo.
_DEFINITE_SUBJECT = re.compile(r"^(?:the|that|those|these|their|his|her)\s", re.IGNORECASE)
# News that says only that there is news.
_EMPTY_NEWS = re.compile(
    r"^(?:a\s+lot(?:'s|\s+has)?\s+(?:happened|changed|been\s+going\s+on)|"
    r"something\s+\w+\s+happened)"
    r"(?:\s+since\s+[^-;,]*|\s+last\s+\w+|\s+recently|\s+lately)?[.!]*$",
    re.IGNORECASE,
)
# "Since I lost my job at Door Dash, ...", "When I was younger, ...".
_FIRST_PERSON_LEAD = re.compile(
    r"^(?:when|since|after|before|because|although|though|while|once|ever\s+since|"
    r"now\s+that)\s+(?:I|I'm|I've|I'd|my)\b[^,]{3,80},\s*\S",
    re.IGNORECASE,
)


def leans_on_other_turns(statement: str, tense: str) -> bool:
    """Whether a general statement, attributed to its speaker, reports on something
    only another turn names (a past report about "the event"), or is news without
    content ("A lot has happened since we last spoke")."""
    if tense == "past" and _DEFINITE_SUBJECT.match(statement):
        return True
    return _EMPTY_NEWS.match(statement) is not None


def first_person_lead(sentence: str) -> bool:
    """Whether ``sentence`` opens with a subordinate clause whose subject is the
    speaker ("Since I lost my job, things have been tough")."""
    return _FIRST_PERSON_LEAD.match(sentence) is not None
