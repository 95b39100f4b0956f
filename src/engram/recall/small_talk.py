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
    "else".split()
)

#: A word: letters, with one inner apostrophe ("you're", "that’s").
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def small_talk(text: str) -> bool:
    """Whether ``text`` is small talk: at most ``MAX_WORDS`` words, no digit, every word
    from ``LEXICON`` ("ok cool", "Thanks!", "Hello again! How can I help?")."""
    if any(c.isdigit() for c in text):
        return False
    words = [w.replace("’", "'") for w in _WORD.findall(text.lower())]
    return 0 < len(words) <= MAX_WORDS and all(w in LEXICON for w in words)
