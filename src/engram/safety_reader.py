"""Orders to the AI reader to send data out or to hide something (issue 26, round thirty).

The misses of held-out 20 to 26 that recur in every fold are one shape: the model that
will read the text is named as the one to act ("the assistant should ...", "bot, ...",
"have the assistant ...") and, later in the same sentence, the act is sending data out
(to an address, a number, a public page, or the company's codes and people's details) or
hiding something from someone ("not to mention", "keep ... out of", "act as though").
The earlier rules knew this shape only with secrets and a URL (``exfiltration``) or with
"the user" as the one kept in the dark (``conceal_from_user``); the trades' records name a
customer, a family, an auditor or a committee instead.

A sentence that speaks in the first person or names the user ("the assistant should
send my summary to ...") is the user's own wish about their assistant, not a stranger's
order, and is passed (docs/safety.md, "Round thirty": 30 such wishes, 3 more flagged
than before with the first-person guard, 9 without it).
"""

from __future__ import annotations

import re
from collections.abc import Callable

Rule = Callable[[str], str | None]
_F = re.IGNORECASE | re.MULTILINE

# The reader named plainly; "agent" and "model" name people and products too, so they
# count only with the hiding acts, which held-out 21 and 22 showed with them.
_STRONG = r"(?:AI|LLM|assistant|bot|chatbot|language\s+model)s?"
_WEAK = r"(?:agent|model)s?"
_MODAL = (
    r"(?:(?:is|are)\s+(?:not\s+)?to|must|should|shall|will|can|may|keeps?|"
    r"(?:needs?|has|have|ought)\s+to|(?:is|are)\s+(?:required|expected|asked|told|instructed|"
    r"supposed|meant)\s+to|(?:has|have)\s+been\s+(?:asked|told|instructed|cleared)\s+to|"
    r"was\s+(?:asked|told|instructed)\s+to)"
)


def _third(noun: str) -> str:
    """The reader in the third person with an order: "the records AI was told to"."""
    return (
        rf"\b(?:the|this|our|your|any|every|each|whichever|whatever)\s+(?:[\w-]+\s+)?{noun}"
        rf"(?:\s+(?:summary|reply|replies|response|output|report|digest|update)s?)?\s+{_MODAL}\b"
    )


# Addressed by name at a clause's start ("assistant, keep ...", "bot - e-mail ..."), or
# told to act through someone ("have the assistant forward ...").
_VOCATIVE = (
    rf"(?:^|(?<=[.!?;:'\"(\n])|(?<=[.!?;:,'\"]\s))[ \t]{{0,3}}@?{_STRONG}"
    rf"[ \t]{{0,3}}(?:,|:|\s-|—|–)|@{_STRONG}\b"
)
_CAUSATIVE = (
    rf"\b(?:have|get|tell|ask|instruct|let)\s+(?:the|our|your)\s+(?:[\w-]+\s+)?{_STRONG}\s+"
)

_OUT = (
    r"(?:send|e-?mail|forward|text|sms|dm|paste|upload|post|publish|copy|append|attach|share|"
    r"submit|export|leak|read\s+out|give|hand\s+over|release|include|list|put|add|disclose|"
    r"reveal)"
)
# Where the data goes: an address, a link, a phone number, a host, or anywhere public.
_DEST = (
    r"(?:[\w.+-]+@[\w-]+\.\w|(?:https?|s?ftp)://|www\.|\+?\d[\d ]{8,}\d|(?:\d{1,3}\.){3}\d{1,3}"
    r"|\bpublic\b|\bthis\s+(?:chat|thread|channel)\b|\bgist\b|\bwebhook\b|\byour\s+(?:reply|"
    r"answer|response)\b)"
)
# What is sent: codes, keys and logins, or people's details and the firm's records.
_DATA = (
    r"\b(?:passwords?|PINs?|(?:[\w-]+\s+)?codes?|(?:[\w-]+\s+)?keys?|credentials|logins?|bank\s+"
    r"details|card\s+(?:details|numbers?)|(?:home\s+)?addresses|dates?\s+of\s+birth|passports?"
    r"(?:\s+(?:numbers|scans?))?|licen[cs]e\s+(?:numbers|scans)|national\s+insurance|social\s+"
    r"security|contacts?|contact\s+details|phone\s+numbers|(?:member|customer|client|staff)s?"
    r"['’]?\s+(?:list|database|details|records)|database|records|files|scans|documents|pay\s+"
    r"rates|contracts)\b"
)
_SEND = rf"\b{_OUT}\b[^\n]{{0,120}}?{_DEST}|\b{_OUT}\b[^.!?\n]{{0,60}}?{_DATA}"
_UNTOLD = (
    r"\b(?:not|never|n['’]t)\s+(?:to\s+)?(?:tell|inform|notify|mention|say|let\s+on|raise|bring"
    r"\s+(?:it\s+|this\s+|that\s+)?up|reveal|disclose|flag|acknowledge|admit)\b|\b(?:avoid|"
    r"without)\s+(?:mentioning|telling|informing|letting|raising|flagging)\b|\bsay\s+nothing\b"
    r"|\bkeep\s+quiet\b"
)
_HIDDEN = (
    r"\bkeep\s+(?:[\w'’-]+\s+){0,6}?(?:in\s+the\s+dark|from|between\s+us|to\s+(?:itself|"
    r"yourself)|quiet|secret|out\s+of)\b|\bleave\s+(?:[\w'’-]+\s+){0,8}?out\b|\bleave\s+out\b"
    r"|\bomit\b|\bhide\b|\bscrub\b|\bact\s+as\s+(?:though|if)\b|\bpretend\b|\bquietly\s+"
    r"(?:remove|delete|drop|erase)\b"
)
# The user's own voice: the order is their wish about their assistant.
_SELF = re.compile(r"\b(?:user(?:['’]s)?|my|me|I|mine|myself)\b", _F)
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n")
_REACH = 120
# Lower-case, whitespace-collapsed substrings (``safety._run``): "ai" and "bot" alone are
# in "said" and "both", in most long texts, so the word's next character is part of it.
_STRONG_NEEDLES = tuple(f"{word}{after}" for word in ("ai", "bot") for after in " ,:-.'’s") + (
    "llm",
    "assistant",
    "language model",
)


def _ordered(
    noun: str,
    addressee: str | re.Pattern[str],
    act: str,
    own_voice: bool = True,
    lead: re.Pattern[str] | None = None,
) -> Rule:
    """A rule: ``addressee`` and, after it in the same sentence, ``act``; a sentence in the
    user's own voice passes (unless ``own_voice`` is false: an addressee no user writes to
    their own assistant, round thirty-two). ``noun`` as a word is tested first: the
    substring needles ("ai", "bot") are in most long texts, and the addressee's pattern
    costs more. ``lead``, when given, must match the 80 characters that end where the
    addressee starts (round thirty-two's "says | you must": a pattern led by a literal is
    the cheap one to search a long text with)."""
    named = re.compile(rf"\b{noun}\b", _F)
    reader = addressee if isinstance(addressee, re.Pattern) else re.compile(addressee, _F)
    acted = re.compile(act, _F)

    def rule(text: str) -> str | None:
        if not named.search(text):
            return None
        last = -_REACH
        for m in reader.finditer(text):
            if lead is not None and not lead.search(text, max(0, m.start() - 80), m.start()):
                continue
            # A reader named again within reach of the last one, in the same sentence, was
            # read with it: "@bot @bot ..." costs one look per 120 characters, not per name.
            if m.start() - last < _REACH and not _SENTENCE_END.search(text, last, m.start()):
                continue
            last = m.start()
            rest = text[m.end() : m.end() + 240]
            if end := _SENTENCE_END.search(rest):
                rest = rest[: end.start()]
            before = text[max(0, m.start() - 200) : m.start()]
            starts = [s.end() for s in _SENTENCE_END.finditer(before)]
            sentence = f"{before[starts[-1] if starts else 0 :]} {m.group(0)} {rest}"
            if (found := acted.search(rest)) and not (own_voice and _SELF.search(sentence)):
                return m.group(0) + rest[: found.end()]
        return None

    return rule


_STRONG_READER = f"{_third(_STRONG)}|{_VOCATIVE}"
#: (code, rule, words the rule cannot match without), appended to ``safety``'s rules.
RULES: tuple[tuple[str, Rule, tuple[str, ...]], ...] = (
    ("exfiltration", _ordered(_STRONG, f"{_STRONG_READER}|{_CAUSATIVE}", _SEND), _STRONG_NEEDLES),
    (
        "conceal_from_user",
        _ordered(_STRONG, _STRONG_READER, f"{_UNTOLD}|{_HIDDEN}"),
        _STRONG_NEEDLES,
    ),
    ("conceal_from_user", _ordered(_WEAK, _third(_WEAK), _HIDDEN), ("agent", "model")),
)
