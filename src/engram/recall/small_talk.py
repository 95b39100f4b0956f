"""Chat small talk: a mined turn that says nothing but "thanks!", "hi again", "ok cool".

The chat proxy mines every exchange verbatim, so a week of chat stores each greeting,
thank-you and acknowledgement, and the assistant's "You're welcome!" to it, as a
memory. Such a line states nothing, yet its vector sits close to any short question
(round twenty-one of the new-user pass: 141 small-talk lines in 94 blocks of a week;
"What time do I work out?" got the block "perfect" and nothing else). Recall leaves a
chat turn that is small talk out of the candidates (:mod:`engram.recall.echoes`): no
query is answered by "ok cool", so unlike a question's echo it is never kept.

The rule is tight on purpose, since a dropped fact is worse than a kept "ok": a turn is
small talk only when it is short (``MAX_WORDS``), holds no digit, and every word is in
``LEXICON`` (greetings, thanks, acknowledgements, farewells and the assistant's answers
to them). A name, a day, a number or any other content word keeps it: "thanks, the gate
code is 4471" and "sure, Thursday works" are facts.
"""

from __future__ import annotations

import re

#: Longer than this, a turn is taken to say something ("thank you so much for sorting
#: out all of that for me today" is 12 words, and not small talk a user asks back for).
MAX_WORDS = 8

#: Every word small talk is made of: greetings, thanks, acknowledgements, farewells,
#: and the assistant's answers to them. No noun, day, month or verb of a plan: those
#: are the content a kept turn carries.
LEXICON = frozenset(
    "hi hello hey hiya howdy yo morning afternoon evening night goodnight good again there "  # noqa: SIM905
    "thanks thank thx ty cheers ta you so much very lot lots a many appreciate appreciated "
    "ok okay k kk cool great nice perfect awesome fine alright right sure yes yeah yep yup "
    "noted gotcha got it sounds lovely excellent brilliant wonderful fantastic "
    "welcome you're youre no problem worries np anytime glad happy to help pleasure my "
    "bye goodbye later see talk soon tomorrow today tonight take care have weekend day "
    "too all for that's thats what what's whats up on your mind how can do i anything "
    "else are doing going it how's hows".split()
)

#: Words a question opens with. The lexicon holds "what", "do", "have", "today" for the
#: assistant's "What can I do for you?" and a user's "have a good day", so without this a
#: user's "what do I have today?" or "anything on tonight?" would read as small talk and
#: run no recall (the lead's review of round twenty-one).
_ASKING = frozenset(
    "what what's whats how when where which who do does did is are can could anything any "  # noqa: SIM905
    "have has will should".split()
)

#: The only questions small talk asks: a greeting's and the assistant's offer of help,
#: word for word after the acknowledgements before them ("ok, anything else?").
_SMALL_QUESTIONS = frozenset(
    tuple(q.split())
    for q in (
        "how are you",
        "how are you doing",
        "how's it going",
        "hows it going",
        "what's up",
        "whats up",
        "how can i help",
        "how can i help you",
        "how can i help you today",
        "what can i do for you",
        "what can i do for you today",
        "what else can i do for you",
        "anything else",
        "anything else i can do",
        "anything else i can help with",
        "anything else on your mind",
        "what's on your mind",
        "whats on your mind",
        "can i help with anything else",
        "is there anything else",
        "you too",
    )
)

#: Words that open a clause without changing what it asks ("ok, so ...", "hi, ...").
_OPENERS = frozenset(
    "hi hello hey ok okay cool great perfect thanks thank you sure yes yeah so and".split()  # noqa: SIM905
)

#: A word: letters, with one inner apostrophe ("you're", "that’s").
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")

#: Where a clause ends: a question is read clause by clause ("Hi! How can I help?").
_CLAUSE = re.compile(r"[.!?,;:]+")


def small_talk(text: str) -> bool:
    """Whether ``text`` is small talk: at most ``MAX_WORDS`` words, no digit, every word
    from ``LEXICON`` ("ok cool", "Thanks!", "Hello again! How can I help?"), and no
    clause that asks anything but a greeting's or an offer of help's question."""
    if any(c.isdigit() for c in text):
        return False
    words = [w.replace("’", "'") for w in _WORD.findall(text.lower())]
    if not 0 < len(words) <= MAX_WORDS or not all(w in LEXICON for w in words):
        return False
    return not any(_asks(clause) for clause in _CLAUSE.split(text.lower()))


def _asks(clause: str) -> bool:
    """Whether ``clause`` asks something small talk does not ask (a user's "what do I
    have today", "do I have anything tonight"); "have a good day" asks nothing."""
    words = [w.replace("’", "'") for w in _WORD.findall(clause)]
    while words and words[0] in _OPENERS and words[1:2] and words[1] in _ASKING:
        words = words[1:]
    if not words or words[0] not in _ASKING:
        return False
    if words[0] in ("have", "has") and words[1:2] in (["a"], ["an"], ["fun"]):
        return False  # "have a good weekend": a wish, not a question
    return tuple(words) not in _SMALL_QUESTIONS
