"""Which of a memory's facts close the fact they replace (issue 28, FEATURES G2).

``plan`` turns what a memory states (the linker's or the LLM's triples, and the change
claims its text makes, :mod:`engram.pipeline.claims`) into the ``Statement`` the graph
records: relation names mapped to the canonical vocabulary (:mod:`engram.pipeline.vocabulary`),
subjects resolved against the entities the namespace already has, and the set of relation
types this statement closes. Whether a type closes is decided per statement, in this order:

1. **signal**: "also / too / another" never closes; a change verb ("switched to",
   "migrated", "replaced", "joined", "now uses") always does;
2. **the LLM's judgement** on the pair (the fact holding now and the new memory), when
   an LLM is configured and the statement gave no signal (the ``extract`` job);
3. **declared** cardinality of the canonical relation (one employer, one home, one
   database per service);
4. **learned** cardinality from the namespace's own data: a relation whose sources often
   hold several targets at once is many; one closed before that no source holds twice is one.

Everything else adds, as before: a wrong close hides a fact that still holds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

from engram.errors import EngramError
from engram.pipeline import (
    change_accounts,
    change_earlier,
    change_events,
    change_firsts,
    change_held,
    change_kinds,
    change_left,
    change_named,
    change_pairs,
    change_passing,
    change_slots,
    change_states,
    change_told,
    change_words,
    offline_notes,
    relation_ends,
    vocabulary,
)
from engram.pipeline import change_signals as claims_module
from engram.pipeline.change_signals import ADDITION, CHANGE, PLAIN, Claim
from engram.pipeline.change_words import others_fact as others
from engram.pipeline.held_reads import current_facts
from engram.pipeline.linker import TALKS_ABOUT
from engram.store.protocols import Store
from engram.store.protocols.graph import (
    Entity,
    Relation,
    Statement,
    Triple,
    canonical_name,
    canonical_relation,
)

log = logging.getLogger("engram.pipeline")

#: (the relation holding now, the new memory's text) -> True: the new memory replaces
#: it; False: both hold; None: no answer (``engram.pipeline.change_judge``).
Judge = Callable[[Relation, str], bool | None]

#: Words a subject may be named with or without ("billing" is "the billing service").
GENERIC_HEADS = change_slots.GENERIC_HEADS
#: Learned cardinality needs this many sources of the relation in the namespace.
LEARN_MIN_SOURCES = 3
#: A relation is many when at least this share of its sources hold several targets.
LEARN_MANY_SHARE = 0.34
#: A fact read less surely never closes another by cardinality alone: the offline rules'
#: loose attribute reads ("job = hard") are 0.6, verb triples 0.65 up (LoCoMo dev's closes).
MIN_CLOSING_CONFIDENCE = 0.65
#: The speaker's entity when the text names none (``change_words.subject``).
SPEAKER = "user"
#: How many current relations of an entity are read to find what a change replaces.
READ_LIMIT = 200
#: How many entities containing a first name are read to find the one full name.
FIRST_NAME_READ = 20
#: A thing's owner, as hand-overs and "is owned / led by" are stored.
OWNED_BY = "owned_by"


@dataclass(frozen=True, slots=True)
class _Fact:
    source: str
    relation: str
    target: str
    confidence: float
    signal: str
    one: bool | None
    ends: Relation | None = None
    """The one relation the text said ended ("I don't like sushi any more"): closed by
    itself, whatever this fact's type does (``Claim.ends_only``)."""


def plan(
    store: Store,
    namespace: str,
    text: str,
    statement: Statement,
    *,
    judge: Judge | None = None,
) -> Statement:
    """``statement`` with canonical types, ``text``'s change claims, the types it closes."""
    text = change_words.joint(text)  # "my husband's and my GP": the speaker's own GP
    reads = _Reads(store, namespace, text)
    addition = bool(claims_module.ADDITION_WORDS.search(text))
    now = change_words.NOW.search(text) is not None or change_told.moved(text)
    facts: dict[tuple[str, str, str], _Fact] = {}
    team = change_words.teams_note(text)
    for claim in claims_module.read(text):
        if team and SPEAKER in (claim.source, claim.agent):
            # "We use Sentry" in an agent's note: the team's, as the extractor names it.
            source = offline_notes.TEAM if claim.source == SPEAKER else claim.source
            agent = offline_notes.TEAM if claim.agent == SPEAKER else claim.agent
            claim = replace(claim, source=source, agent=agent)
        fact = _from_claim(reads, claim)
        if fact is not None and not others(text, fact.source, fact.relation):  # "her blog"
            facts.setdefault(_key(fact), fact)
    claimed = {(_base(f.source), f.relation): f for f in facts.values()}
    told = {(f.relation, canonical_name(f.target)) for f in facts.values()}
    # A value the reader recorded already is its reading ("Lena is my manager": ``reports_to``);
    # one it did not, or holds as a subject ("Priya uses call"), is the slot's.
    held_values = {canonical_name(t[2]) for t in statement.triples}
    held_values |= {canonical_name(f.target) for f in facts.values()}
    firsts = [
        f
        for f in [
            *change_told.firsts(text),
            *change_accounts.firsts(text),
            *((*found, change_passing.CONFIDENCE) for found in change_passing.firsts(text)),
        ]
        if not any(v in canonical_name(f[2]) or canonical_name(f[2]) in v for v in held_values)
    ]
    for source, relation, target, confidence in [*statement.triples, *firsts]:
        if relation_ends.not_a_thing(source, relation, target, numbers=False):
            continue  # "Joost moved to the platform team" is no home: it closes none
        if change_states.states_no_value(text, relation, target) or others(text, source, relation):
            continue  # "My rent is due on the 1st" read as ``rent due``: no value held
        kind = vocabulary.canonical(relation, target)
        if any(c.isdigit() for c in target) and (source, relation, target, confidence) in firsts:
            # A setting's amount ("auth service timeout 30s") is its own slot, not a
            # tool of the category a word of it names (``uses_auth``).
            kind = vocabulary.Canonical(relation, None)
        if kind.one is not False:  # a fact that may close: name its subject as known
            # A claim said it of a full name ("Sam joined Globex", Sam Lee's): so is it.
            named = (kind.relation_type, canonical_name(target)) in told
            entity = reads.resolve(source, first_name=named)
            source = entity.name if entity is not None else source
        fact = _Fact(source, kind.relation_type, target, confidence, PLAIN, kind.one)
        seen = facts.get(_key(fact))
        if seen is not None:  # a claim said it too: its subject and signal stand
            facts[_key(fact)] = replace(seen, confidence=max(seen.confidence, confidence))
            continue
        said = claimed.get((_base(source), kind.relation_type))
        signal = said.signal if said is not None else (ADDITION if addition else PLAIN)
        if (
            said is None
            and signal == PLAIN
            and now
            and (source, relation, target, confidence) in firsts
        ):
            # "Tomas is on call now": a slot's plain value said with "now" is its new one.
            signal = CHANGE
        # The claim of the same subject and type tells its cardinality by kind too.
        one = said.one if said is not None and fact.one is None else fact.one
        facts[_key(fact)] = replace(fact, signal=signal, one=one)
    # A customer's account slot given a new value in a support note ("upgraded from
    # Explorer to the Premium membership"): the held slot is the one it replaces, and
    # the readings of the new value close nothing by their type (``uses`` closed the
    # customer's "5-star hotel"). Read only for a note with a word of a change.
    accounts = _account_changes(reads, text, statement) if change_accounts.cued(text) else []
    if accounts:
        news = [canonical_name(found.target) for found in accounts]
        facts = {k: f for k, f in facts.items() if not _overlaps(f.target, news)}
    closes: set[str] = set()
    keeps: set[str] = set()
    planned: list[_Fact] = []
    for fact in facts.values():
        if fact.ends is not None:
            _end(reads, fact.ends, statement)
        if fact.signal != ADDITION and fact.one:
            # "on Postgres 16 now" after "we use Postgres": more words, even "now", no change.
            fact = _as_held(reads, fact)
        # A fact that ended one named relation closes no other of its type.
        verdict = fact.ends is None and _closes(reads, text, fact, judge)
        (closes if verdict else keeps).add(fact.relation)
        planned.append(fact)
    triples: list[Triple] = _without_overlap(
        [(f.source, f.relation, f.target, f.confidence) for f in planned], firsts
    )
    # A fact the graph drops ("we moved the cron to 0 3": ``cron uses 0 3``) reads no change.
    things = {f.relation for f in planned if not relation_ends.not_a_thing(*_key(f))}
    ended = any(f.ends is not None for f in planned)
    closed = False
    read = [(f.source, f.relation, f.target) for f in planned]
    if accounts:
        triples, closed = _account_change(reads, accounts, statement, triples), True
    if not closed and not closes & things and not ended:
        # No change read: a one-value slot's new value in words the rules lack (second pass).
        for found in change_slots.replacements(reads, text, read):
            if found.old.source_memory_id == statement.memory_id:
                # This memory's own reading, read again (the ``extract`` job after the
                # write path): its value is the new one, not one it replaces.
                continue
            _end(reads, found.old, statement)
            old = found.old
            confidence = change_slots.SLOT_CONFIDENCE
            triples.append((old.source, old.relation_type, found.target, confidence))
            closed = True
    notes = change_firsts.cued(text) or change_passing.cued(text)  # read before the graph
    named = change_pairs.stated(text)  # in words of change, or old and new in one frame
    if (
        not closed
        and not ended
        and (notes or named)
        and not _replaced_any(reads, planned, closes & things - keeps)
    ):
        # Nor that: a held slot's new value in notes form (``change_firsts``), a held date
        # moved in passing (``change_passing``), a value left behind: held (``change_named``)
        # or only mentioned (``change_left``), said again or swapped (``change_pairs``).
        finders = (change_firsts.notes_changes, change_passing.date_changes) if notes else ()
        for finder in finders:
            triples, closed = _notes_change(reads, text, statement, triples, finder)
            if closed:
                break
        if not closed and named:
            held = [r for r in reads.recent() if r.source_memory_id != statement.memory_id]
            end, where = partial(_end, reads, statement=statement), (reads.store, reads.namespace)
            triples, closed = change_named.close(text, held, read, triples, end)
            closed = closed or change_left.close(*where, text, statement, read, end)
            paired = [] if closed else change_pairs.close(*where, text, statement, held, end)
            triples, closed = [*triples, *paired], closed or bool(paired)
    if not closed and not ended:  # a slot whose first value the rules never read
        end = partial(_end, reads, statement=statement)
        triples += change_earlier.close(reads.store, reads.namespace, text, statement, read, end)
    return replace(statement, triples=triples, single_valued=frozenset(closes - keeps))


def _replaced_any(reads: _Reads, planned: Sequence[_Fact], closing: set[str]) -> bool:
    """Whether a planned fact of a closing type has a held value to replace: a change
    verb read of a subject that holds nothing ("Search service owner changed to
    Bartek" as ``Search service owner uses Bartek``) replaces nothing."""
    return any(f.relation in closing and _holding(reads, f) is not None for f in planned)


def _without_overlap(triples: list[Triple], firsts: Sequence[Triple]) -> list[Triple]:
    """The plan's triples with the slot value a plain statement names
    (``change_firsts.firsts``: "The gateway timeout is 60s.") in place of the other
    readings that hold its value ("Priya is on call" read as ``Priya uses call``)."""
    if not firsts:
        return triples
    values = {canonical_name(t) for _, _, t, _ in firsts}
    pairs = {(canonical_name(s), canonical_name(t)) for s, _, t, _ in firsts}
    return [
        t
        for t in triples
        if (canonical_name(t[0]), canonical_name(t[2])) in pairs
        or not (
            canonical_name(t[0]) in values
            or canonical_name(t[2]) in values
            or any(v in canonical_name(t[2]).split() for v in values)
        )
    ]


def _notes_change(
    reads: _Reads,
    text: str,
    statement: Statement,
    triples: list[Triple],
    finder: Callable[[str, Sequence[Relation]], Sequence[change_passing.Found]],
) -> tuple[list[Triple], bool]:
    """A new value of a held slot said in notes form (``change_firsts.notes_changes``:
    "on-call: Priya → Tomas", "Gateway timeout raised to 90s"): the held relation
    closed, the new value recorded on its owner and slot in place of the reader's
    triples that hold it; and whether it closed one."""
    held = [r for r in reads.recent() if r.source_memory_id != statement.memory_id]
    closed = False
    for found in finder(text, held):
        closed = True
        _end(reads, found.old, statement)
        old = found.old
        new = canonical_name(found.target)
        triples = [t for t in triples if canonical_name(t[2]) != new]
        triples.append((old.source, old.relation_type, found.target, change_firsts.CONFIDENCE))
    return triples, closed


def _account_changes(
    reads: _Reads, text: str, statement: Statement
) -> list[change_accounts.AccountChange]:
    """The customer's account slots ``text`` gives a new value (``change_accounts``:
    "Customer moved house; new delivery address is ...", "switched from Classic to the
    Veggie plan"), read of the namespace's newest relations."""
    held = [r for r in reads.recent() if r.source_memory_id != statement.memory_id]
    return change_accounts.changes(text, held)


def _overlaps(target: str, values: Sequence[str]) -> bool:
    said = canonical_name(target)
    return any(v in said or said in v for v in values)


def _account_change(
    reads: _Reads,
    accounts: Sequence[change_accounts.AccountChange],
    statement: Statement,
    triples: list[Triple],
) -> list[Triple]:
    """Each account slot's held values closed, the new one recorded on the holder and
    slot in place of the reader's triples that hold it ("Shipping address uses ...")."""
    for found in accounts:
        for old in found.old:
            _end(reads, old, statement)
        slot = found.old[0]
        new = canonical_name(found.target)
        triples = [t for t in triples if not _overlaps(t[2], [new])]
        triples.append((slot.source, slot.relation_type, found.target, change_accounts.CONFIDENCE))
    return triples


class _Reads:
    """The graph reads of one plan, each made once; none of another's thing ("her blog")."""

    def __init__(self, store: Store, namespace: str, text: str = "") -> None:
        self.store, self.namespace, self.text = store, namespace, text
        self._entities: dict[str, Entity | None] = {}

    def entity(self, name: str) -> Entity | None:
        key = canonical_name(name)
        if key not in self._entities:
            self._entities[key] = self.store.graph.entity(self.namespace, name)
        return self._entities[key]

    def resolve(self, name: str, *, first_name: bool = False) -> Entity | None:
        """The entity a subject names, also when it is named without or with a generic
        head ("billing" for "the billing service", "the mobile squad" for "the mobile
        team"), a relative by another of their names ("Mum" for "my mother"), and, with
        ``first_name`` (a change said: the read scans names, so only then), a person by
        their first name when one person has it ("Tomás" for "Tomás Ortega")."""
        words = name.split()
        tries = [name, *change_kinds.kin_names(name)]
        if not all(w[:1].isupper() for w in words):
            tries += [f"{name} {h}" for h in (*GENERIC_HEADS, *change_events.EVENT_HEADS)]
            if len(words) > 1 and words[-1].lower() in GENERIC_HEADS:
                stem = " ".join(words[:-1])
                tries += [stem, *(f"{stem} {h}" for h in GENERIC_HEADS if h != words[-1])]
        for candidate in tries:
            entity = self.entity(candidate)
            if entity is not None:
                return entity
        if first_name and change_kinds.short_name(name):  # "Tomás", "Dr Pike"
            return self._by_first_name(name)
        return None

    def _by_first_name(self, name: str) -> Entity | None:
        """The one entity whose name is ``name`` and a surname (as ``mem.graph.dedupe``'s
        first-name rule pairs them): "Tomás" is "Tomás Ortega" while no other Tomás is
        known; "Dr Pike" is "Dr Rowan Pike" alike."""
        short = canonical_name(name)
        found = self.store.graph.entities(
            self.namespace, limit=FIRST_NAME_READ, offset=0, query=short.split()[-1]
        )
        at = change_kinds.short_for(short, [e.canonical_name for e in found])
        return found[at] if at is not None else None

    def holding(self, source: Entity, relation_type: str) -> list[Relation]:
        """What holds now for the source and type (an indexed read)."""
        held = self.store.graph_counts.current_relations(self.namespace, source.id, relation_type)
        return [r for r in held if not others(self.text, r.source, r.relation_type)]

    def around(self, entity: Entity) -> list[Relation]:
        """The entity's current relations, either end, oldest first: the newest
        ``READ_LIMIT`` of them, mentions (``talks_about``) left out. A busy subject
        (the user of a store that has lived a while) holds hundreds of mentions, and
        reading its oldest relations hid the fact a new statement replaces."""
        return self._newest(entity.id)[::-1]

    def recent(self) -> list[Relation]:
        """The namespace's newest ``READ_LIMIT`` current relations, mentions left out:
        where a slot named only by its own word ("the cron") is looked for."""
        return self._newest(None)

    def _newest(self, entity_id: int | None) -> list[Relation]:
        """The newest ``READ_LIMIT`` current facts of ``entity_id`` (or the namespace)."""
        held = current_facts(
            self.store, self.namespace, entity_id, limit=READ_LIMIT, newest_first=True
        )
        return [r for r in held if not others(self.text, r.source, r.relation_type)]


def _key(fact: _Fact) -> tuple[str, str, str]:
    return _base(fact.source), fact.relation, canonical_name(fact.target)


def _base(name: str) -> str:
    """A subject's name without its generic head ("billing service" -> "billing"):
    two spellings of one subject in one memory are one fact."""
    words = canonical_name(name).split()
    return " ".join(words[:-1] if len(words) > 1 and words[-1] in GENERIC_HEADS else words)


def _closes(reads: _Reads, text: str, fact: _Fact, judge: Judge | None) -> bool:
    if fact.signal == ADDITION:
        return False
    if fact.signal == CHANGE:
        return True
    if fact.confidence < MIN_CLOSING_CONFIDENCE:
        return False
    if judge is not None:
        holding = _holding(reads, fact)
        if holding is None:
            return bool(fact.one)  # nothing to close: the answer changes nothing now
        verdict = judge(holding, text)
        if verdict is not None:
            return verdict
    if fact.one is not None:
        return fact.one
    return _learned_one(reads, fact)


def _as_held(reads: _Reads, fact: _Fact) -> _Fact:
    """The fact with the target the source already holds when one names the other
    with more words ("Postgres 16" for "Postgres"): a restatement, not a change."""
    holding = _holding(reads, fact)
    if holding is None:
        return fact
    held, new = canonical_name(holding.target).split(), canonical_name(fact.target).split()
    shorter = min(len(held), len(new))
    if held[:shorter] == new[:shorter]:
        return replace(fact, target=holding.target)
    return fact


def _holding(reads: _Reads, fact: _Fact) -> Relation | None:
    """The newest current relation of the fact's source and type with another target."""
    entity = reads.entity(fact.source)
    if entity is None:
        return None
    others = [
        r
        for r in reads.holding(entity, fact.relation)
        if canonical_name(r.target) != canonical_name(fact.target)
    ]
    return others[-1] if others else None


def _learned_one(reads: _Reads, fact: _Fact) -> bool:
    """An undeclared relation's cardinality from the namespace's data; many (no close)
    until the data says one."""
    if _holding(reads, fact) is None:
        return False  # nothing would close: spare the count
    found = reads.store.graph_counts.relation_cardinality(reads.namespace, [fact.relation])
    counts = found.get(fact.relation)
    if counts is None or counts.sources < LEARN_MIN_SOURCES:
        return False
    if counts.multi / counts.sources >= LEARN_MANY_SHARE:
        return False
    return counts.closed > 0 and counts.multi == 0


def _from_claim(reads: _Reads, claim: Claim) -> _Fact | None:
    """A claim as a fact of the graph: its subject resolved, its relation canonical,
    and what a replacement replaces found."""
    kind = vocabulary.canonical(claim.relation, claim.target)
    # Declared cardinality first; else the noun's kind ("my bank is ..." holds one).
    relation, one = kind.relation_type, claim.one if kind.one is None else kind.one
    said = claim.signal == CHANGE or one is True
    entity = reads.resolve(claim.source, first_name=said) if claim.source else None
    source = entity.name if entity is not None else claim.source
    signal, ends = claim.signal, None
    if claim.replaced is not None:
        # A thing's owner is said of the thing ("QA is led by Sven"), never of a person.
        other = (
            claim.source not in (None, SPEAKER)
            and relation != OWNED_BY
            and change_kinds.names_person(claim.source)
        )
        # Another person's thing ("My friend's startup ditched Notion for Coda") replaces
        # none of ours (``change_passing.others``).
        old = (
            None
            if change_passing.others(claim.source)
            else change_held.replaced(reads, entity, claim.replaced, other, claim.source)
        )
        if old is not None:
            source, relation = old.source, old.relation_type
            one = vocabulary.canonical(relation, claim.target).one
            if one is not True and (claim.ends_only or signal == CHANGE):
                # A relation of many ("likes sushi" beside "likes hiking", "uses Zapier"
                # beside "uses Airtable"): the value said to end or replaced closes
                # alone, and the new one closes nothing by its signal ("switched from
                # Zapier to Make" closed the newest of the type, Airtable).
                signal, ends = (PLAIN if signal == CHANGE else signal), old
        elif claim.ends_only and signal == CHANGE:
            # The text named what ended and nothing holds it: "now" alone closes
            # nothing ("I dropped the gym, using my bike now" left "uses Todoist").
            signal = PLAIN
    elif entity is not None and relation.startswith("has_") and not reads.holding(entity, relation):
        # "I swapped the battery": the speaker has no battery, the efoil they own does.
        source = _part_owner(reads, entity, relation) or source
    if relation == OWNED_BY and signal == CHANGE and claim.replaced is None and claim.source:
        # "On-call handed to Tomas" after "Priya is on call": the thing handed over
        # names a held slot (``user on_call Priya``), not a new thing's owner.
        slot = None if entity is not None and reads.holding(entity, relation) else (
            change_slots.handed(reads, claim.source, exclude=(OWNED_BY, TALKS_ABOUT))
        )  # fmt: skip
        if slot is not None:
            source, relation, one = slot.source, slot.relation_type, True
    if source is None:
        return None
    held = (
        _speakers_attribute(reads, claim.agent, claim.source, relation)
        if signal == CHANGE and claim.agent and claim.replaced is None and claim.source
        and (entity is None or not reads.holding(entity, relation))
        else None
    )  # fmt: skip
    if held is not None:
        entity, source, relation = held
        one = vocabulary.canonical(relation, claim.target).one
    if signal == CHANGE and entity is not None and not reads.holding(entity, relation):
        relation, one = _same_kind(reads, entity, relation, claim.target) or (relation, one)
    return _Fact(source, relation, claim.target, claim.confidence, signal, one, ends)


def _speakers_attribute(
    reads: _Reads, agent: str, thing: str, relation: str
) -> tuple[Entity, str, str] | None:
    """The speaker's entity, name and relation when the ``thing`` they changed names an
    attribute they hold: by its name ("electricity supplier" for ``electricity_supplier``)
    or by the category of ``relation`` ("main database" for ``uses_database``)."""
    speaker = reads.entity(agent)
    if speaker is None:
        return None
    named = canonical_relation(thing)
    category = vocabulary.slot_category(relation)
    said = canonical_name(thing).split()
    for held in reversed(reads.around(speaker)):
        if held.source_entity_id != speaker.id:
            continue
        kind = held.relation_type
        if kind == named or (category is not None and kind == relation and said[-1:] == [category]):
            return speaker, speaker.name, kind
    return None


def _end(reads: _Reads, relation: Relation, statement: Statement) -> None:
    """Close ``relation`` as of the statement (a value the text said ended)."""
    try:
        reads.store.graph.invalidate(
            reads.namespace, relation.source_entity_id, relation.relation_type,
            relation.target_entity_id, at=statement.valid_from, now=statement.now,
        )  # fmt: skip
    except EngramError as exc:  # closed already (a replayed job) or said before it held
        log.debug("not closing %s: %s", relation.id, exc)


def _same_kind(
    reads: _Reads, entity: Entity, relation: str, target: str
) -> tuple[str, bool | None] | None:
    """The relation a change the entity does not hold yet means, if exactly one fits:
    the one it holds a thing with the same head noun by ("switched to almond milk" after
    "drinks oat milk"), or the one the relation's name opens ("switched our internet to
    Sonic" after "our internet provider is Comcast")."""
    noun = vocabulary.head(target)
    kinds = {
        r.relation_type
        for r in reads.around(entity)
        if r.source_entity_id == entity.id
        and r.relation_type not in (relation, "talks_about")
        and (
            (relation == "uses" and noun is not None and vocabulary.head(r.target) == noun)
            # not "uses": "the app moved to Vercel" does not replace its database
            or (relation != "uses" and r.relation_type.startswith(f"{relation}_"))
            # "we bumped the grocery budget" after "our monthly grocery budget is ..."
            or (relation != "uses" and r.relation_type.endswith(f"_{relation}"))
            # "my dog's vet is Hilltop now" after "... is Greenway Vets" (has_vet)
            or r.relation_type == f"has_{relation}"
        )
    }
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    return kind, vocabulary.canonical(kind, target).one


def _part_owner(reads: _Reads, entity: Entity, relation: str) -> str | None:
    """The one thing the entity holds that has a current ``relation``, if exactly one."""
    owners: dict[int, str] = {}
    for held in reads.around(entity):
        target = reads.entity(held.target) if held.source_entity_id == entity.id else None
        if target is not None and reads.holding(target, relation):
            owners[target.id] = target.name
    return next(iter(owners.values())) if len(owners) == 1 else None
