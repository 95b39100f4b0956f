"""Structural facts: decision auto-protection and structural classification (seed 004,
"Decision Auto-Protection" and "Structural Classification"; FEATURES P9, P10).

**At extraction** (:func:`record_attributes`, from the ``extract`` job) each fact
becomes an attribute of its subject: the entity of the extraction's triples it names
first, else a known entity it opens with. P9: decision language in the memory or the
fact (:func:`~engram.pipeline.patterns.is_decision_content`) makes it a ``constraint``
of importance 0.85, else it is an ``attribute`` of 0.5. Each entity left with
unclassified attributes gets one ``classify`` job.

**The classify job** (:func:`handle_classify`) assigns the entity's unclassified
attributes, ``[pipeline] classify_batch_size`` at a time (seed 004's
``classifyBatchSize``), to a named aspect and a kind. With an LLM, one call per batch:
seed 004's prompt (name, type, existing aspects, :data:`ASPECT_SUGGESTIONS` for the
type) answered with ``[{i, aspect, kind, new}]`` inside ``{"facts": ...}``, which also
carries the inferred type of an untyped entity; what the model leaves out or gets
wrong is classified by the rules, with a warning, and a provider failure raises (the
job is retried). Offline, the aspect is the keyword family the fact hits most
(:data:`KEYWORD_FAMILIES`) and decision language makes a constraint. A kind is only
ever promoted (P9 is never undone). Aspects are upserted, and an untyped entity typed,
in the batch's transaction; retroactive supersession
(:mod:`engram.pipeline.supersession`) then runs on what landed. No prompt grows with
the graph: one entity's batch, at most :data:`MAX_PROMPT_ASPECTS` aspects listed.

One pending job per entity: its ``memory_id`` is the surrogate ``entity:<id>`` (entity
ids are unique across namespaces), so the job store's enqueue dedup, a unique index,
keeps many facts about one entity from queueing many jobs. The handler loops until no
unclassified attribute is left, taking in those recorded while it ran (their
extraction found this job leased and queued none).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from engram.errors import LlmError
from engram.llm import JsonSchema, parse_json
from engram.pipeline import supersession
from engram.pipeline.apply import mode_of
from engram.pipeline.handlers import register
from engram.pipeline.patterns import is_decision_content, word_set
from engram.records import MemoryRecord, utcnow
from engram.store.protocols.graph import (
    ATTRIBUTE_KINDS,
    UNKNOWN_TYPE,
    Aspect,
    Attribute,
    Entity,
    Relation,
    Statement,
    canonical_name,
)
from engram.text import normalize_content

if TYPE_CHECKING:
    from engram.core import Core
    from engram.llm import LlmProvider
    from engram.pipeline.extraction import ExtractedFact
    from engram.store.protocols import Job

#: seed 004: the canonical entity types classification may set.
ENTITY_TYPES = ("person", "project", "system", "tool", "concept", "skill", "task", "unknown")
#: Types that mean "not determined yet" (seed 004 stores "extracted"; engram "unknown").
UNTYPED = frozenset({UNKNOWN_TYPE, "extracted", ""})
#: seed 004 (P9): a decision is a constraint of importance 0.85 ...
CONSTRAINT_IMPORTANCE = 0.85
#: ... every other attribute has importance 0.5.
ATTRIBUTE_IMPORTANCE = 0.5
#: A new aspect's weight: the middle of [0, 1]; aspect feedback moves it later.
ASPECT_WEIGHT = 0.5
#: Longest aspect name accepted from a model; longer is a sentence, not a name.
MAX_ASPECT_CHARS = 60
#: The prompt lists at most this many existing aspects (the heaviest).
MAX_PROMPT_ASPECTS = 30
#: A fact is cut to this many characters in the prompt.
MAX_FACT_CHARS = 500
#: Batches one job runs at most (a loop guard; a later job takes the rest).
MAX_BATCHES = 50
#: The aspect of a fact no keyword family claims.
GENERAL = "general"
#: A job's result keeps at most this many warnings.
MAX_WARNINGS = 50
#: The model recorded when the rules classified.
RULES_MODEL = "rules"


def _family(words: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{words})\b", re.IGNORECASE)


def _families(table: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """``name  alt | alt | ...`` rows (indented lines continue a row) as patterns."""
    rows: list[list[str]] = []
    for line in table.strip("\n").splitlines():
        if line[:1].isspace():
            rows[-1][1] += " | " + line.strip()
        else:
            name, _, alternatives = line.partition(" ")
            rows.append([name, alternatives.strip()])
    return tuple((n, _family("|".join(a.strip() for a in alts.split("|")))) for n, alts in rows)


#: The offline classifier's keyword families, in tie-break order: a fact goes to the
#: family it hits most. Their names are the person suggestions (``ASPECT_SUGGESTIONS``),
#: so the rules and the model grow the same aspects.
KEYWORD_FAMILIES = _families(
    r"""
plans          plan(?:s|ned|ning)? | going to | will | wants? to | intend\w* | goals?
               decid\w* | decisions? | chose | switch\w* | migrat\w* | someday
               hop(?:es|ing) to | dreams? of
work           work(?:s|ed|ing)? | jobs? | careers? | office | compan(?:y|ies) | employer
               boss | colleagues? | cowork\w* | manager | promot\w* | salary | hired | fired
               projects? | clients? | startup | business | engineer | developer | intern\w*
location       lives? | lived | living | mov(?:ed|ing) (?:to|from) | relocat\w* | city | town
               country | hometown | address | neighbou?rhood | apartment | flat
relationships  wife | husband | partner | girlfriend | boyfriend | married | marriage
               divorc\w* | friends? | mom | mother | mum | dad | father | parents? | sisters?
               brothers? | siblings? | sons? | daughters? | kids? | child(?:ren)? | family
               cousins? | dating
possessions    owns? | owned | bought | buys? | purchas\w* | sold | swap(?:ped|s)? | replac\w*
               upgrad\w* | cars? | bikes? | boats? | phones? | laptops? | batter(?:y|ies)
               gear | devices? | equipment | collection
health         health | doctors? | hospital | sick | ill | injur\w* | surgery | diet
               allerg\w* | medication | therap\w* | pain | diagnos\w* | anxiety | stress
               pregnant | sleep\w*
hobbies        hobb(?:y|ies) | play(?:s|ed|ing)? | paint(?:s|ed|ing)? | draw(?:s|ing)?
               hik(?:e|es|ed|ing) | running | swim\w* | surf\w* | foil(?:ing)? | sports?
               guitar | piano | music | reading | books? | camping | fishing
               cook(?:s|ed|ing)? | bak(?:e|es|ed|ing) | games? | gaming | yoga | garden\w*
preferences    lik(?:e|es|ed) | lov(?:e|es|ed) | enjoy\w* | prefer\w* | favou?rite
               hat(?:e|es|ed) | dislik\w* | fan of
events         went to | attend\w* | visit\w* | trips? | part(?:y|ies) | concerts?
               conferences? | wedding | birthday | graduat\w* | yesterday
               last (?:week|month|year|night) | festivals? | events? | ceremon(?:y|ies)
identity       named? | years old | born | nationality | identif\w* | pronouns | gender
               religion | transgender | is an?
"""
)

#: seed 004's ASPECT_SUGGESTIONS: aspect names offered to the model, by entity type.
ASPECT_SUGGESTIONS: dict[str, tuple[str, ...]] = {
    "person": tuple(name for name, _ in KEYWORD_FAMILIES),
    "project": ("goals", "decisions", "architecture", "status", "people", "timeline"),
    "system": ("architecture", "configuration", "dependencies", "decisions", "status"),
    "tool": ("usage", "configuration", "versions", "preferences", "issues"),
    "concept": ("definition", "examples", "related ideas"),
    "skill": ("level", "practice", "learning"),
    "task": ("status", "steps", "deadline", "owner"),
    "unknown": ("properties", "status", "history", "people", "plans", GENERAL),
}

# Entity-type rules: a word in the name, then the relations the entity is the source of.
_TYPE_WORDS = _families(
    r"""
project        project | app | website | rebuild | initiative | product
system         server | database | cluster | service | api | backend | frontend
               infrastructure
tool           tool | library | framework | editor | cli | sdk | plugin
task           task | todo | ticket | chore | bug
"""
)
_PERSON_RELATIONS = word_set(
    "owns lives_in works_at works_for married married_to born_in moved_to moved_from likes "
    "loves dislikes prefers studies plays fan_of visited attended joined has_role"
)
_LEADING_NAME = re.compile(r"^\s*([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2})")


# -- write time (P9) -------------------------------------------------------------------
def attribute_kind(*texts: str) -> tuple[str, float]:
    """seed 004's P9: (``constraint``, 0.85) when any text holds decision language,
    else (``attribute``, 0.5)."""
    if any(is_decision_content(t) for t in texts):
        return "constraint", CONSTRAINT_IMPORTANCE
    return "attribute", ATTRIBUTE_IMPORTANCE


def _fact_memories(core: Core, source: MemoryRecord) -> dict[str, str]:
    """Content hash -> the memory that holds the fact, read from the proposal audit rows
    ``apply`` wrote in the source's history (created, deduped, successor, or the
    memory a NONE found it in)."""
    held: dict[str, str] = {}
    for entry in core.store.memories.history(source.namespace, source.id):
        after = entry.after or {}
        found = after.get("target_id") if after.get("action") == "NONE" else None
        memory_id = after.get("successor_id") or after.get("memory_id") or found
        if entry.event == "proposal" and isinstance(memory_id, str):
            held[normalize_content(str(after.get("content", ""))).content_hash] = memory_id
    return held


def subject_of(
    core: Core, namespace: str, fact: str, known: Mapping[str, tuple[int, str]]
) -> tuple[int, str] | None:
    """(id, name) of the entity ``fact`` is about: the one of ``known`` (canonical name
    -> (id, name)) it names first, else a known entity named by its opening words."""
    lowered = " ".join(fact.split()).lower()
    best: tuple[tuple[int, int], tuple[int, str]] | None = None
    for key, named in known.items():
        found = re.search(rf"(?<!\w){re.escape(key)}(?!\w)", lowered)
        if found and (best is None or (found.start(), -len(key)) < best[0]):
            best = ((found.start(), -len(key)), named)
    if best is not None:
        return best[1]
    opening = _LEADING_NAME.match(fact)
    if opening is None:
        return None
    words = opening.group(1).split()
    for n in range(len(words), 0, -1):
        entity = core.store.graph.entity(namespace, " ".join(words[:n]))
        if entity is not None:
            return entity.id, entity.name
    return None


def record_attributes(
    core: Core,
    source: MemoryRecord,
    facts: Sequence[ExtractedFact],
    relations: Sequence[Relation],
) -> dict[str, Any]:
    """Record each fact as an attribute of its subject entity (P9 kinds), once per
    memory and content, and queue one classify job per entity left with unclassified
    attributes (P10). Returns counts for the job's result."""
    ns, graph = source.namespace, core.store.aspects
    known: dict[str, tuple[int, str]] = {}
    for r in relations:
        known.setdefault(canonical_name(r.source), (r.source_entity_id, r.source))
        known.setdefault(canonical_name(r.target), (r.target_entity_id, r.target))
    held = _fact_memories(core, source)
    live = core.store.memories.get_many(ns, list(set(held.values())))
    added = 0
    touched: dict[int, list[Attribute]] = {}  # entity id -> its attributes, read once
    names: dict[int, str] = {}
    for fact in facts:
        subject = subject_of(core, ns, fact.content, known)
        if subject is None:
            continue  # seed 004: an attribute belongs to an entity; no entity, no attribute
        entity_id, name = subject
        names[entity_id] = name
        existing = touched.setdefault(entity_id, graph.attributes(ns, entity_id))
        content = " ".join(fact.content.split())
        memory_id = held.get(normalize_content(content).content_hash, source.id)
        memory_id = memory_id if memory_id in live else source.id
        # Re-processing leaves a recorded attribute alone (its classification too).
        if not any(a.memory_id == memory_id and a.content == content for a in existing):
            kind, importance = attribute_kind(source.content, content)
            existing.append(
                graph.add_attribute(
                    ns,
                    entity_id,
                    memory_id,
                    content,
                    aspect_id=None,
                    kind=kind,
                    importance=importance,
                    now=utcnow(),
                )
            )
            added += 1
    jobs = 0
    if core.config.pipeline.classify:
        for entity_id, existing in touched.items():
            if any(a.aspect_id is None for a in existing):
                enqueue_classify(core, ns, entity_id, names[entity_id])
                jobs += 1
    return {"added": added, "entities": len(touched), "classify_jobs": jobs}


def enqueue_classify(core: Core, namespace: str, entity_id: int, name: str) -> Job:
    """Queue the entity's classify job, or return the one pending or leased for it (the
    ``entity:<id>`` surrogate makes the store's dedup per entity)."""
    return core.store.jobs.enqueue(
        "classify",
        namespace,
        memory_id=f"entity:{entity_id}",
        payload={"entity_id": entity_id, "entity": name},
        max_attempts=core.config.worker.max_attempts,
    )


# -- the rules (offline) ---------------------------------------------------------------
def rule_aspect(content: str) -> str:
    """The keyword family ``content`` hits most (ties: :data:`KEYWORD_FAMILIES` order),
    or :data:`GENERAL`."""
    best, hits = GENERAL, 0
    for name, pattern in KEYWORD_FAMILIES:
        count = len(pattern.findall(content))
        if count > hits:
            best, hits = name, count
    return best


def rule_kind(attribute: Attribute) -> str:
    """``constraint`` for decision language or an attribute already protected."""
    return "constraint" if attribute.kind == "constraint" else attribute_kind(attribute.content)[0]


def rule_type(entity: Entity, relations: Sequence[Relation]) -> str | None:
    """A canonical type from the entity's name or the relations (its timeline) it is the
    source of (owns, lives_in, works_at ... make a person), or None when unsure."""
    for kind, pattern in _TYPE_WORDS:
        if pattern.search(entity.name):
            return kind
    sources = {r.relation_type for r in relations if r.source_entity_id == entity.id}
    return "person" if sources & _PERSON_RELATIONS else None


# -- the model -------------------------------------------------------------------------
PROMPT_TEMPLATE = """You file what is known about one entity under its aspects: the \
facets of it that facts are about (its work, its possessions, its plans ...).

Entity: {name}
Type: {type}
Existing aspects: {existing}
Suggested aspect names: {suggested}

Facts:
{facts}

For each fact give:
- "i": the fact's number;
- "aspect": the existing aspect it belongs to when one fits, else a new short name \
(one to three lower-case words), preferably a suggested one;
- "kind": "constraint" for a decision, rule or requirement that must be respected \
("decided to", "must", "never", "always"), else "attribute";
- "new": true when the aspect is not one of the existing aspects.
{type_request}
Answer with only a JSON object: {example}"""

_TYPE_REQUEST = (
    'The entity\'s type is not known: also give "type", one of ' + ", ".join(ENTITY_TYPES) + ".\n"
)


def classify_schema(ask_type: bool) -> JsonSchema:
    """The answer's JSON schema: ``{"facts": [{i, aspect, kind, new}]}``, plus
    ``type`` when the entity's type is asked for."""
    item = {
        "type": "object",
        "properties": {
            "i": {"type": "integer"},
            "aspect": {"type": "string"},
            "kind": {"type": "string", "enum": list(ATTRIBUTE_KINDS)},
            "new": {"type": "boolean"},
        },
        "required": ["i", "aspect", "kind", "new"],
    }
    properties: dict[str, Any] = {"facts": {"type": "array", "items": item}}
    required = ["facts"]
    if ask_type:
        properties["type"] = {"type": "string", "enum": list(ENTITY_TYPES)}
        required.append("type")
    return {"type": "object", "properties": properties, "required": required}


def build_prompt(
    entity: Entity, aspects: Sequence[Aspect], batch: Sequence[Attribute], *, ask_type: bool
) -> str:
    """seed 004's classify prompt for one entity's batch of facts (numbered from 0)."""
    kind = entity.entity_type if entity.entity_type not in UNTYPED else UNKNOWN_TYPE
    existing = [a.name for a in aspects[:MAX_PROMPT_ASPECTS]]
    example: dict[str, Any] = {
        "facts": [{"i": 0, "aspect": "possessions", "kind": "attribute", "new": True}]
    }
    if ask_type:
        example["type"] = "person"
    return PROMPT_TEMPLATE.format(
        name=entity.name,
        type=kind,
        existing=", ".join(existing) if existing else "none yet",
        suggested=", ".join(ASPECT_SUGGESTIONS.get(kind, ASPECT_SUGGESTIONS[UNKNOWN_TYPE])),
        facts="\n".join(f"{i}. {a.content[:MAX_FACT_CHARS]}" for i, a in enumerate(batch)),
        type_request=_TYPE_REQUEST if ask_type else "",
        example=json.dumps(example),
    )


@dataclass(frozen=True, slots=True)
class Answer:
    """What a model's answer says, once checked: the aspect and kind (None: let the
    rules choose) per fact number, the entity's type, and what was wrong with it."""

    facts: dict[int, tuple[str, str | None]]
    entity_type: str | None
    warnings: tuple[str, ...]


def parse_answer(raw: str, size: int, *, ask_type: bool) -> Answer:
    """Check the model's answer for a batch of ``size`` facts; never raises. Accepts
    the seed's bare array as well as ``{"facts": [...]}``."""
    notes: list[str] = []
    try:
        data = parse_json(raw)
    except LlmError as exc:
        return Answer({}, None, (f"{exc}; the rules classified the batch",))
    items = data.get("facts") if isinstance(data, dict) else data
    entity_type = None
    if ask_type and isinstance(data, dict) and data.get("type") is not None:
        given = data["type"]
        if isinstance(given, str) and given.strip().lower() in ENTITY_TYPES:
            entity_type = given.strip().lower()
        else:
            notes.append(f"type {given!r} is not one of {', '.join(ENTITY_TYPES)}; ignored")
    if not isinstance(items, list):
        notes.append("the answer holds no list of facts; the rules classified the batch")
        return Answer({}, entity_type, tuple(notes))
    facts: dict[int, tuple[str, str | None]] = {}
    for n, item in enumerate(items):
        i = item.get("i") if isinstance(item, dict) else None
        if not isinstance(item, dict) or isinstance(i, bool) or not isinstance(i, int):
            notes.append(f"item {n} has no fact number 'i'; ignored")
            continue
        if not 0 <= i < size or i in facts:
            notes.append(f"item {n}: fact {i} is out of range or repeated; ignored")
            continue
        aspect = item.get("aspect")
        if not isinstance(aspect, str) or not aspect.strip() or len(aspect) > MAX_ASPECT_CHARS:
            notes.append(f"fact {i}: aspect {aspect!r} is not a short name; ignored")
            continue
        kind = item.get("kind")
        if kind not in ATTRIBUTE_KINDS:
            notes.append(f"fact {i}: kind {kind!r} is not attribute or constraint; ruled")
            kind = None
        facts[i] = (" ".join(aspect.split()), kind)
    return Answer(facts, entity_type, tuple(notes))


def classify_with_llm(
    provider: LlmProvider,
    entity: Entity,
    aspects: Sequence[Aspect],
    batch: Sequence[Attribute],
    *,
    ask_type: bool,
    timeout: float | None,
) -> Answer:
    """One call for the whole batch. A provider failure raises ``LlmError`` (the job
    is retried); a bad answer does not (asking again mostly gets the same answer)."""
    prompt = build_prompt(entity, aspects, batch, ask_type=ask_type)
    try:
        raw = provider.generate(prompt, schema=classify_schema(ask_type), timeout=timeout)
    except LlmError:
        raise
    except Exception as exc:  # a third-party provider may raise anything: still retryable
        raise LlmError(f"{provider.name}: {type(exc).__name__}: {exc}") from exc
    return parse_answer(raw, len(batch), ask_type=ask_type)


# -- the job ---------------------------------------------------------------------------
def _unclassified(core: Core, entity: Entity, tried: set[int], size: int) -> list[Attribute]:
    """Up to ``size`` of the entity's attributes without an aspect, oldest first, whose
    memory is live (a deleted memory's attribute is left alone)."""
    ns, found = entity.namespace, core.store.aspects.attributes(entity.namespace, entity.id)
    pending = [a for a in found if a.aspect_id is None and a.id not in tried]
    live = core.store.memories.get_many(ns, list({a.memory_id for a in pending}))
    return [a for a in pending if a.memory_id in live][:size]


def _set_type(core: Core, entity: Entity, kind: str) -> bool:
    """Type an untyped entity through ``GraphStore.record``, which fills in an unknown
    type it is told; with no triples and a memory already mentioning the entity it
    changes nothing else, so ``GraphStore`` (at its 12 methods) needs no new one."""
    mentions = core.store.graph.mentions(entity.namespace, entity.id)
    if not mentions:
        return False
    now = utcnow()
    statement = Statement(mentions[0].memory_id, [], now, now, {entity.name: kind})
    core.store.graph.record(entity.namespace, [statement], single_valued=())
    return True


def _land(
    core: Core, entity: Entity, batch: Sequence[Attribute], answer: Answer, now: datetime
) -> list[Attribute]:
    """Write one batch's aspects and kinds (the rules fill what the answer lacks)."""
    graph, ns = core.store.aspects, entity.namespace
    landed: list[Attribute] = []
    for i, attribute in enumerate(batch):
        aspect_name, kind = answer.facts.get(i, (rule_aspect(attribute.content), None))
        # P9 is never undone: a constraint stays one whatever the model says.
        if kind is None or attribute.kind == "constraint":
            kind = rule_kind(attribute)
        importance = attribute.importance
        if kind == "constraint":
            importance = max(importance, CONSTRAINT_IMPORTANCE)
        aspect = graph.upsert_aspect(ns, entity.id, aspect_name, weight=ASPECT_WEIGHT, now=now)
        landed.append(
            graph.add_attribute(
                ns,
                entity.id,
                attribute.memory_id,
                attribute.content,
                aspect_id=aspect.id,
                kind=kind,
                importance=importance,
                now=now,
            )
        )
    return landed


def handle_classify(core: Core, job: Job) -> Mapping[str, Any]:
    """Classify the job's entity's unclassified attributes, a batch per call, then run
    retroactive supersession on what landed; the result is the job's payload."""
    entity_id, name = job.payload.get("entity_id"), job.payload.get("entity")
    if isinstance(entity_id, bool) or not isinstance(entity_id, int) or not isinstance(name, str):
        return {"skipped": "the job names no entity (its payload needs entity_id and entity)"}
    graph = core.store.graph
    entity = graph.entity(job.namespace, name)
    if entity is None or entity.id != entity_id:
        return {"skipped": f"entity {entity_id} ({name!r}) is gone"}
    cfg = core.config.pipeline
    provider = None if cfg.extractor == "offline" else core.llm()
    warnings: list[str] = []
    by = {"llm": 0, "rules": 0}
    aspects: set[int] = set()
    typed: str | None = None
    report = supersession.SupersessionReport(mode=mode_of(cfg))
    tried: set[int] = set()
    batches = 0
    while batches < MAX_BATCHES:
        batch = _unclassified(core, entity, tried, cfg.classify_batch_size)
        if not batch:
            break
        batches += 1
        tried.update(a.id for a in batch)
        ask_type = entity.entity_type in UNTYPED
        answer = Answer({}, None, ())
        if provider is not None:
            existing = core.store.aspects.aspects(entity.namespace, entity.id)
            answer = classify_with_llm(
                provider,
                entity,
                existing,
                batch,
                ask_type=ask_type,
                timeout=core.config.llm.timeout_s,
            )
            warnings.extend(answer.warnings)
            left = [i for i in range(len(batch)) if i not in answer.facts]
            if left:
                warnings.append(f"the rules classified facts {left} of batch {batches}")
        by["llm"] += len(answer.facts)
        by["rules"] += len(batch) - len(answer.facts)
        inferred = answer.entity_type
        if ask_type and inferred is None:
            inferred = rule_type(entity, graph.timeline(entity.namespace, entity.id))
        now = utcnow()
        with core.store.transaction():  # seed 004: aspects, kinds and type land together
            landed = _land(core, entity, batch, answer, now)
            if ask_type and inferred not in (None, UNKNOWN_TYPE):
                typed = inferred if _set_type(core, entity, str(inferred)) else None
        aspects.update(a.aspect_id for a in landed if a.aspect_id is not None)
        entity = graph.entity(entity.namespace, entity.name) or entity
        # seed 004: retroactive supersession, run per batch so that a provider failure
        # in a later batch (the job retried) cannot skip this batch's siblings.
        report.merge(
            supersession.supersede_siblings(core, entity, landed, provider=provider, now=now)
        )
    names = {a.id: a.name for a in core.store.aspects.aspects(entity.namespace, entity.id)}
    return {
        "entity": entity.name,
        "entity_id": entity.id,
        "model": provider.model if provider is not None else RULES_MODEL,
        "batches": batches,
        "classified": sum(by.values()),
        "by": by,
        "aspects": sorted(names[i] for i in aspects if i in names),
        "entity_type": typed,
        "supersession": report.to_dict(),
        "warnings": warnings[:MAX_WARNINGS],
    }


register("classify", handle_classify)
