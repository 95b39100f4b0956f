"""A fragment joined to the question before it (offline extractor, issue 28, fifth and
sixth passes): "5 years already!" after "How long have you been married?" is "I have
been married for 5 years"; "Catan!" after "What's your favorite board game?", "The
Minnesota Wolves!" after "Which team did you sign with?", a yes or a no after "Have
you been camping before?" (docs/benchmarks.md, offline extraction, experiments 32, 35
and 46). :mod:`engram.pipeline.offline_coref` reads what this returns with the claim
rules, as rule ``answer``.
"""

from __future__ import annotations

import re
from typing import Protocol

from engram.pipeline import patterns

# (question frame, answer form, the statement): the answer fills the slot.
_DURATION = re.compile(
    r"^(?:(?:about|almost|nearly|over|just|only)\s+)?(?P<a>(?:\d+|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|eleven|twelve|a\s+few|a\s+couple(?:\s+of)?|several)\s+"
    r"(?:years?|months?|weeks?|days?))\b",
    re.IGNORECASE,
)
_HOW_LONG = re.compile(
    r"how\s+long\s+have\s+you\s+(?P<v>(?:been\s+)?[a-z]+(?:\s+[a-z]+){0,4}?)\s*\?", re.IGNORECASE
)
# A favourite asked for: "What's your favorite game?", "Do you have any favorite fantasy
# movies?" (experiment 46); "Which team did you sign with?": the answer is what was done.
_FAV = r"(?P<v>fav(?:orite|ourite)?\s+[a-z]+(?:\s+[a-z]+)?)"
_FAVORITE = re.compile(rf"what(?:'s|\s+is|\s+are)\s+your\s+{_FAV}\s*\?", re.I)
_ANY_FAVORITE = re.compile(
    rf"(?:do|did)\s+you\s+have\s+(?:a|any)\s+{_FAV}(?:\s+as\s+well|\s+too)?\s*\?", re.I
)
_WHICH_DID = re.compile(
    r"^(?:so\s+)?which\s+(?P<n>[a-z]+)\s+did\s+you\s+(?P<v>[a-z]+)"
    r"(?P<p>\s+(?:with|to|for|at|in))?\s*\?$", re.I
)  # fmt: skip
# A name given as the answer ("Definitely Star Wars!", "The Minnesota Wolves!").
_NAMED_ANSWER = re.compile(
    r"^(?i:(?:definitely|probably|oh|well|hmm|easily|totally),?\s+)?"
    r"(?P<a>(?:the\s+)?[A-Z][\w'-]*(?:\s+(?:of\s+the\s+|of\s+)?[A-Z][\w'-]*){0,4})\s*[!.]+$"
)
_SINCE = re.compile(r"^(?P<a>since\s+[^.!?]{2,40}?)\s*[.!]", re.IGNORECASE)
# "Have you been camping before?" + "Yeah, plenty of times.", "Did you have any pets
# growing up?" + "No, I didn't.": a yes or a no makes the question the speaker's claim.
_YES_NO_QUESTION = re.compile(
    r"^(?:so\s+)?(?P<aux>did|have|do)\s+you\s+(?:ever\s+)?(?P<rest>[a-z][^?]{3,60})\?$", re.I
)
_YES_NO = re.compile(
    r"^(?P<w>yes|yeah|yep|yup|sure|no|nope|nah)\b[,!.]?\s*(?:(?:I|we)\s+(?:did|do|have|didn't|"
    r"don't|haven't)(?:\s+not)?\s*[,!.]*\s*)?(?P<more>[^.!?]{0,40}?)\s*[.!]*$", re.I
)  # fmt: skip
_ANY = re.compile(r"\bany(thing|one|where)?\b", re.IGNORECASE)
_NEGATED = {"did": "didn't", "have": "haven't", "do": "don't"}
_POINTS = re.compile(r"\b(?:it|that|this|these|those|there|them)\b", re.IGNORECASE)


def _yes_no(sentence: str, question: str) -> str | None:
    asked = _YES_NO_QUESTION.match(question)
    said = _YES_NO.match(sentence)
    if asked is None or said is None or len(sentence.split()) > 7:
        return None
    aux, rest = asked.group("aux").lower(), asked.group("rest")
    if _POINTS.search(rest) or "fav" in rest.lower():
        # "Do you use that computer for gaming?": which computer? "Do you have a
        # favorite movie?" + "Yeah!": which one? (experiment 46)
        return None
    if said.group("w").lower() in {"no", "nope", "nah"}:
        return f"I {_NEGATED[aux]} {rest}."
    rest = _ANY.sub(lambda m: "some" + (m.group(1) or ""), rest)
    more = said.group("more").strip(" ,")
    claim = f"I {'did ' if aux == 'did' else 'have ' if aux == 'have' else ''}{rest}"
    return f"{claim}, {more}." if more and aux == "have" else f"{claim}."


# "What policies have you been focusing on lately?" + "Recently, education reform and
# infrastructure development.": the answer fills what was asked.
_WHAT_DOING = re.compile(
    r"^what\s+(?:[a-z]+\s+){0,2}(?P<aux>have\s+you\s+been|are\s+you)\s+(?P<v>[a-z]+ing)"
    r"(?P<prep>\s+(?:on|about|to|with|for|at|in|into))?\b[^?]*\?$",
    re.IGNORECASE,
)
_FRAGMENT = re.compile(
    r"^(?:(?:recently|lately|mostly|mainly|just|currently|right\s+now),?\s+)?"
    r"(?P<a>(?!(?:I|we|it|they|he|she|you|that|this|there)\b)[A-Za-z][\w' -]{2,60}?)\s*[.!]*$",
    re.IGNORECASE,
)


def _what_doing(sentence: str, question: str) -> str | None:
    asked = _WHAT_DOING.match(question)
    said = _FRAGMENT.match(sentence)
    if asked is None or said is None or len(said.group("a").split()) > 8:
        return None
    answer_text = said.group("a")
    if any(w.lower() in patterns.PRESENT_VERBS for w in answer_text.split()):
        return None  # a clause of its own, not a fragment
    aux = "have been" if asked.group("aux").lower().startswith("have") else "am"
    return f"I {aux} {asked.group('v')}{asked.group('prep') or ''} {answer_text}."


_SHORT_ANSWER = re.compile(r"^(?P<a>[A-Za-z][\w' -]{1,40}?)\s*[!.]")


_IRREGULAR = {
    "go": "went", "get": "got", "choose": "chose", "buy": "bought", "make": "made",
    "take": "took", "see": "saw", "read": "read", "pick": "picked", "win": "won",
}  # fmt: skip


def _past(verb: str) -> str:
    """The simple past of a base form ("sign" -> "signed", "choose" -> "chose")."""
    return _IRREGULAR.get(verb) or verb + ("d" if verb.endswith("e") else "ed")


def _singular(phrase: str) -> str:
    """ "favorite fantasy movies" -> "favorite fantasy movie"."""
    head, _, last = phrase.rpartition(" ")
    last = last[:-1] if last.endswith("s") and not last.endswith("ss") else last
    return f"{head} {last}" if head else last


def answer(sentence: str, before: str | None) -> str | None:
    """A fragment that answers the question before it, as a statement of the speaker:
    "5 years already!" after "How long have you been married?" -> "I have been married
    for 5 years"; "Hiking!" after "What's your favorite hobby?" -> "My favorite hobby is
    hiking"."""
    if not before or "?" not in before:
        return None
    question = before[: before.rfind("?") + 1]
    question = re.split(r"(?<=[.!?])\s+", question)[-1]
    duration = _DURATION.match(sentence)
    how_long = _HOW_LONG.search(question)
    if duration is not None and how_long is not None:
        verb = how_long.group("v")
        return f"I have {verb} for {duration.group('a')}."
    since = _SINCE.match(sentence)
    if since is not None and how_long is not None:
        return f"I have {how_long.group('v')} s{since.group('a')[1:]}."
    if (joined := _yes_no(sentence, question) or _what_doing(sentence, question)) is not None:
        return joined
    named = _NAMED_ANSWER.match(sentence)
    if named is not None and _YES_NO.match(named.group("a")):
        named = None  # "Yeah!" names nothing
    which = _WHICH_DID.match(question)
    if named is not None and which is not None:
        done = _past(which.group("v").lower())
        return f"I {done}{which.group('p') or ''} {named.group('a')}."
    favorite_of = _ANY_FAVORITE.search(question)
    if named is not None and favorite_of is not None:
        return f"My {_singular(favorite_of.group('v'))} is {named.group('a')}."
    favorite = _FAVORITE.search(question)
    short = _SHORT_ANSWER.match(sentence)
    if (
        favorite is not None
        and short is not None
        and len(short.group("a").split()) <= 4
        and not _YES_NO.match(short.group("a"))
    ):
        return f"My {favorite.group('v')} is {short.group('a')}."
    return None


class _Fact(Protocol):
    """An extracted fact (``offline.OfflineFact``), read only."""

    @property
    def rule(self) -> str: ...

    @property
    def content(self) -> str: ...


def doing(fact: _Fact, before: str | None, speaker: str | None) -> bool:
    """Whether ``fact``, from a message's first sentence, is the speaker's doing with "I"
    dropped ("Researching adoption agencies", "Yeah actually - creating gaming content
    for YouTube") that answers the question the message before ends with ("Any fun
    plans for the summer?", "Do you have any projects you're working on?"): it is read
    as an answer, rule ``answer`` (issue 28, experiment 58). Later in a message such a
    sentence is as often a gerund subject or a reaction to the listener's news."""
    if fact.rule != "elided" or speaker is None or not (before or "").rstrip().endswith("?"):
        return False
    rest = fact.content[len(speaker) :] if fact.content.startswith(speaker) else ""
    return _IS_DOING.match(rest) is not None


_IS_DOING = re.compile(r"^ is [a-z]+ing\b")
