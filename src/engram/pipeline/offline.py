"""The offline extractor: facts and entity triples by rule, with no model (FEATURES P2).

It reads text the way the LLM extractor is asked to, with rules instead of a model:

1. **Speaker.** Chat turns are stored as ``"Name: text"``; the name becomes the
   subject that first-person words resolve to. A trailing ``[image: ...]`` (a caption
   attached to a turn) is not something the speaker said and is dropped.
2. **Sentences.** The text is split into sentences (abbreviations and decimals kept
   whole); interjections, lead-ins and names addressed ("Yeah,", "By the way,",
   "Hey Jon!") are trimmed from their start.
3. **Selection.** Each sentence gets the rule that keeps it, by its subject: first
   person ("I ...", "My ..."), a dropped "I" ("Lost my job yesterday"), "we", a named
   subject, a sentence that mentions the speaker ("Dance helps me relax"), or a
   general statement, which is attributed to the speaker ("Gina thinks setbacks are
   opportunities"). Preferences and decisions (seed 004's battery,
   :mod:`engram.pipeline.patterns`) and how-tos get their own type. Dropped: questions,
   suggestions ("Let's ..."), hedges and guesses ("I bet", "must have been"), what
   follows "you", sentences whose main clause leans on another turn ("It was great",
   "I made it with coconut milk"), and sentences with too little content (a date, a
   quantity or a name lowers that bar).
4. **Resolution.** First person becomes the speaker: "I went" -> "Caroline went",
   "I love" -> "Caroline loves", "my" -> "Caroline's", "we" -> "Caroline and others",
   and a thing shown in a photo becomes indefinite ("I made this pie" -> "a pie"), so
   every fact reads on its own. A sentence that gives no fact as written is read again
   with its pointer resolved, the photo it shares named, or the question before it
   joined (:mod:`engram.pipeline.offline_coref`).
5. **Triples.** Simple patterns on the resolved fact give (source, relationship,
   target): "X is a Y", "X works at Y", "X lives in Y", "X went to Y", "X's Y is Z" ...

Each rule's confidence is how often its facts were judged correct in a hand-labelled
sample (:data:`RULE_CONFIDENCE`, docs/pipeline.md). Everything is regular expressions
over one string: deterministic, and thousands of turns per second.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, replace
from typing import Any

from engram.pipeline import (
    offline_answer,
    offline_asks,
    offline_context,
    offline_coref,
    offline_forms,
    offline_listener,
    offline_notes,
    patterns,
    turns,
)
from engram.pipeline.offline_confidence import ANCHOR_BONUS as ANCHOR_BONUS
from engram.pipeline.offline_confidence import MAX_CONFIDENCE as MAX_CONFIDENCE
from engram.pipeline.offline_confidence import RULE_CONFIDENCE as RULE_CONFIDENCE
from engram.pipeline.offline_confidence import confidence, group_rule, is_anchored
from engram.pipeline.person import resolve_person, upper_i
from engram.pipeline.triples import Relation, relation_triples
from engram.pipeline.turns import split_sentences as split_sentences
from engram.pipeline.turns import split_speaker as split_speaker
from engram.text import STOPWORDS, keywords

#: How many content words (not stopwords, not chat fillers, not the speaker's name) a
#: sentence needs to be kept, and how many when it is specific: it carries a date, a
#: quantity or a name, or states a decision.
MIN_CONTENT_WORDS = 3
MIN_ANCHORED_CONTENT_WORDS = 2
#: Rules whose facts need only the lower bar: what was decided or liked is named
#: ("John hates not being on the court"; issue 28, experiment 38).
_SPECIFIC_RULES = frozenset({"decision", "preference"})
#: A general statement shorter than this is a fragment ("Mainly the roadways.").
MIN_STATEMENT_WORDS = 4
#: Longer sentences are run-ons that no longer read as one fact.
MAX_FACT_CHARS = 400

_ATTACHMENT = re.compile(r"\s*\[(?:image|photo|picture|file|attachment):[^\]]*\]\s*$", re.I)

# Lead-ins that add nothing to what follows ("By the way, ...", "For me I just get lost in
# thought", "It's true, nature ...", "After that, we ...").
_LEAD_IN = re.compile(
    r"^(?:for\s+sure|of\s+course|no\s+doubt|to\s+be\s+honest|in\s+fact|by\s+the\s+way|"
    r"on\s+a\s+(?:different|other|side|similar)\s+note|speaking\s+of\s+which|"
    r"no\s+worries|long\s+time\s+no\s+(?:see|talk)|good\s+to\s+(?:see|hear\s+from)\s+you|"
    r"for\s+me|it's\s+true|that's\s+true|after\s+that|afterwards)[,!.]?\s*",
    re.IGNORECASE,
)
# "Jon, I ...", "Thanks Nate! ...": a capitalised word alone before a comma is a name
# the speaker addresses.
_VOCATIVE = re.compile(
    r"^[A-Z][a-z]+[,!]\s+(?=(?:I|I'm|I've|I'll|I'd|you|you're|your|we|we're|it|it's|that|"
    r"that's|this|these|those|my|the|so|and|but|there|thanks|since|last|been)\b)",
    re.IGNORECASE,
)
_GREETED = re.compile(r"^[A-Z][a-z]+[,!]\s+")
# "The kids look cute, Mel!": a name after the last comma, when what precedes it is
# not a name too (as in "Austin, Texas").
_TRAILING_VOCATIVE = re.compile(r"(\b[a-z][\w'-]*),\s*[A-Z][a-z]+\s*([.!]*)$")
# Its part from the comma on, which holds no comma: the pattern (slow, it is tried at
# every word) can match only where this matches at the last comma.
_VOCATIVE_TAIL = re.compile(r",\s*[A-Z][a-z]+\s*[.!]*$")
# "..., don't they!": a question without its question mark.
_TAG_QUESTION = re.compile(
    r"(?:,\s*|\s)(?:don't|doesn't|isn't|aren't|wasn't|weren't|won't|can't|didn't|haven't|"
    r"hasn't|right|eh)\s*(?:they|it|you|we|he|she|I|there)?\s*[!.]*$",
    re.IGNORECASE,
)

# Openers that make a sentence not a standalone statement ("This week has been busy for
# me" opens with a time, not a pointer).
_NON_STANDALONE_START = re.compile(
    r"^(?:it|that|this(?!\s+(?:week|weekend|month|year|summer|semester)\b)|these|those|"
    r"there|he|she|they|them|his|her|its|their|here|what|"
    r"which|who|why|how|where|when|let's|lets|let us|please|if|maybe|hope|hopefully|"
    r"same|me too|you|your|glad|sounds|looks|seems|can't wait|cannot wait|good luck|"
    # imperatives: advice to the listener, not a statement about anyone
    r"check|look|keep|take|see|let|don't|do|try|make|go|come|stay|enjoy|have|tell|"
    r"remember|believe|hang|catch|give|get|send|think|imagine|wish|"
    # requests to an assistant ("Remind me to ...", "Add milk to my list"): a task,
    # not a fact about whoever asks (task extract20)
    r"remind|add|schedule|cancel|email|buy|save|summari[sz]e|translate|draft|find|write)\b",
    re.IGNORECASE,
)
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours|you're|you've|you'll|you'd|yourself|u)\b", re.I)
_FIRST_PERSON_SUBJECT = re.compile(
    r"^(?P<lead>[^,]{1,30},\s*)?(?:(?:\w+\s+){0,2}?(?:yesterday|today|tonight|recently|lately|"
    r"(?:this|last|next)\s+(?:week|weekend|month|year|morning|afternoon|evening|summer|"
    r"winter|spring|fall|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
    r"(?:\w+\s+){1,3}ago)[,]?\s+)?(?:I|I'm|I've|I'd|I'll|my|me\s+and)\b",
    re.IGNORECASE,
)
# "I bet they ...", "I guess it ...", "I can only imagine ...": speculation, not a
# statement of fact.
_HEDGE = re.compile(
    r"I\s+(?:bet|guess|wish|suppose|imagine|wonder)\b|I\s+see\s*[,.!]|"
    r"I\s+can\s+(?:only\s+|just\s+)?imagine\b",
    re.IGNORECASE,
)
_SPECULATION = re.compile(r"\bmust(?:'ve|\s+have)?\s+be(?:en)?\b", re.IGNORECASE)
_GROUP_SUBJECT = re.compile(r"^(?:we|we're|we've|we'll|we'd|our)\b", re.IGNORECASE)
# A statement about a named subject. Only verbs that state a relation or a definition
# count: "Weddings are full of joy" opens with a capital too, but says nothing that
# belongs to anyone.
_NAMED_SUBJECT = re.compile(
    r"^(?:the\s+)?([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2})(?:'s\s+\w+(?:\s+\w+)?)?\s+"
    r"(?:\w+ly\s+|also\s+|just\s+|still\s+)?(?:(?:is|was|has|had)\s+(?:a|an)\s|"
    r"(?:is|was|are|were|comes?)\s+from\b|was\s+born\b|works|worked|lives|lived|moved|"
    r"married|owns|owned|went|joined|uses|prefers|likes|loves|enjoys|hates|studies|"
    r"studied|started|founded|built|wrote|bought|adopted|chose|decided|switched|migrated|"
    r"runs|leads|manages|plays|visited|attended|became)\b"
)
# A clause that starts where "you" would make the rest depend on the listener; the
# part before it stands alone ("I took a road trip | while you were winning").
_CLAUSE_BREAK = re.compile(
    r"(?:,|;|\s-|\s—)\s*|\s+(?=(?:while|when|because|since|if|as|and|but|so|which|"
    r"though|although|until|after|before)\s)"
)
# "Nate made it with coconut milk", "John loves this team": the main clause leans on
# something named in another turn, so the fact does not stand alone. Later clauses may
# point back inside the fact ("Jon loves dance and it ..."), so only the first is read.
_TIME_WORDS = (
    r"week|weekend|month|year|morning|afternoon|evening|night|summer|winter|spring|fall|"
    r"time|day|season|semester"
)
_DANGLING = re.compile(
    rf"\b(?:it|them|him|(?:this|these|those)(?!\s+(?:[a-z]+\s+)?(?:{_TIME_WORDS})s?\b))(?=[\s.,!;:]|$)"
    r"|\bthat(?=\s*(?:[.!;:]|$))",
    re.IGNORECASE,
)
# "I made this apple pie" (a photo shown with the turn): the thing is "an apple pie".
# Only after verbs of making and getting: "Moments like this remind me" is a pronoun.
_SHOWN = re.compile(
    r"(\b(?:made|make|makes|took|got|found|bought|painted|drew|finished|wrote|baked|built|"
    r"cooked|knitted|designed|created|picked|received|adopted|started|tried|across|met)\s+"
    r"(?:\w+\s+)?)"
    rf"(this|these)\s+(?!(?:{_TIME_WORDS}|one|ones|is|was|are|were|stuff|kind|sort)\b)"
    r"(?=[a-z])",
    re.IGNORECASE,
)
_FIRST_CLAUSE = re.compile(r"[^,;:—–]*?(?=\s+-\s|,|;|:|—|–|\s+(?:and|but|so|because)\s|$)")
# "Nate (really) loves ...": a preference stated in the third person.
_LIKES = re.compile(
    r"\s+(?:\w+ly\s+|also\s+|just\s+|still\s+)?(?:loves|likes|enjoys|prefers|hates|dislikes|adores)\b"
)
# "Redis is an in-memory store": a definition, general knowledge.
_DEFINITION = re.compile(r"^[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+){0,2}\s+(?:is|are)\s+(?:a|an)\s")
# "It's so nice to know ...", "It feels good seeing ...": an "it" that stands for the
# clause after it, not for something named elsewhere. Such a sentence is the speaker's
# view ("Maria thinks it's nice to know ...").
_DUMMY_IT = re.compile(
    r"\bit(?:'s|\s+is|\s+was|\s+feels|\s+felt|'s\s+been|\s+has\s+been)\s+"
    r"(?:(?:so|such|always|really|very|pretty|just|truly|super|quite|\w+ly)\s+)*"
    r"(?:[a-z]+\s+(?:to|knowing|seeing|having|being|watching|hearing|how|when)|"
    rf"(?!(?:a|an|the|about|all|like)\s)[a-z]+\s+{offline_forms.DUMMY_ING})\b",
    re.IGNORECASE,
)
_SELF_MENTION = re.compile(r"\b(?:my|me|mine|myself)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class OfflineFact:
    """A fact the rules found, with the rule that found it (for measurement)."""

    content: str
    type: str
    confidence: float
    rule: str
    sentence: str
    """The sentence it came from, before resolution."""


@dataclass(frozen=True, slots=True)
class OfflineAnalysis:
    """What the offline extractor read in one text."""

    speaker: str | None
    facts: tuple[OfflineFact, ...]
    triples: tuple[Relation, ...]

    def as_raw(self) -> dict[str, Any]:
        """The same JSON shape the LLM is asked for, so one validator checks both."""
        return {
            "facts": [
                {"content": f.content, "type": f.type, "confidence": f.confidence}
                for f in self.facts
            ],
            "entities": [
                {
                    "source": t.source,
                    "relationship": t.relationship,
                    "target": t.target,
                    "confidence": t.confidence,
                }
                for t in self.triples
            ],
        }


# Asked twice of most sentences, by _read and _resolved: made once (rules26).
@functools.lru_cache(maxsize=1 << 15)
def _trim_opening(sentence: str) -> str:
    """Drop what opens a sentence without adding to it: interjections ("Yeah,",
    "Wow"), lead-ins ("By the way,"), a vocative ("Jon, ...") and "remember that"."""
    text = sentence.strip()
    while True:
        before = text
        text = offline_asks.REMEMBER_THAT.sub("", text)
        first = text.split(" ", 1)[0]
        if first.lower().strip(",.!-—:;") in patterns.INTERJECTIONS:
            text = text[len(first) :].lstrip(" ,.!-—:;")
            # "Hey Maria, last week ...": a name right after a greeting is addressed.
            text = _GREETED.sub("", text)
        text = _LEAD_IN.sub("", text)
        text = _VOCATIVE.sub("", text)
        if "," in text and _VOCATIVE_TAIL.match(text, text.rfind(",")):
            text = _TRAILING_VOCATIVE.sub(r"\1\2", text)
        if text == before:
            break
    return text[:1].upper() + text[1:]


def _content_words(text: str, speaker: str | None) -> int:
    skipped = patterns.FILLERS | {w.lower() for w in (speaker or "").split()} | {"others"}
    return sum(1 for w in keywords(text, limit=64) if w not in skipped)


_SPACES = re.compile(r"\s+")
_BANGS = re.compile(r"[!]+$")


def _finish(text: str) -> str:
    text = _SPACES.sub(" ", text).strip(" -—,;:")
    text = _BANGS.sub(".", text)
    if text and text[-1] not in ".!?\"')":
        text += "."
    return text[:1].upper() + text[1:]


def _subject(sentence: str) -> tuple[str, str] | None:
    """Who a sentence is about, as the rule that keeps it, and the sentence to resolve
    (with a dropped "I" put back); None when it is not a standalone statement."""
    opening = _FIRST_PERSON_SUBJECT.match(sentence)
    if opening is not None and _HEDGE.match(
        sentence, opening.end("lead") if opening["lead"] else 0
    ):
        return None
    if opening is not None:
        if opening.group("lead") and not patterns.DATE.search(opening["lead"]):
            # "On a different note, I found ...": the lead-in is about the conversation.
            sentence = sentence[opening.end("lead") :]
        return "first_person", sentence
    if _GROUP_SUBJECT.match(sentence):
        return group_rule(sentence), sentence
    if offline_context.first_person_lead(sentence):
        return "first_person", sentence  # "Since I lost my job, things have been tough"
    if offline_notes.command_subject(sentence):
        return "named", sentence  # "`go test ./...` hung on ...": the command is the subject
    elided = offline_forms.elided(sentence)
    if elided is not None and offline_notes.passive_fragment(sentence):
        return None  # "Fixed by pinning urllib3<2": what was fixed is not said
    if elided is not None and not offline_forms.speaker_is_object(sentence):
        return elided
    if (caused := offline_forms.speaker_caused(sentence)) is not None:
        return "caused", caused  # "It made me realize ..." -> "I realized ..."
    if _NON_STANDALONE_START.match(sentence):
        return ("statement", sentence) if _DUMMY_IT.match(sentence) else None
    if _NAMED_SUBJECT.match(sentence):
        return "named", sentence
    words = sentence.split()
    if (
        words[0].lower().strip(",.!") in patterns.SUBJECTLESS_OPENERS
        or len(words) < MIN_STATEMENT_WORDS
    ):
        return None
    if _SELF_MENTION.search(sentence):
        return "self_mention", sentence
    return "statement", sentence


_LETS = re.compile(r"^(?:let's|lets|let us)\b", re.I)
# What _TAG_QUESTION and patterns.PREFERENCE cannot match without (lower-cased): both
# are slow, and most sentences hold none of these.
_TAG_WORDS = re.compile(r"n't|right|eh")
_PREFERENCE_WORDS = re.compile(
    r"love|like|enjoy|prefer|hate|adore|despise|fav|go-to|fan|into|passionate|obsessed|stand"
)


def _may_match(text: str, words: re.Pattern[str]) -> bool:
    """Whether a case-insensitive pattern that needs one of ``words`` can match ``text``
    (on ASCII text IGNORECASE is plain case folding; other text is always tried)."""
    return not text.isascii() or words.search(text.lower()) is not None


def _classify(sentence: str, speaker: str | None) -> tuple[str, str, str] | None:
    """(rule, type, the sentence to resolve) for a sentence worth keeping, or None."""
    if len(sentence) > MAX_FACT_CHARS:
        return None
    if sentence.rstrip().endswith("?"):
        # "Hiking is so good for the soul, right?" states a view; others ask.
        statement = offline_forms.untag(sentence)
        tagged = None if statement is None else _classify(statement, speaker)
        if tagged is None or tagged[0].startswith("group") or tagged[0] == "ours":
            return None  # "We should go hiking sometime, right?" is a suggestion
        return "tag_view", tagged[1], tagged[2]
    if _may_match(sentence, _TAG_WORDS) and _TAG_QUESTION.search(sentence):
        return None
    if patterns.PROCEDURAL.search(sentence):
        return "procedural", "procedural", sentence
    if _LETS.match(sentence) or offline_asks.is_request(sentence):
        return None  # a suggestion, or a task for the listener (task x25)
    you = _SECOND_PERSON.search(sentence)
    if you is not None:
        # Keep what comes before the listener is brought in, if it stands alone.
        sentence = _before_listener(sentence, you.start())
    found = _subject(sentence) if sentence else None
    if found is None:
        return None
    rule, text = found
    if patterns.is_decision_content(text):
        return "decision", "decision", text
    if (
        (rule == "first_person" or rule.startswith("elided"))
        and _may_match(text, _PREFERENCE_WORDS)
        and patterns.PREFERENCE.search(text)
    ):
        return "preference", "preference", text
    if rule == "statement":
        if _SPECULATION.search(text):
            return None  # "Winning must have been thrilling": a guess at someone's news
        present = _DUMMY_IT.match(text) or offline_forms.contracted_present(text)
        tense = offline_forms.statement_tense(text) or offline_forms.gerund_tense(text)
        tense = tense or ("present" if present else None)
        if tense is None or offline_context.leans_on_other_turns(text, tense):
            return None  # a fragment ("Best of luck!") or a report on another turn
        if turns.named(speaker):
            # What a speaker states is their view (or their report), not a fact about
            # the world: it is attributed to them.
            verb = "says" if tense == "past" else "thinks"
            said = "i" + text[1:] if _DUMMY_IT.match(text) else offline_forms.lower_first(text)
            return offline_forms.opinion_rule(said), "fact", f"{speaker} {verb} {said}"
    if rule == "named" and turns.named(speaker) and text.startswith(speaker):
        rule = "first_person"  # the speaker naming themself: "Nate loves stories ..."
        if _LIKES.match(text, len(speaker)):
            return "preference", "preference", text
    if rule == "named" and turns.named(speaker):
        # In a chat turn, "Max is a good boy" is still the speaker's statement.
        return "opinion", "fact", f"{speaker} thinks {offline_forms.lower_first(text)}"
    if rule == "named" and _DEFINITION.match(text):
        return "named", "semantic", text
    return rule, "fact", text


def _before_listener(sentence: str, at: int) -> str:
    """``sentence`` up to the clause where the listener ("you") comes in, or ""."""
    cuts = [m.start() for m in _CLAUSE_BREAK.finditer(sentence, 0, at)]
    return sentence[: cuts[-1]].rstrip(" ,;-—") if cuts else ""


def _dangling(fact: str) -> bool:
    """Whether the fact's main clause points at something outside it ("it", "this")."""
    if "it" in fact.lower():
        fact = _DUMMY_IT.sub("", fact)  # "it's nice to know ...": "it" points inside
        fact = offline_forms.without_extraposed_it(fact)  # "how important it is to ..."
    fact = offline_forms.without_inner_pointers(fact)  # "a cake with berries on it"
    first = _FIRST_CLAUSE.match(fact)
    clause = first.group(0) if first else fact
    return _DANGLING.search(clause) is not None


def _indefinite(fact: str) -> str:
    """ "this apple pie" -> "an apple pie", "these cookies" -> "some cookies": what a
    turn shows is still true of the thing without the photo."""

    def article(match: re.Match[str]) -> str:
        following = fact[match.end() :].split(" ", 1)[0].lower()
        if following in STOPWORDS:
            return match.group(0)  # "took home this as a prize": a pronoun
        if match.group(2).lower() == "these":
            return match.group(1) + "some "
        return match.group(1) + ("an " if following[:1] in "aeiou" else "a ")

    if fact.isascii() and "this" not in fact.lower() and "these" not in fact.lower():
        return fact  # _SHOWN needs "this" or "these" (ASCII: plain case folding)
    return offline_forms.introduced(_SHOWN.sub(article, fact))


def _names_something(sentence: str) -> bool:
    """Whether the sentence names a person, place or thing past its first word
    ("I moved to Berlin"): a name makes a short fact specific enough to keep."""
    return any(
        w[:1].isupper() and w.strip(".,!?;:'\"") not in {"I", "I'm", "I've", "I'll", "I'd"}
        for w in sentence.split()[1:]
    )


#: How many (sentence, speaker) readings and fact triples are kept for reuse: chat and
#: imports repeat sentences, and a sentence's reading depends on nothing else.
READ_CACHE = 1 << 15


@functools.lru_cache(maxsize=READ_CACHE)
def _read(raw: str, subject: str | None, listener: str | None = None) -> OfflineFact | None:
    """The fact one raw sentence states for ``subject``, or None (steps 2 to 4); when
    it states none of its own, what it says of ``listener`` ("you")."""
    sentence = _trim_opening(raw)
    if not sentence:
        return None
    fact = _fact(raw, _classify(sentence, subject), subject)
    if fact is None and listener is not None:
        heard = offline_listener.reading(raw, sentence, subject, lambda s: _classify(s, listener))
        fact = _fact(raw, heard, listener)
    return fact


def _fact(
    raw: str, classified: tuple[str, str, str] | None, subject: str | None
) -> OfflineFact | None:
    """The fact of a classified sentence, resolved for ``subject``, if it stands alone
    and says enough."""
    if classified is None:
        return None
    rule, kind, chosen = classified
    content = _finish(_indefinite(resolve_person(chosen, subject) if subject else chosen))
    anchored = is_anchored(content)
    if _dangling(_indefinite(chosen)):  # before resolution: a "them" it wrote is no pointer
        return None
    specific = anchored or rule in _SPECIFIC_RULES or _names_something(chosen)
    need = MIN_ANCHORED_CONTENT_WORDS if specific else MIN_CONTENT_WORDS
    if subject == turns.OWNER and offline_forms.condition(content):
        need = offline_forms.CONDITION_WORDS
    if _content_words(content, subject) < need:
        return None
    return OfflineFact(content, kind, confidence(rule, anchored), rule, raw)


@functools.lru_cache(maxsize=READ_CACHE)
def _triples(content: str, confidence: float) -> tuple[Relation, ...]:
    """``relation_triples`` of one fact (step 5), kept for reuse as above."""
    return tuple(relation_triples(content, confidence))


def analyse(text: str, *, speaker: str | None = None, before: str | None = None) -> OfflineAnalysis:
    """Read ``text`` (a chat turn ``"Name: ..."``, messages one a line
    ``"role: [Name: ]..."``, or plain text) into facts and triples.

    ``speaker`` names whoever "I" is where the text names no one; with neither, first
    person is left as written. :data:`turns.OWNER` is the memory's owner (the
    ``extract`` job's reading of a plain statement): their first person resolves to it,
    and what they say of others stays a statement, not their view. ``before`` is the
    message said just before ``text`` (a chat turn), read only for what a pointer stands
    for (in a message list, each message's is the one before it). What an assistant,
    system or tool said gives no facts (:mod:`engram.pipeline.turns`), and a fact that
    only restates the whole text in the same form is not emitted: the raw memory
    already says it.
    """
    if speaker == turns.OWNER and offline_notes.is_output(text):
        # "ModuleNotFoundError: No module named ...": a program's output the owner kept,
        # not a turn of a speaker named "ModuleNotFoundError".
        return OfflineAnalysis(speaker, (), ())
    said = turns.messages(text, speaker)
    facts: list[OfflineFact] = []
    seen: set[str] = set()
    for index, message in enumerate(said):
        if not message.from_user:
            continue
        # One apostrophe, so "I’m" and "I'm" read the same.
        body = _ATTACHMENT.sub("", message.text).replace("\u2019", "'")
        body = upper_i(body)  # "i moved to leeds" is the same first person
        listener = offline_listener.addressed(said, index, body)
        prior = said[index - 1] if index else (turns.messages(before)[-1] if before else None)
        where = offline_coref.context(prior, message, offline_coref.caption_of(message.text))
        earlier: list[str] = []
        note = message.speaker == turns.OWNER and offline_notes.is_note(body)
        for sentence in split_sentences(body):
            if note:  # an agent's own note (task x23): each sentence alone, no pointers
                found = tuple(_note_claims(sentence, message.speaker))
            else:
                found = _resolved(
                    sentence,
                    _claims(sentence, message.speaker, listener),
                    earlier,
                    where,
                    message.speaker,
                )
            for fact in found:
                if turns.form(fact.content) not in seen:
                    seen.add(turns.form(fact.content))
                    facts.append(fact)
    triples: list[Relation] = []
    for fact in facts:
        if fact.rule == "name":
            continue  # the owner's name is a fact about them, not a link to an entity
        for triple in _triples(fact.content, fact.confidence):
            if triple not in triples:
                triples.append(triple)
    # A plain fact that is the whole text again says nothing new (its triples stay); a
    # typed one (a decision, a preference ...) adds its type, which the raw text lacks.
    facts = [f for f in facts if f.type != "fact" or turns.form(f.content) != turns.form(text)]
    subject = next((m.speaker for m in said if m.from_user and m.speaker), speaker)
    return OfflineAnalysis(subject, tuple(facts), tuple(triples))


# Kept as ``_read`` is (rules26): pure in its arguments; a tuple, which no caller changes.
@functools.lru_cache(maxsize=READ_CACHE)
def _claims(text: str, speaker: str | None, listener: str | None = None) -> tuple[OfflineFact, ...]:
    """The facts of one sentence: one per clause when every clause of a compound
    sentence is a fact; else the whole sentence's fact, which keeps what a clause that
    cannot stand alone adds ("..., and it stands for love"); else what the clauses give."""
    if speaker == turns.OWNER:  # a turn to an assistant (task x25); a request reads as ""
        name, text = offline_asks.owner_turn(text, _trim_opening)
        if name is not None:  # "I'm Priya, ...": the owner's name, then what follows
            rule, said = "name", f"{speaker}'s name is {name}."
            named = OfflineFact(said, "fact", confidence(rule, False), rule, name)
            return (named, *_claims(text, speaker)) if text else (named,)
    pieces = turns.clauses(text)
    if len(pieces) == 1:
        fact = _read(text, speaker, listener)
        return () if fact is None else (fact,)
    found = [_read(piece, speaker, listener) for piece in pieces]
    kept = tuple(fact for fact in found if fact is not None)
    if len(kept) < len(found) and (whole := _read(text, speaker, listener)) is not None:
        return (whole,)
    return kept


def _note_claims(sentence: str, owner: str | None) -> list[OfflineFact]:
    """The facts of one sentence of an agent's note (:func:`offline_notes.claims`)."""
    found, team = offline_notes.claims(sentence, lambda s: _read(s, owner), _trim_opening)
    return [replace(f, content=offline_notes.as_team(f.content)) for f in found] if team else found


def _resolved(
    sentence: str,
    found: tuple[OfflineFact, ...],
    earlier: list[str],
    where: offline_coref.Context,
    speaker: str | None,
) -> tuple[OfflineFact, ...]:
    """``found``, the facts of ``sentence``; when it gave none as written, the fact it
    gives once its pointer is resolved, the photo it shares named or the question it
    answers joined (:mod:`offline_coref`). ``earlier`` (this message's sentences so
    far, pointers resolved) grows by it."""
    if found:
        first = found[0]
        if not earlier and len(found) == 1 and offline_answer.doing(first, where.before, speaker):
            anchored = is_anchored(first.content)
            found = (replace(first, rule="answer", confidence=confidence("answer", anchored)),)
        earlier.append(sentence)  # as said: only a later pointer reads it
        return found
    trimmed = _trim_opening(sentence)
    resolved, readings = offline_coref.readings(trimmed, earlier, where, sentence)
    earlier.append(resolved or trimmed)
    for rule, reading in readings:
        fact = _read(reading, speaker)
        if fact is not None and fact.rule in offline_coref.READ_AS:
            anchored = is_anchored(fact.content)
            return (
                replace(fact, rule=rule, confidence=confidence(rule, anchored), sentence=sentence),
            )
    return ()
