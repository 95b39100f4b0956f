"""What a turn typed to an assistant asks for, and who it says it is (task x25).

The chat proxy mines every user turn (seed 003), and most of what people type to an
assistant is not a statement about themselves: "Suggest a dinner for me tonight" is a
task, and read as a statement it became the fact "Suggest a dinner for User tonight."
(round sixteen's new-user pass). Plain English gives the rules here:

- **A request** opens with a verb in the imperative that asks the listener to do
  something ("Suggest ...", "Pick ...", "Explain ...", "Help me ..."), alone or after
  "please", or follows a statement as its last clause ("I'm vegetarian, so suggest a
  dinner"): it states nothing; a statement before it still does.
- **A request to keep a fact** states the fact: "Remind me that my passport expires in
  May", "Please note that ...", "Don't forget I'm left-handed", "Can you remember that
  I take oat milk?" are read as what follows the request.
- **An introduction** names the speaker: "I'm Priya", "my name is Tomasz", "call me
  Ben", "Hi, this is Lars". The owner's name is a fact of its own; what follows it
  ("I'm Kim, a data engineer at Snowflake", "I'm Nora and I teach maths") is read on.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engram.pipeline.patterns import word_set

#: Verbs whose bare imperative asks an assistant for something (beside the ones
#: ``offline._NON_STANDALONE_START`` already holds: remind, add, write, find ...).
REQUEST_VERBS = (
    r"suggest|recommend|pick|choose|explain|plan|help|show|compare|generate|create|"
    r"rewrite|rephrase|convert|calculate|book|play|set|outline|fix|list|describe|"
    r"proofread|edit|review|brainstorm|organi[sz]e|teach|quiz|order|draft|summari[sz]e|"
    r"translate|write|find|give|make|tell|remind|schedule|cancel|email|text|message|"
    r"check|proof-?read|correct|name|recap|estimate|design|compose|prepare|put\s+together"
)
_POLITE = r"(?:(?:please|pls|plz|kindly|now|then|also|just)\s+)*"
#: A request opening the sentence: "Suggest a dinner", "Please pick a movie".
_REQUEST = re.compile(rf"^{_POLITE}(?:{REQUEST_VERBS})\b(?!\s+(?:is|was|are|were)\b)", re.I)
#: A request as the sentence's last clause: "I'm vegetarian, so suggest a dinner ...".
_REQUEST_TAIL = re.compile(
    rf"(?:[,;]\s*|\s+)(?:(?:so|and|then|but)\s+)?{_POLITE}(?:can|could|would)\s+you\b.*$|"
    # "and" is left: "I want to be a consistent performer and help my team" is one claim
    rf"(?:,\s*(?:so|then)|;\s*(?:so\s+)?|\s+so)\s+{_POLITE}(?:{REQUEST_VERBS})\s+(?:me|us|my|a|an|the|"
    r"some|something|what|how|which|it|this|that)\b.*$",
    re.I,
)
#: "Just remember that setbacks are lessons": advice that states the speaker's view
#: (any speaker's; ``offline._trim_opening`` drops it).
REMEMBER_THAT = re.compile(
    r"^(?:just\s+)?(?:remember|never\s+forget|don't\s+forget)\s+that\s+", re.I
)
#: A request that the assistant keep what follows: the fact is what follows.
_KEEP_THAT = re.compile(
    r"^(?:(?:please|pls|just|and|also)\s+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    r"(?:remind\s+me(?:\s+that)?|remember(?:\s+that)?|(?:make\s+a\s+)?note(?:\s+that)?|"
    r"keep\s+in\s+mind(?:\s+that)?|don't\s+forget(?:\s+that)?|do\s+not\s+forget(?:\s+that)?|"
    r"for\s+the\s+record|fyi|just\s+so\s+you\s+know|so\s+you\s+know|"
    # a label the owner puts before their own statement: "Correction: my manager is ..."
    r"(?:correction|update|clarification|addendum):)[,:]?\s+"
    r"(?=(?:I|I'm|I've|I'd|my|our|we|we're)\b)",
    re.I,
)
# "I'm Priya", "my name is Tomasz", "call me Ben", "this is Lars", "Sofia here".
_NAME = r"[A-Z][^\W\d_]+(?:[-'][A-Z]?[^\W\d_]+)?(?:\s+[A-Z][^\W\d_]+)?"
_INTRO = re.compile(
    rf"^(?:(?i:I'm|I\s+am|im|my\s+name\s+is|my\s+name's|call\s+me|the\s+name's)\s+(?P<said>{_NAME})"
    rf"|(?i:this\s+is|it's|its)\s+(?P<greeted>{_NAME})|(?P<here>{_NAME})(?=\s+here\b))"
    r"(?:\s+here)?(?:\s*[.!]*|\s*[,;.!]+\s*(?P<rest>.+?)|\s+(?P<joined>and\s.+?))\s*$"
)
#: Capitalised words after "I'm" that are not names: where one is from, a creed,
#: a diet, a mood typed with a capital.
_NOT_NAMES = word_set(
    """
    american british english scottish welsh irish canadian australian indian chinese
    japanese korean german french italian spanish mexican brazilian russian polish dutch
    swedish norwegian danish finnish greek turkish african european asian latino latina
    christian catholic muslim jewish hindu buddhist atheist vegan vegetarian pescatarian
    sorry fine good okay ok here back home done ready sure not just so very really also
    still currently new glad happy sad tired busy free available interested from in at
    on the a an afraid allergic
    """
)
# A demonym or creed by its ending ("Portuguese", "Pakistani" is left: also a name's).
_DEMONYM = re.compile(r"(?:ese|ish|ean)$", re.I)


#: Things an assistant is asked to make: "I'd like a packing list for Iceland", "I want
#: some ideas for my mum's 60th" ask for one, as "Make me a packing list" does (task
#: junk32); "I need a new phone", "I'd love a dog" state a want of the speaker's.
_MADE = (
    r"recipes?|lists?|summar(?:y|ies)|plans?|suggestions?|ideas?|recommendations?|drafts?|"
    r"templates?|examples?|explanations?|tips|overviews?|outlines?|estimates?|breakdowns?|"
    r"checklists?|poems?|haikus?|jokes?|stor(?:y|ies)|names|emails?|letters?|"
    r"translations?|quiz(?:zes)?|itinerar(?:y|ies)|rundowns?|comparisons?|cheat\s+sheets?"
)
_WISH_MADE = re.compile(
    r"^(?:I'd|I\s+would|I)\s+(?:really\s+)?(?:like|love|want|need)\s+"
    r"(?:a|an|some|a\s+few|few|two|three|\d+)\s+(?:[\w'-]+\s+){0,2}?"
    rf"(?:{_MADE})\b(?!\s+from\b)",
    re.I,
)


def is_request(sentence: str) -> bool:
    """Whether ``sentence`` (opening trimmed) asks the listener to do something."""
    return _REQUEST.match(sentence) is not None or _WISH_MADE.match(sentence) is not None


def without_request(sentence: str) -> str:
    """``sentence`` without a request that closes it ("I'm vegetarian, so suggest a
    dinner for me" -> "I'm vegetarian"), or as it was."""
    cut = _REQUEST_TAIL.search(sentence)
    if cut is None or cut.start() == 0:
        return sentence
    return sentence[: cut.start()].rstrip(" ,;") + "."


def kept_fact(sentence: str) -> str:
    """What a request to keep a fact asks to keep ("Remind me that my passport expires
    in May" -> "My passport expires in May."), or ``sentence`` as it was."""
    match = _KEEP_THAT.match(sentence)
    if match is None:
        return sentence
    rest = sentence[match.end() :].rstrip()
    if rest.endswith("?"):
        rest = rest.rstrip("?") + "."  # "Can you remember that I ...?" asks to keep it
    return rest[:1].upper() + rest[1:]


#: A greeting that opens a turn ("Hi,", "Good morning!").
_GREETING = re.compile(
    r"^(?:hi|hello|hey|hiya|heya|howdy|greetings|yo|good\s+(?:morning|afternoon|evening|day)|"
    r"morning|evening)\b(?:\s+there)?[\s,!.:-]*",
    re.I,
)


def greeted(sentence: str) -> str | None:
    """What follows the greeting that opens ``sentence``, or None without one."""
    match = _GREETING.match(sentence)
    return None if match is None else sentence[match.end() :]


def introduction(sentence: str, *, greeted: bool) -> tuple[str, str] | None:
    """(the speaker's name, what the sentence says after it) when ``sentence`` (opening
    trimmed) introduces its speaker; "this is NAME" and "it's NAME" only after a
    greeting (``greeted``: "Hi, this is Lars"), as elsewhere they point at a thing."""
    match = _INTRO.match(sentence)
    if match is None:
        return None
    name = match.group("said") or match.group("greeted") or match.group("here")
    if match.group("said") is None and not greeted:
        return None
    first = name.split()[0]
    if first.lower() in _NOT_NAMES or _DEMONYM.search(first):
        return None
    rest = (match.group("rest") or match.group("joined") or "").strip()
    if rest.lower().startswith("and "):
        rest = rest[4:]
    elif re.match(r"(?:a|an|the)\s", rest, re.I):
        rest = f"I am {rest}"  # "I'm Kim, a data engineer at Snowflake"
    elif re.match(r"(?:I|I'm|I've|my)\b", rest):
        pass
    else:
        rest = rest if not re.match(r"[a-z]", rest) else ""  # "nice to meet you"
    return name, rest


def owner_turn(sentence: str, trim: Callable[[str], str]) -> tuple[str | None, str]:
    """How the owner's ``sentence`` reads (``trim`` drops its opening): (their name,
    what follows it) for an introduction; else (None, the sentence to read: the fact a
    request to keep one keeps, without a request that closes it), "" for a request."""
    trimmed = trim(sentence)
    after = greeted(sentence)  # "Good morning, this is Lars"
    intro = introduction(trimmed if after is None else trim(after), greeted=after is not None)
    if intro is not None:
        return intro
    kept = kept_fact(trimmed)  # "Remind me that my passport expires in May"
    if is_request(kept):
        return None, ""  # "Pick a movie for me and my kids"
    return None, without_request(kept if kept != trimmed else sentence)
