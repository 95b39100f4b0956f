"""A slot's value said plainly, and its new value said in notes form (issue 28, FEATURES G2).

A change can only close a fact the graph holds. Config values, versions and people in
a role are often first said in a shape no reader records ("The gateway timeout is
60s.", "Priya is on call this week.", "Reporting DB: PostgreSQL 12.", "Rafa is the
scrum master."), so the later change ("Gateway timeout raised to 90s", "on-call:
Priya → Tomas") had nothing to close. This module reads both halves:

- :func:`firsts`: one short sentence naming one slot and one value, recorded as
  ``(owner, slot, value)`` the way the attribute rules record "my dentist is Dr. Kaur"
  (``user dentist Dr. Kaur``): the owner is the one the sentence names ("for the
  ingest API", "on the primary", "(infra)") or the speaker; the slot is the phrase
  itself (``gateway_timeout``, ``release_manager``, ``on_call``). It closes nothing
  by itself: a second plain value of the slot is added beside the first ("Tomas is on
  call next week");
- :func:`notes_changes`: a new value said the way notes, changelogs and chat say it,
  of a slot the namespace holds now, when the rules and the slot pass closed nothing:
  the old value named beside the new one ("Priya → Tomas", "100→200", "from 20s to
  60s", "node 18 to node 20", "500ms (was 200ms)") with a word of the slot or its owner,
  or the slot named by all its words with a verb of setting or "now" ("Gateway timeout
  raised to 90s", "log retention now 30 days", "Release manager for 4.2 is now
  Dario"), and exactly one new value of the old one's shape (a number for an amount, a
  name for a name).

Every guard is against a wrong close, which hides a fact that still holds: no hedge,
question, plan, proposal, trial or one-off; "also" adds; another owner's slot ("max
connections on the replica") is another slot.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engram.pipeline import change_plain, change_slots, vocabulary
from engram.pipeline.change_signals import ADDITION_WORDS, HEDGE
from engram.pipeline.change_words import NOT_LASTING
from engram.pipeline.patterns import word_set
from engram.pipeline.prefilter import gated
from engram.store.protocols.graph import Relation, canonical_name, canonical_relation

#: The speaker's entity (``closing.SPEAKER``).
SPEAKER = "user"
#: A plain statement of one value is one short sentence.
MAX_WORDS = 18
#: Confidence of a value read here: a reading of shape, below a change verb's 0.8.
CONFIDENCE = 0.7

# A value: an amount or version with its unit ("60s", "2Gi", "14 days", "1.27", "£1,400",
# "500 requests per minute" keeps "500 requests"), or a name (capitalised words, a title
# in front: "Dr. Kaur", "Docker Hub", "Helga Brandt", "1Password").
_UNIT = (
    r"(?:ms|s|m|h|d|mi|gi|ki|mb|gb|tb|kb|k|%|seconds?|secs?|minutes?|mins?|hours?|hrs?|"
    r"days?|weeks?|months?|years?|business\s+hours|threads?|replicas?|rps|requests|"
    r"connections|workers|euros?|pounds|dollars|g|gib|mib|gigs?|v|w|kw|kwh)"
)
_NUMBER_WORDS = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
#: A day of the week, said in lower case as often as not ("moved my class to thursdays").
_DAY = re.compile(r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.IGNORECASE)
#: A cron schedule ("0 4 * * *", "30 2 * * 1-5").
_CRON = r"\d{1,2}\s+\d{1,2}(?:\s+[\d*/,-]+){3}"
_AMOUNT = (
    rf"(?:every\s+)?(?:{_CRON}|\d{{1,2}}(?::\d{{2}})?\s?(?:am|pm)\b|\d{{1,2}}:\d{{2}}|[£$€]?\d(?:[\d,]*\d)?(?:\.\d+)*(?:\s?{_UNIT}\b)?|{_NUMBER_WORDS}\s+{_UNIT}\b)"
    r"(?:\s+(?:per|a|an|each)\s+(?:second|minute|hour|day|week|month|seat|user))?"
)
_NAME = (
    r"(?-i:(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?(?:[A-Z0-9][\w.&'’-]*[A-Za-z][\w&'’-]*)"
    r"(?:\s+(?:[A-Z][\w&'’-]*|v?\d+(?:\.\d+)+|\d+\b)){0,2})"
)
_VALUE = rf"(?:{_AMOUNT}|{_NAME})"
_VALUE_RE = re.compile(rf"^(?:{_VALUE})$")

# A slot: one to four words, lower case or identifiers ("max_connections", "TTL", "API"),
# no verb of the sentence inside.
_SLOT = r"[A-Za-z][\w.-]*(?:\s+[A-Za-z][\w.-]*){0,3}"
_OWNER = r"(?:(?:the|my|our)\s+)?(?P<owner>[\w.-]+(?:\s+[\w.-]+){0,2})"

#: "The gateway timeout is 60s." / "max_connections is 100 on the primary." / "Our CDN
#: is Fastly." / "The release manager for 4.2 is Wen."
_IS = re.compile(
    rf"^(?:(?:the|our|my)\s+)?(?:(?:new|current)\s+)?(?P<slot>{_SLOT}?)(?:\s+(?:for|of|on|in)\s+{_OWNER})?"
    rf"\s+(?:is|=)\s+(?:set\s+to\s+|at\s+)?(?P<value>{_VALUE})"
    rf"(?:\s+(?:on|for)\s+(?:the\s+)?(?P<on>[\w.-]+(?:\s+[\w.-]+)?))?\s*$",
    re.IGNORECASE,
)
#: "Request timeout for the ingest API: 30s." / "Primary on-call (infra): Helga Brandt."
#: / "shared_buffers = 2GB on db-main."
_NOTE = re.compile(
    rf"^(?P<slot>{_SLOT}?)(?:\s+(?:for|of)\s+{_OWNER})?(?:\s+\((?P<paren>[^)]{{1,30}})\))?"
    rf"\s*:\s+(?P<value>{_VALUE})(?:\s+\([^)]*\))?\s*$"
)
#: "Rafa is the scrum master." / "Priya is on call this week." / "Kwame is the point of
#: contact for the Orion account."
_ROLE = re.compile(
    rf"^(?P<value>{_NAME})(?:\s+(?:at|from)\s+the\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?)?\s+is\s+(?:(?:the|our|my)\s+(?P<slot>{_SLOT}?)|(?P<oncall>on[\s-]call))"
    rf"(?:\s+(?:for|of)\s+{_OWNER})?(?:\s+this\s+(?:week|month|sprint|rotation))?(?:\s+now)?\s*$"
)
#: "We run Postgres 14." / "The staging cluster runs Kubernetes 1.27." / "The frontend
#: builds on Node 18.": a product at a version.
_RUNS = re.compile(
    rf"^(?:(?P<we>we|we['’]re|we\s+are|i['’]m|i\s+am)|(?:(?:the|our|my)\s+)?(?P<owner>{_SLOT}?))"
    r"\s+(?P<verb>run|runs|(?:runs|builds|is|are)\s+on|on)\s+"
    r"(?P<value>(?-i:[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)?)\s+v?\d+(?:\.\d+)*)\s*$",
    re.IGNORECASE,
)
#: "The support queue is triaged by Omar.": a thing someone does for the owner.
_BY = re.compile(
    rf"^(?:(?:the|our|my)\s+)?(?P<owner>{_SLOT}?)\s+(?:is|are)\s+(?P<verb>\w+ed)\s+by\s+(?P<value>{_NAME})\s*$",
    re.IGNORECASE,
)
#: A decision in a note, its subject dropped as notes drop it ("Decided to use Celery for
#: background jobs.", "Chose Zod for request validation.", "Went with Render."): the
#: team's choice (``offline_notes.TEAM``, as the extractor reads a dropped subject in a
#: note), or the thing it is for when the note says so.
_DECIDED = re.compile(
    r"^(?i:(?:we\s+)?(?:decided\s+(?:to\s+(?:use|go\s+with|adopt)|on)|chose|picked|went\s+with|"
    r"settled\s+on|opted\s+for|agreed\s+(?:to\s+use|on)|standardi[sz]ed\s+on|"
    r"signed\s+up\s+(?:with|for)))"
    rf"\s+(?P<value>{_NAME})(?i:\s+for\s+(?:the\s+|our\s+)?(?P<owner>{_SLOT}))?\s*$"
)
#: "Decided to pin pandas to 2.1.": a dependency's pinned version, its slot ``pin``.
_PIN = re.compile(
    r"^(?:decided\s+to\s+|agreed\s+to\s+)?pin(?:ned)?\s+(?P<owner>[\w.-]+)\s+(?:to|at)\s+"
    r"(?P<value>v?\d+(?:\.\d+)+)\s*$",
    re.IGNORECASE,
)
#: "Yusuf became team lead in March.", "Dagny joined as our product designer.": a person
#: put in a role by a verb of their own (the role's last word one of ``_ROLE_HEADS``).
_BECAME = re.compile(
    rf"^(?P<value>{_NAME})\s+(?i:became|joined\s+as|started\s+as|was\s+made|"
    r"was\s+appointed(?:\s+as)?|was\s+named|stepped\s+up\s+as)\s+"
    rf"(?i:(?:(?:the|our|my|a|an)\s+)?(?:new\s+)?(?P<slot>{_SLOT}?)"
    r"(?:\s+(?:in|on|last|this)\s+\w+(?:\s+\d{4})?)?)\s*$"
)
#: "Decided on 3 replicas for the API.": an amount chosen for a named owner, its slot the
#: amount's own noun.
_DECIDED_AMOUNT = re.compile(
    r"^(?:we\s+)?(?:decided\s+on|agreed\s+on|settled\s+on|went\s+with|chose)\s+"
    r"(?P<value>\d+)\s+(?P<slot>[a-z][\w-]*)\s+(?:for|on)\s+(?:the\s+|our\s+)?(?P<owner>[\w.-]+(?:\s+[\w.-]+)?)\s*$",
    re.IGNORECASE,
)
#: "The batch window opens at 22:00.", "Office hours start at 9am.": a time something
#: keeps, its slot the verb ("opens_at").
_AT_TIME = re.compile(
    r"^(?:(?:the|our|my)\s+)?(?P<owner>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+"
    r"(?P<verb>opens|closes|starts|begins|ends|runs|kicks\s+off)\s+at\s+"
    r"(?P<value>\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2})\s*$",
    re.IGNORECASE,
)
#: "I get my contact lenses from Lenstore.": where the speaker gets a thing, its slot the thing.
_GET_FROM = re.compile(
    r"^(?i:I\s+(?:get|buy|order)\s+(?:my|our)\s+)(?P<slot>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
    rf"(?i:\s+from\s+)(?P<value>{_NAME})\s*$"
)
#: "Priya took over on-call.", "Dev took over the school run this term.": a person put in
#: a slot by a verb of their own.
_TOOK_OVER = re.compile(
    rf"^(?P<value>{_NAME})\s+(?i:took\s+over|has\s+taken\s+over|picked\s+up)\s+"
    rf"(?i:(?:the\s+)?(?P<slot>{_SLOT}?)(?:\s+(?:for|of)\s+{_OWNER})?"
    r"(?:\s+this\s+(?:week|month|term|sprint|quarter|rotation))?)\s*$"
)
#: Roles a person fills (a name after "is the" is one of these, not an attribute).
_ROLE_HEADS = word_set("""
    master manager lead owner admin contact designer officer maintainer engineer coach
    captain chair head director champion steward triager buddy mentor
    doctor gp dentist therapist counsellor physio physiotherapist optician accountant
    trainer landlord tutor solicitor lawyer vet hairdresser cleaner childminder nanny
    """)
#: Words a slot is never made of: a verb or pronoun makes the phrase a clause.
_NOT_SLOT = word_set("""
    i we you he she they it this that there here what who which when where how why
    always usually never not also still just only really probably
    """)
#: Words that say a value holds from now on, or is set.
_SET = (
    r"(?:raised|increased|bumped|lowered|reduced|cut|decreased|dropped|changed|set|"
    r"moved|shifted|tightened|loosened|relaxed|upgraded|downgraded|updated|switched|"
    r"rescheduled|extended|shortened|scaled|pushed|capped|pointed|went\s+(?:up|down)|goes\s+(?:up|down)|turned\s+"
    r"(?:up|down)|resized)"
)
_ARROW = r"(?:→|->|=>|➝|⇒)"
#: What every notes-form change says: an arrow, "from ... to", "(was ...)", "replaced
#: by", "... out, ... in", a verb of setting, "now" or "new" (read before the graph is).
_CUE = gated(
    re.compile(
        rf"{_ARROW}|\bfrom\b|\(was\b|\breplaced\s+by\b|\bout,|\b{_SET}\b|\bnow\b|\bnew\b|"
        r"\b(?:from\s+today|as\s+of)\b",
        re.IGNORECASE,
    )
)
#: Not said as holding: a question, a plan or proposal, a trial, a one-off, "also".
_NOT_STATED = re.compile(
    r"\?|\b(?:propos\w*|evaluat\w*|consider\w*|thinking|plan(?:s|ned|ning)?|maybe|might|"
    r"should|could|would|tried|try(?:ing)?|test(?:ing)?\s+namespace|for\s+a\s+test|temporar\w*|"
    r"revert\w*|rolled\s+back|not\s+approved|rejected|next\s+(?:week|month|quarter|"
    r"sprint|year)|(?<!from\s)today['’]?s?|this\s+week['’]s|shadow\w*|helped|if)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W_]+(?:[.'’][^\W_]+)*")
#: Someone else's slot: "my brother", "my neighbour's", "my parents", "Sasha's".
_OTHER_OWNER = re.compile(
    r"(?i:\b(?:my|our|his|her|their)\s+)(?i:brother|sister|mum|mom|mother|dad|father|wife|husband|"
    r"partner|boyfriend|girlfriend|friend|flatmate|roommate|housemate|son|daughter|kids?|"
    r"children|neighbou?r|cousin|aunt|uncle|colleague|boss|parents|family)\b|"
    r"\b[A-Z][a-z]+['’]s\b",
)


#: A title's dot ("Dr. Adeyemi") ends no sentence.
_TITLE_DOT = re.compile(r"(?<=\b(?:Dr|Mr|Ms|St))\.|(?<=\bMrs)\.|(?<=\bProf)\.")


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text.replace("_", " "))]


def _slot_name(slot: str) -> str | None:
    words = slot.split()
    if not words or any(w.lower() in _NOT_SLOT for w in words):
        return None
    return canonical_relation(slot)


def firsts(text: str) -> list[tuple[str, str, str, float]]:
    """The one ``(owner, slot, value, confidence)`` a short plain statement names, or
    none (module docstring)."""
    sentence = text.strip().rstrip(".!").strip()
    if (
        not sentence
        or len(sentence.split()) > MAX_WORDS
        or re.search(r"[.;!?]\s", _TITLE_DOT.sub("", sentence))
        or HEDGE.search(sentence)
        or _NOT_STATED.search(sentence)
    ):
        return []
    plain = change_plain.firsts(sentence)  # a tool, a firm, a home, a partner by a verb
    if plain:
        return [(*found, CONFIDENCE) for found in plain]
    decided = _DECIDED.match(sentence) or _PIN.match(sentence)
    if decided is not None:
        owner = (decided["owner"] or "").strip() or change_slots.TEAM
        chosen = "pin" if decided.re is _PIN else "uses"
        if _slot_name(owner) is not None or owner == change_slots.TEAM:
            return [(owner, chosen, decided["value"].strip(), CONFIDENCE)]
        return []
    amount = _DECIDED_AMOUNT.match(sentence)
    if amount is not None and _slot_name(amount["owner"]) is not None:
        return [(amount["owner"], amount["slot"].lower(), amount["value"], CONFIDENCE)]
    timed = _AT_TIME.match(sentence)
    if (
        timed is not None
        and _slot_name(timed["owner"]) is not None
        and "now" not in timed["owner"].lower().split()
    ):
        verb = timed["verb"].lower().replace("kicks off", "starts")
        return [(timed["owner"], f"{verb}_at", timed["value"], CONFIDENCE)]
    got = _GET_FROM.match(sentence)
    if got is not None:
        return [(SPEAKER, canonical_relation(got["slot"]), got["value"], CONFIDENCE)]
    became = _BECAME.match(sentence)
    if became is not None:
        slot = became["slot"] or ""
        relation = _slot_name(slot)
        if relation is not None and slot.split()[-1].lower() in _ROLE_HEADS:
            return [(SPEAKER, relation, became["value"].strip(), CONFIDENCE)]
        return []
    took = _TOOK_OVER.match(sentence)
    if took is not None:
        slot = took["slot"] or ""
        relation = _slot_name(slot.replace("-", " "))
        owner = (took["owner"] or "").strip() or SPEAKER
        if relation is not None and not took["value"].lower().startswith(("we ", "i ")):
            return [(owner, relation, took["value"].strip(), CONFIDENCE)]
        return []
    for verb_pattern in (_RUNS, _BY):
        match = verb_pattern.match(sentence)
        if match is not None:
            found = match.groupdict()
            owner = SPEAKER if found.get("we") else (found.get("owner") or "")
            verb = found["verb"].lower().removesuffix(" on")
            relation = "runs" if verb in ("run", "runs", "is", "are", "on") else verb
            if verb_pattern is _BY:
                relation = f"{relation}_by"
            if owner and _slot_name(owner) is not None:
                return [(owner, relation, found["value"].strip(), CONFIDENCE)]
            return []
    for pattern in (_ROLE, _NOTE, _IS):
        match = pattern.match(sentence)
        if match is None:
            continue
        found = match.groupdict()
        slot = "on call" if found.get("oncall") else (found.get("slot") or "")
        if (
            pattern is _ROLE
            and not found.get("oncall")
            and slot.split()[-1:]
            and slot.split()[-1].lower() not in _ROLE_HEADS
        ):
            return []
        if pattern is _NOTE and re.fullmatch(r"[A-Z][a-z]+", slot):
            return []  # "Caroline: Hey Mel": a speaker's label, not a slot
        relation = _slot_name(slot)
        value = found["value"].strip()
        if relation is None or not _VALUE_RE.match(value):
            return []
        owner = found.get("owner") or found.get("paren") or found.get("on") or SPEAKER
        return [(owner.strip(), relation, value, CONFIDENCE)]
    return []


@dataclass(frozen=True, slots=True)
class NotesChange:
    """``old`` is replaced by ``target`` on the same owner and slot."""

    old: Relation
    target: str


def cued(text: str) -> bool:
    """Whether ``text`` may say a held slot's new value in notes form: short, with a
    word of a change, no hedge, question, plan or "also" (so the graph is read only
    then)."""
    if len(text.split()) > 30 or not _CUE.search(text):
        return False
    if NOT_LASTING.search(text):  # a cover, an increment, a one-off: the slot holds
        return False
    return not (HEDGE.search(text) or _NOT_STATED.search(text) or ADDITION_WORDS.search(text))


def notes_changes(text: str, held: Sequence[Relation]) -> list[NotesChange]:
    """The one held slot ``text`` gives a new value in notes form (module docstring),
    ``held`` being the namespace's current relations, newest first."""
    if not cued(text):
        return []
    words = set(_words(text))
    found: dict[int, NotesChange] = {}
    for relation in held:
        if relation.relation_type == "talks_about":
            continue
        new = _new_value(text, words, relation)
        if new is not None:
            found.setdefault(relation.id, NotesChange(relation, new))
    # One slot per memory: a line giving two slots values is a list, not one change.
    changes = list(found.values())
    if len({(c.old.source, c.old.relation_type) for c in changes}) != 1:
        return []
    return changes[:1]


#: Relation words that name no slot: the owner named says which slot is meant.
_GENERIC = word_set("uses has have runs run is by scheduled set to of in on at for")
#: The noun of a relation said by its verb ("Search service owner changed to Bartek").
_NOUNS = {"owned": "owner", "led": "lead", "managed": "manager", "triaged": "triage"}


def _slot_words(relation: Relation) -> list[str]:
    return list(_type_words(relation.relation_type))


def _slot_names(relation: Relation) -> list[list[str]]:
    """The ways a memory names the slot: its own words, and the vocabulary's names of
    it ("manager" for ``reports_to``)."""
    return [list(name) for name in _type_names(relation.relation_type)]


# A slot's words depend on its type alone; a notes change reads them for each of the
# namespace's 200 newest relations, whose types repeat (rules26): made once a type.
@functools.lru_cache(maxsize=1024)
def _type_words(relation_type: str) -> tuple[str, ...]:
    words = _words(relation_type.replace("_", " "))
    return tuple(_NOUNS.get(w, w) for w in words if w not in _GENERIC)


@functools.lru_cache(maxsize=1024)
def _type_names(relation_type: str) -> tuple[tuple[str, ...], ...]:
    own = list(_type_words(relation_type))
    names = [own] if own else []
    for name in vocabulary.relation_names(relation_type):
        words = [w for w in _words(name) if w not in _GENERIC]
        if words and words not in names:
            names.append(words)
    return tuple(tuple(name) for name in names)


def _parts_of_compounds(whole: set[str]) -> set[str]:
    """The words only said inside a hyphenated word ("mother" of "mother-in-law"), but
    the parts of "on-call" (a slot said with or without its hyphen)."""
    parts = {p for w in whole if "-" in w and w != "on-call" for p in w.split("-")}
    return parts - {w for w in whole if "-" not in w}


# The text's words are the same for each of the 200 held relations a notes change is
# read against (rules26): cut once a text.
@functools.lru_cache(maxsize=16)
def _compound_parts(text: str) -> frozenset[str]:
    whole = {w.lower() for w in re.findall(r"[^\W_]+(?:[-.'’][^\W_]+)*", text)}
    return frozenset(_parts_of_compounds(whole))


def _owner_named(words: set[str], relation: Relation) -> bool:
    if canonical_name(relation.source) in change_slots.SPEAKERS:
        return True
    owner = [w for w in _words(relation.source) if w not in ("the", "service", "team")]
    return bool(owner) and all(_said(w, words) for w in owner)


def _said(word: str, words: set[str]) -> bool:
    """A slot's word in the memory: itself, its plural, or "on-call" as "on call"."""
    return word in words or f"{word}s" in words or (word.endswith("s") and word[:-1] in words)


def _new_value(text: str, words: set[str], relation: Relation) -> str | None:
    old = relation.target.strip()
    if not old:
        return None
    slot = _slot_words(relation)
    # An owner is said as a word of its own: "mother-in-law" is not "mother".
    owner_said = _owner_named(words - _compound_parts(text), relation)
    speaker = canonical_name(relation.source) in change_slots.SPEAKERS
    if speaker and _OTHER_OWNER.search(text):
        return None  # "my brother just moved to Austin": his slot, not the speaker's
    owner_own = not speaker and owner_said
    # The speaker's slot is named by its own words ("my rent"), never by the
    # vocabulary's names of it alone ("moved to" for ``lives_in``); a long one may
    # leave out one word but its first ("the worker pool" for ``worker_pool_size``;
    # "webhook retry limit" is not ``payment_retry_limit``).
    names = [slot] if speaker else _slot_names(relation)
    fully = any(name and all(_said(w, words) for w in name) for name in names)
    slot_said = (
        fully
        or (
            speaker
            and len(slot) >= 3
            and _said(slot[0], words)
            and sum(not _said(w, words) for w in slot) == 1
        )
        # a word of the slot beside its owner ("Search scaled to 4 replicas" for
        # ``replica_count``), or a generic relation of a named owner
        or (owner_own and (not slot or any(_said(w, words) for w in slot)))
        # a tool of a named owner: ``uses_<category>``'s category is the vocabulary's
        # guess ("team calendar uses_email Outlook"), not a word the memory must say
        or (owner_own and vocabulary.slot_category(relation.relation_type) is not None)
    )
    if fully and not speaker and not owner_said:
        # the slot said whole, its owner by one of its words ("p1 sla" for p1 tickets)
        owner_said = any(
            _said(w, words - _compound_parts(text)) for w in _words(relation.source) if len(w) > 1
        )
    by_old = _by_old(text, old)
    if by_old is not None:
        # The old value named beside the new one: a word of the slot or of its owner
        # says which slot ("staging cluster upgraded 1.27 → 1.29").
        owner_words = [w for w in _words(relation.source) if w not in (SPEAKER, "the", "team")]
        if not (
            slot_said
            or any(_said(w, words) for w in slot)
            or (owner_words and all(_said(w, words) for w in owner_words))
        ):
            return None
        return _shaped(old, by_old) if _same_category(relation, by_old) else None
    if not (slot_said and owner_said):
        return None
    if not (old[:1].isupper() or re.search(r"\d", old) or re.fullmatch(_AMOUNT, old, re.I)):
        return None  # a value in lower case ("yoga") is told apart by its old value only
    new = _by_slot(text, relation, old)
    if new is None or not _same_category(relation, new):
        return None
    return _shaped(old, new)


def _same_category(relation: Relation, value: str) -> bool:
    """Whether a new value may be the slot's: a tool of another known category is
    another slot ("the app moved to Vercel" leaves its database, Postgres), a day or
    holiday a slot of no day names when ("at Easter")."""
    if change_plain.when_not(value, relation.target):
        return False
    category = vocabulary.slot_category(relation.relation_type)
    if category is None:
        return True
    found = vocabulary.member_category(value)
    return found is None or found == category


def _by_old(text: str, old: str) -> str | None:
    """The new value said beside the old one: "A → B", "from A to B", "A to B" after a
    verb of setting, "B (was A)"."""
    forms = _old_forms(old)
    lower = text.lower()
    for form in forms:
        if form.lower() not in lower:
            continue  # the old value unsaid: no pattern of it is built (one per value)
        a = re.escape(form)
        patterns = (
            rf"(?<![\w.]){a}\s*{_ARROW}\s*(?P<b>[^\s,;()]+(?:\s+[^\s,;()]+)?)",
            rf"\bfrom\s+{a}\s+to\s+(?P<b>[^\s,;()]+(?:\s+[^\s,;()]+)?)",
            rf"\b{_SET}\s+(?:\w+\s+){{0,3}}?{a}\s+to\s+(?P<b>[^\s,;()]+(?:\s+[^\s,;()]+)?)",
            rf"(?P<b>[^\s,;()]+(?:\s+[^\s,;()]+)?)\s+\(was\s+{a}\)",
            rf"(?<![\w.]){a}\s+replaced\s+by\s+(?P<b>[^\s,;()]+(?:\s+[^\s,;()]+)?)",
            rf"(?<![\w.]){a}\s+out,\s+(?P<b>[^\s,;()]+(?:\s+[^\s,;()]+)?)\s+in\b",
        )
        for said in _after(patterns, text):
            return _value_in(said, old, either=True)
    return None


def _after(patterns: Sequence[str], text: str) -> Iterator[str]:
    """What each pattern that matches ``text`` reads as the new value (group ``b``)."""
    for pattern in patterns:
        match = re.search(pattern, text, re.IGNORECASE)
        if match is not None:
            yield match.group("b")


def _old_forms(old: str) -> list[str]:
    """The spellings an old value is named by: itself, its number alone for a named
    version ("12" of "PostgreSQL 12"), without its title ("Kaur" of "Dr. Kaur")."""
    forms = [old]
    parts = old.split()
    if len(parts) > 1 and re.match(r"^\d", parts[-1]):
        forms.append(parts[-1])
    if len(parts) > 1 and parts[0].rstrip(".").lower() in ("dr", "mr", "mrs", "ms", "prof"):
        forms.append(" ".join(parts[1:]))
    return forms


def _by_slot(text: str, relation: Relation, old: str) -> str | None:
    """The value after a verb of setting, "now", "is now", or a colon, in a memory that
    names the slot ("Gateway timeout raised to 90s", "log retention now 30 days", "new
    manager as of this week: Felix")."""
    patterns = (
        rf"\b{_SET}\s+(?:[\w.-]+\s+){{0,5}}?(?:to|at)\s+(?P<b>.+)",
        r"\b(?:is|are|['’]s)\s+now\s+(?P<b>.+)",
        r"\bnow\s+(?:is\s+|at\s+|on\s+)?(?P<b>.+)",
        # "Batch window now opens at 23:30": the slot's own verb after "now"
        r"\bnow\s+[a-z]+\s+(?:at|on|to|in|from)\s+(?P<b>.+)",
        r"\b(?:is|are)\s+(?P<b>.+?)\s+(?:now|from\s+today|from\s+now\s+on|as\s+of\s+\w+)\b",
        # "it's on X now", "are tracked in X now", "come from X now"
        r"(?:\b(?:is|are|lives?|runs?|sits?|comes?)|['’]s)\s+(?:[a-z]+ed\s+)?(?:on|at|in|with|from|by)\s+"
        r"(?P<b>.+?)\s+now\b",
        r"\bnew\s+[\w\s-]{0,30}?:\s*(?P<b>.+)",
    )
    for said in _after(patterns, text):
        value = _value_in(said, old)
        if value is not None and not set(_words(value)) & set(_slot_words(relation)):
            return value
    return None


def _value_in(rest: str, old: str, *, either: bool = False) -> str | None:
    """The first value of the old one's shape at the start of ``rest``: a number for an
    amount or version, a name for a name (``either``: the old value named beside it
    says the slot, so "Route 53 → Cloudflare" may change a name for a number)."""
    rest = re.sub(r"^(?:now|is|are|to|at|on)\s+", "", rest.strip(), flags=re.IGNORECASE)
    if either and rest[:1].isupper():
        match = re.match(_NAME, rest)
        return match.group(0) if match is not None else None
    if re.search(r"\d", old) or re.fullmatch(_AMOUNT, old, re.IGNORECASE):
        # a product may stand before a version ("node 20"), never an article ("a 52V")
        match = re.match(
            rf"(?:(?!(?:a|an|the|to|at|by|from)\s)[A-Za-z][\w.-]*\s+)?({_AMOUNT})",
            rest,
            re.IGNORECASE,
        )
        return match.group(0).strip() if match is not None else None
    if _DAY.fullmatch(old):
        match = _DAY.match(rest)
        return match.group(0).capitalize() if match is not None else None
    if old[:1].isupper():
        match = re.match(_NAME, rest)
        if match is None:
            return None
        value = match.group(0)
        return value if canonical_name(value) != canonical_name(old) else None
    match = re.match(r"[\w.-]+", rest)
    return match.group(0) if match is not None else None


def _shaped(old: str, new: str | None) -> str | None:
    """The new value written as the old one is: a version keeps its product ("Postgres
    16" for "Postgres 14" then "16"), an amount its unit ("30 days" for "14 days" then
    "30")."""
    if new is None:
        return None
    new = new.strip().rstrip(".")
    if canonical_name(new) == canonical_name(old) or not new:
        return None
    parts, new_parts = old.split(), new.split()
    if len(parts) > 1 and re.match(r"^\d", parts[-1]) and len(new_parts) == 1 and new[:1].isdigit():
        return " ".join([*parts[:-1], new])
    if len(parts) == 2 and parts[0][:1].isdigit() and len(new_parts) == 1 and new.isdigit():
        return f"{new} {parts[1]}"
    return new
