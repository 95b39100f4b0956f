"""What a change replaces (issue 28, FEATURES G2): the current relation whose target is
the value a text names as replaced or ended ("replaced MySQL with Postgres", "sold the
Corolla", "Gareth left the company"), read for the closing plan
(:mod:`engram.pipeline.closing`).
"""

from __future__ import annotations

import re

from engram.pipeline.change_slots import SPEAKER, Reads
from engram.pipeline.patterns import word_set
from engram.store.protocols.graph import Entity, Relation, canonical_name

#: Family and friends: what they replace is their own. "My sister swapped her Dropbox
#: for Proton Drive" closed ``invoices uses_storage Dropbox`` (round fourteen's notes).
#: Colleagues, a boss or a manager change the team's things, so they are not here.
_KIN = word_set("""
    sister brother mum mom mother dad father wife husband partner boyfriend girlfriend
    friend mate buddy pal flatmate roommate housemate son daughter kid kids children
    neighbour neighbor neighbours neighbors cousin aunt uncle parents grandma grandpa
    """)


def replaced(
    reads: Reads,
    subject: Entity | None,
    old: str,
    other_person: bool = False,
    owner: str | None = None,
) -> Relation | None:
    """The current relation whose target is the replaced value: the subject's if it
    holds one, else the most recent of anyone's ("we migrated billing from MySQL":
    the billing service holds it), but never the speaker's when another person
    changed (``other_person``: "my flatmate switched from tea to coffee" leaves the
    user's tea alone; found by round nineteen's held-out fold F). A family member or
    friend (``owner``, the claim's subject) replaces only a value of their own."""
    value = reads.entity(old)
    if value is None:
        return held_by_word(reads, subject, old)
    into = [
        r
        for r in reads.around(value)
        if r.target_entity_id == value.id and r.relation_type != "talks_about"
    ]
    own = [r for r in into if subject is not None and r.source_entity_id == subject.id]
    kin = _kin(owner) if not own and owner is not None else None
    if kin is not None:  # "dad traded the volvo in": Dad's car, whoever else has a Volvo
        into = [r for r in into if kin in canonical_name(r.source).split()]
        return into[-1] if into else held_by_word(reads, subject, old)
    if not own and other_person and (name := _first_name(owner)) is not None:
        # "Priya swapped Dropbox for Proton Drive": Priya's, not the speaker's invoices'.
        into = [r for r in into if name in canonical_name(r.source).split()]
        return into[-1] if into else None
    if not own and other_person:
        into = [r for r in into if canonical_name(r.source) != SPEAKER]
    into = own or into
    return into[-1] if into else held_by_word(reads, subject, old)


def held_by_word(reads: Reads, subject: Entity | None, old: str) -> Relation | None:
    """The subject's newest current relation whose target names ``old`` among more
    words ("traded in the Corolla" for "drives 2012 Corolla")."""
    if subject is None:
        return None
    words = canonical_name(old).split()
    size = len(words)
    held = [
        r
        for r in reads.around(subject)
        if r.source_entity_id == subject.id
        and r.relation_type != "talks_about"
        and any(
            target[i : i + size] == words
            for target in [canonical_name(r.target).split()]
            for i in range(len(target) - size + 1)
        )
    ]
    return held[-1] if held else None


def _first_name(owner: str | None) -> str | None:
    """A person named by one name ("Priya", not "Kestrel Builders" or "QA"): what
    they replace is their own, as a relative's is (round twenty-five)."""
    if owner is None or not re.fullmatch(r"[A-Z][a-z]+(?:['’]s)?", owner.strip()):
        return None
    return canonical_name(owner.strip().removesuffix("'s").removesuffix("’s"))


def _kin(owner: str) -> str | None:
    """The family member or friend a claim's subject names ("sister", "my best
    friend"), or None."""
    words = canonical_name(owner).split()
    return words[-1] if words and words[-1] in _KIN else None
