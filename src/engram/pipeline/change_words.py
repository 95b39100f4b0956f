"""The words change claims are made of (issue 28, FEATURES G2): the claim itself, its
signals, the noun-phrase pieces the rules are written with, and how a phrase or a
subject is cut out of a clause. Shared by the rules of
:mod:`engram.pipeline.change_signals` and :mod:`engram.pipeline.change_things`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from engram.pipeline import change_chat, offline_notes
from engram.pipeline.patterns import ADDRESS, word_set
from engram.pipeline.prefilter import gated
from engram.text import STOPWORDS

CHANGE = "change"
ADDITION = "addition"
PLAIN = "plain"

#: No seed gives these (engram's choice): a change verb is read more surely than a
#: stative one, and both less surely than a fact stated through ``mem.graph.record``.
CHANGE_CONFIDENCE = 0.8
PLAIN_CONFIDENCE = 0.7


@dataclass(frozen=True, slots=True)
class Claim:
    """``source --relation--> target``, with the signal it was said with.
    ``replaced``: the old value the sentence names, if any ("MySQL" in "replaced MySQL
    with Postgres"); the closing plan looks for whoever held it. ``source`` None: the
    sentence names no subject, and only ``replaced`` can tell whose fact changed.
    ``ends_only``: the text said the replaced value ended ("I don't like sushi any
    more"): only that relation closes, not the others of its type. ``one``: whether
    the relation holds one value at a time by the kind of noun that names it ("my bank
    is Starling": ``engram.pipeline.change_kinds``), for a relation the vocabulary does
    not declare; None: not said. ``agent``: the speaker, when they made the change to
    a thing named by its attribute ("we switched electricity supplier to EDF"): the
    planner reads the thing as the speaker's attribute if they hold one of that name."""

    source: str | None
    relation: str
    target: str
    signal: str
    replaced: str | None = None
    confidence: float = PLAIN_CONFIDENCE
    ends_only: bool = False
    one: bool | None = None
    agent: str | None = None


ADDITION_WORDS = gated(
    re.compile(
        r"\b(?:also|too(?!\s+(?:much|many|slow|pricey|pricy|expensive|costly|late|early|long|far|"
        r"hard|bad|big|small|busy|tired|hot|cold|old|fast|loud|buggy|complicated|heavy|noisy)\b)|"
        r"as\s+well|another|a\s+second|second|in\s+addition|additionally|"
        r"besides|alongside|on\s+top\s+of|(?-i:plus)|along\s+with|both|as\s+a\s+side\s+gig|"
        r"part[-\s]time|on\s+the\s+side|in\s+parallel|next\s+to)\b",
        re.IGNORECASE,
    )
)
#: A value said not to last or not to be the slot's new one (engram's choice, from the
#: kinds of look-alike plain English has, changes26): a stand-in or cover ("X is filling
#: in until Y is back", "covering while she is away", "in the meantime", "for the time
#: being", "temporarily", "interim"), someone alongside ("shadowing", "pairing with"), a
#: count added on top ("4 extra runners", "3 additional agents", "2 more replicas": the
#: increment, not the new value), a one-off ("one-off", "just this once") and a value
#: undone after ("removed afterwards", "torn down after", "back to 6 tomorrow").
NOT_LASTING = re.compile(
    r"\b(?:temporar(?:y|ily)|for\s+now|for\s+the\s+time\s+being|in\s+the\s+meantime|"
    r"meanwhile|interim|stop-?gap|fill(?:s|ed|ing)?\s+in|stand(?:s|ing)?[-\s]in|stood\s+in|"
    r"covering|cover(?:s|ed)?\s+for|(?:that|the)\s+day\s+only|"
    r"only\s+(?:that|for\s+the)\s+day|"
    r"until\s+(?:\w+\s+){1,2}(?:is|are|gets?|comes?)\s+back|until\s+\w+\s+returns?|"
    r"while\s+(?:\w+\s+){1,2}(?:is|are|was|were)\s+(?:away|off|out|on\s+\w*\s*leave|on\s+holiday)|"
    r"shadow(?:s|ed|ing)?|pair(?:s|ed|ing)\s+with|"
    r"\d+\s+(?:extra|additional|more)|one[-\s]off|one[-\s]time|just\s+(?:this\s+)?once|"
    r"(?:removed|torn\s+down|taken\s+down|undone|dropped)\s+(?:again\s+)?(?:after(?:wards)?|later)|"
    r"back\s+to\s+(?:\S+\s+){1,3}?(?:tomorrow|after(?:wards)?|later))\b",
    re.IGNORECASE,
)
FIRST_PERSON = frozenset({"i", "we", "me", "us", "my", "our", "myself"})
_EMPHATIC = frozenset({"do", "does", "did"})
NP = r"(?:(?:the|our|my|his|her|their|its|a|an|this|that)\s+)?[\w'.#+-]+(?:\s+[\w'.#+-]+){0,3}?"
SUBJ = rf"(?P<s>{NP})"
ADV = r"(?P<adv>(?:\s+(?:\w+ly|also|just|now|still|finally|recently|already|officially|then))*)"
LEAD = r"^(?:[^,]{0,40},\s*)?"  # "In March, we ...", "Last year, Sam ..."

NOW = gated(re.compile(r"\b(?:now|nowadays|these\s+days|from\s+now\s+on)\b", re.I))

# A time ("9:30", "7 am") and a price ("$1,650") are one word each.
_WORDS = re.compile(rf"{ADDRESS}|" r"\d{1,2}:\d{2}(?:\s?[ap]m)?|\$[\d,.]+\w*|[\w.#+'’-]+|[^\w\s]")
DETERMINER = word_set("the a an some our my his her their its this that these those your")
#: Words a phrase ends before ("Postgres for the billing service", "Lisbon last year").
STOP = word_set("""
    and but so because which who that to for with in on at from when where while since
    after before as than or if yesterday today tonight tomorrow last next this ago
    recently soon lately now then too also again already though although until during
    into by about is was are were be been has have had will would can could instead
    over back after this month week year every daily weekly nightly each starting
    """) | word_set(change_chat.TAIL_WORDS)


def phrase(text: str | None) -> str | None:
    """The noun phrase ``text`` opens with: determiners dropped, up to five words,
    ending before a function word or punctuation ("a 12V20Ah battery for the efoil"
    -> "12V20Ah battery")."""
    if text is None:
        return None
    words: list[str] = []
    for match in _WORDS.finditer(_BY_AGENT.sub("", text.strip())):
        word = match.group(0).strip(".'’")
        lower = word.lower()
        if not word or not (word[0].isalnum() or word[0] in "#+$"):
            break
        if not words and lower in DETERMINER:
            continue
        # "about 200 pounds", "around $50": a hedge on an amount, not a function word
        # that ends the phrase ("my budget is about 200 pounds" stated nothing).
        if not words and lower in _ROUGHLY and _AMOUNT.match(text.strip(), match.end()):
            continue
        if lower in STOP or len(words) == 5:
            break
        words.append(word)
    while words and words[-1].lower() in DETERMINER:  # "$180 a month" -> "$180"
        words.pop()
    phrase = " ".join(words)
    if not phrase or phrase.lower() in _NOT_THINGS:
        return None
    return phrase


#: "a Google Sheet owned by me", "the runbook written by Lena": a participle and its agent
#: after the noun say whose, and are no part of its name (task notes27: ``lives_in
#: Google Sheet owned`` was read). "The shed by the lake" has no participle.
_BY_AGENT = re.compile(
    r"\s+(?:[a-z]{3,}ed|written|run|built|made|kept|held|led|taught|given|taken|chosen|"
    r"driven|drawn|grown|shown)\s+by\b.*$",
    re.DOTALL,
)
#: Words that hedge an amount in front of it; skipped only before a number.
_ROUGHLY = frozenset(("about", "around", "roughly", "approximately", "nearly", "almost"))
_AMOUNT = re.compile(r"\s+[$€£]?\d")

#: What a phrase cannot be: a pronoun or a word standing for a thing named elsewhere.
_NOT_THINGS = word_set("it them him her this that one something everything there here")


def subject(raw: str | None, speaker: str | None) -> str | None:
    """The subject as the graph names it: first person is the speaker (or "user")."""
    if raw is None:
        return None
    words = raw.strip().split()
    # An emphatic auxiliary is no part of the name: "we do use X" is the speaker's claim.
    while len(words) > 1 and words[-1].lower() in _EMPHATIC:
        words = words[:-1]
    if words and words[0].lower() in FIRST_PERSON:
        if len(words) == 1:
            return speaker or "user"
        words = words[1:]  # "our billing service" -> "billing service"
    elif words and words[0].lower() in DETERMINER:
        words = words[1:]
    text = " ".join(words)
    if text.lower().endswith("'s"):
        text = text[:-2]
    if len(words) > 1 and words[0].lower() in _HOW_OFTEN:
        # "the daily standup": a name, though "daily" ends a phrase ("... daily at 9")
        rest = phrase(" ".join(words[1:]))
        return f"{words[0]} {rest}" if rest else None
    return phrase(text)


_HOW_OFTEN = frozenset(("daily", "weekly", "nightly", "monthly"))


def signal_of(clause: str, changed: bool) -> str:
    """The signal a clause says its claim with (see ``CHANGE``, ``ADDITION``, ``PLAIN``)."""
    if ADDITION_WORDS.search(clause):
        return ADDITION
    return CHANGE if changed or NOW.search(clause) else PLAIN


def has(lower: str, words: tuple[str, ...]) -> bool:
    # ``map`` over the bound method: cheaper than a generator on the write path.
    return any(map(lower.__contains__, words))


#: A note that opens with the group's first person ("We use Sentry", "Our CI runs on
#: ...").
_WE = re.compile(r"^\s*(?:we|we['’](?:re|ve|ll|d)|our)\b", re.IGNORECASE)


def teams_note(text: str) -> bool:
    """Whether ``text`` is an agent's note whose "we" is the team's: it opens with "we"
    or "our", reads as a note (code, a tool, the trade's words) and has no first person
    singular (``offline_notes``, where the extractor names that team ``The team``).
    "We use Sentry" records ``The team uses_errors Sentry``, not the user's; "We moved
    to Austin" (no note) stays the speaker's (task x24's report)."""
    return _WE.match(text) is not None and offline_notes.is_note(text) and offline_notes.teams(text)


#: A change said and undone in one text ("swapped Dropbox for Proton Drive for a week,
#: then went back"): no change holds, so the closing plan reads none from its words
#: (``hooks.sound_plan``; round fourteen's notes found it closing the held value).
UNDONE = re.compile(
    r"\b(?:then|but|and|before)\s+(?:(?:we|I|they)\s+)?(?:went|switched|changed|moved|rolled|"
    r"swapped)\s+(?:it\s+|them\s+)?back\b",
    re.IGNORECASE,
)

#: Someone the speaker knows, as an owner ("my brother's", "my best friend's": an
#: adjective may stand between); the slot pass and the change reader of round eleven
#: read it.
KNOWN_PERSON = (
    r"(?:(?:best|oldest|old|closest|close|eldest|older|younger|little|big|"
    r"twin|dear)\s+)?(?P<n>brother|sister|mum|mom|mother|dad|father|wife|husband|partner|"
    r"boyfriend|girlfriend|friend|mate|buddy|pal|flatmate|roommate|housemate|son|daughter|kids?|"
    r"children|neighbou?rs?|cousin|aunt|uncle|colleague|boss|manager|parents)"
)

#: A thing someone the speaker knows owns, said with their pronoun ("my friend moved
#: her blog to Ghost"): the change is of their thing, not the speaker's of that name.
_OTHERS_THING = re.compile(
    rf"\b(?:my|our)\s+{KNOWN_PERSON}\b[^.;!?]*?\b(?:her|his|their)\s+(?P<thing>[a-z][\w-]*)",
    re.IGNORECASE,
)


#: Someone else as a thing's owner, with the possessive: a known person after the
#: speaker's or a pronoun ("my neighbour's", "her sister's", "our neighbours'"), a role
#: that is never the speaker ("the landlord's", "the babysitter's") or a name ("Tom's":
#: capitalised, so matched case-sensitively; "It's", "That's" are "is"). A bare plural
#: is a kind of thing, not an owner ("Parents' evening", "the kids' menu"), so a known
#: person needs "my"/"our"/a pronoun, and a name the singular "'s".
_THIRD_PARTY = re.compile(
    rf"(?:(?i:\b(?:my|our|his|her|their)\s+{KNOWN_PERSON})(?:['’]s|s['’])"
    r"|(?i:\b(?:the|our|my)\s+(?:landlord|landlady|babysitter|nanny|tenant|lodger|"
    r"childminder|cleaner|client|customer|neighbou?r|boss|manager))['’]s"
    r"|\b(?!(?:It|That|What|There|Here|He|She|Who|Where|Let|This|Everything|Nothing)['’])"
    r"[A-Z][a-z]+['’]s"
    # A family by its plural name, after "the" ("the Smiths'", "The Joneses'"): a bare
    # capitalised plural opens a sentence as a kind ("Parents' evening").
    r"|(?i:\bthe)\s+[A-Z][a-z]+s['’]"
    # "his"/"her"/"their": someone's, never the speaker's; read only when no one is
    # named before it (``_theirs``), and a person after it is theirs to own things.
    r"|(?P<pronoun>(?i:\b(?:his|her|their)))(?!\s+" + KNOWN_PERSON.replace("?P<n>", "") + r"\b))"
    r"\s+(?P<thing>[a-z][\w-]*)"
)
#: A capitalised word: before "his"/"her"/"their", a name the pronoun may stand for.
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+\b")


def theirs(text: str) -> dict[str, str]:
    """The things ``text`` names as someone else's and never as the speaker's, each
    with its owner's words: "My neighbour's boiler is serviced by Octopus now" ->
    ``{"boiler": "neighbour's"}``. A thing the speaker names too is theirs as well
    ("my wife's and my car": "and" follows the possessive, and "my car" is named;
    "like my flatmate's, my cleaner ..."), so it is no other's."""
    return dict(_theirs(text))


@lru_cache(maxsize=256)  # the closing plan asks it of every relation it reads
def _theirs(text: str) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {}
    for m in _THIRD_PARTY.finditer(text):
        if m["pronoun"] and _named(text[: m.start()]):
            # "Noor's teacher moved her lessons": Noor's, whose fact it may be.
            continue
        thing = m["thing"].lower()
        if thing in _NOT_A_THING or re.search(
            rf"\b(?:my|our)\s+(?:[a-z-]+\s+)?{re.escape(thing)}\b", text, re.IGNORECASE
        ):
            continue
        owner = m.group(0)[: m.start("thing") - m.start()].strip()
        owner = re.sub(r"^(?:my|our|his|her|their|the)\s+", "", owner, flags=re.IGNORECASE)
        found.setdefault(thing, owner)
    return tuple(found.items())


def _named(before: str) -> bool:
    """Whether ``before`` names someone (a capitalised word that is no stopword:
    "Noor's teacher", "Marketing moved"), whom a pronoun after it may stand for."""
    return any(w.lower() not in STOPWORDS for w in _CAPITALISED.findall(before))


#: Words after a possessive that are no thing of the owner's ("Tom's and my car",
#: "Tom's been", "my sister's got").
_NOT_A_THING = word_set(
    "and or been got gone not just also now still the a an my our your his her their me "
    "him them us it this that"
)

#: Someone else's possessive joined to the speaker's by "and", in front of the thing
#: they share: "My husband's and my GP", "Tom's and our car", "my parents' and my".
_JOINT = re.compile(
    rf"(?:(?i:\b(?:my|our|his|her|their)\s+{KNOWN_PERSON})|\b[A-Z][a-z]+)['’]s?"
    r"\s+(?i:and)\s+(?P<own>(?i:my|our))\b"
)


def joint(text: str) -> str:
    """``text`` with a possessive the speaker shares with someone left to the speaker's
    ("My husband's and my GP is Dr Shah now" -> "My GP is Dr Shah now"): the thing is
    the speaker's own, and the readers know "my GP is ..." (left42's h18 read nothing
    from the joint form)."""
    return _JOINT.sub(_speakers, text) if " and " in text else text


def _speakers(m: re.Match[str]) -> str:
    """The speaker's "my"/"our" alone, with a capital where it opens a sentence."""
    own = m["own"].lower()
    opens = not m.string[: m.start()].rstrip() or m.string[: m.start()].rstrip()[-1] in ".!?"
    return own.capitalize() if opens else own


def others_thing(text: str, source: str) -> bool:
    """Whether ``source`` (a subject read from ``text``) is a thing the text says
    someone else owns: "my friend moved her blog to Ghost" says nothing of the
    speaker's blog, nor "My neighbour's boiler is serviced by Octopus now" of the
    speaker's boiler (left42). A subject named with its owner ("neighbour's boiler")
    is that owner's, not the speaker's: it is not one of these."""
    head = source.lower().split()[-1:] if source.strip() else []
    if any(m["thing"].lower() in head for m in _OTHERS_THING.finditer(text)):
        return True
    return bool(head) and "'" not in source and "’" not in source and head[0] in theirs(text)


def others_fact(text: str, source: str, relation: str) -> bool:
    """:func:`others_thing`, or the speaker's slot named after a thing the text says
    is someone else's (``user broadband_provider`` for "Our neighbours' broadband
    provider is Sky now"): their slot, not the user's."""
    if others_thing(text, source):
        return True
    return source == "user" and relation.split("_")[0] in theirs(text)


def others_phrase(text: str, source: str, relation: str) -> bool:
    """:func:`others_fact`, or a compound subject the text names as someone else's by
    its first word (``theirs`` keeps the word after the owner): "Their energy supplier
    is Octopus now" read again as ``energy supplier is Octopus`` (``change_again``)."""
    words = source.lower().split()
    return others_fact(text, source, relation) or (
        len(words) > 1 and "'" not in source and words[0] in theirs(text)
    )
