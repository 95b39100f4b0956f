"""The relation vocabulary (issue 28, FEATURES G2): many names, one relation.

A rule says "works at", a model says ``is_employed_by`` or ``currently_works_for``, a
user types "Works-For": one fact, one relation, or a change of employer would never
meet the job it replaces. ``canonical`` maps a relation name, with its target, to the
type the graph stores, and tells whether that type is declared to hold one target at
a time per source. The vocabulary is data (``engram/data/relations.json``):

- **relations** list the names that mean each canonical relation; a name is matched
  after ``key`` has dropped tense, auxiliaries and adverbs ("is currently working
  for" -> ``work_for``), so a free-form LLM name maps too;
- **joins**: "joined X" starts a job, unless X is a group (a club, a team);
- **has**: "has a 48V battery" is ``has_battery``, the head noun of the target;
- **categories** give ``uses`` its slot: a service holds one database and one cache at
  a time, so "uses MySQL" is ``uses_database`` and "uses Redis" is ``uses_cache``,
  and moving to Postgres closes MySQL but never Redis.

A name the vocabulary does not know is kept as the graph spells it
(``canonical_relation``), with no declared cardinality: the namespace's own data
decides (``engram.graph.closing``).
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engram.pipeline.patterns import word_set
from engram.store.protocols.graph import canonical_relation

#: Words a relation name carries that do not change its meaning ("is currently
#: working for" means "works for").
_FILLER = word_set(
    "is are was were be been being has_been have_been currently now still also just "
    "recently newly already presently actively mainly primarily the a an its their his "
    "her our my"
)
_IRREGULAR = {
    "has": "have",
    "had": "have",
    "having": "have",
    "got": "get",
    "bought": "buy",
    "built": "build",
    "went": "go",
    "goes": "go",
    "left": "leave",
    "chose": "choose",
    "ran": "run",
    "took": "take",
    "began": "begin",
    "written": "write",
    "wrote": "write",
}
_WORD = re.compile(r"[a-z0-9#+.]+")
#: A target's words, for its category and head noun.
_TARGET_WORDS = re.compile(r"[a-z0-9#+.\-]+")
#: How a home is said (keys as :func:`key` makes them): never a stack, whatever the
#: place is also the name of ("we live in Phoenix" is no web framework).
_HOME_SAID = frozenset({"liv_in", "resid_in", "bas_in"})


def _stem(word: str) -> str:
    """A crude stem that maps a verb's forms to one string (lives, lived, living ->
    liv): enough to compare names, never shown."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    for suffix in ("ies", "ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            word = word[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "ls":
        word = word[:-1]  # running -> runn -> run
    return word.rstrip("e")


#: How many relation names' keys and (relation, target) readings are kept for reuse
#: (rules26): the write path asks for the same few hundred relations, over and over,
#: for every triple it reads, and both are pure functions of their arguments.
READ_CACHE = 1 << 15


@functools.lru_cache(maxsize=READ_CACHE)
def key(name: str) -> str:
    """The form names are compared in: lower case, auxiliaries and adverbs dropped,
    every word stemmed ("Is-Currently-Working For" -> "work_for")."""
    words = _WORD.findall(name.lower().replace("_", " ").replace("-", " "))
    joined = " ".join(words).replace("has been", "has_been").replace("have been", "have_been")
    kept = [w for w in joined.split() if w not in _FILLER]
    return "_".join(_stem(w) for w in kept)


@dataclass(frozen=True, slots=True)
class Canonical:
    """A relation as the graph stores it, and whether it is declared single-valued."""

    relation_type: str
    one: bool | None
    """True: one target at a time per source; False: many; None: not declared."""


@dataclass(frozen=True, slots=True)
class _Vocabulary:
    names: dict[str, str]  # key -> canonical relation
    one: dict[str, bool]  # canonical relation (or uses_<category>, has_<head>) -> one?
    slotted: frozenset[str]  # canonical relations that take a category slot
    joins: frozenset[str]
    join_default: str
    join_group: str
    group_heads: frozenset[str]
    has: frozenset[str]
    members: dict[str, str]  # category member -> category
    category_names: dict[str, str]  # key of a category's own name -> category


@functools.cache
def _vocabulary() -> _Vocabulary:
    text = resources.files("engram.data").joinpath("relations.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    names: dict[str, str] = {}
    one: dict[str, bool] = {}
    slotted = set()
    for canonical, spec in data["relations"].items():
        one[canonical] = bool(spec["one"])
        if spec.get("slots"):
            slotted.add(canonical)
        for name in [canonical, *spec["names"]]:
            names.setdefault(key(name), canonical)
    members: dict[str, str] = {}
    category_names: dict[str, str] = {}
    for category, spec in data["categories"].items():
        one[f"uses_{category}"] = bool(spec["one"])
        for member in spec["members"]:
            members[member] = category
        for name in [category, *spec["names"]]:
            category_names.setdefault(key(name), category)
    joins, has = data["joins"], data["has"]
    for head in has["one_heads"]:
        one[f"has_{head}"] = True
    return _Vocabulary(
        names=names,
        one=one,
        slotted=frozenset(slotted),
        joins=frozenset(key(n) for n in joins["names"]),
        join_default=joins["default"],
        join_group=joins["group"],
        group_heads=frozenset(joins["group_heads"]),
        has=frozenset(key(n) for n in has["names"]),
        members=members,
        category_names=category_names,
    )


def category(target: str) -> str | None:
    """The category a target belongs to ("Postgres" -> "database"), by its whole name
    or, failing that, by any one or two of its words ("Postgres 16", "AWS Lambda")."""
    vocab = _vocabulary()
    words = _TARGET_WORDS.findall(target.lower())
    whole = " ".join(words)
    if whole in vocab.members:
        return str(vocab.members[whole])
    for size in (2, 1):
        for start in range(len(words) - size + 1):
            found = vocab.members.get(" ".join(words[start : start + size]))
            if found is not None and (size == 2 or not _other_name(target, start)):
                return found
    return None


#: Products of ``relations.json`` whose name is also an everyday English word (or a
#: common first name's or place's): inside a longer name they name something else.
ENGLISH_TOO = word_set(
    """
    ghost sanity edge teams linear square box close copper arc opera brave element matrix
    outline heap segment sketch spring express phoenix solid remix atom cursor helix drone
    bamboo monday shortcut basecamp pixel galaxy arch alpine bunny render railway aurora
    snowflake oracle spanner lambda dragonfly swift rust go ruby notion zoom karma jasmine
    mocha parcel rollup poetry celery outlook ember backbone sphinx drizzle diesel clerk
    pulsar travis maven vim zed canva moto windows
    """
)


#: A product's tier or edition after its name ("Ghost Pro", "Linear Enterprise").
TIERS = word_set(
    "pro plus premium cloud enterprise server desktop mobile business edition lite studio "
    "online web app max ai team teams free"
)


def _other_name(target: str, at: int) -> bool:
    """Whether the word at ``at`` of a longer ``target`` is a product word that is also
    everyday English opening another name, a name word after it ("Express Scripts",
    "Rust Belt tin", "Swift Transport": a pharmacy, a region, a carrier; task mend28
    read them ``uses_framework``, ``uses_language``). A tier or a version after it
    ("Ghost Pro", "Galaxy S23"), a plain noun ("the Express app"), a maker before it
    ("Amazon Aurora") leave it the product, and so does a product word that is no
    English word ("AWS Lambda")."""
    cased = re.findall(_TARGET_WORDS.pattern, target, re.IGNORECASE)
    if cased[at].lower() not in ENGLISH_TOO:
        return False
    after = cased[at + 1 : at + 2]
    return any(
        w[:1].isupper() and w.lower() not in TIERS and not any(c.isdigit() for c in w)
        for w in after
    )


@functools.cache
def relation_names(relation: str) -> tuple[str, ...]:
    """Every name ``relations.json`` lists for the canonical ``relation``, and for
    ``uses_<category>`` the category's own names, in lower case: the ways a memory may
    name the slot ("moved to", "based in" for ``lives_in``; "db" for
    ``uses_database``)."""
    text = resources.files("engram.data").joinpath("relations.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    spec = data["relations"].get(relation)
    found = [relation.replace("_", " "), *(spec["names"] if spec else [])]
    slot = data["categories"].get(relation.removeprefix("uses_"))
    if relation.startswith("uses_") and slot is not None:
        found += [relation.removeprefix("uses_"), *slot["names"]]
    return tuple(dict.fromkeys(n.lower() for n in found))


def slot_category(relation: str) -> str | None:
    """The category a ``uses_<category>`` relation holds a value of, or None."""
    return relation.removeprefix("uses_") if relation.startswith("uses_") else None


def member_category(name: str) -> str | None:
    """The category ``name`` is a member of as a whole ("React" -> "framework"), not by
    one of its words ("Vision Express" is an optician, not Express)."""
    found = _vocabulary().members.get(" ".join(_TARGET_WORDS.findall(name.lower())))
    return str(found) if found is not None else None


def head(target: str) -> str | None:
    """The head noun of a target phrase ("a 48V battery" -> "battery")."""
    words = [w for w in _TARGET_WORDS.findall(target.lower()) if w.isalpha()]
    if not words:
        return None
    word: str = words[-1]
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


@functools.lru_cache(maxsize=READ_CACHE)
def canonical(relation: str, target: str) -> Canonical:
    """The stored type of ``relation`` with this ``target``, and its declared
    cardinality (see the module docstring)."""
    vocab = _vocabulary()
    k = key(relation)
    if k in vocab.joins:
        group = head(target) in vocab.group_heads
        base = vocab.join_group if group else vocab.join_default
        return Canonical(base, vocab.one[base])
    noun = head(target)
    # has + a thing, or a relation named by the thing ("battery": "48V battery").
    said_has = k in vocab.has or (noun is not None and k == key(noun))
    if said_has and noun is not None:
        slot = category(target)
        if slot is not None:  # "I have an iPhone 12" is the phone in use, as "I'm on a Pixel"
            return Canonical(f"uses_{slot}", vocab.one[f"uses_{slot}"])
        kind = f"has_{noun}"
        return Canonical(kind, vocab.one.get(kind))
    named = vocab.names.get(k)
    if named is None:
        # A free-form name that names a category ("primary_database", "ci_tool").
        for size in (2, 1):
            parts = k.split("_")
            for start in range(len(parts) - size + 1):
                found = vocab.category_names.get("_".join(parts[start : start + size]))
                if found is not None:
                    return Canonical(f"uses_{found}", vocab.one[f"uses_{found}"])
        kind = canonical_relation(relation)
        return Canonical(kind, vocab.one.get(kind))
    base = named
    slot = category(target)
    # "moved billing to Postgres" is a stack change; "we live in Phoenix" is a home.
    moved = base == "lives_in" and k not in _HOME_SAID
    if slot is not None and (base in vocab.slotted or moved):
        # "moved billing to Postgres" is a stack change, not a new home.
        return Canonical(f"uses_{slot}", vocab.one[f"uses_{slot}"])
    return Canonical(base, vocab.one[base])
