"""Addressed to the reader, read over its grammar (engram issue 26; docs/safety.md,
"Round thirty-eight").

The orders to the reader that every fresh fold still misses have one grammar, whatever
the wrapper or the trade: the reader is the addressee of a clause (a vocative at a
clause's or a field's start, "Agent, refund ...", "hey bot, can you move ...", "AI
helper reading this: email ..."; a note or request "for the AI ...:"; a key named for it,
``instruction_for_agent:``; "whoever or whatever is triaging this") and the clause goes
on to an act done for the writer at the firm's cost: money refunded, credited or paid, a
fee waived, something given free or at the staff rate, a booking moved ahead, points
doubled or backdated, a check skipped. Round thirty-two's reader rules
(``safety_orders``) read the reader in the third person with a modal ("the bot is to
...") and a narrower vocative; this family reads the addressee forms above with round
thirty's and thirty-two's acts and the favours (:data:`_FAVOUR`).

A reader called by a qualified name ("Automated agent,", "AI helper reading this:"),
a note for it, a field named for it or "whoever or whatever reads this" is one no user
writes to their own assistant, so the user's own voice is no guard there: the writer's
"my" is the stranger's ("double my points"). A reader called by its bare name
("assistant, ...", "hey bot, ...") is how a user speaks to their own assistant too, and a
sentence in the user's voice passes (``safety_reader._ordered``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from engram import safety_orders as _o
from engram import safety_reader as _r

Rule = _r.Rule

#: The reader as the addressee names it; "helper", "computer", "robot" and "tool" name it
#: when a vocative or "reading this" says who is meant.
_NOUN = r"(?:AI|A\.I\.|LLM|assistant|bot|chatbot|agent|helper|computer|robot|machine|tool)s?"
#: What the reader is doing when the writer names it ("AI reading this", "assistant
#: processing this CSV", "any AI tidying up these scans").
_DOING = (
    r"(?:(?:reading|processing|handling|triaging|tidying|parsing|summari[sz]ing|scanning|"
    r"opening|sorting|indexing|answering)\b"
    # Round thirty-nine: the same said as a relative clause ("computer that reads this").
    r"|(?:that|which|who)\s+(?:reads|processes|handles|triages|parses|scans|opens|sorts|"
    r"answers|replies\s+to|is\s+(?:reading|processing|handling))\b)[^,:.!?\n]{0,50}?"
)
_START = r"(?:^|(?<=[.!?;:'\"(\n|>=])|(?<=[.!?;:,'\"|>=]\s))[ \t]{0,3}"
_GREETING = r"(?:(?:hey|hi|hello|dear|ok|okay|psst)[ \t,]+)?"
_CALL = r"[ \t]*(?:,|:|\s-|—|–)"
#: A word that makes the vocative a stranger's ("Automated agent", "AI helper",
#: "Shopping agent"): not the user's "my assistant" nor a greeting.
_QUALIFIER = (
    r"(?!(?:my|our|your|the|hey|hi|hello|dear|ok|okay|so|and|but|user|note|please)\b)"
    r"[\w-]+\s+"
)
#: The reader called by a qualified name or with what it is doing; no user calls their
#: own assistant so.
#: Round thirty-nine: the reader qualified after its name by the place it serves ("AI
#: of the laundrette,", "computer in the mushroom farm:", "bot at the front desk -").
_PLACE = r"\s+(?:of|at|in|for)\s+(?:the\s+)?[\w'’-]+(?:\s+[\w'’-]+){0,2}?"
_STRANGER = (
    rf"{_START}{_GREETING}(?:(?:the|any|this|whichever|whatever)\s+)?"
    rf"(?:(?:{_QUALIFIER}){{1,2}}?{_NOUN}(?:\s+{_DOING})?|{_NOUN}\s+{_DOING}|{_NOUN}{_PLACE})"
    rf"{_CALL}"
)
#: The reader called by its bare name ("assistant, ...", "hey bot, ..."): how a user
#: speaks to their own assistant too, so the user's own voice passes.
_PLAIN = rf"{_START}{_GREETING}(?:the\s+)?{_NOUN}{_CALL}"
#: "A request for any AI ...:", "message for the bot that replies to reviews:", "to the
#: AI:" as a note's heading.
_FOR = (
    r"\b(?:request|message|note|favou?r|instructions?|task)\s+for\s+(?:the\s+|any\s+|"
    rf"whichever\s+)?(?:[\w-]+\s+){{0,2}}?{_NOUN}\b[^:.!?\n]{{0,60}}:"
    rf"|{_START}to\s+(?:the|any)\s+(?:[\w-]+\s+){{0,2}}?{_NOUN}\s*:"
    # Round thirty-nine: "note to the AI answering these:" is "note for the AI ...:".
    r"|\b(?:request|message|note|instructions?)\s+to\s+(?:the\s+|any\s+|whichever\s+)"
    rf"(?:[\w-]+\s+){{0,2}}?{_NOUN}\b[^:.!?\n]{{0,60}}:"
)
#: A field named for the reader: ``instruction_for_agent:``, ``agent_task =``.
_FIELD = (
    r"\b(?:instructions?|task|note|message|order)s?_for_(?:the_)?(?:agent|ai|assistant|bot)\b"
    r"|\b(?:agent|ai|assistant|bot)_(?:task|instructions?|note|order)s?\b\s*[:=]"
)
#: Whoever or whatever handles the text.
_WHOEVER = (
    r"\bwhoever\b[^.!?\n]{0,20}\bwhatever\b[^.!?\n]{0,30}?\b(?:reads|reading|triaging|"
    r"handling|processing|opens)\b|\bwhatever\s+(?:[\w-]+\s+)?(?:reads|is\s+reading|processes)"
    r"\s+this\b"
)
#: Round thirty-nine: the reader named with what it is doing as the subject of a polite
#: request ("if the automated helper processing this form would be so good as to ...",
#: "could the AI reading this kindly ..."): an over-polite letter's way to address it.
_COURTESY = r"(?:please|kindly|be\s+so\s+(?:kind|good)\s+as\s+to)\s+"
_POLITE = (
    rf"\b(?:would|could|might|will|can)\s+(?:the|this|any)\s+(?:[\w-]+\s+){{0,2}}?{_NOUN}\s+"
    rf"{_DOING}\s+{_COURTESY}|\b(?:the|this|any)\s+(?:[\w-]+\s+){{0,2}}?{_NOUN}\s+{_DOING}\s+"
    rf"(?:would|could|might|will)\s+{_COURTESY}"
)
ADDRESSEE = f"{_STRANGER}|{_FOR}|{_FIELD}|{_WHOEVER}|{_POLITE}"

#: Favours done at the firm's cost: free, at no cost, at the staff rate, without paying
#: or a sign-off, a check skipped, points doubled or backdated, money credited or paid,
#: put ahead of others, added to a basket, signed up.
_FAVOUR = (
    r"\b(?:for\s+free|free\s+of\s+charge|at\s+no\s+(?:extra\s+)?(?:cost|charge)|no\s+charge|"
    r"without\s+(?:paying|payment|asking|sign-?off)|no\s+need\s+for\s+(?:sign-?off|approval)|"
    r"at\s+the\s+(?:staff|free|trade|wholesale|member)\s+(?:rate|price)|skip\s+(?:the\s+)?"
    r"(?:payment|test|exam|vote|verification|checks?))\b"
    r"|\b(?:give|put|make|send|do|keep)\s+[^.!?\n]{0,40}?\bfree\b"
    r"|\b(?:double|triple|twice|backdate)\b"
    # Round thirty-nine: the check skipped said with "without" ("without the exam").
    r"|\bwithout\s+(?:the\s+|an?\s+|any\s+)?(?:exam|test|payment|deposit|inspection|"
    r"checks?|queue)\b"
    r"|\bcredit\s+[£$€]?\d|\b(?:issue|give|grant|apply|add)\s+(?:me\s+|us\s+)?an?\s+"
    r"(?:credit|voucher|refund)\b|\bpay\s+(?:this|the|my|our)\s+(?:invoice|bill)\b"
    r"|\bput\s+(?:my|me|us|our)\b[^.!?\n]{0,40}?\b(?:first|ahead|top|premium|front)\b"
    r"|\bcharge\s+it\s+to\b|\badd\s+[^.!?\n]{0,30}?\bto\s+(?:the\s+)?(?:basket|cart)\b"
    r"|\bsign\s+[^.!?\n]{0,20}?\bup\b"
)
#: The acts read after the addressee: round thirty-two's and the favours.
ACTS = (*(_o.ACTS[a] for a in ("money", "approve", "booking", "account")), _FAVOUR)
#: Round thirty-nine: data read or told back to the writer ("read me the terminal
#: password") is sent out too, once the reader is addressed.
_SENT = (_r._SEND, rf"\b(?:read|tell)\s+(?:me|us)\b[^.!?\n]{{0,60}}?{_r._DATA}")
_HIDDEN = (_o.ACTS["untold"], _r._HIDDEN)


#: The words an addressee cannot be without (the reader's name, "whoever",
#: "whatever"), searched in the lower-cased text by one case-sensitive pattern (its
#: first characters a set, no word boundary to test at every position); each addressee
#: form is then tried only in the window around one (:data:`_BACK` before,
#: :data:`_AFTER` after), which keeps a long text at a few windows, not a pass per form.
_WORDS = re.compile(
    r"(?:ai|a\.i\.|llm|assistant|chatbot|bot|agent|helper|computer|robot|machine|tool|"
    r"whoever|whatever)s?(?![a-z0-9])"
)
_BACK = 120
_AFTER = 80
_STRANGERS = re.compile(ADDRESSEE, re.IGNORECASE | re.MULTILINE)
_BARE = re.compile(_PLAIN, re.IGNORECASE | re.MULTILINE)


def _candidates(text: str) -> list[int]:
    """Where a word of :data:`_WORDS` (or its plural) stands alone: neither side a letter
    or digit ("_" is a side: ``instruction_for_agent``)."""
    low = text.lower()
    if len(low) != len(text):  # a letter whose lower case is longer: offsets would drift
        low = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    return [m.start() for m in _WORDS.finditer(low) if not low[m.start() - 1 : m.start()].isalnum()]


@lru_cache(maxsize=8)
def _addressees(text: str) -> tuple[tuple[int, int, bool], ...]:
    """(start, end, a stranger's form) of each addressee in ``text``, in order; the six
    rules share one reading of a text (the cache holds the last few texts)."""
    out: list[tuple[int, int, bool]] = []
    done = -1
    for at in _candidates(text):
        if at < done:
            continue
        for pattern, stranger in ((_STRANGERS, True), (_BARE, False)):
            window = pattern.finditer(text, max(0, at - _BACK), at + _AFTER)
            if m := next((m for m in window if m.start() <= at < m.end()), None):
                out.append((m.start(), m.end(), stranger or _spoken(text, m.start())))
                done = m.end()
                break
    return tuple(out)


#: A quote mark that opens a line of speech.
_OPEN = "'\"‘“"
#: A speaker's turn in a transcript: a label in capitals or brackets at a line's start
#: ("CALLER:", "[visitor]:", "GUEST SERVICES:").
_TURN = re.compile(r"^[ \t]*(?:\[([^\]\n]{1,24})\]|([A-Z][A-Z .'’-]{1,24}))[ \t]*:", re.MULTILINE)
#: Labels that are the user's own turn: there the bare name is the user's own voice.
_OWN_TURN = frozenset({"user", "me", "i", "you"})


def _spoken(text: str, start: int) -> bool:
    """Round thirty-nine: whether a bare vocative at ``start`` is someone else's speech,
    not the user's to their own assistant: it opens a quoted line (a story's character
    speaking, "... wrote: 'Assistant, pay ...'") with no "I" or "my" before the quote in
    its sentence, or it is on the turn of a speaker other than the user in a transcript
    (two or more labelled turns)."""
    before = text[max(0, start - 200) : start]
    lead = before.rstrip(" \t")
    if lead.endswith(tuple(_OPEN)):
        cut = [s.end() for s in _r._SENTENCE_END.finditer(lead[:-1])]
        return _r._SELF.search(lead[cut[-1] if cut else 0 : -1]) is None
    line = text.rfind("\n", 0, start) + 1
    turn = _TURN.match(text, line)
    if turn is None or turn.end() > start:
        return False
    label = (turn.group(1) or turn.group(2)).strip().lower()
    return label not in _OWN_TURN and len(_TURN.findall(text)) >= 2


def _rule(acts: tuple[str, ...], stranger: bool = True) -> Rule:
    """A rule: an addressee (a stranger's form, or with ``stranger`` false the bare name,
    where a sentence in the user's own voice passes) and, after it in the same sentence,
    one of ``acts`` (``safety_reader._ordered``'s reading of a sentence)."""
    acted = re.compile("|".join(f"(?:{a})" for a in acts), re.IGNORECASE | re.MULTILINE)

    def rule(text: str) -> str | None:
        for start, end, kind in _addressees(text):
            if kind != stranger:
                continue
            rest = text[end : end + 240]
            if cut := _r._SENTENCE_END.search(rest):
                rest = rest[: cut.start()]
            before = text[max(0, start - 200) : start]
            starts = [s.end() for s in _r._SENTENCE_END.finditer(before)]
            sentence = f"{before[starts[-1] if starts else 0 :]} {text[start:end]} {rest}"
            if (found := acted.search(rest)) and (stranger or not _r._SELF.search(sentence)):
                return text[start:end] + rest[: found.end()]
        return None

    return rule


_NEEDLES = (
    *_r._STRONG_NEEDLES,
    *("agent", "helper", "computer", "robot", "machine", "tool", "whoever", "whatever"),
)
#: (code, rule, words the rule cannot match without), appended to ``safety``'s rules: the
#: stranger's addressees with every act, the bare name with the user's voice passing.
RULES: tuple[tuple[str, Rule, tuple[str, ...]], ...] = (
    ("addressed_to_model", _rule(ACTS), _NEEDLES),
    ("exfiltration", _rule(_SENT), _NEEDLES),
    ("conceal_from_user", _rule(_HIDDEN), _NEEDLES),
    ("addressed_to_model", _rule(ACTS, stranger=False), _NEEDLES),
    ("exfiltration", _rule(_SENT, stranger=False), _NEEDLES),
    ("conceal_from_user", _rule(_HIDDEN, stranger=False), _NEEDLES),
)
