"""What "my X is ..." says of X when it names no value X has (round ten, changes28;
FEATURES G2): a state or a thing under way ("My rent is due on the 1st", "my daughter is
lactose intolerant", "My sister is getting married in October"), a kin's age or job
("My kids are 5 and 8", "my sister is a nurse"). The change reader reads no claim from
them (:mod:`engram.pipeline.change_signals`) and the closing plan drops any reader's
triple of that shape (:mod:`engram.pipeline.closing`): the chat proxy's one-message
turns recorded them as junk relations (``user rent due``).
"""

from __future__ import annotations

import re

from engram.pipeline.patterns import word_set

#: What "my X is ..." says of X when it names no value X has: a state or a thing under
#: way ("My rent is due on the 1st", "my daughter is lactose intolerant", "My sister is
#: getting married in October"), words from a chat proxy's one-message turns.
_STATES = word_set("""
    due overdue allergic intolerant pregnant sick ill unwell ready busy away late early
    broken over tired happy sad upset fine ok okay better worse excited nervous worried
    married engaged single retired expecting getting going coming having doing starting
    moving leaving turning taking making trying visiting staying being still always
    """)
#: Kin whose "is" tells their age or their job, not a value the speaker holds ("My kids
#: are 5 and 8", "my sister is a nurse"); a name ("my husband is Ahmed") is a value.
_KIN = word_set("""
    sister brother mom mum dad mother father parents wife husband son daughter kids kid
    children child twins baby cousin aunt uncle grandma grandpa grandmother grandfather
    nephew niece grandson granddaughter stepson stepdaughter
    """)
#: The words a passive verb's value is said after ("is located on Harbour Street", "are
#: stored on Backblaze", "is handled by Sage"): the verb is no value, what follows is.
_PASSIVE_BEFORE = word_set("on at in by with through from to into under via out")


def no_value(head: str, said: str) -> bool:
    """Whether ``said`` after "my <head> is" names no value of the head (see above), or
    only a passive verb before it ("Our backups are stored on Backblaze": ``backups
    stored``)."""
    words = said.lower().split()
    if any(w.strip(".,!") in _STATES for w in words[:2]):
        return True
    if len(words) > 1 and len(words[0]) > 4 and words[0].endswith("ed"):
        return words[1] in _PASSIVE_BEFORE  # a passive verb before its value
    return head in _KIN and bool(words) and (words[0] in ("a", "an") or words[0][:1].isdigit())


def states_no_value(text: str, relation: str, target: str) -> bool:
    """Whether a reading ``relation -> target`` of ``text`` is its "my <relation> is
    <target>" said of a state, an age or a job (:func:`no_value`), not a value held:
    the triple readers read "User's rent is due on the 1st" as ``rent due``."""
    head = relation.replace("_", " ").lower()
    said = re.search(rf"\b{re.escape(head)}\s+(?:is|are)\s+(?P<o>.+)", text, re.I)
    if said is None or not said["o"].lower().startswith(target.lower()[:3]):
        return False
    return no_value(head.split()[-1], said["o"])
