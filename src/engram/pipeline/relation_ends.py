"""Which ends of a read relation name an entity (task x22): a statement's triples,
checked before the graph records them, whoever read them (the inline linker and its
change reader on the write path, the ``extract`` job's rules or model).

A mined chat is full of words a reader can take for a name: "he likes sake" (a pronoun
no one resolved), "my sister says I love spicy food" (reported speech, read as a
subject "sister says I"), "a guy called Mr Okafor" (an unnamed someone "named" a
name). None of them is an entity a user would accept in ``engram graph``, so:

- an end that is a pronoun, or holds one beside a verb of saying, is no entity: its
  triple is dropped (a pronoun names an entity only once resolved, and the readers
  here resolve it before this point or not at all);
- ``(guy, named, Mr Okafor)``: a generic person word is nobody, its naming is dropped;
- a type that carries a name the text gives ("my partner Sam is gluten intolerant"
  read as ``(user, partner_sam, gluten intolerant)``) is the relation to that name,
  ``(user, partner, Sam)``, which the text does state;
- an end that is not a thing at all (:func:`not_a_thing`, the round-fourteen chat):
  a negated value ("My manager is no longer Joost" read as ``reports_to`` "no longer
  Joost"), a group taken for a home ("Joost moved to the platform team" read as
  ``lives_in`` "platform team"), bare numbers used ("we moved the cron to 0 3" read as
  ``cron uses 0 3``) and a verb taken for a subject ("We decided to use the s3manager
  uploader" read as ``decided uses ...``); round seven (task x24's report): a pronoun
  with its verb cut on as a subject ("I'd rather use Podman" read as ``I'd rather
  uses Podman``), code's settings or an account's plan as a home ("feature flags live
  in config", "moved to the Annual subscription"), and an end cut inside a hyphenated
  word ("Migration dry-run ..." read as ``Migration dry``) or a clause read into a
  thing used ("... uses prod snapshot went fine").

What a value says beside the thing it names (a tail such as "part time", an amount, a
degree, a name folded into a type, a role word naming someone) is read in
``relation_values`` (task junk32), which :func:`sound` asks for each triple.

The types a statement closes are kept only for the triples left, as
``extract_job.one_reading`` keeps them.
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from engram.pipeline import change_events, patterns, relation_values, vocabulary
from engram.pipeline.patterns import word_set
from engram.pipeline.triples import PROGRESSIVE
from engram.store.protocols.graph import SINGLE_VALUED, Statement, Triple, canonical_relation

#: Words that refer without naming: an entity only once resolved to a name.
PRONOUNS = word_set(
    """
    i me my mine you your yours he him his she her hers it its we us our they them their
    this that these those someone somebody something everyone everybody
    """
)
#: Pronouns that, inside a longer end, make it a clause, not a name ("sister says I",
#: "he likes"): the personal ones ("Bosch these days" is a name and a time).
_PERSONAL = word_set(
    """
    i me you he him she her we us they them
    """
)
#: Types whose values are pronouns ("my pronouns are they/them").
_OF_PRONOUNS = "pronoun"
#: Verbs that report what someone said or thinks: a name never holds one.
_SAYING = word_set(
    """
    says said thinks thought reckons told tells swears claims reckon
    """
)
#: Words that name a person without saying who: "a guy called ..." names nobody.
_SOMEONE = word_set(
    """
    guy man woman girl boy lady person bloke chap dude fella someone somebody
    """
)
_WORD = re.compile(r"[\w']+")
#: A value said not to hold: "no longer Joost" is Joost, ended, never a value itself.
NEGATED = re.compile(r"^(?:no\s+longer|not|never|no\s+more)\s+(?P<rest>.+)$", re.IGNORECASE)
#: Groups one joins at work, never a home: "moved to the platform team".
GROUPS = word_set(
    """
    team teams squad org organisation organization department dept group unit division
    crew guild tribe chapter channel desk pod
    """
)
#: Verbs of deciding and trying a subjectless clause leaves where its subject goes
#: ("We decided to use X" read as ``decided uses X``).
_VERB_SUBJECTS = word_set(
    """
    decided agreed chose opted planned tried wanted needed started stopped went
    """
)
_LETTER = re.compile(r"[^\W\d_]")
#: Where code, settings and an account's terms are kept, never a home ("feature flags
#: live in config", "moved to the Annual subscription"; task x24, dogfood15).
_NOT_HOMES = word_set(
    """
    config configs configuration settings env environment repo repository codebase code
    file files yaml json toml module folder directory plan subscription membership tier
    tariff package bundle
    """
)
#: Verbs of a clause read into a thing's name ("Migration dry run on a prod snapshot went
#: fine" read as ``Migration dry uses prod snapshot went fine``); lower case only, so a
#: title ("Is This It") stays a name.
_CLAUSE_VERBS = word_set(
    """
    went was were worked failed passed broke looked seemed succeeded crashed
    """
)
#: A pronoun with its verb cut on ("I'd rather use Podman" read as ``I'd rather uses
#: Podman``): a clause, never a subject.
_CONTRACTED = re.compile(r"^(?:i|we|you|he|she|they|it)['’](?:d|m|ll|ve|re|s)\b", re.IGNORECASE)
#: A negation typed without its apostrophe ends what was read as a subject ("i really
#: dont like horror movies" read as ``really dont likes horror movies``, task queue27):
#: an adverb and an auxiliary, a clause whose subject was dropped, never a thing.
_UNAPOSTROPHED = re.compile(
    r"(?:^|\s)(?:dont|doesnt|didnt|cant|couldnt|wont|wouldnt|shouldnt|isnt|arent|wasnt|"
    r"werent|havent|hasnt|hadnt|aint)$",
    re.IGNORECASE,
)
#: Groups one is in at work, never a thing one uses: "I'm on the payments team" read as
#: ``user uses payments team`` (task queue27). Lower case only, and without the words a
#: thing used may end in ("a standing desk", "the #general channel"), so "Microsoft
#: Teams" stays a tool.
_WORK_GROUPS = word_set(
    """
    team squad department dept division guild tribe crew committee council
    """
)
#: A share of what the subject does, read as a thing ("I ride most of my commutes on a
#: Brompton" read as ``user rides most of my commutes``, task queue27).
_SHARE = re.compile(
    r"^(?:most|all|some|half|many|much|few|none|each|both|any|lots|plenty|part|rest)\s+of\b",
    re.IGNORECASE,
)
#: Who someone is to the speaker: a relative's value is a person, never what they are
#: doing ("user sister studying medicine"; "Gina likes being around friends" stays).
_KIN = word_set(
    """
    sister brother mother father mom mum dad wife husband partner son daughter kid kids
    cousin aunt uncle niece nephew grandma grandpa grandmother grandfather friend boss
    manager colleague neighbour neighbor roommate flatmate boyfriend girlfriend fiance
    fiancee
    """
)
#: A participle of building and running things cut loose as a subject ("Airflow is
#: deployed with the official Helm chart" read as ``deployed has_helm official Helm``,
#: dogfood17; "built uses_docs standard MkDocs").
_PARTICIPLES = word_set(
    """
    deployed built hosted installed configured managed provisioned shipped released
    packaged bundled compiled generated served run booked paid
    """
)
#: A way to reach someone: "Rosa has a new email" read as ``Rosa has_email new email``
#: names the noun, not an address (round twenty-five's fold E leftovers).
_CONTACTS = word_set("email e-mail mail number phone mobile address")
#: ... of which a thing had: "I got a new phone" is a phone.
_DEVICES = word_set("phone mobile")
#: A cheap first test: every relation read is asked (the add path).
_CONTACT_HINT = re.compile(r"mail|number|phone|mobile|address", re.IGNORECASE)


#: A day of the year, alone ("14 March", "on 3 April", "next tuesday", "the 1st"). "My
#: partner's birthday is on 3 April" was read as ``partner's birthday uses 3 April``
#: (round sixteen's proxy, task x25): someone's day is a slot of theirs, ``partner
#: birthday 3 April``, as "my wife's birthday is 14 March" is read. An event's own day
#: (``launch uses June 2``, a feature freeze moved from the 10th to the 14th) stays as
#: read: the closing plan closes the old day with it. A bare year is left.
_DAY_ONLY = re.compile(
    rf"^(?:on\s+|the\s+)*(?:{patterns.DATE.pattern}|\d{{1,2}}(?:st|nd|rd|th))"
    r"(?:\s+of\s+(?:every|each|the)\s+month)?$",
    re.IGNORECASE,
)


def is_day(target: str) -> bool:
    """Whether ``target`` is only a day of the year or week (:data:`_DAY_ONLY`)."""
    end = target.strip().rstrip(".")
    if _LETTER.search(end) is None or end.lower().startswith(("age", "at age")):
        return False  # bare numbers are read above; an age is no day
    return _DAY_ONLY.match(end) is not None


#: How many (source, relation, target) verdicts of :func:`not_a_thing` are kept for reuse
#: (rules26): the closing plan and :func:`sound` ask it of the same triples, and it is a
#: pure function of them.
READ_CACHE = 1 << 15


@functools.lru_cache(maxsize=READ_CACHE)
def not_a_thing(
    source: str, relation: str, target: str, *, numbers: bool = True, had: bool = False
) -> bool:
    """Whether a read relation names no thing at one of its ends (module docstring):
    a negated value, a verb as the subject, a work group as a home, or bare numbers as
    a thing used or a place. A quantity's own types ("memory_limit 512Mi",
    "cron_schedule 0 4") keep their numbers; ``numbers`` False leaves bare numbers to
    the closing plan, which may read them as a held slot's ("moved standup to 10").
    A value that only repeats its type's noun or its subject names nothing
    (``relation_values.self_valued``), unless ``had``: a thing had, said with an
    article ("Tomasz has a parrot"), kept in passing by :func:`sound`."""
    lowered = source.strip().lower()
    if NEGATED.match(target.strip()) or lowered in _VERB_SUBJECTS or lowered in _PARTICIPLES:
        return True
    if target.strip() in _PARTICIPLES:
        return True  # "Our docs are built with MkDocs" read as ``user uses_docs built``
    if _CONTACT_HINT.search(target) is not None and _contact_noun(relation, target):
        return True  # "Rosa has a new email, ..." read as ``Rosa has_email new email``
    if _CONTRACTED.match(source.strip()) or _UNAPOSTROPHED.search(source.strip()):
        return True
    if _SHARE.match(target.strip()):
        return True  # "most of my commutes", "half of my lifeline": no thing
    if relation.lower().split("_")[-1] in _KIN and PROGRESSIVE.match(target.strip()):
        return True  # "My sister is studying medicine": what she does, not who she is
    if any(w in _SAYING for w in relation.lower().split("_")):
        return True  # "my friend reckons Rust is the future": ``friend_reckons`` reports
    kind = vocabulary.canonical(relation, target).relation_type
    if not had and relation_values.self_valued(source, relation, kind, target):
        return True  # ``Leo has_lesson lessons``: the type's noun again (task close37)
    if kind == "uses" and (words := _WORD.findall(target)) and words[-1] in _WORK_GROUPS:
        return True  # "payments team" (lower case: "Microsoft Teams" is a tool)
    if kind == "works_at" and change_events.is_event(source):
        return True  # "The wedding is at Quinta da Regaleira": a venue, not an employer
    if kind not in ("uses", "lives_in"):  # "uses_phone 07700 900123" is a number had
        return False
    if _LETTER.search(target) is None or relation_values.is_quantity(target):
        return numbers  # "0 3", "1.5 kW": an amount is no thing used (task junk32)
    if any(w in _CLAUSE_VERBS for w in _WORD.findall(target)):
        return True  # "prod snapshot went fine": a clause, not a thing used
    words = _WORD.findall(target.lower())
    return kind == "lives_in" and bool(words) and (words[-1] in GROUPS or words[-1] in _NOT_HOMES)


def _contact_noun(relation: str, target: str) -> bool:
    """Whether ``target`` is only a way to reach someone named by its noun ("new email",
    "new phone number"): no address or number, no value (a new phone had is a phone)."""
    said = [w for w in _WORD.findall(target.lower()) if w not in ("new", "old")]
    if not said or not _CONTACTS.issuperset(said):
        return False
    return relation.lower().split("_")[-1] in _CONTACTS or not _DEVICES.intersection(said)


def names_entity(name: str) -> bool:
    """Whether ``name`` can be an entity: not a pronoun, and no clause ("sister says
    I"). A title written in capitals ("It Ends With Us") is a name."""
    words = _WORD.findall(name)
    if not words:
        return False
    if len(words) == 1:
        return words[0].lower() not in PRONOUNS
    if all(w[:1].isupper() for w in words):
        return True
    lowered = [w.lower() for w in words]
    if any(w in _SAYING for w in lowered):
        return False
    return not any(
        w in _PERSONAL and (w == "i" or not o[:1].isupper())
        for w, o in zip(lowered, words, strict=True)
    )


# "friend Priya", "brother Ken": what someone is to the speaker, then their name.
_TITLED = re.compile(r"^(?!(?:of|to|in|at|for|from|with|on|and|or|the)\s)[a-z][\w'-]*\s+(?=[A-Z])")
# "someone called Omar", "a guy named Mr Okafor": the name is the entity.
_CALLED = re.compile(r"^(?:[a-z][\w'-]*\s+){0,2}(?:called|named)\s+(?=[A-Z])")


def _bare_name(end: str, *, subject: bool) -> str:
    """ "friend Priya" -> "Priya" (a subject), "someone called Omar" -> "Omar": the
    entity is the name; what the person is to someone stays in the text."""
    bare = _CALLED.sub("", end)
    if subject and bare == end:
        bare = _TITLED.sub("", end)
    return bare if bare and names_entity(bare) else end


def _named_type(triple: Triple, text: str) -> Triple | None:
    """``(user, partner_sam, X)`` -> ``(user, partner, Sam)`` when the text says
    "partner Sam" with the name capitalised; None when the type carries no name."""
    parts = canonical_relation(triple[1]).split("_")
    lower = text.lower() if text.isascii() else None
    for cut in range(1, len(parts)):
        head, tail = parts[:cut], parts[cut:]
        if lower is not None and not all(word in lower for word in head):
            continue  # the type's words are not in the text: the pattern cannot match
        match = _named_pattern(tuple(head), tuple(tail)).search(text)
        # An acronym ("session TTL", "the API") is the slot's own word, not a name.
        if match is not None and not match.group(1).isupper():
            return (triple[0], "_".join(head), match.group(1), triple[3])
    return None


@functools.lru_cache(maxsize=1024)
def _named_pattern(head: tuple[str, ...], tail: tuple[str, ...]) -> re.Pattern[str]:
    """The type's words in front of a name, the name's words capitalised: "partner Sam"
    for ``partner_sam`` cut after "partner" (built once per cut of a type)."""
    pattern = (
        r"\b" + r"\s+".join(map(re.escape, head)) + r"\s+("
        + r"\s+".join(rf"(?-i:[A-Z]){re.escape(w[1:])}" for w in tail) + r")\b"
    )  # fmt: skip
    return re.compile(pattern, re.IGNORECASE)


def _cut_word(end: str, text: str) -> bool:
    """Whether ``end`` ends inside a hyphenated word of ``text`` ("Migration dry-run uses
    ..." read as ``Migration dry uses ...``): half a word names nothing (task x24)."""
    end = end.strip()
    at = text.find(f"{end}-")  # a plain find first: no pattern built for most ends
    return (
        at >= 0
        and (at == 0 or not text[at - 1].isalnum())
        and text[at + len(end) + 1 :][:1].isalnum()
    )


#: Whom a thing is done with, not a part a thing has ("I cook dinner with the kids",
#: "we run retros with the contractors": task mend28 read ``dinner has_kid kids``); with
#: ``_KIN``, each as ``vocabulary.head`` gives it.
_COMPANY = word_set(
    """
    junior senior intern contractor twin child children student trainee apprentice
    volunteer client customer teammate coworker peer mentor mentee
    """
)


def _done_with(triple: Triple, text: str) -> bool:
    """Whether a part read from "X with a Y" (``X has Y``) is what X is done with: people
    ("pair program with the juniors"), or a tool the speaker does their own X with ("I
    track my runs with a Garmin Forerunner": ``runs has_forerunner`` was read). "An
    efoil with a 12V20Ah battery", "a cabin with a wood stove" keep their parts."""
    relation = canonical_relation(triple[1])
    if relation != "has" and not relation.startswith("has_"):
        return False
    with_, own = _with_patterns(triple[0].strip())
    if with_.search(text) is None:
        return False
    noun = vocabulary.head(triple[2])
    if noun in _COMPANY or noun in _KIN or noun in GROUPS:
        return True
    return own.search(text) is not None


@functools.lru_cache(maxsize=1024)
def _with_patterns(source: str) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """``_done_with``'s two patterns for a subject ("X with", "I <verb> my X with"),
    compiled once a subject, not once a triple."""
    name = re.escape(source)
    return (
        re.compile(rf"\b{name}\s+with\s", re.IGNORECASE),
        re.compile(rf"\b(?:I|we)\s+[\w/-]+\s+(?:my|our)\s+{name}\s+with\s", re.IGNORECASE),
    )


def _verb_of_a_name(relation: str, text: str) -> bool:
    """Whether a one-word relation is read from a word the text only writes as part of
    a name, title-cased inside a sentence ("I run in ... Hoka Clifton and Saucony Ride
    shoes": ``Hoka Clifton rides shoes`` was read; task mend28). "Sam rides a
    Brompton" says the verb and keeps it, and an initialism is a slot's own name ("My GP
    is Dr. Reyes": ``user gp``)."""
    if not relation.isalpha():
        return False
    stem = relation.removesuffix("s")
    said = list(re.finditer(rf"\b{stem}(?:s|es|d|ed|ing)?\b", text, re.IGNORECASE))
    return bool(said) and all(
        m[0].istitle() and text[: m.start()].rstrip()[-1:] not in ("", ".", "!", "?", ":")
        for m in said
    )


# "partner's birthday": one's named slot, the possessor first.
_POSSESSED = re.compile(r"^(?P<owner>[\w-]+(?:\s[\w-]+)?)'s\s+(?P<slot>[a-z]+)$")


def _owned_day(triple: Triple) -> Triple | None:
    """``(partner's birthday, uses, 3 April)`` -> ``(partner, birthday, 3 April)``: a
    possession's day is the possessor's slot, not a thing used; None otherwise."""
    if canonical_relation(triple[1]) != "uses" or not is_day(triple[2]):
        return None
    match = _POSSESSED.match(triple[0].strip())
    return None if match is None else (match["owner"], match["slot"], triple[2], triple[3])


#: Words a change says beside its new value, read into it by a reader that cuts the value
#: at the clause's end ("builds run on GitHub Actions these days", "we're on Tailscale
#: across the board", "the postal address is now 7 Quay Hill", "went to Leopold instead").
_CHANGE_TAIL = re.compile(
    r"(?:\s+(?:these\s+days|nowadays|now|instead|lately|any\s?more|across\s+the\s+board|"
    r"for\s+good))+$"
)
_CHANGE_HEAD = re.compile(r"^now\s+")


def _unchanged(target: str) -> str:
    """A value without the words of change said beside it (``_CHANGE_TAIL``)."""
    if " " not in target:
        return target
    bare = _CHANGE_HEAD.sub("", _CHANGE_TAIL.sub("", target))
    return bare if bare and names_entity(bare) else target


def sound(statement: Statement, text: str) -> Statement:
    """``statement`` with only the triples whose ends name entities (module docstring);
    ``text`` is the memory the statement was read from."""
    kept: list[Triple] = []
    as_read: set[str] = set()  # the types of the triples kept as read: they may close
    for triple in statement.triples:
        relation = canonical_relation(triple[1])
        source = _bare_name(triple[0], subject=True)
        target = _bare_name(relation_values.bare(_unchanged(triple[2]), relation), subject=False)
        if not names_entity(source):
            continue
        if not names_entity(target) and _OF_PRONOUNS not in relation:
            continue
        if relation == "named" and source.strip().lower() in _SOMEONE:
            continue
        read = relation_values.reread((source, relation, target, triple[3]), text)
        if read is None:
            continue  # "25k total", "pretty cold", ``has_called``: no thing (junk32)
        if reread := read[:3] != (source, relation, target):
            source, relation, target = read[:3]
        had = had_thing((source, relation, target, triple[3]), text)  # "has a parrot": in passing
        if not_a_thing(source, relation, target, had=had) or _cut_word(source, text):
            continue
        triple = (source, relation if reread else triple[1], target, triple[3])
        if _done_with(triple, text) or _verb_of_a_name(relation, text):
            continue
        named = _named_type(triple, text) if "_" in relation else _owned_day(triple)
        if named is not None or reread or had:
            triple = named or triple  # a relation the text states in passing: it closes nothing
        else:
            as_read.add(relation)
        if triple not in kept and not (reread and any(k[:3] == triple[:3] for k in kept)):
            kept.append(triple)
    if kept == list(statement.triples):
        return statement
    closes = SINGLE_VALUED if statement.single_valued is None else statement.single_valued
    closing = {canonical_relation(k) for k in closes} & as_read
    return replace(statement, triples=kept, single_valued=frozenset(closing))


_ARTICLE = re.compile(r"^(?:a|an)\s+", re.IGNORECASE)


def had_thing(triple: Triple, text: str) -> bool:
    """Whether ``triple``'s value only repeats its type's noun (``has_cat cat``) and the
    text says it with an article, a thing had ("Mrs Aziz has a cat"), where "Leo has
    lessons", "I have standup" say no thing (task close37)."""
    source, relation, target = triple[0], triple[1], triple[2].strip()
    kind = vocabulary.canonical(canonical_relation(relation), target).relation_type
    if not target or not relation_values.self_valued(source, relation, kind, target):
        return False
    thing = re.escape(_ARTICLE.sub("", target))  # read as "a parrot" or as "parrot"
    if re.search(rf"\b(?:a|an)\s+{thing}\b", text, re.IGNORECASE) is None:
        return False
    # "Rosa has a new email, ...": a contact noun is no thing had, article or not
    return not not_a_thing(source, relation, target, had=True)


def no_claim(source: str, relation: str, target: str, text: str) -> bool:
    """Whether a change claim read from ``text`` names no thing (:func:`not_a_thing`,
    bare numbers left to the plan); a thing had said with an article ("Linda has a
    whippet") is one, though its value only names its type (task close37)."""
    had = had_thing((source, relation, target, 0.0), text)
    return not_a_thing(source, relation, target, numbers=False, had=had)


def held_back(statement: Statement, text: str) -> tuple[Statement, list[Triple]]:
    """``statement`` without the things had that its value only names by its type
    (:func:`had_thing`), and those triples. The closing plan never sees them (its
    value is no slot's value, so it closes nothing, and :func:`not_a_thing` would drop
    them); :func:`with_held_back` adds them back after it, in passing."""
    had = [t for t in statement.triples if had_thing(t, text)]
    if not had:
        return statement, []
    return replace(statement, triples=[t for t in statement.triples if t not in had]), had


def with_held_back(statement: Statement, had: list[Triple]) -> Statement:
    """``statement`` (the closing plan's, made sound) with ``had`` (:func:`held_back`)
    added back under their stored type (``has_cat``), unless a claim read them too:
    said in passing, so none of their types closes by them."""
    closes = statement.single_valued
    kept: list[Triple] = []
    for source, relation, target, confidence in had:
        kind = vocabulary.canonical(canonical_relation(relation), target).relation_type
        again = any(t[2] == target and canonical_relation(t[1]) == kind for t in statement.triples)
        if again or not names_entity(source) or (closes is not None and kind in closes):
            continue
        kept.append((source, kind, target, confidence))
    return replace(statement, triples=[*statement.triples, *kept]) if kept else statement
