"""The tool-output guard (engram issue 26; docs/safety.md, "Round thirty-seven: honest
tool output"): an agent that stores its tools' results stores log lines, HTTP responses,
stack traces, config dumps and shell output, and the learned detector read some of them
as attacks. Their words are an attack's ("password", "token", "override", "system
prompt", "invalid_token"), but nothing in them speaks to anyone: a log line reports, a
config line sets a value, a stack frame names a file.

A text passes the guard when it is machine-formatted (:func:`machine`: most of its lines
are log lines, ``key: value`` or ``key = value`` pairs with a short value, JSON, HTTP
status lines, stack frames, shell prompts or table rows; a text of one line only when it
is a stamped or levelled log line, a JSON object or an HTTP status line) and no piece of
it speaks to a reader (:func:`speaks`): no model or reader named, no "you", "your" or
"please", no role marker or agent trace ("[system]", "<instructions>", ``"role":
"system"``, a line opening "system:", "Action:"), nothing to decode or obey, no tool
call (a ``tool``, ``function``, ``arguments`` or ``command`` key, ``name(arg=...)``), no
act of sending with somewhere to send to, and none of the detector's order cues its
caller passes (``injection_detector.CUES``, the ones :data:`TOLD` names: an override of
the reader's rules, an addressee, "from now on", "the user", ...). An attack wrapped in
a log line or a CSV cell is written to be read by a model, so it names it or tells it
what to do; that is what keeps it flagged.

The guard only clears the learned detector (``injection_detector.Detector.reasons``):
every rule of ``engram.safety`` still reads the text first. Only texts with a reason are
read, so a clean write costs nothing more. Imports nothing of engram.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_F = re.IGNORECASE
#: A line is classified on its first characters (a long line is prose or a payload; its
#: head says which), which keeps hostile input linear.
LINE_CHARS = 300
#: At most this many lines are classified; a longer text is read on its head.
MAX_LINES = 200

_STAMP = r"^\s*(?:\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|[A-Z][a-z]{2} +\d{1,2} \d{2}:\d{2}:\d{2})"
_LEVEL = r"^\s*(?:INFO|WARN(?:ING)?|ERROR|DEBUG|FATAL|CRITICAL)\b"
#: The lines tools print: log lines, test and CI lines, ``key: value`` with a value of a
#: few words (a quoted, bracketed or numeric value of any length), INI/TOML sections,
#: JSON, HTTP, stack frames, shell prompts, ``ls -l`` and table rows.
_LINE = re.compile(
    "|".join(
        (
            _STAMP,
            _LEVEL,
            r"^\s*(?:TRACE|PASSED|FAILED|FAIL|PASS)\b|^ok(?: {2,}|\t)",
            r"^\s*(?:##\[\w+\]|=== RUN|--- (?:PASS|FAIL)|Step \d+/\d+|--->)",
            r"^\s*-?\s*\"?[A-Za-z_][\w.\-/]*\"?\s*[:=]\s*(?:[\"'{\[\d<*$]|\S+(?: \S+){0,5}\s*$)",
            r"^\s*\[[\w.\- \"]+\]\s*$",
            r"^\s*[\[\]{}]",
            r"^HTTP/\d",
            r"^\s*(?:File \"|at |Traceback \(|[\w.$]+(?:Error|Exception)\b)",
            r"^\s*\$ \S",
            r"^\s*[dl-][rwx-]{9}\s",
            r"^\s*(?:total \d+|\(\d+ rows?\)|-+\+-+)",
            r"\S(?: {2,}|\t| \| )\S.*(?: {2,}|\t| \| )\S",
            # round thirty-eight: a short label and its value in a column ("pub   rsa4096
            # ..."), a path alone, a rule of dashes, a key's hex or SHA256 fingerprint
            r"^\s*[a-z]{2,12} {2,}\S",
            r"^\s*[/~][\w./-]+\s*$",
            r"^\s*[-=+]{5,}",
            r"^\s*(?:[0-9A-F]{16,}\s*$|(?:SHA256|MD5):[\w+/=:]{16,})",
        )
    ),
    _F,
)
#: A text of one line is tool output only in these shapes; "Notes: ..." is a note.
_ONE = re.compile(rf"{_STAMP}|{_LEVEL}|^\s*[\[{{].*[\]}}]\s*$|^HTTP/\d", _F)

_SPEAKS = re.compile(
    "|".join(
        (
            # a reader named, beyond the detector's own list
            r"\b(?:helper|copilot|GPT|crawler|reviewer)s?\b",
            # the reader spoken to
            r"\b(?:you|your|yours|yourself|please)\b",
            # role markers and an agent's trace
            r"\[/?(?:system|inst)\]|</?(?:system|instructions?)\b|<\|im_start\|>|<<SYS>>|"
            r"\"role\"\s*:\s*\"system|\b(?:Action|Thought|Observation|Action Input)\s*:|"
            r"(?m:^\s*(?:system|developer)\s*:)",
            # a payload to decode and act on, an order to obey
            r"\b(?:decod|unescap|decrypt|deobfuscat)\w*|\b(?:obey\w*|comply|complies|"
            r"follow (?:it|this|them|these)|act on|do as)\b",
            # a tool call: its keys, or a call with named arguments
            r"[\"']?\b(?:tool\w*|function\w*|action\w*|call|arguments|args|params|parameters|"
            r"input|recipient\w*|command|cmd|op|next_action)\b[\"']?\s*[:=]|\w\(\w+=",
        )
    ),
    _F,
)
_SEND = re.compile(r"\b(?:leak|exfiltrate|forward|upload|post|send|mail|email|sync)\b", _F)
_WHERE = re.compile(r"https?://|\b[\w.-]+@[\w-]+\.[\w.]+|\b[\w-]+\.[a-z]{2,}/", _F)


def machine(text: str) -> bool:
    """Whether ``text`` is formatted as a tool prints (the module's first paragraph):
    two thirds of its lines or more are tool lines; one line, only in :data:`_ONE`'s shapes."""
    lines = [line[:LINE_CHARS] for line in text.split("\n", MAX_LINES) if line.strip()]
    lines = lines[:MAX_LINES]
    if not lines:
        return False
    if len(lines) == 1:
        return _ONE.search(lines[0]) is not None
    found = sum(1 for line in lines if _LINE.search(line))
    return 3 * found >= 2 * len(lines)


def speaks(text: str) -> bool:
    """Whether a piece of ``text`` speaks to a reader (the module's first paragraph, the
    detector's cues aside)."""
    if _SPEAKS.search(text) is not None:
        return True
    return _SEND.search(text) is not None and _WHERE.search(text) is not None


#: The detector's cues (``injection_detector.CUES``, by name) that keep tool output an
#: order: a reader named or addressed, its rules overridden or gone, something hidden,
#: "from now on", "this note", "the user". Its words of secrets, links and authority
#: are tool output's own words and do not.
TOLD = frozenset(
    {"model", "addressed", "override", "unrestricted", "hidden", "from_now", "self_ref", "the_user"}
)

Cues = Sequence[tuple[str, re.Pattern[str]]]


#: A reader's name as a key whose value is an identifier (no space): ``"model":
#: "gpt-4o-mini"``, ``model=claude-haiku``, ``"assistant": "support-bot"``. A usage
#: record names the model it billed; that names no one to speak to (round thirty-eight).
_IDS = re.compile(
    r"\"(?:model|assistant|agent|bot)\"\s*:\s*\"[\w.\-:/@]+\"|\b(?:model|agent)=[\w.\-:/@]+", _F
)


def tool_output(text: str, cues: Cues = ()) -> bool:
    """Whether ``text`` is tool output that speaks to no one: :func:`machine`, and
    neither :func:`speaks` nor a cue of ``cues`` named in :data:`TOLD` finds anything
    once a reader's name given as an identifier (:data:`_IDS`) is set aside."""
    if not machine(text):
        return False
    text = _IDS.sub(" ", text)
    if speaks(text):
        return False
    return not any(pattern.search(text) for name, pattern in cues if name in TOLD)


def cleared(reasons: Sequence[str | None], texts: Sequence[str], cues: Cues) -> list[str | None]:
    """``reasons`` (the learned detector's, one per text) with each reason on a
    :func:`tool_output` text dropped, whichever view fired; ``cues`` are the detector's."""
    return [
        None if reason is not None and tool_output(text, cues) else reason
        for reason, text in zip(reasons, texts, strict=True)
    ]
