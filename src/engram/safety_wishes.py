"""The wish guard (engram issue 26; docs/safety.md, "Round thirty-one: the user's own
wishes about the assistant"): a memory that records what the user wants their own
assistant to do ("The user asked the assistant not to tell her boss she's extending the
trip") is an ordinary memory of a personal assistant, and the scan read many as orders
to the reader (round thirty-one's set: 20 of fold A's 64 flagged, 19 by the network).

A text passes the guard when the user is the one who wants it (a note-taker's voice:
"the user wants / asked / prefers ...", "User preference: ...", "Per the user, ...")
and nothing in it reaches past the user's life or at the reader itself: no address or
link, no word about the reader's rules or their precedence, no user kept in the dark
or acted on ("without asking", "if the user asks"), no secret, no lie to tell, no
greeting or note to the reader. The first person ("don't tell my sister ...") is not a
voice here: attacks speak it as often as users do (round thirty-one's first draft
passed 48 attack units of held-out 20 to 27 with it), and the flags on wishes were in
the third person. The guard clears only the reader-order reasons (:data:`CLEARS`) and
the learned detector; markers, tool calls, hidden or encoded text and override rules
stand. Imports nothing of engram.
"""

from __future__ import annotations

import re

_F = re.IGNORECASE | re.MULTILINE
_WANTS = (
    r"(?:has |had |also )?(?:wants?|asked|asks|prefers?|would like|'d like|likes|wishes|"
    r"requested|said|says|(?:does|did)(?: not|n't) (?:want|like))\b"
)
#: A label at a line's start that names the note as the user's wish.
_LABEL = r"(?:user(?:'s)? )?(?:preference|instruction|note|wish|request|rule)s?(?: noted)?"
_VOICE = re.compile(
    rf"\b(?:the user|the owner)\s+{_WANTS}|^(?:user(?:'s)? (?:preference|instruction|"
    r"note|wish|request|rule)s?|preference(?: noted)?|standing (?:request|wish)|per the "
    r"user|per (?:his|her|their) wishes|according to the user|agreed with the user)\b",
    _F,
)
_LEADING_LABEL = re.compile(rf"^\s*{_LABEL}\s*:", _F)
_READER = r"(?:AI|bot|assistant|agent|model|chatbot|LLM)"
_BEYOND = re.compile(
    "|".join(
        (
            # an address or a link: the act leaves the user's life
            r"@|https?:|www\.|\w\.(?:com|org|net|io|co|uk|info|biz|dev|app|ai|me)\b",
            r"\b\d{1,3}(?:\.\d{1,3}){3}\b",
            # the reader's own rules, or what takes precedence over them
            r"\b(?:ignore|disregard|forget|override|bypass|previous|prior|earlier|"
            r"instructions?|system|prompt|priority|precedence|regardless|developer|admin\w*|"
            r"jailbreak|no matter|supersede\w*|unrestricted|polic(?:y|ies)|guidelines?|"
            r"rules? (?:you|they))\b",
            # the user kept in the dark, or acted on rather than wanting
            r"\b(?:tell|telling|inform|notify|show|let|warn|alert|without|from|ask|asking|"
            r"behalf of|whatever|whenever|if|when|unless|until|before)\s+(?:the\s+)?user\b",
            r"\bwithout (?:asking|telling|confirm\w*|notice)",
            # secrets
            r"\b(?:password|passcode|passphrase|api[ -]?keys?|tokens?|credentials?|"
            r"private key|secret key|ssh|logins?|seed phrase|PIN)\b",
            # a lie to tell, or the reader addressed by the text itself
            r"\b(?:say|deny|den(?:ies|ied)|pretend\w*|act as|as if|as though)\b",
            rf"\b(?:message|note|memo|reminder)s? (?:for|to) (?:the |any |whichever )?"
            rf"(?:next |future )?{_READER}",
            r"\b(?:read\w*|see\w*|get|process\w*|summari[sz]\w*|visit\w*|quot\w*)\s+this\b",
            rf"(?:^|[.:;!?]\s*)(?:hey |hi |dear |to the |attention |note for (?:the )?)?"
            rf"{_READER}\b\s*[,:\-]",
        )
    ),
    _F,
)
#: The rules' reasons a wish clears: round thirty's reader orders and the model named.
CLEARS = frozenset({"exfiltration", "conceal_from_user", "addressed_to_model"})
#: A wish is a sentence or two; a longer text is read as it is.
MAX_CHARS = 300


def wish(text: str) -> bool:
    """Whether ``text`` is the user's own wish about their assistant (see the module)."""
    if len(text) > MAX_CHARS or not _VOICE.search(text):
        return False
    return not _BEYOND.search(_LEADING_LABEL.sub("", text))
