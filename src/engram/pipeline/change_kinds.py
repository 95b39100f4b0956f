"""One value at a time by the noun's kind (issue 28, FEATURES G2): whether an attribute
said as "my/our/X's <noun> is Y" holds one value or many.

"My bank is Monzo" then "My bank is Starling" is a change though no word says so: a
person banks with one bank at a time, as they have one landlord, one phone number, one
salary. "My friend is Sam" then "My friend is Jo" is two friends. What decides is the
kind of thing the noun names, so the lists below are kinds, each with the reason its
nouns hold one value, not the words of any test sentence:

- **a provider of a service to the owner** (bank, insurer, GP, dentist, vet, barber,
  gym, school, broadband): one is used at a time; a second is said as a second
  ("my other bank", "another dentist"), which the addition words already read;
- **a person over the owner** (manager, landlord, coach, team lead, partner): a role
  one person fills at a time;
- **an identifier** (name, address, phone number, email, handle, title, codename):
  what names or reaches the owner now;
- **a measure** (rent, salary, budget, rate, price, bedtime, cadence): one amount,
  time or frequency at a time;
- **a thing in use** (car, phone, laptop, browser, plan, tier, version): "my car" is
  the one driven now.

Kinds people hold many of never close by kind: friends, colleagues, neighbours,
relatives, children, pets, hobbies, tools, books. A relative ("my sister is a nurse")
is described by "is", not valued. Plural nouns, and a noun with "other / second /
backup / spare / old" in front, hold many too.

A value must look like one, or "my bank is closed today" would replace the bank: a
name (a capital letter) for a provider, a person or a thing in use; a number or a
time for a measure; a frequency word for a cadence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engram.pipeline.change_words import LEAD, Claim, phrase, signal_of, subject
from engram.pipeline.patterns import word_set

#: Providers of a service to the owner: one used at a time.
PROVIDERS = word_set("""
    bank insurer insurance supplier provider carrier network broadband isp host registrar
    mechanic garage pharmacy hairdresser barber optician dentist doctor gp vet physio
    physiotherapist therapist counsellor counselor psychiatrist psychologist allergist
    dermatologist orthodontist accountant solicitor lawyer nursery school college
    university gym employer photographer caterer venue
    """)
#: People over the owner, or in a role one person fills at a time.
PEOPLE_OVER = word_set("""
    manager boss supervisor landlord landlady coach tutor teacher mentor lead owner chair
    chairperson captain goalkeeper drummer singer bassist guitarist partner spouse wife
    husband boyfriend girlfriend fiance fiancee
    """)
#: What names or reaches the owner now (said in lower case as often as not).
IDENTIFIERS = word_set("""
    name nickname surname address email number handle username postcode pronouns title
    codename code password passcode pin
    """)
#: One amount, time or frequency at a time.
MEASURES = word_set("""
    rent salary wage budget price fee cost rate bedtime deadline limit allowance premium
    bill tax
    """)
#: How often: a frequency said in words is the value ("our release cadence is weekly").
CADENCES = word_set("cadence frequency schedule")
#: The one thing of its kind in use.
IN_USE = word_set("car phone laptop browser editor watch plan tier subscription version")
#: Kinds held many at once: never one by kind (documented beside the ones above; a
#: noun in neither list is decided by the closing plan's other rules, as before).
MANY = word_set("""
    friend colleague coworker co-worker neighbour neighbor cousin child kid son daughter
    sibling brother sister aunt uncle nephew niece grandchild relative pet dog cat hobby
    interest tool book
    """)
#: Words in front of a noun that make it one of several.
_SEVERAL = word_set("other second third another backup spare old previous former ex extra")

#: One relative, said two ways ("Mum" / "my mother"): each group is one person to the
#: speaker, so a fact of one name and a change said with another meet.
KIN_NAMES: tuple[frozenset[str], ...] = (
    word_set("mum mom mother mummy mommy mam ma mama"),
    word_set("dad father daddy papa pa"),
    word_set("grandma grandmother gran granny nan nana nanna"),
    word_set("grandpa grandfather grandad granddad gramps"),
)
_KIN = {name: group for group in KIN_NAMES for name in group}


def kin_names(name: str) -> tuple[str, ...]:
    """The other names of the relative ``name`` is ("mum" -> "mother", "mom", ...)."""
    key = name.lower()
    return tuple(sorted(_KIN.get(key, frozenset()) - {key}))


_FREQUENCY = re.compile(
    r"^(?:daily|weekly|fortnightly|biweekly|monthly|quarterly|yearly|annually|nightly|"
    r"every\s+\w+(?:\s+\w+)?)$",
    re.I,
)
_NUMBER = re.compile(r"[\d£$€]")


def attribute_one(attribute: str, target: str) -> bool | None:
    """True: the attribute (``"electricity supplier"``) holds one value at a time and
    ``target`` is a value of it; False: a kind held many at once; None: not decided
    here (see the module docstring)."""
    words = attribute.lower().split()
    if not words:
        return None
    noun = words[-1]
    if noun in MANY or any(w in _SEVERAL for w in words[:-1]):
        return False
    first = target[:1]
    named = first.isupper() or first.isdigit()
    if noun in PROVIDERS or noun in PEOPLE_OVER or noun in IN_USE:
        return True if named else None
    if noun in MEASURES:
        return True if _NUMBER.search(target) else None
    if noun in CADENCES:
        return True if _FREQUENCY.match(target) or named else None
    if noun in IDENTIFIERS:
        return True
    if "on call" in " ".join(words) and named:
        return True  # an on-call rota's slot ("on-call engineer") is one person at a time
    return None


# "Starling is my bank now", "Piotr Kowalski is our landlord": a name, then the
# attribute it is the value of (read only for a kind held one at a time).
_NAMED = re.compile(
    rf"{LEAD}(?P<o>(?-i:[A-Z])[\w.&'’-]*(?:\s+(?-i:[A-Z])[\w.&'’-]*){{0,3}})\s+is\s+(?:now\s+)?"
    r"(?P<s>my|our|(?:the\s+)?[\w.-]+['’]s)\s+"
    r"(?P<a>[a-z][a-z-]*(?:\s+(?!now\b|these\b|nowadays\b)[a-z][a-z-]*)?)"
    r"(?:\s+(?:now|these\s+days|nowadays))?$",
    re.I,
)


def named_attribute(clause: str, speaker: str | None) -> Claim | None:
    """ "Starling is my bank now" -> (user, bank, Starling), when the bank is a kind
    held one at a time (``attribute_one``); else None."""
    match = _NAMED.match(clause)
    if match is None:
        return None
    source, target = subject(match["s"], speaker), phrase(match["o"])
    attribute = match["a"].lower()
    if not source or not target or not attribute_one(attribute, target):
        return None
    return Claim(source, attribute, target, signal_of(clause, False), one=True)


#: Who moves home when they move (a thing that moves changes what it uses).
_PEOPLE = word_set("""
    sister brother mom mum dad mother father parents wife husband partner boyfriend
    girlfriend friend roommate flatmate housemate teammate son daughter kids family boss
    manager neighbor neighbour cousin aunt uncle grandma grandpa colleague coworker
    """)


def names_person(source: str, speaker: str | None = None) -> bool:
    """Whether a claim's subject is a person: the speaker, a name, or someone named by
    their tie to the speaker ("my flatmate")."""
    return source == (speaker or "user") or source[:1].isupper() or source.lower() in _PEOPLE


#: Titles before a surname: "Dr Pike" is "Dr Rowan Pike" (round twenty-five).
_TITLES = frozenset(("dr", "mr", "mrs", "ms", "miss", "prof", "sir"))


def short_name(name: str) -> bool:
    """Whether ``name`` is a person's short name: a first name ("Tomás") or a title and
    a surname ("Dr Pike")."""
    words = name.replace(".", " ").split()
    return name[:1].isupper() and (
        len(words) == 1 or (len(words) == 2 and words[0].lower() in _TITLES)
    )


def short_for(short: str, names: Sequence[str]) -> int | None:
    """Which of the canonical ``names`` the canonical ``short`` name is said short for,
    when one is: "tomás" of "tomás ortega", "dr pike" of "dr rowan pike", else (no
    titled name) "mr dekker" of "bram dekker" (as ``mem.graph.dedupe``'s first-name rule
    pairs them). "dr voss" is "dr hannah voss" beside its alias "hannah voss"."""
    said = short.replace(".", " ").split()
    wholes = [n.replace(".", " ").split() for n in names]
    if len(said) == 1:
        found = [k for k, w in enumerate(wholes) if len(w) == 2 and w[0] == said[0]]
    else:
        found = [k for k, w in enumerate(wholes) if len(w) == 3 and w[0] == said[0]]
        found = [k for k in found if wholes[k][-1] == said[-1]] or [
            k
            for k, w in enumerate(wholes)
            if len(w) == 2 and w[0] not in _TITLES and w[-1] == said[-1]
        ]
    return found[0] if len(found) == 1 else None
