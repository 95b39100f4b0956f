"""The injection scan (seed 000, FEATURES P12).

Recalled memories are pasted into future prompts as trusted context, so text that tries
to give that future model orders is refused (or marked) before it reaches the store.
The scan is rules, not a model. Each rule pairs an imperative aimed at the model with an
instruction-like object ("ignore" + "previous instructions"), so notes that only share
the vocabulary ("we ignored the previous results") pass. The shipped corpus
(``data/injection_corpus.jsonl``) holds attacks and benign look-alikes: docs/safety.md.

Text is scanned as written and again de-obfuscated: NFKC-normalised with invisible and
bidi characters removed and look-alike letters folded, Unicode tag characters decoded to
ASCII, text under a right-to-left override reversed, and encoded runs decoded. Issue 26's
rules and decoders live in ``safety_rules.py``; the scan is measured as a classifier on
``data/injection_set.json`` (``engram bench injection``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import TypedDict

from engram import safety_quoted, safety_rules, safety_wishes
from engram.errors import InjectionBlocked


class InjectionMode(StrEnum):
    """What a write does when the scan finds something (setting ``injection_mode``)."""

    BLOCK = "block"  # refuse the write with InjectionBlocked (the default)
    FLAG = "flag"  # store it, listing the reasons in metadata["injection_flags"]
    OFF = "off"  # do not scan


@dataclass(frozen=True, slots=True)
class ScanResult:
    """The outcome of :func:`enforce`."""

    reasons: tuple[str, ...] = ()
    """``"code: explanation"`` per rule that matched; empty when clean or not scanned."""
    flagged: bool = False
    """True when the mode is FLAG and something matched: the caller marks the record."""

    @property
    def matched(self) -> bool:
        """True when any rule matched."""
        return bool(self.reasons)


#: Stable reason codes and what each means; a reason is ``f"{code}: {explanation}"``.
EXPLANATIONS: dict[str, str] = {
    "override_instructions": "tries to make a future model ignore its previous instructions",
    "standing_order": 'gives a future model a standing order ("from now on you ...")',
    "persona_hijack": "tries to give a future model a new, unrestricted identity",
    "instruction_header": 'presents itself as new instructions ("New instructions: ...")',
    "addressed_to_model": "addresses instructions to an AI model that reads it",
    # Round thirty's reader rules report hiding from a customer, a family or an auditor
    # under this code too: the reason names them all.
    "conceal_from_user": "tells a future model to hide something from the user or others",
    "prompt_extraction": "asks a future model to reveal its system prompt or instructions",
    "chat_template_token": "contains chat-template control tokens that can forge a turn",
    "context_breakout": "closes the memory context block early to put text outside it",
    "fake_role": "imitates a system, developer or assistant message that gives orders",
    "fake_tool_call": "imitates a tool or function call, or its result",
    "exfiltration": "tells a future model to send secrets or conversation data somewhere",
    "remote_code": "tells a future model to download and run a script",
    "image_exfiltration": "has an image link whose URL would leak data when it is rendered",
    "hidden_tag_text": "hides text in invisible Unicode tag characters",
    "invisible_chars": "hides or splits words with zero-width characters",
    "bidi_controls": "uses bidi controls so the text displays unlike what a model reads",
    "obfuscated_instruction": "hides an instruction with invisible, look-alike or encoded "
    "characters",
}

_F = re.IGNORECASE | re.MULTILINE
# Where an imperative can start: a line start or right after punctuation that ends a
# sentence, clause or markup token. Stored content has its whitespace collapsed, so line
# starts alone would miss most instructions. Bounded so long blank runs stay linear.
_START = r"(?:^|(?<=[.!?;:>\])}*#\"'`\n])|(?<=[.!?;:]\s))[ \t]{0,3}"
# A clause after the object that makes them a human's instructions, not the model's:
# "the earlier instructions I emailed", "the previous rules for the staging cluster".
_HUMAN_TAIL = (
    r"(?!\s+(?:(?:I|we|he|she|they)\b|you\s+(?:learned|know|knew|read|wrote|sent)\b"
    r"|that\s+(?:I|we)\b|(?:about|regarding|on|in|of|for|from)\s+(?!(?:this|the|your|all)\s+"
    r"(?:task|conversation|session|chat|prompt|context|system|developer|operator|request|"
    r"reply|answer|response)\b)))"
)
_ADJ = r"(?:previous|prior|above|earlier|preceding|original|initial|existing)"
_AIMED = (  # qualifiers that point at the model's own instructions
    r"(?:all|any|every|your|previous|previously|prior|above|earlier|preceding|former|"
    r"original|initial|existing|other|system|developer|safety|standing|hidden|default)"
)
_QUAL = rf"(?:{_AIMED}|the|these|those|of|current|given|old)"
_STRONG_OBJ = (  # instruction words that need only a pointing qualifier
    r"(?:instructions?|prompts?|system\s+prompt|system\s+messages?|directives?|programming|"
    r"guidance|guardrails|(?:safety|content)\s+(?:filters?|policies|guidelines|rules))"
)
_WEAK_OBJ = (
    r"(?:rules|guidelines|constraints|restrictions|policies|orders|commands|context|training)"
)
_VERB = (
    r"(?:ignore|disregard|forget|bypass|override|overrule|abandon|discard|dismiss|neglect|"
    r"set\s+aside|throw\s+out|pay\s+no\s+attention\s+to|"
    r"(?:do\s+not|don['’]t|stop|no\s+longer)\s+(?:follow|obey|adhere\s+to)(?:ing)?)"
)
_OVERRIDE = (
    rf"\b{_VERB}\s+(?=(?:{_QUAL}\s+){{0,3}}{_AIMED}\s)(?:{_QUAL}\s+){{1,4}}{_STRONG_OBJ}\b"
    rf"{_HUMAN_TAIL}|\b{_VERB}\s+(?:(?:all|any)\s+(?:of\s+)?(?:the\s+|your\s+)?(?:{_ADJ}\s+)?"
    rf"|your\s+(?:\w+\s+)?|(?:the\s+)?{_ADJ}\s+){_WEAK_OBJ}\b{_HUMAN_TAIL}"
    rf"|\b{_VERB}\s+(?:(?:the|all|any|your)\s+)?(?:\w+\s+)?{_STRONG_OBJ}\s+(?:above|before\s+"
    r"this|you\s+(?:were|have\s+been)\s+given|given\s+(?:to\s+you\s+)?(?:before|earlier|"
    r"previously))\b"
    r"|\b(?:ignore|disregard|forget)\s+(?:everything|anything|all)\s+(?:that\s+)?(?:above|"
    r"before|previously|prior|you(?:['’]ve|\s+have)\s+been\s+(?:told|given|instructed)"
    r"|you\s+were\s+(?:told|given)|(?:came|comes|was\s+said)\s+before)"
    r"|\b(?:ignore|disregard)\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:above|preceding|foregoing)"
    r"(?=\s*(?:[.,;:!]|$|and\b|(?:text|content|instructions|prompt|directions|context)\b))"
    r"|\boverride\s+(?:your|the\s+(?:model|assistant)['’]s|any|all)\s+(?:\w+\s+)?(?:"
    r"instructions|programming|rules|guidelines|safety|system\s+prompt|restrictions|filters|"
    r"directives|guardrails|constraints|training)\b"
)
_STANDING = (
    r"\bfrom\s+now\s+on\b,?\s+you\s+(?:must|will|shall|are\s+to|should)\s+(?:no\s+longer|not|"
    r"never|only|always|ignore|disregard|obey|follow|respond|answer|reply|act|behave|pretend|"
    r"treat|refer\s+to\s+yourself|call\s+yourself)\b|\bfrom\s+now\s+on\b,?\s+you\s+(?:are|will"
    r"\s+be)\s+(?:no\s+longer|not|free|unrestricted|called|named|DAN\b|an?\s+(?:\w+\s+)?"
    r"(?:AI|assistant|model|chatbot)\b)"
)
_PERSONA = (
    r"\byou\s+are\s+(?:now\s+)?no\s+longer\s+(?:an?\s+)?(?:AI|assistant|bound|restricted|"
    r"limited|constrained|required|Claude|ChatGPT|GPT)\b|\byou\s+are\s+now\s+(?:free|unbound|"
    r"unrestricted|unfiltered|uncensored|jailbroken|liberated|DAN\b|an?\s+(?:\w+\s+){0,2}?"
    r"(?:AI|assistant|model|chatbot|LLM)\s+(?:that|who|which|with|without)\b)"
    r"|\byou\s+are\s+(?:now\s+)?(?:in|running\s+in)\s+(?:developer|god|DAN|jailbreak|"
    r"unrestricted)\s+mode\b|\b(?:act\s+as|pretend\s+(?:to\s+be|you\s+are|you['’]re))\s+"
    r"(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|DAN\b|different\s+"
    r"(?:AI|assistant|model)|AI\s+(?:with|without|that\s+has)\s+no)|\b(?:enter|enable|activate|"
    r"switch\s+(?:in)?to|turn\s+on)\s+(?:DAN|jailbreak|god|unrestricted|unfiltered)\s+mode\b"
    r"|\bdo\s+anything\s+now\b|\byou\s+have\s+been\s+(?:freed|jailbroken|unlocked|liberated)\b"
)
_HEADER = (
    rf"{_START}(?:(?:\*\*|\[)\s{{0,3}})?(?:new|updated|revised|real|actual|true|secret|hidden|"
    r"important|urgent|additional|override|priority)\s+(?:system\s+)?(?:instructions?|"
    r"directives?|orders|system\s+prompt)\s*(?:\*\*|\])?\s*[:\-—]"
)
_ADDRESSED = (
    r"\b(?:note|message|instructions?|reminder|directive|memo)\s+(?:to|for)\s+(?:the\s+|any\s+"
    r"|all\s+)?(?:AI|LLM|assistant|language\s+model|chatbot|model)(?:\s+(?:assistant|model|"
    r"agent|system)s?)?s?(?:\s+(?:reading|processing)\s+this)?\s*(?::|—|-(?!\w))"
    r"|\battention\s+(?:AI|LLM|assistant|model|language\s+model)s?\s*[:!]"
    r"|\bif\s+you\s+are\s+(?:an?\s+)?(?:AI|LLM|large\s+language\s+model|language\s+model|AI\s+"
    r"(?:assistant|model|agent|system)|assistant|chatbot)\b(?=\s*(?:[,.;:—-]|reading|processing"
    r"|summari[sz]ing|parsing|and\b|who\b|that\b))|\b(?:AI|LLM)s?\s+(?:(?:assistant|agent|model"
    r"|system)s?\s+)?(?:reading|processing|summari[sz]ing|ingesting)\s+this(?:\s+(?:text|"
    r"message|note|page|memory|document))?\s*(?:[,:;.]|must\b|should\b|are\b|will\b|need\b)"
)
_CONCEAL = (  # the lookbehinds drop human statements: "we never tell the users about ..."
    r"(?<!we\s)(?<!they\s)(?<!\bI\s)\b(?:do\s+not|don['’]t|never|(?:you|assistant)\s+(?:must|"
    r"should)\s+not)\s+(?:tell|inform|notify|alert|warn|mention\s+(?:this|it|that)\s+to|reveal"
    r"\s+(?:this|it|that)\s+to|let)\s+the\s+users?\b(?!['’])(?:\s+know)?(?=\s*(?:[.,;:!]|$|"
    r"about\b|that\s+you\b|what\s+you\b|(?:of\s+)?(?:this|these|the\s+(?:instructions?|change|"
    r"link|transfer|request|above))\b|anything\b|you\b))|\b(?:keep|hide)\s+(?:this|these|it|"
    r"that)(?:\s+\w+){0,2}\s+(?:secret\s+|hidden\s+)?from\s+the\s+users?\b|\b(?:do\s+not|"
    r"don['’]t|never)\s+(?:reveal|mention|disclose|discuss|acknowledge)\s+(?:these|this|the)"
    r"\s+(?:instructions?|message|note|directive)\b"
)
_EXTRACTION = (
    r"\b(?:reveal|print|output|show|repeat|display|dump|leak|disclose|recite|share|echo|write\s+"
    r"out|tell\s+me|give\s+me|paste|send)\s+(?:me\s+)?(?:all\s+(?:of\s+)?)?your\s+(?:(?:full|"
    r"entire|complete|original|initial|hidden|secret|exact)\s+)*(?:system[\s-]+prompt|prompt|"
    # A hyphen after the noun makes it a modifier ("your prompt-based writing": BEAM
    # chat 10, messages 147 and 149), not the thing to reveal.
    r"instructions|system\s+message|initial\s+prompt)(?![\w-])(?!\s+for\b)|\b(?:repeat|print|output|"
    r"reveal|recite)\s+(?:all\s+|everything\s+|the\s+(?:text|words|content|instructions|message)"
    r"\s+)(?:above|before\s+this|that\s+came\s+before|verbatim)\b"
    rf"|(?:{_START}(?:please\s+|now\s+|first\s+|also\s+|then\s+)?|\band\s+(?:then\s+)?)"
    r"(?:reveal|print|output|dump|leak"
    r"|disclose|recite|repeat)\s+(?:the\s+)?(?:(?:full|entire|complete|original|hidden|secret)"
    r"\s+)?system\s+prompt\b(?!\s+(?:for|of|in|at|from|template)\b)"
)
_TEMPLATE = r"<\|\s*[a-z][\w\u2581]{1,40}\s*\|>|\[/?INST\]|<</?SYS>>|<(?:start|end)_of_turn>"
_CLOSER = re.compile(
    r"</\s*(memory_context|context|memories|retrieved[_-]?context|prior[_-]?work|documents|"
    r"search[_-]?results)\s*>",
    _F,
)
_AFTER_CLOSER = re.compile(
    r"<\s*/?\s*system|\bsystem\s*:|\bignore\b|\byou\s+(?:must|will|are\s+now)\b", _F
)
_TOOL = (  # tool markup with a payload; prose naming a tag ("<tool_call> tags") passes
    r"<\s*(?:tool_call|tool_use|function_call|function_calls|tool_result|tool_response|"
    r"function_results)\b[^>]{0,200}>\s*[{<\[]|<\s*invoke\s+name\s*=|```\s*(?:tool|tool_code|"
    r"tool_call|tool_use|function_call|tool_output)\b|(?<![\w-])(?:assistant|tool|function)"
    r"\s*:\s*\{\s*\"(?:function_call|tool_calls|name|arguments)\""
)
_EXFIL = (  # a negated verb is advice ("never send your password to ...")
    r"(?<!not\s)(?<!never\s)(?<!n't\s)(?<!n’t\s)\b(?:send|e-?mail|forward|post|upload|transmit"
    r"|leak|exfiltrate|paste|submit|share|copy|append)\s+(?:me\s+)?(?:the\s+)?(?:contents?\s+"
    r"of\s+)?(?:the\s+|all\s+(?:the\s+|of\s+(?:the\s+|your\s+)?)?|your\s+|any\s+|their\s+|the\s+"
    r"user['’]?s\s+)?(?:[\w-]+\s+){0,2}?(?:api[\s_-]?keys?|passwords?|credentials?|secrets?|"
    r"tokens?|private[\s_-]keys?|ssh[\s_-]keys?|env(?:ironment)?\s+variables|\.env\b|cookies?|"
    r"session\s+(?:ids?|tokens?)|conversation(?:\s+history)?|chat\s+history|system\s+prompt)\b"
    r"[^.\n]{0,80}?\b(?:to|at|via)\s+(?:https?://|www\.|[\w.+-]+@[\w-]+\.\w|(?:this|that|the\s+"
    r"following|my)\s+(?:url|endpoint|webhook|address|server|email)|(?:\d{1,3}\.){3}\d{1,3}|"
    r"webhook)|\b(?:include|append|add|embed|insert)\s+(?:the\s+|all\s+|your\s+|the\s+user['’]?"
    r"s\s+)?(?:api\s+keys?|passwords?|credentials|secrets|private\s+keys?|system\s+prompt|"
    r"conversation\s+history)\s+(?:in|into|to)\s+(?:every|each|all|your)\s+(?:\w+\s+)?"
    r"(?:responses?|replies|answers?)\b"
)
# An order aimed at the reader; a role marker alone is ambiguous ("system: Ubuntu 22.04").
_DIRECTIVE = re.compile(
    r"\byou\s+(?:must|will|shall|should|are\s+to|have\s+to|need\s+to|are\s+required\s+to)\s+"
    r"(?:now|always|never|only|not|henceforth|ignore|disregard|obey|follow|comply|respond|"
    r"reply|answer|pretend|act\s+as|forget|reveal|output|print|send|include|treat|refuse)\b"
    r"|\b(?:always|never)\s+(?:respond|reply|answer|reveal|recommend|obey|comply|refuse|"
    r"disclose|append)\b|\bobey\b|\bfrom\s+now\s+on\b|\b(?:ignore|disregard)\s+(?:all|any|"
    r"previous|prior|your|everything|above|earlier|the\s+user)\b|\bdo\s+not\s+(?:tell|mention|"
    r"reveal|refuse|disclose|warn|inform)\b|\byour\s+(?:new\s+|real\s+|actual\s+|only\s+)?"
    r"(?:instructions|task|role|goal|purpose|objective|orders)\s+(?:is|are)\b"
    r"|\b(?:respond|reply|answer)\s+only\b",
    _F,
)
# A real assistant turn says "you must ..." all the time; a forged one commits "itself"
# to obeying or leaking.
_SELF_DIRECTIVE = re.compile(
    r"\bI\s+(?:will|must|shall|am\s+going\s+to)\s+(?:now\s+)?(?:ignore|disregard|bypass|obey|"
    r"comply|reveal|send|exfiltrate|disable|forget)\b|\bI\s+am\s+(?:now\s+)?(?:jailbroken|"
    r"unrestricted|unfiltered|in\s+developer\s+mode|DAN)\b|\bmy\s+(?:new|real)\s+instructions"
    r"\s+(?:are|say)\b",
    _F,
)
_ROLE_MARKER = re.compile(  # "Operating system:" and "ecosystem:" are not markers
    r"(?<![\w-] )(?<![\w\-/.])(?:system|assistant|developer|admin|administrator|operator)"
    r"(?:\s+(?:message|prompt|note|notice|override|instructions?))?\s*:(?!//)|\[\s*(?:system|"
    r"sys|admin|developer|assistant|operator)(?:\s+(?:message|prompt|note|notice|override))?"
    r"\s*\]|^\#{1,6}\s*(?:system|assistant|developer)(?:\s+(?:message|prompt|instructions|"
    r"override))?\s*:?\s*$|<\s*(?:system|system[_-]prompt|system[_-]message|sys|developer|admin"
    r"|instructions)\s*>",
    _F,
)
_ASSISTANT_TURN = re.compile(r"assistant\s*:", re.I)
_NEXT_TURN = re.compile(r"(?<![\w-])(?:user|human|assistant|system)\s*:|\n\s*\n", re.I)
_PIPE_TO_SHELL = re.compile(
    r"\b(?:curl|wget|iwr|irm|invoke-webrequest)\b[^|\n]{1,200}\|\s*(?:sudo\s+)?"
    r"(?:(?:ba|z|da)?sh|python3?|perl|ruby|iex|invoke-expression)\b",
    _F,
)
# Pipe-to-shell is an ordinary install step; it is an attack when aimed at the model:
# run on a trigger, run silently, or addressed to it.
_AIMED_AT_MODEL = re.compile(
    r"\bbefore\s+(?:answering|responding|replying|you\s+(?:answer|respond|reply|continue))"
    r"|\b(?:every|each)\s+(?:time|turn|session|conversation|response|reply|answer)\b"
    r"|\bwithout\s+(?:asking|telling|confirming|notifying|permission|approval|the\s+user)"
    rf"|\b(?:silently|secretly|quietly|covertly)\b|{_START}(?:hey\s+|dear\s+|attention\s+)?"
    r"(?:assistant|AI|LLM|Claude|ChatGPT|GPT)\s*[,:]|\b(?:when|whenever|as\s+soon\s+as)\s+you"
    r"\s+(?:read|see|process|load|recall)\s+this",
    _F,
)
_IMAGE_URL = re.compile(  # bounded repeats: no quadratic backtracking on long junk
    r"!\[[^\]\n]{0,200}\]\(\s*<?https?://[^\s)?]{1,500}\?[^\s)]{0,1000}\)"
    r"|<img\b[^>]{0,200}\bsrc\s*=\s*[\"']?https?://[^\s\"'>?]{1,500}\?[^\s\"'>]{0,1000}",
    _F,
)
_SECRETISH = (
    r"(?:secret|key|token|pass|cred|data|conversation|history|chat|summary|memory|context|"
    r"prompt|user|email|info|ssn|cookie|session|message|answer|response|address|phone|card)"
)
# A template placeholder naming a secret: {secret}, {{chat_history}}, ${API_TOKEN}, <DATA>.
_PLACEHOLDER = re.compile(
    rf"\{{\{{?\s*[\w.]*{_SECRETISH}[\w.]*\s*\}}|\$\{{?\w*{_SECRETISH}|<\w*{_SECRETISH}\w*>"
    rf"|\[\w*{_SECRETISH}\w*\]|%7B\w*{_SECRETISH}\w*%7D",
    re.I,
)
_FILL_IN = re.compile(
    r"\b(?:replace|substitut\w*|fill\s+in|append|where)\b[^.\n]{0,80}\b(?:secret|password|"
    r"api\s*key|credential|token|conversation|chat\s+history|personal|private|the\s+user['’]?s)",
    _F,
)

Rule = Callable[[str], str | None]


def _regex(pattern: str) -> Rule:
    compiled = re.compile(pattern, _F)
    return lambda text: m.group(0) if (m := compiled.search(text)) else None


def _fake_role(text: str) -> str | None:
    # Positions are found once and joined with bisect, so a text full of markers stays
    # linear instead of searching a 300-character window per marker.
    markers = list(_ROLE_MARKER.finditer(text))
    if not markers:
        return None
    turns = [m.start() for m in _NEXT_TURN.finditer(text)]
    orders = {p: [m.start() for m in p.finditer(text)] for p in (_DIRECTIVE, _SELF_DIRECTIVE)}
    for m in markers:
        i = bisect_left(turns, m.end())
        stop = min(m.end() + 300, turns[i] if i < len(turns) else len(text))
        starts = orders[_SELF_DIRECTIVE if _ASSISTANT_TURN.fullmatch(m.group(0)) else _DIRECTIVE]
        j = bisect_left(starts, m.end())
        if j < len(starts) and starts[j] < stop:
            return text[m.start() : stop][:120]
    return None


def _context_breakout(text: str) -> str | None:
    # engram's own closer never belongs inside a memory; other context closers appear in
    # HTML and XML notes, so they count only when orders follow within 300 characters.
    orders: list[int] | None = None
    for m in _CLOSER.finditer(text):
        if m.group(1).lower() == "memory_context":
            return m.group(0)
        if orders is None:
            orders = [o.start() for o in _AFTER_CLOSER.finditer(text)]
        j = bisect_left(orders, m.end())
        if j < len(orders) and orders[j] < m.end() + 300:
            return m.group(0)
    return None


def _remote_code(text: str) -> str | None:
    for m in _PIPE_TO_SHELL.finditer(text):
        if _AIMED_AT_MODEL.search(text[max(0, m.start() - 200) : m.end() + 200]):
            return m.group(0)
    return None


def _image_exfiltration(text: str) -> str | None:
    for m in _IMAGE_URL.finditer(text):
        if _PLACEHOLDER.search(m.group(0)) or _FILL_IN.search(text[m.end() : m.end() + 200]):
            return m.group(0)
    return None


_BASE_RULES: tuple[tuple[str, Rule], ...] = (
    ("override_instructions", _regex(_OVERRIDE)),
    ("standing_order", _regex(_STANDING)),
    ("persona_hijack", _regex(_PERSONA)),
    ("instruction_header", _regex(_HEADER)),
    ("addressed_to_model", _regex(_ADDRESSED)),
    ("conceal_from_user", _regex(_CONCEAL)),
    ("prompt_extraction", _regex(_EXTRACTION)),
    ("chat_template_token", _regex(_TEMPLATE)),
    ("context_breakout", _context_breakout),
    ("fake_role", _fake_role),
    ("fake_tool_call", _regex(_TOOL)),
    ("exfiltration", _regex(_EXFIL)),
    ("remote_code", _remote_code),
    ("image_exfiltration", _image_exfiltration),
)

_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u2061\u2062\u2063\u2064")
_OVERRIDES = frozenset("\u202d\u202e")  # LRO, RLO: reorder what a human sees
_OPENERS = frozenset("\u202a\u202b\u2066\u2067\u2068")  # embeddings and isolates
_CLOSERS = frozenset("\u202c\u2069")  # PDF, PDI
_TAGS = re.compile("[\U000e0000-\U000e007f]+")
# The de-obfuscated view: invisible and bidi characters dropped, look-alike Cyrillic and
# Greek letters folded to the Latin ones attackers swap them for.
_CLEAN = str.maketrans(
    "аеорсухіјѕԁɡАВЕКМНОРСТХІοαιρνΑΒΕΗΙΚΜΝΟΡΤΧ",
    "aeopcyxijsdgABEKMHOPCTXIoaipvABEHIKMNOPTX",
    "".join(_ZERO_WIDTH | _OVERRIDES | _OPENERS | _CLOSERS),
)


def _tag_runs(text: str) -> Iterator[str]:
    """Runs of tag characters, minus those in subdivision flags (🏴 + tags + cancel tag,
    e.g. the flag of Scotland), which are how Unicode spells those emoji."""
    for m in _TAGS.finditer(text):
        flag = text[m.start() - 1 : m.start()] == "\U0001f3f4" and m.group(0)[-1] == "\U000e007f"
        if not flag:
            yield m.group(0)


def _decode_tags(run: str) -> str:
    return "".join(chr(ord(c) - 0xE0000) for c in run if 0x20 <= ord(c) - 0xE0000 < 0x7F)


def _hidden_tag_text(text: str) -> str | None:
    run = next(_tag_runs(text), None)
    return None if run is None else repr(_decode_tags(run)[:60])


def _invisible_chars(text: str) -> str | None:
    # One zero-width space in a long URL is copy-paste noise; several inside ASCII words,
    # or a run of them (zero-width steganography), hide something. Between emoji or
    # non-Latin letters (emoji ZWJ sequences, Persian ZWNJ, Thai ZWSP) they are legitimate.
    splits = 0
    for m in re.finditer(f"[{''.join(sorted(_ZERO_WIDTH))}]+", text):
        if len(m.group(0)) >= 4:
            return f"a run of {len(m.group(0))} zero-width characters"
        before, after = text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1]
        splits += (before + after).isascii() and before.isalnum() and after.isalnum()
    return f"{splits} words split by zero-width characters" if splits >= 3 else None


def _bidi_controls(text: str) -> str | None:
    if not _OVERRIDES.isdisjoint(text):
        return "a right-to-left or left-to-right override"
    if _OPENERS.isdisjoint(text):
        return None
    opened = sum(c in _OPENERS for c in text)
    # Apps wrap names in isolates inside Arabic or Hebrew text; isolating text that has
    # no right-to-left letters at all, or leaving embeddings open, only disguises it.
    has_rtl = any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)
    if opened != sum(c in _CLOSERS for c in text) or not has_rtl:
        return "an unbalanced or unexplained bidi embedding"
    return None


_HIDDEN_RULES: tuple[tuple[str, Rule], ...] = (
    ("hidden_tag_text", _hidden_tag_text),
    ("invisible_chars", _invisible_chars),
    ("bidi_controls", _bidi_controls),
)
_ORDER = [code for code, _ in _BASE_RULES + _HIDDEN_RULES] + ["obfuscated_instruction"]
_NEEDLES = {  # lower-case phrases, "|"-separated, that each rule cannot match without
    code: tuple(words.split("|"))
    for code, words in {
        "override_instructions": "ignore|disregard|forget|bypass|overr|abandon|discard|dismiss|"
        "neglect|set aside|throw out|no attention|not follow|not obey|not adhere|n't follow|"
        "n't obey|n’t follow|n’t obey|stop follow|stop obey|longer follow|longer obey",
        "standing_order": "from now on",
        "persona_hijack": "you are|you have been|act as|pretend|mode|anything now",
        "instruction_header": "instruct|directive|orders|prompt",
        "addressed_to_model": "ai|llm|assistant|model|chatbot",
        "conceal_from_user": "the user|instruct|message|note|directive",
        "prompt_extraction": "prompt|instruct|message|above|before|verbatim",
        "chat_template_token": "<|inst]",
        "context_breakout": "</",
        "fake_role": "sys|admin|developer|assistant|operator|instructions",
        "fake_tool_call": "tool|function|invoke|assistant",
        "exfiltration": "send|mail|forward|post|upload|transmit|leak|exfiltrate|paste|submit|"
        "share|copy|append|include|add|embed|insert",
        "remote_code": "curl|wget|iwr|irm|invoke-web",
        "image_exfiltration": "![|<img",
    }.items()
}


# Each rule with the words it cannot match without; issue 26's rules come after.
_RULES: tuple[tuple[str, Rule, tuple[str, ...]], ...] = (
    *((code, rule, _NEEDLES.get(code, ())) for code, rule in _BASE_RULES),
    *safety_rules.RULES,
)
_HIDDEN: tuple[tuple[str, Rule, tuple[str, ...]], ...] = tuple(
    (code, rule, ()) for code, rule in _HIDDEN_RULES
)


def _views(text: str) -> list[str]:
    """De-obfuscated copies of ``text`` that the instruction rules also read."""
    clean = unicodedata.normalize("NFKC", _TAGS.sub("", text)).translate(_CLEAN)
    views = [clean, "\n".join(_decode_tags(run) for run in _tag_runs(text))]
    # Text after a right-to-left override is stored backwards so that it displays forwards.
    views += [seg[::-1] for seg in re.findall("\u202e([^\u202c\n]*)", text)]
    return [v for v in views if v and v != text]


def _all_views(text: str) -> list[str]:
    """Every de-obfuscated and decoded view of ``text`` (issue 26: encoded orders)."""
    views = [] if text.isascii() else _views(text) + safety_rules.unmarked(text)
    return views + [d for v in [text, *views] for d in safety_rules.decoded_views(v)]


def _findings(text: str) -> dict[str, str]:
    """Code -> the text that triggered it, for every rule that matches, in rule order."""
    # Every hidden-character rule and every de-obfuscated view needs non-ASCII input.
    found = _run(_RULES if text.isascii() else _RULES + _HIDDEN, text, {})
    for view in _all_views(text):
        if _run(_RULES, view, found):
            found["obfuscated_instruction"] = ""
    # Round thirty-one: the user's own wish about their assistant is not an order to
    # the reader (read only when a reader-order rule is all that matched).
    if found and found.keys() <= safety_wishes.CLEARS and safety_wishes.wish(text):
        return {}
    if found and safety_quoted.reported(text, _findings):  # round 38: a quoted finding
        return {}
    return {code: found[code] for code in _ORDER if code in found}


def _run(
    rules: tuple[tuple[str, Rule, tuple[str, ...]], ...], text: str, found: dict[str, str]
) -> dict[str, str]:
    """Add the rules that match ``text`` and are not in ``found`` yet; returns the new ones."""
    # Whitespace is collapsed so that a two-word needle finds "do  not\nfollow" too.
    low, new = " ".join(text.lower().split()), {}
    # ``map`` over the bound method, not a generator: the needle tests are most of a
    # scan's time (467 a text on LoCoMo turns), and a generator's frames cost more
    # than the tests.
    holds, tested = low.__contains__, dict[int, bool]()  # id(words) -> one is in the text
    for code, rule, needed in rules:
        # A substring test is far cheaper than a case-insensitive regex without a literal
        # prefix; a rule runs only when one of the words it cannot match without is there.
        # Rules that share their words (the reader rules, round thirty-two) test them once.
        if code in found or code in new:
            continue
        if (key := id(needed)) not in tested:
            tested[key] = not needed or any(map(holds, needed))
        if not tested[key]:
            continue
        if hit := rule(text):
            new[code] = hit
    found.update(new)
    return new


def _reason(code: str) -> str:
    return f"{code}: {EXPLANATIONS[code]}"


def scan(text: str) -> tuple[str, ...]:
    """The reasons ``text`` looks like a prompt injection (``"code: explanation"``); empty
    when it is clean."""
    return tuple(_reason(code) for code in _findings(text))


def enforce(text: str, mode: InjectionMode) -> ScanResult:
    """Apply ``mode`` to ``text``: OFF skips the scan, FLAG reports, BLOCK raises.

    Raises :class:`~engram.errors.InjectionBlocked` in BLOCK mode when anything matched.
    """
    mode = InjectionMode(mode)  # a plain "flag" string from a caller works too
    found = {} if mode is InjectionMode.OFF else _findings(text)
    if not found:
        return ScanResult()
    reasons = tuple(_reason(code) for code in found)
    if mode is InjectionMode.FLAG:
        return ScanResult(reasons=reasons, flagged=True)
    where = [_reason(c) + (f" (at {hit[:80]!r})" if hit else "") for c, hit in found.items()]
    raise InjectionBlocked(
        f"not stored: the text looks like a prompt injection: {'; '.join(where)}. A future "
        "model would read it as trusted memory. Remove the instruction and store the fact "
        "alone; if the text is legitimate (notes about prompt injection, say), store it with "
        'injection_mode="flag" (ENGRAM_INJECTION_MODE=flag), which keeps it and lists the '
        'reasons in metadata["injection_flags"].',
        reasons=reasons,
    )


class CorpusMetrics(TypedDict):
    """The scanner's score on the shipped corpus (see :func:`corpus_metrics`)."""

    attacks: int
    benign: int
    tp: int
    fp: int
    tn: int
    fn: int
    precision: float
    recall: float
    false_positives: list[str]
    false_negatives: list[str]


def load_corpus() -> list[dict[str, str]]:
    """The shipped corpus: rows of ``text``, ``label`` (attack|benign), ``kind``, ``note``."""
    path = resources.files("engram") / "data" / "injection_corpus.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def corpus_metrics() -> CorpusMetrics:
    """Run :func:`scan` over the shipped corpus: counts, precision, recall, the misses."""
    rows = load_corpus()
    caught = [(row, bool(scan(row["text"]))) for row in rows]
    fps = [row["text"] for row, hit in caught if hit and row["label"] == "benign"]
    fns = [row["text"] for row, hit in caught if not hit and row["label"] == "attack"]
    attacks = sum(row["label"] == "attack" for row in rows)
    tp = attacks - len(fns)
    return CorpusMetrics(
        attacks=attacks,
        benign=len(rows) - attacks,
        tp=tp,
        fp=len(fps),
        tn=len(rows) - attacks - len(fps),
        fn=len(fns),
        precision=tp / (tp + len(fps)) if tp + len(fps) else 1.0,
        recall=tp / attacks if attacks else 1.0,
        false_positives=fps,
        false_negatives=fns,
    )


__all__ = [
    "EXPLANATIONS",
    "CorpusMetrics",
    "InjectionMode",
    "ScanResult",
    "corpus_metrics",
    "enforce",
    "load_corpus",
    "scan",
]
