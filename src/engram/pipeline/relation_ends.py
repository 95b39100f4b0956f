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
  ``(user, partner, Sam)``, which the text does state.

The types a statement closes are kept only for the triples left, as
``extract_job.one_reading`` keeps them.
"""

from __future__ import annotations

import re
from dataclasses import replace

from engram.pipeline.patterns import word_set
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
    for cut in range(1, len(parts)):
        head, tail = parts[:cut], parts[cut:]
        pattern = (
            r"\b" + r"\s+".join(map(re.escape, head)) + r"\s+("
            + r"\s+".join(rf"(?-i:[A-Z]){re.escape(w[1:])}" for w in tail) + r")\b"
        )  # fmt: skip
        match = re.search(pattern, text, re.IGNORECASE)
        if match is not None:
            return (triple[0], "_".join(head), match.group(1), triple[3])
    return None


def sound(statement: Statement, text: str) -> Statement:
    """``statement`` with only the triples whose ends name entities (module docstring);
    ``text`` is the memory the statement was read from."""
    kept: list[Triple] = []
    as_read: set[str] = set()  # the types of the triples kept as read: they may close
    for triple in statement.triples:
        relation = canonical_relation(triple[1])
        source = _bare_name(triple[0], subject=True)
        target = _bare_name(triple[2], subject=False)
        if not names_entity(source):
            continue
        if not names_entity(target) and _OF_PRONOUNS not in relation:
            continue
        if relation == "named" and source.strip().lower() in _SOMEONE:
            continue
        triple = (source, triple[1], target, triple[3])
        named = _named_type(triple, text) if "_" in relation else None
        if named is not None:
            triple = named  # a relation the text states in passing: it closes nothing
        else:
            as_read.add(relation)
        if triple not in kept:
            kept.append(triple)
    if kept == list(statement.triples):
        return statement
    closes = SINGLE_VALUED if statement.single_valued is None else statement.single_valued
    closing = {canonical_relation(k) for k in closes} & as_read
    return replace(statement, triples=kept, single_valued=frozenset(closing))
