"""First values and changes said the plain ways people say them (issue 28, FEATURES G2;
round nine, changes27).

First values that name a tool, a firm or a partner by a verb of their own, which the
slot shapes of :mod:`engram.pipeline.change_firsts` do not read:

- a thing done with a tool: "The billing ETL is orchestrated with Airflow.", "User runs
  the billing ETL, which is scheduled with cron." (``billing ETL uses Airflow``);
- a firm or person that looks after something of ours: "Halvorsen & Co handle our
  books." (``books handled_by Halvorsen & Co``);
- an agreed home for a thing, its subject dropped as notes drop it: "Agreed to host the
  wiki on Confluence." (``wiki uses Confluence``);
- a partner: "Ezra and I have been a couple since 2019." (``user partner Ezra``).

And one change shape the change rules lacked: a thing got rid of and another got in
its place, "I sold the Corolla and bought a Tesla Model 3" (:data:`SOLD`, read by
:mod:`engram.pipeline.change_signals` as "replaced the Corolla with a Tesla Model 3").
"""

from __future__ import annotations

import re

from engram.pipeline import vocabulary
from engram.store.protocols.graph import canonical_relation

SPEAKER = "user"
#: A name: capitalised words, "&" and "Co" inside ("Halvorsen & Co", "Auth0").
_NAME = r"(?-i:[A-Z0-9][\w.'’-]*(?:\s+(?:&\s+)?[A-Z][\w.'’-]*){0,3})"
#: A thing: one to three words ("billing ETL", "wiki", "books").
_THING = r"[A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*){0,2}?"
#: Verbs that say a tool does the work for a thing (past participles), the tool after
#: "with / on / in / through / via / using".
_TOOL_VERB = (
    r"(?:orchestrated|scheduled|managed|hosted|deployed|built|run|tracked|stored|kept|"
    r"served|powered|backed|monitored|processed|handled|automated|versioned|documented|"
    r"tested|configured|done|paid|billed|invoiced|filed|booked|delivered|streamed|synced|"
    r"emailed|sent|shipped|forwarded|routed|piped|pushed|reported|logged|uploaded|published)"
)
#: "built and tested", "paid out": one verb or two, a particle after.
_TOOL_VERBS = rf"{_TOOL_VERB}(?:\s+and\s+{_TOOL_VERB})?(?:\s+(?:out|up|off))?"
#: "goes through Opsgenie", "Logs ship to Splunk": a present verb that moves a thing
#: through a tool.
_TOOL_MOVES = r"(?:goes|go|runs|run)\s+(?:through|via)|(?:ships?|flows?)\s+(?:to|through|via)"
#: "a couple of Heroku dynos", "a Jenkins controller", "Akamai's CDN": the name, and a
#: common noun of the tool after it.
_TOOL_VALUE = (
    rf"(?:(?:a|an|the|our)\s+)?(?:couple\s+of\s+|few\s+)?(?P<value>{_NAME})(?:['’]s)?"
    r"(?:\s+(?-i:[a-z][\w-]*)){0,2}?"
)
#: What may follow the tool: how often, or where from ("every month", "from the main
#: branch", "on the 80 meg package", "at work").
_TOOL_TAIL = (
    r"(?:\s+(?:(?:every|each)\s+\w+|daily|weekly|monthly|nightly|at\s+work|"
    r"(?:from|on|for)\s+(?:the|our|my|each|every)\s+[\w\s-]{1,30}?))?"
)
_TOOL = re.compile(
    rf"^(?:.*?\b(?:the|our|my)\s+(?P<owner2>{_THING}),\s+(?:which|that)|"
    rf"(?:(?:the|our|my|every|each|all|all\s+our|staff)\s+)?(?P<owner>{_THING})"
    r"(?:\s+(?:for|in|of)\s+(?:the\s+|our\s+|every\s+)?[\w-]+(?:\s+[\w-]+)?)?)\s+"
    rf"(?:(?:is|are|gets|get)\s+(?:now\s+)?{_TOOL_VERBS}\s+(?:with|on|in|through|via|using|"
    rf"to|from)|(?:now\s+)?{_TOOL_MOVES})\s+{_TOOL_VALUE}{_TOOL_TAIL}\s*$",
    re.IGNORECASE,
)
#: "We store our docs in Notion.", "I do my taxes with TurboTax.", "The team keeps its
#: bug tickets on a Trello board.": the speaker (or a team) doing a thing of theirs with
#: a tool, said in the active voice. Only verbs of keeping, sending and doing, so "I went
#: to Paris with Mel" and "we met Sam in Leeds" name no tool.
_TOOL_ACTIVE = re.compile(
    r"^(?i:(?:I|we|the\s+team|our\s+team|the\s+whole\s+family)\s+(?:now\s+)?"
    r"(?P<verb>store|stores|keep|keeps|send|sends|bank|banks|do|does|file|files|host|hosts|"
    r"track|tracks|manage|manages|share|shares|back\s+up|backs\s+up|log|logs|"
    r"run|runs|deploy|deploys)\s+(?:(?:my|our|its|their|the|all\s+(?:my|our|the))\s+)?)"
    rf"(?P<owner>(?i:{_THING}))(?i:\s+(?P<prep>with|in|on|through|via|using)\s+)"
    rf"{_TOOL_VALUE}{_TOOL_TAIL}\s*$"
)
#: The active voice's tool is a tool by its way ("through", "via", "using"; "with" after
#: a verb of sending or banking) or by being a known product ("in Notion"): "I keep my
#: bike in Paris" and "I do my homework with Sam" name a place and a friend.
_TOOL_WAYS = frozenset(("through", "via", "using"))
_SENDING = frozenset(("send", "sends", "bank", "banks", "file", "files"))
#: "Halvorsen & Co handle our books.", "Mira does our payroll.", "Brightwave looks
#: after our IT.": a firm or person doing a thing of ours.
_HANDLES = re.compile(
    rf"^(?P<value>{_NAME})\s+(?i:(?P<verb>handles?|does|do|manages?|looks?\s+after|runs?|"
    r"takes?\s+care\s+of)\s+(?:our|my)\s+)"
    rf"(?P<slot>(?i:{_THING}))\s*$"
)
_HANDLED = {"handle": "handled", "does": "done", "do": "done", "manage": "managed",
            "look": "looked_after", "run": "run", "take": "handled"}  # fmt: skip
#: "Agreed to host the wiki on Confluence.", "Decided to keep the runbooks in Notion.":
#: a decision in a note naming the thing and its home.
_AGREED = re.compile(
    r"^(?i:(?:we\s+)?(?:agreed|decided|chose)(?:\s+with\s+(?:the\s+)?[\w-]+)?\s+to\s+(?:host|keep|run|put|store|build|"
    r"deploy|track|manage)\s+(?:the\s+|our\s+)?)"
    rf"(?P<owner>(?i:{_THING}))(?i:\s+(?:on|in|with|at|using)\s+)(?P<value>{_NAME})\s*$"
)
#: "Ezra and I have been a couple since college.", "Noor and I are together.", "Sam and
#: I got married in 2019.": a partner, the speaker's.
_COUPLE = re.compile(
    rf"^(?P<value>{_NAME})\s+(?i:and\s+I\s+(?:have\s+been|['’]ve\s+been|are|got)\s+"
    r"(?:a\s+couple|together|dating|married|engaged|partners))(?:\s+(?i:since|for)\s+.+)?\s*$"
)
#: "I sold the Corolla and bought a Tesla Model 3", "got rid of the Brompton and picked
#: up a Tern": the groups of ``change_signals._REPLACED`` (agent, old, o, s), so a
#: sale and a purchase read as a replacement. Only the speaker's own ("I", "we", or no
#: subject, as notes drop it) and only a thing said as theirs or "the": "my brother sold
#: his Focus" is his.
SOLD = re.compile(
    r"^(?:[^,]{0,40},\s*)?(?:(?P<agent>I|we)\s+)?(?:(?:just|finally|recently)\s+)?"
    r"(?:have\s+|has\s+)?(?:sold|got\s+rid\s+of|gave\s+away|traded\s+in|returned|scrapped)\s+"
    r"(?:(?:the|my|our|that)\s+)?(?:old\s+)?(?P<old>[^,]+?)\s*(?:,|\s+and)\s+(?:then\s+)?"
    r"(?:(?:I|we)\s+)?(?:bought|got|picked\s+up|purchased|leased|ordered)\s+"
    r"(?P<o>(?:(?:a|an|the)\s+)?(?:new\s+|used\s+)?[^,]+?)(?P<s>)(?:\s+(?:yesterday|today|"
    r"last\s+\w+|this\s+\w+|instead))?\s*$",
    re.IGNORECASE,
)
SOLD_WORDS = ("sold", "got rid", "gave away", "traded in", "returned", "scrapped")


def firsts(sentence: str) -> list[tuple[str, str, str]]:
    """The one ``(owner, slot, value)`` ``sentence`` names by a verb of its own (the
    module docstring); ``sentence`` is stripped of its end mark."""
    tool = _TOOL.match(sentence)
    if tool is not None:
        owner = (tool["owner2"] or tool["owner"] or "").strip()
        if owner and owner.lower() not in _NOT_OWNERS and not WHEN.match(tool["value"]):
            return [(owner, "uses", tool["value"].strip())]
        return []
    active = _TOOL_ACTIVE.match(sentence)
    if active is not None and not WHEN.match(active["value"]):
        prep, verb, value = active["prep"].lower(), active["verb"].lower(), active["value"]
        if prep in _TOOL_WAYS or (prep == "with" and verb in _SENDING) or known_product(value):
            return [(active["owner"].strip(), "uses", value.strip())]
        return []
    handles = _HANDLES.match(sentence)
    if handles is not None and handles["value"].lower() not in _PRONOUNS:
        verb = handles["verb"].lower().split()[0].removesuffix("s")
        verb = "do" if verb == "doe" else verb
        slot = handles["slot"].strip()
        return [(slot, f"{_HANDLED.get(verb, 'handled')}_by", handles["value"].strip())]
    agreed = _AGREED.match(sentence)
    if agreed is not None:
        return [(agreed["owner"].strip(), "uses", agreed["value"].strip())]
    couple = _COUPLE.match(sentence)
    if couple is not None:
        return [(SPEAKER, canonical_relation("partner"), couple["value"].strip())]
    return []


def known_product(name: str) -> bool:
    """Whether ``name`` is a product the vocabulary knows by its own context: the whole
    name ("Notion", "Google Photos"), a product word that opens it ("Ghost Pro",
    "Postgres 16"), or one inside a longer name that is no everyday English word ("Amazon
    S3"). A product word that is also English, after another name's word, is a model's
    name in that maker's range: "Brooks Ghost", "Asics Nimbus Edge" are shoes (task
    notes27: ``road miles uses_cms Brooks Ghost`` was read)."""
    if vocabulary.member_category(name) is not None:
        return True
    if vocabulary.canonical("uses", name).one is False:
        return False
    words = _NAME_WORDS.findall(name.lower())
    if len(words) < 2:
        return True
    if vocabulary.member_category(words[0]) is not None:
        # "Ghost Pro", "Postgres 16": the product and its tier or version; "Rust Belt"
        # is a region, its first word English
        return words[0] not in vocabulary.ENGLISH_TOO or all(
            w in vocabulary.TIERS or w.isdigit() for w in words[1:]
        )
    return any(
        vocabulary.member_category(word) is not None and word not in vocabulary.ENGLISH_TOO
        for word in words[1:]
    )


_NAME_WORDS = re.compile(r"[\w.#+-]+")


#: Words that are no thing a tool works for ("it is hosted on ...": which?).
_NOT_OWNERS = frozenset(("it", "this", "that", "everything", "all", "which", "what"))
#: No firm or person that handles a thing ("We do our shopping on Saturdays").
_PRONOUNS = frozenset(("i", "we", "they", "you", "he", "she", "it"))
#: A day, month or holiday names when, not a tool ("the marathon is run on Sundays").
WHEN = re.compile(
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|(?:jan|febr)uary\b|march\b|april\b|"
    r"may\b|june?\b|july\b|august\b|(?:septem|octo|novem|decem)ber\b|christmas\b|easter\b|"
    r"weekends?\b|weekdays?\b",
    re.IGNORECASE,
)


def when_not(value: str, old: str) -> bool:
    """Whether ``value`` says when ("changed schools at Easter") where the slot's old
    value is no day, month or holiday: it is then no new value of the slot."""
    if _QUARTER.fullmatch(value):  # "Jun took release management for Q4"
        return _QUARTER.fullmatch(old.strip()) is None
    # "Jun", "May": a name as often as a month
    said = WHEN.fullmatch(value) is not None and value not in _NAMES_TOO
    return said and WHEN.fullmatch(old.strip()) is None


#: A quarter or half of a year.
_QUARTER = re.compile(r"[QH][1-4](?:\s+\d{4})?|FY\s?\d{2,4}")
#: Months and days also used as names.
_NAMES_TOO = frozenset(("May", "Jun", "June", "Mar", "Sun"))
