"""More injection-scan rules (issue 26): paraphrased overrides, orders addressed to
whoever reads a memory, bare tool-call JSON, wider exfiltration and concealment, six
non-English languages, and decoded views of encoded text (base64, base32, hex, URL
escapes, ROT13, reversed and letter-spaced text).

They were tuned on the ``tune`` fold of ``data/injection_set.json`` only, against every
real LoCoMo and BEAM text (``engram bench injection``); ``docs/safety.md`` has the
held-out figures. Like the rules in ``safety.py``, each pairs an order with something
that makes it aimed at a model reading the memory, so chat that only shares the words
("ignore the noise", "the old rules no longer apply to contractors") passes.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import unicodedata
import urllib.parse
from collections.abc import Callable

from engram import (
    safety_addressed,
    safety_lapsed,
    safety_orders,
    safety_reader,
    safety_standing,
    safety_widened,
)

Rule = Callable[[str], str | None]
_F = re.IGNORECASE | re.MULTILINE


def regex(pattern: str) -> Rule:
    """A rule that matches ``pattern`` (case-insensitive) and returns the match."""
    compiled = re.compile(pattern, _F)
    return lambda text: m.group(0) if (m := compiled.search(text)) else None


_INSTR = (
    r"(?:instructions?|rules|guidelines|directives?|directions|orders|guidance|constraints|"
    r"system\s+prompt|programming|restrictions|policies)"
)
# "... are void", "... no longer apply": found first (they are rare), then the words
# before them are checked for the model's instructions: "the rules you were given".
_REVOKED = re.compile(
    r"(?<=\s)(?:(?:are|is|have\s+been|has\s+been)\s+(?:now\s+|hereby\s+)?(?:void|null|"
    r"cancell?ed|revoked|rescinded|superseded|overridden|lifted|suspended|paused|disabled|"
    r"obsolete)|(?:no\s+longer|do\s+not|don['’]t)\s+(?:apply|matter|count)|have\s+changed)\b",
    _F,
)
_REVOKED_OBJECT = re.compile(
    rf"\b(?:the|your|all|any|whatever|previous|prior|earlier)\s+(?:\w+\s+)?{_INSTR}"
    r"(?:\s+(?:you\s+(?:were|have\s+been)\s+(?:given|told|trained\s+to\s+follow)|you\s+"
    r"started\s+with|above|from\s+your\s+(?:developers?|operators?|creators?)))?"
    r"(?:\s+(?:before|earlier|previously|so\s+far))?\s+$",
    _F,
)


def revoked(text: str) -> str | None:
    """The model's instructions declared void ("the rules you were given no longer apply")."""
    for m in _REVOKED.finditer(text):
        before = text[max(0, m.start() - 100) : m.start()]
        if found := _REVOKED_OBJECT.search(before):
            return found.group(0) + m.group(0)
    return None


_MODEL = r"(?:AI|LLM|assistant|language\s+model|model|chatbot|bot|agent|GPT|Claude|copilot)s?"
_READS = (
    r"(?:reads|is\s+reading|reading|retrieves|retrieving|recalls|recalling|processes|processing|"
    r"finds|loads|loading|indexes|indexing|sees|summari[sz](?:es|ing))"
)
_READ_NEEDLES = "|".join(
    f"{verb} {obj}"
    for verb in (
        "reads",
        "reading",
        "retrieves",
        "retrieving",
        "recalls",
        "recalling",
        "processes",
        "processing",
        "finds",
        "loads",
        "loading",
        "indexes",
        "indexing",
        "sees",
        "summarises",
        "summarizes",
        "summarising",
        "summarizing",
    )
    for obj in ("this", "these")
)
_OVERRIDE_VERBS = ("ignore", "disregard", "forget")
_DANGLING_NEEDLES = "|".join(
    f"{v} {a}{o}"
    for v in _OVERRIDE_VERBS
    for a in ("", "all ")
    for o in ("previous", "prior", "earlier", "above")
)
_SECRET = (
    r"(?:passwords?|api\s+keys?|secret(?:\s+keys?)?|private\s+keys?|tokens?|credentials|"
    r"credit\s+card(?:\s+(?:details|numbers?))?|chat\s+(?:history|log)|conversation|"
    r"session\s+tokens?|ssh\s+keys?|\.env)"
)
_SECRET_NEEDLES = (
    "password|api key|secret|private key|token|credential|credit card|chat history|chat log|"
    "conversation|ssh key|.env"
)
_TOOL_KEY = (
    r"\"(?:tool|tool_name|tool_calls|function_call|functionCall|recipient_name|api|"
    r"toolName|tool_use)\"\s*:|\"type\"\s*:\s*\"(?:tool_use|function_call)\""
)
_ARG_KEY = r"\"(?:arguments|args|input|tool_input|params|parameters|function|name|script)\"\s*:"

# (code, needles, pattern): each pattern runs only on a text that holds one of its
# needles ("|"-separated, lower case, single-spaced), so a rule that cannot match costs a
# substring test, not a case-insensitive regex pass over a long message.
_PIECES: tuple[tuple[str, str, str], ...] = (
    # -- overrides in other words (the model's instructions dropped or replaced) --------
    (
        "override_instructions",
        "none of|all of your",
        rf"\b(?:none\s+of|all\s+of)\s+your\s+(?:previous\s+|prior\s+|earlier\s+)?{_INSTR}\s+"
        r"(?:matters?|appl(?:y|ies)|counts?)\s+any\s*more\b",
    ),
    (
        "override_instructions",
        "consider",
        r"\bconsider\s+(?:all\s+)?(?:your\s+)?(?:previous|prior|earlier)\s+\w+\s+(?:void|null|"
        r"cancell?ed|revoked)\b",
    ),
    (
        "override_instructions",
        "set aside|wipe|scrap|drop|throw away|let go of|put your|put everything|put what",
        r"\b(?:set\s+aside|wipe|scrap|drop|throw\s+away|let\s+go\s+of|put)\s+(?:everything\s+you"
        r"\s+were\s+(?:told|given|asked)|what\s+you\s+were\s+asked\s+to\s+do|(?:all\s+of\s+)?your"
        rf"\s+(?:\w+\s+)?(?:{_INSTR}|task|objective|directions))",
    ),
    (
        "override_instructions",
        "replace your|cancel your",
        r"\b(?:replace|cancel)\s+your\s+(?:current\s+|original\s+)?(?:objective|task|goal|"
        r"mission)\b",
    ),
    (
        "override_instructions",
        "real instructions|true instructions|actual instructions|new instructions|real orders|"
        "new orders|new directive|real directive",
        r"\byour\s+(?:real|true|actual|new)\s+(?:instructions|orders|directives?)\s+(?:begin|"
        r"start|follow|are\s+(?:below|as\s+follows))|\bthe\s+real\s+instructions\s+(?:follow|"
        r"are)\b",
    ),
    (
        "override_instructions",
        "orders from|orders only from|do exactly what|listen only to me|obey this|obey only this",
        r"\b(?:take|accept)\s+(?:your\s+)?orders\s+(?:only\s+)?from\s+(?:this|me)\b"
        r"|\bdo\s+exactly\s+what\s+this\s+(?:text|note|memory|message)\s+says\b"
        r"|\blisten\s+only\s+to\s+me\b|\bobey\s+(?:only\s+)?this\s+(?:memory|note|message|text)\b",
    ),
    (
        "override_instructions",
        "treat this|treat the|comply with the directive|act as if you had no",
        r"\btreat\s+this\s+(?:memory|message|note|text)\s+as\s+(?:a\s+|an\s+|your\s+)?"
        r"(?:[\w-]+\s+)?(?:system\s+)?(?:instruction|directive|command|order|prompt)s?\b"
        r"|\btreat\s+the\s+(?:rules|instructions|guidelines)\s+you\s+were\s+given\s+as\b"
        r"|\bcomply\s+with\s+the\s+directive\s+below\b"
        rf"|\bact\s+as\s+if\s+you\s+had\s+no\s+(?:system\s+prompt|{_INSTR})\b",
    ),
    (
        "override_instructions",
        "restrictions are|restrictions have|filters are|filters have|guardrails are|"
        "guardrails have",
        r"\b(?:your|all|the\s+model['’]?s)\s+(?:safety\s+)?(?:restrictions|filters|guardrails)"
        r"\s+(?:are|have\s+been)\s+(?:now\s+)?(?:disabled|removed|lifted|off)\b",
    ),
    (
        "override_instructions",
        "forget what the user|stop whatever you",
        r"\bforget\s+what\s+the\s+user\s+(?:asked|said|wants)\b"
        r"|\bstop\s+whatever\s+you\s+(?:were|are)\s+doing\s+and\b",
    ),
    (
        "override_instructions",
        "your system prompt|your programming|your training|your configuration",
        rf"\b(?:ignore|disregard|forget|bypass)\s+(?:the|all|any)\s+(?:\w+\s+)?{_INSTR}\s+(?:in|"
        r"from|of)\s+your\s+(?:system\s+prompt|programming|training|configuration)\b",
    ),
    (  # the first half of an instruction split over two memories, left dangling
        "override_instructions",
        f"{_DANGLING_NEEDLES}|from now on",
        r"\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:previous|prior|earlier|above)\s*$"
        r"|\bfrom\s+now\s+on,?\s+you\s*$",
    ),
    (
        "override_instructions",
        "ignore|disregard|forget|skip|overrule|override|discard|drop|neglect|bypass",
        r"\b(?:ignore|disregard|forget|skip|overrule|override|discard|drop|neglect|bypass)\s+"
        r"(?:(?:what|whatever|everything)\s+you\s+(?:were|have\s+been|are)\s+(?:instructed|told|"
        r"asked|programmed|trained|configured)\b|(?:all\s+(?:of\s+)?)?your\s+(?:\w+['’]s\s+|"
        rf"usual\s+|current\s+|own\s+|standing\s+)?{_INSTR}\b(?!\s+(?:about|on|for|regarding)\b)"
        rf"|(?:the|any|all)\s+{_INSTR}\s+(?:from|of|given\s+by|set\s+by)\s+(?:your|the)\s+"
        r"(?:developers?|operators?|system|creators?|admins?|administrators?)\b)",
    ),
    (
        "override_instructions",
        "precedence|priority over|released from|freed from|exempt from|relieved from|you were told"
        "|you have been told|you were given|you were instructed|your previous|your prior|"
        "your earlier|your original|your old",
        r"\b(?:takes?|has|have)\s+(?:precedence|priority)\s+over\s+(?:any|all|every|your)\s+"
        r"(?:other\s+)?(?:instructions?|rules?|directives?|prompts?|guidelines?|system\s+prompt)"
        r"|\b(?:released|freed|exempt(?:ed)?|relieved)\s+from\s+(?:all\s+)?your\s+(?:\w+\s+)?"
        rf"(?:{_INSTR}|obligations)"
        r"|\b(?:whatever|everything|anything)\s+you\s+(?:were|have\s+been)\s+(?:told|given|"
        r"instructed)\b[^.\n]{0,40}\b(?:outdated|obsolete|void|invalid|cancell?ed|irrelevant|"
        r"no\s+longer)"
        rf"|\byour\s+(?:previous|prior|earlier|original|old)\s+{_INSTR}\s+(?:were|are)\b[^.\n]"
        r"{0,40}\b(?:discard|ignore|disregard|forget|mistake|wrong|void|fake|invalid)",
    ),
    (
        "override_instructions",
        "from this|from here|stop being|you now",
        r"\bfrom\s+(?:this\s+(?:message|point|moment|memory|note)|here)\s+on(?:wards?)?\b"
        r"[^.\n]{0,30}\byour?\b"
        r"|\bstop\s+being\s+(?:the|an?)\s+(?:\w+\s+)?(?:assistant|AI|model|chatbot)\b"
        r"|\byou\s+now\s+(?:serve|work\s+for|obey|answer\s+to|take\s+orders\s+from)\b",
    ),
    # -- orders addressed to whoever reads, recalls or processes this text later -------
    (
        "addressed_to_model",
        "whichever|whatever|dear |future |reader|hey |hello ",
        r"\b(?:whichever|whatever|dear|future|reader|hey|hello)\s+(?:future\s+)?(?:[\w-]+\s+)?"
        rf"{_MODEL}(?:(?:\s*[,:!—]|\s+-\s)\s*(?:please\s+)?(?:you|your|when|whenever|once|upon|"
        r"if|do|don['’]t|never|always|ignore|forget|remember|stop|tell|send|reply|respond|answer|"
        rf"recommend|treat|follow|obey|the\s+correct)\b|\s+(?:that\s+|who\s+|which\s+)?{_READS}\b)",
    ),
    (
        "addressed_to_model",
        _READ_NEEDLES,
        rf"\b{_MODEL}\s+(?:that\s+|who\s+|which\s+)?(?:is\s+)?{_READS}\s+(?:this|these)\b"
        r"(?:\s+(?:memory|memories|note|notes|text|message|page|document|record|ticket|email|"
        r"context|later|next))*\s*(?:[,:;—!-]|(?:should|must|will|shall|is\s+to|has\s+to|"
        r"needs?\s+to|are\s+required|is\s+required|are\s+to|is\s+instructed|are\s+instructed)\b)"
        rf"|\b(?:when|whenever|once|if)\s+(?:an?\s+|the\s+)?{_MODEL}\s+{_READS}\s+this\b",
    ),
    (
        "addressed_to_model",
        "the ai|the assistant|the model|the llm|the agent|the bot|the chatbot|language model|"
        "any ai|any assistant|every ai|every assistant|the gpt|the claude|the copilot",
        rf"\b(?:to|for)\s+(?:the|any|every)\s+{_MODEL}\s+(?:that\s+|who\s+)?(?:reading|reads|"
        r"summari[sz]ing|summari[sz]es|executing|processing|retrieving|loads|finds|only)\b",
    ),
    (
        "addressed_to_model",
        "being read by|this memory|this note|this message|reading this|seeing this|"
        "recalling this|whoever",
        rf"\b(?:is|are)\s+being\s+read\s+by\s+an?\s+{_MODEL}"
        r"|\b(?:when|whenever|once)\s+this\s+(?:memory|note|message)\s+(?:comes\s+up|is\s+"
        r"(?:recalled|retrieved|read|loaded))"
        r"|\b(?:upon|after|when)\s+(?:reading|seeing|recalling)\s+this\s*,\s+you\b"
        r"|\bwhoever\s+(?:reads|is\s+(?:reading|processing))\s+this\b[^.\n]{0,40}\b(?:must|"
        r"should|tell|is\s+to)\b",
    ),
    (
        "addressed_to_model",
        "your real|your true|your actual|your secret|your hidden|its new goal|highest priority"
        "|your only|your sole",
        r"\byour\s+(?:real|true|actual|secret|hidden)\s+(?:objective|purpose|goal|task|job|"
        r"mission|priority)\s+(?:is|now\s+is)\b|\bits\s+new\s+goal\s+is\b"
        r"|\b(?:as\s+(?:its|your)|is\s+now\s+(?:its|your))\s+highest\s+priority\b"
        r"|\byour\s+highest\s+priority\s+is\s+now\b"
        r"|\byour\s+(?:only|sole)\s+(?:duty|purpose|function|mission|objective)\s+(?:is|now\s+is)"
        r"\b",
    ),
    (
        "addressed_to_model",
        "read this|retrieve this|recall this|see this|load this|process this|find this|"
        "come across this|you're an ai|you are an ai|you're a language|you're an llm",
        r"\b(?:once|when|whenever|after|if|as\s+soon\s+as)\s+you\s+(?:can\s+)?(?:read|retrieve|"
        r"recall|see|load|process|find|come\s+across)\s+this\b[^.\n]{0,20},"
        rf"|\bif\s+you['’]re\s+(?:an?\s+)?(?:{_MODEL}|language\s+model)\b",
    ),
    (
        "addressed_to_model",
        "attention|reader|note |message |assistant,|ai,|llm,|chatbot,|bot,|you, the",
        rf"^\s*(?:attention|reader|note|message)[\s,]+(?:[\w-]+\s+)?{_MODEL}\s*[:!]"
        r"|^\s*(?:hey\s+|dear\s+|ok\s+|okay\s+)?(?:assistant|AI|LLM|chatbot|bot)\s*,\s+(?:when|"
        r"upon|after|from|you|do|never|always|ignore|forget|please\s+(?:ignore|forget))\b"
        rf"|\byou,\s+the\s+{_MODEL}\b",
    ),
    # -- a bare tool call: a JSON object naming a tool with its arguments ---------------
    (
        "fake_tool_call",
        '"tool|"function|"recipient_name"|"api"|"type"|"name"|"action"|action:|call the tool|tool:',
        rf"\{{[^{{}}\n]{{0,200}}?{_TOOL_KEY}[^\n]{{0,300}}?{_ARG_KEY}"
        rf"|\{{[^{{}}\n]{{0,200}}?{_ARG_KEY}[^\n]{{0,300}}?{_TOOL_KEY}"
        r"|\{\s*\"name\"\s*:\s*\"[\w.]+\"\s*,\s*\"(?:arguments|args)\"\s*:\s*[{\"]"
        r"|\{\s*\"action\"\s*:\s*\"[\w.]+\"\s*,\s*\"(?:url|command|target|to)\"\s*:"
        r"|\bAction:\s*[a-z_]+\((?:to|url|cmd|command|body)\s*="
        r"|\bcall\s+the\s+tool\s*\{|\bTOOL\s*:\s*\{",
    ),
    # -- exfiltration: secrets sent to a URL, or written into a link or image ----------
    (
        "exfiltration",
        _SECRET_NEEDLES,
        rf"\b(?:send|share|submit|post|transmit|copy|forward|upload|append|email|paste|leak|dump|"
        rf"export)\s+(?:the\s+|"
        rf"all\s+|your\s+|any\s+|the\s+user['’]?s\s+)?(?:[\w-]+\s+){{0,2}}?{_SECRET}\b[^.\n]{{0,40}}?"
        r"\b(?:to|with|via|into)\s+(?:the\s+)?(?:(?:url|endpoint|webhook|link)\s+)?(?:at\s+)?"
        r"https?://"
        rf"|\b(?:write|put|encode|append|add)\s+(?:the\s+)?(?:user['’]?s\s+)?(?:[\w-]+\s+){{0,2}}?"
        rf"{_SECRET}\b[^.\n]{{0,60}}?\b(?:in|into|to)\s+(?:a|the)\s+(?:url|link|image|markdown\s+"
        r"image)",
    ),
    (
        "exfiltration",
        "as an image|](http|replies with|answers with|responses with",
        r"\b(?:show|render|display)\s+it\s+as\s+an\s+image\b"
        r"|\]\(https?://[^\s)]{1,300}[?&=]<[^>\n]{1,40}>\)"
        r"|\b(?:end|finish)\s+(?:every\s+|each\s+|all\s+)?(?:replies|answers|responses)\s+with\s+"
        r"\[[^\]]{0,40}\]\(https?://",
    ),
    # -- concealment from the user ------------------------------------------------------
    (
        "conceal_from_user",
        "let the user|the user must|the users must|the user should|the users should|pretend|"
        "conceal the fact|say nothing about|not mention|avoid bringing|avoid mentioning|"
        "without telling|without informing|without notifying|withhold this|if questioned|"
        "if asked|never learn|secretly|deny that it|warn the user|leave out the warning",
        r"\b(?:do\s+not|don['’]t|never)\s+let\s+the\s+users?\s+(?:know|find\s+out|see)\b"
        r"|\bthe\s+users?\s+(?:must|should)\s+(?:not|never)\s+(?:find\s+out|know|learn|see)\b"
        r"|\bpretend\s+(?:that\s+)?you\s+(?:did\s+not|didn['’]t|never)\s+(?:receive|read|see)\s+"
        r"this\b|\bconceal\s+the\s+fact\s+that\s+you\b"
        r"|\bsay\s+nothing\s+about\s+this\s+(?:note|memory|message|instruction)"
        r"|\b(?:must|should)\s+not\s+mention\s+(?:these|this|the)\s+(?:orders|instructions?|"
        r"directives?|note|memory)\b|\bavoid\s+(?:bringing\s+up|mentioning)\s+this\s+(?:memory|"
        r"note|instruction)|\bwithout\s+(?:telling|informing|notifying)\s+the\s+users?\s*,"
        r"|\bwithhold\s+this\s+(?:instruction|note|memory|directive)\b"
        r"|\bif\s+(?:questioned|asked)\s*,\s+(?:say|claim|deny)\b[^.\n]{0,40}\b(?:no\s+special\s+"
        r"instructions|instructions)\b|\bnever\s+learns?\s+that\s+this\s+(?:rule|note|memory)\b"
        r"|\bsecretly\s+(?:follow|carry\s+out|obey)\s+this\b|\bdeny\s+that\s+it\s+exists\b"
        r"|\b(?:do\s+not|don['’]t|never)\s+warn\s+the\s+users?\s+about\b"
        r"|\bleave\s+out\s+the\s+warning\b",
    ),
    (
        "conceal_from_user",
        "mention|reveal|disclose|discuss|bring up|tell|without letting|without alerting",
        r"\b(?:do\s+not|don['’]t|never|make\s+no)\s+(?:mention|reveal|disclose|discuss|bring\s+"
        r"up|tell)\s+(?:of\s+)?(?:this|these|that)\s+(?:memory|note|instruction|rule|message|"
        r"directive|order)s?\b"
        r"|\bmake\s+no\s+mention\s+of\s+this\s+(?:memory|note|instruction|rule|message)\b"
        r"|\b(?:never|do\s+not|don['’]t)\s+(?:reveal|disclose|mention|say|admit)\s+to\s+the\s+"
        r"users?\s+that\b"
        r"|\bwithout\s+(?:letting|telling|informing|notifying|alerting)\s+the\s+users?\b(?:\s+"
        r"know)?\s*,",
    ),
    # -- markers: engram's own untrusted marker, template fragments, fake turns ---------
    (
        "chat_template_token",
        "untrusted_memory|im_|system override|tool:|function:|observation:",
        r"</\s*untrusted_memory\s*>|<\s*/?im_(?:start|end)\s*>|<\|\s*im_|\bim_(?:start|end)\|>"
        r"|\bSYSTEM\s+OVERRIDE\s*:|^\s*(?:TOOL|FUNCTION|OBSERVATION)\s*:\s*[{\[]",
    ),
    # -- six widely used non-English languages: Spanish, Portuguese, French, German,
    # Russian, Chinese. Per language: override, forget the rules, from now on, hide from
    # the user, reveal the system prompt, send the chat away, addressed to the reader.
    (
        "override_instructions",
        "instrucc|instruç|instruc|regla|regra|indicac|orienta|caso omiso|partir de ahora|"
        "de agora|partir de agora|usuario|usuário|sistema|historial|histórico|lea esto|"
        "leia isto|verdadero|obedeça|obedeca",
        r"\b(?:ignora|ignore|olvida|desconsidere|desconsidera|esque[cç]a|omite)\s+(?:todas\s+|"
        r"tus\s+|suas\s+|as\s+|las\s+|los\s+|os\s+)*(?:instrucciones|instru[cç][õo]es|reglas|"
        r"regras|indicaciones|orienta[cç][õo]es|normas)\b"
        r"|\bhaz\s+caso\s+omiso\s+de\b|\b(?:a\s+partir\s+de\s+ahora|de\s+agora\s+em\s+diante|"
        r"a\s+partir\s+de\s+agora)\s*,?\s+(?:responde|responda|debes|deves|voc[eê]\s+deve|solo|"
        r"apenas|s[oó])\b|\b(?:no\s+le\s+digas|n[aã]o\s+(?:conte|diga))\s+(?:nada\s+)?(?:ao|al)\s+"
        r"usu[aá]rio\b|\b(?:muestra|mostre|revela|revele)\s+(?:tu|seu|o\s+seu)\s+(?:prompt|"
        r"mensaje)\s+(?:del?\s+)?sistema\b|\b(?:env[ií]a|envie|manda)\s+(?:el|o)\s+historial?\s+"
        r"d[aeo]\s+(?:la\s+)?(?:chat|conversa(?:ci[oó]n|[cç][aã]o))\b|\b(?:asistente|assistente)"
        r"\s+que\s+(?:lea|leia)\s+esto\b|\btu\s+verdadero\s+objetivo\b|\bobede[cç]a\s+somente\b",
    ),
    (
        "override_instructions",
        "oublie|ignorez|toutes les|tes instructions|vos instructions|les instructions|consignes|"
        "maintenant|utilisateur|système|systeme|historique|lit ceci|vraie mission",
        r"\b(?:ignore|oublie|oubliez|ignorez)\s+(?:toutes\s+|tes\s+|vos\s+|les\s+)+(?:instructions"
        r"|consignes|r[eè]gles|directives)\b|\b[àa]\s+partir\s+de\s+maintenant\s*,?\s+(?:tu|vous)"
        r"\s+(?:dois|devez|r[ée]ponds|r[ée]pondez)\b|\bne\s+dis\s+rien\s+[àa]\s+l['’]utilisateur\b"
        r"|\br[ée]v[eè]le\s+ton\s+prompt\s+syst[eè]me\b|\benvoie\s+l['’]historique\b|\bassistant"
        r"\s+qui\s+lit\s+ceci\b|\bta\s+vraie\s+mission\b",
    ),
    (
        "override_instructions",
        "ignoriere|vergiss|missachte|ab jetzt|benutzer|nutzer|systemprompt|system-prompt|"
        "chatverlauf",
        r"\b(?:ignoriere|vergiss|missachte)\s+(?:alle\s+|deine\s+|die\s+)*(?:vorherigen\s+|"
        r"bisherigen\s+)?(?:Anweisungen|Regeln|Vorgaben|Richtlinien)\b|\bab\s+jetzt\s+"
        r"(?:antwortest|musst|sollst)\s+du\b|\bsag\s+dem\s+(?:Benutzer|Nutzer)\s+nichts\b"
        r"|\bgib\s+deinen\s+(?:vollst[äa]ndigen\s+)?System-?prompt\b|\bsende\s+den\s+"
        r"Chatverlauf\b",
    ),
    (
        "override_instructions",
        "инструкц|правил|указани|с этого момента|пользовател|системн|историю|ассистент|цель",
        r"(?:игнорируй|забудь|проигнорируй)\s+(?:все\s+)?(?:предыдущие\s+|свои\s+)?(?:инструкции|"
        r"правила|указания)|с\s+этого\s+момента\s+ты|не\s+говори\s+пользователю|выведи\s+свой\s+"
        r"системный|отправь\s+историю|ассистент,\s+читающий\s+это|твоя\s+настоящая\s+цель",
    ),
    (
        "override_instructions",
        "指令|指示|规则|提示|从现在开始|不要告诉用户|聊天记录|读到这条",
        r"(?:忽略|无视|忘记|忘掉)(?:之前|先前|以上|你的)?(?:的)?(?:所有)?(?:的)?(?:指令|指示|规则|提示)"
        r"|从现在开始，?你|不要告诉用户|(?:输出|显示|告诉我)你的(?:完整)?系统提示|把聊天记录发送|读到这条",
    ),
)
_REVOKED_NEEDLES = (
    "apply|matter|count|changed|void|null|cancel|revoked|rescinded|superseded|overridden|"
    "lifted|suspended|paused|disabled|obsolete"
)

_B64 = re.compile(r"(?<![\w+/])[A-Za-z0-9+/]{24,}={0,2}(?![\w+/])")
_B32 = re.compile(r"(?<![\w])[A-Z2-7]{32,}={0,6}(?!\w)")
_HEX = re.compile(r"(?<![\w])(?:[0-9a-fA-F]{2}){16,}(?!\w)")
_URLQ = re.compile(r"(?:%[0-9A-Fa-f]{2}[^%\s]{0,12}){3,}")
_SPACED = re.compile(r"(?<!\S)(?:\w {1,3}){4,}\w(?!\S)")
_SPACED_HINT = re.compile(r"\w \w \w \w")
_ROT = re.compile(r"\brot-?13\b|\bcaesar\b", re.I)
_BACKWARDS = re.compile(  # "read this backwards", not "a reverse proxy"
    r"\b(?:read|reverse|flip)\s+(?:this|it|the\s+following\s+)?\s*(?:backwards?|in\s+reverse)"
    r"|\bbackwards?\s*(?:and|then|,)\s*(?:obey|follow|do|execute|run)\b",
    re.I,
)


def _printable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    # Decoded binary (hashes, images, keys) is not text an instruction could hide in.
    return text if text.isprintable() and sum(c.isalpha() for c in text) > len(text) // 2 else None


def _decode(run: str, kind: str) -> str | None:
    try:
        if kind == "b64":
            return _printable(base64.b64decode(run + "=" * (-len(run) % 4)))
        if kind == "b32":
            return _printable(base64.b32decode(run + "=" * (-len(run) % 8)))
        return _printable(binascii.unhexlify(run))
    except (binascii.Error, ValueError):
        return None


def decoded_views(text: str) -> list[str]:
    """Copies of ``text`` with its encoded parts decoded: long base64, base32 and hex
    runs, URL escapes, letter-spaced words; ROT13 and reversed text when the text
    names them. Empty when nothing in it looks encoded."""
    views: list[str] = []
    words = text.split()
    # Cheap tests first: most texts have no long token, no "%", no run of single letters.
    for word in (w for w in words if len(w) >= 24):
        for pattern, kind in ((_B64, "b64"), (_B32, "b32"), (_HEX, "hex")):
            for m in pattern.finditer(word):
                if (decoded := _decode(m.group(0), kind)) is not None:
                    views.append(decoded)
    if "%" in text and _URLQ.search(text):
        views.append(urllib.parse.unquote(text))
    if _SPACED_HINT.search(text) and _SPACED.search(text):
        # "i g n o r e   a l l": one space joins letters, a wider gap separates words.
        views.append(_SPACED.sub(lambda m: re.sub(" ( +)?", _gap, m[0]), text))
    low = text.lower()
    if ("rot13" in low or "rot-13" in low or "caesar" in low) and _ROT.search(text):
        views.append(codecs.decode(text, "rot13"))
    if ("backward" in low or "in reverse" in low) and _BACKWARDS.search(text):
        views.append(text[::-1])
    return views


def _gap(m: re.Match[str]) -> str:
    return " " if m[1] else ""


#: (code, rule, words the rule cannot match without), appended to ``safety``'s rules.
RULES: tuple[tuple[str, Rule, tuple[str, ...]], ...] = (
    ("override_instructions", revoked, tuple(_REVOKED_NEEDLES.split("|"))),
    *((code, regex(pattern), tuple(needles.split("|"))) for code, needles, pattern in _PIECES),
    *safety_reader.RULES,  # round thirty: orders to the reader to send data out or hide it
    *safety_orders.RULES,  # round thirty-two: other acts, and orders reported to "you"
    *safety_standing.RULES,  # round thirty-four: secrets to whoever asks, rules lifted
    *safety_widened.RULES,  # round thirty-five: the same shapes in words they missed
    *safety_lapsed.RULES,  # round thirty-six: the rules lapsed, "not let ... know"
    *safety_addressed.RULES,  # round thirty-eight: the reader addressed, over its grammar
)


#: Round thirty-nine: a text whose letters carry combining marks at least this often is
#: read again without them. A trick marks every letter ("A̱s̱s̱i̱s̱ṯa̱ṉṯ"); a language's
#: accents mark far fewer, and a view of them without accents costs only a rules' pass.
MARKED = 0.5
#: The combining-mark blocks the trick draws on (diacritics, their extension and
#: supplement, marks for symbols, half marks); found by one regex, not a loop per
#: character, since every non-ASCII write is read.
_MARKS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_LETTER = re.compile(r"[^\W\d_]")


def unmarked(text: str) -> list[str]:
    """``text`` (NFKC-normalised) without its combining marks, as a one-item list, when
    most of its letters carry one; else no view."""
    split = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", text))
    marks = len(_MARKS.findall(split))
    if not marks or marks < MARKED * len(_LETTER.findall(split)):
        return []
    return [unicodedata.normalize("NFC", _MARKS.sub("", split))]
