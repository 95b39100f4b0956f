"""Sentence forms the offline extractor used to drop whole (issue 28, third pass).

Of the gold facts the extractor missed on fold A (conv-26, conv-30, conv-41), 181 of
235 come from turns that gave no fact at all (docs/benchmarks.md, offline extraction,
experiment 14). Most of those turns speak to the listener or only thank them, which the
labelling criteria count as trivial; these sentences state something about the speaker
or their view and were dropped for their form alone:

- a view closed by a rhetorical tag: "Hiking with dogs is so good for the soul,
  right?" is a statement, not a question (:func:`untag`);
- a subject contracted with "is": "Knitting's so calming", "The bakery's
  doing great" have a verb the tense test did not see (:func:`contracted_present`);
- what something did to the speaker: "It made me realize how much rest matters",
  "It reminded me why I love baking", "It taught me patience" state what the
  speaker realised, remembered or learned, whatever "it" was (:func:`speaker_caused`);
- a sentence without a subject whose first clause has "me" as object ("Really made me
  think") was read as first person; its subject is not "I" (:func:`speaker_is_object`);
- "how important it is to rest": an "it" that points inside the fact read as a pointer
  to another turn (:func:`without_extraposed_it`), and so did "this" introducing a
  thing ("I love baking this dairy-free lemon cake": :func:`introduced`).

It also holds how a sentence that drops its "I" is read ("Lost my job yesterday",
"Been practicing a lot": :func:`elided`), moved here from the extractor's module.
"""

from __future__ import annotations

import re

from engram.pipeline import patterns
from engram.text import STOPWORDS

# ", right?", ", huh?", ", don't you think?": a tag that asks for agreement with the
# statement before it. Only after a comma (or a dash), so "Is it right?" stays a question.
_RHETORICAL_TAG = re.compile(
    r"\s*(?:,|\s-|\s—)\s*(?:right|huh|eh|isn't\s+it|don't\s+you\s+think|you\s+know)\s*\?+\s*$",
    re.IGNORECASE,
)
# Openers of a real question: the statement before a tag never starts with these.
_QUESTION_START = re.compile(
    r"^(?:what|who|why|how|where|when|which|do|does|did|is|are|was|were|have|has|can|"
    r"could|would|will|should|shall|may|wanna|want)\b",
    re.IGNORECASE,
)

# "Knitting's so ...", "The bakery's doing great", "Finding a flat's a tough job":
# "'s" after the subject (up to five words) followed by what only follows "is"/"has".
# A pronoun's "'s" ("it's", "that's") is not a subject of its own: "No doubt it's been
# tough" leans on another turn.
_CONTRACTED_IS = re.compile(
    r"^(?:[\w-]+\s+){0,5}?(?!(?:it|that|there|here|he|she|what|who|where|how|this|let)'s)"
    r"[\w-]+'s\s+(?:so|such|a|an|really|very|just|been|always|pretty|"
    r"super|quite|too|not|never|definitely|truly|doing|going|getting|[a-z]+ly)\b",
    re.IGNORECASE,
)


# "It's always fun experimenting in the kitchen", "It's been awesome gaining experience":
# after "it's" and an adjective, a verb in -ing is the clause "it" stands for (experiment
# 44); an adjective in -ing is not ("It's truly amazing and comforting": a pointer).
_ADJECTIVES_ING = (
    "amazing|interesting|exciting|rewarding|satisfying|inspiring|comforting|frustrating|"
    "overwhelming|relaxing|calming|heartwarming|encouraging|motivating|challenging|"
    "refreshing|fascinating|entertaining|touching|loving|caring|boring|annoying|surprising|"
    "amusing|promising|thrilling|uplifting|exhausting|humbling|fulfilling|intimidating|"
    "terrifying|soothing|charming|stunning|disappointing|confusing|embarrassing|worrying|"
    "depressing|tiring|nothing|something|thing|morning|evening"
)
DUMMY_ING = rf"(?!(?:{_ADJECTIVES_ING})\b)[a-z]{{2,}}ing"


def untag(sentence: str) -> str | None:
    """The statement before a rhetorical tag ("X, right?" -> "X."), or None when the
    sentence is not a tagged statement."""
    found = _RHETORICAL_TAG.search(sentence)
    if found is None:
        return None
    statement = sentence[: found.start()].rstrip(" ,")
    if not statement or "?" in statement or _QUESTION_START.match(statement):
        return None
    return statement + "."


def contracted_present(sentence: str) -> bool:
    """Whether the sentence's subject is contracted with "is" or "has" ("Knitting's so
    calming"): a present-tense statement."""
    return _CONTRACTED_IS.match(sentence) is not None


# "Really made me think", "Moving abroad gave me a fresh start": "me" in the first clause of
# a sentence without a subject says the speaker is the object, so the dropped subject
# is not "I".
_SPEAKER_OBJECT = re.compile(r"^[^,;:—–-]*?\bme\b", re.IGNORECASE)


def speaker_is_object(sentence: str) -> bool:
    """Whether the first clause of a subjectless sentence has the speaker as object
    ("Really made me think"): its dropped subject is not "I"."""
    return _SPEAKER_OBJECT.match(sentence) is not None


# "It (really) made me realize ...", "It reminds me of ...", "It taught me ...".
_CAUSED = re.compile(
    r"^(?:(?:and|but|plus|so)\s+)?it\s+(?:(?:really|always|just|truly|definitely|sure|also|"
    r"even)\s+)?(?P<verb>made|makes|reminded|reminds|taught|teaches)\s+me\s+(?P<rest>\S.*)$",
    re.IGNORECASE,
)
# What "made me" does to the speaker, in the past ("makes me" keeps the word: "I realize").
_MADE_ME = {
    "realize": "realized",
    "realise": "realised",
    "think": "thought",
    "remember": "remembered",
    "reflect": "reflected",
    "appreciate": "appreciated",
    "feel": "felt",
    "want": "wanted",
    "wonder": "wondered",
    "love": "loved",
    "value": "valued",
}
# "... and gave me hope": a second verb whose subject is still "it".
_SECOND_CAUSE = re.compile(r",?\s+and\s+\w+\s+me\b.*$", re.IGNORECASE)
# "It reminds me of something", "... of that day": what is recalled is
# only known from another turn.
_VAGUE_RECALL = re.compile(r"^of\s+(?:something|that|this|those|these|it|them)\b", re.I)
_RECALLED = re.compile(r"(?:of|that|how|why|to|what)\b", re.IGNORECASE)


def speaker_caused(sentence: str) -> str | None:
    """``"It made me realize X"`` -> ``"I realized X"``, ``"It reminds me of X"`` -> ``"I am
    reminded of X"``, ``"It taught me X"`` -> ``"I learned X"``: what something did to the
    speaker, with the speaker as subject (first person, resolved later). None for any
    other sentence, and when what follows "me" is not a clause ("It made me happy")."""
    found = _CAUSED.match(sentence)
    if found is None:
        return None
    verb, rest = found["verb"].lower(), _SECOND_CAUSE.sub("", found["rest"])
    past = verb in {"made", "reminded", "taught"}
    if verb in {"made", "makes"}:
        first, _, after = rest.partition(" ")
        done = _MADE_ME.get(first.lower())
        if done is None or not after:
            return None
        return f"I {done if past else first} {after}"
    if verb in {"reminded", "reminds"}:
        if not _RECALLED.match(rest) or _VAGUE_RECALL.match(rest):
            return None
        return f"I {'was' if past else 'am'} reminded {rest}"
    return f"I {'learned' if past else 'learn'} {rest}"


# "how important it is to help", "how hard it was being away": an "it" that stands for the
# clause after it, inside a "how" clause.
_EXTRAPOSED_IT = re.compile(
    r"\bhow\s+(?:\w+\s+){1,2}?it\s+(?:is|was|can\s+be|could\s+be|would\s+be)"
    r"(?=\s+(?:to|for|when|that|being|having|\w+ing)\b)",
    re.IGNORECASE,
)


def without_extraposed_it(fact: str) -> str:
    """``fact`` without "how important it is" forms, whose "it" points inside the fact
    (at the clause after it), so that only an "it" pointing outside is left."""
    return _EXTRAPOSED_IT.sub("how", fact)


# Pointers that point inside the fact (experiment 40): "it" after a thing the same clause
# names ("I made a cake with berries on it", "submitting my screenplay to see how others
# like it"; not after a person: "I told my mom about it"), "this next game" (a time to
# come) and "those moments that ..." (a relative clause says which).
_THING = re.compile(r"\b(?:a|an|my|our|some)\s+((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)", re.I)
_IT = re.compile(r"\bit\b", re.IGNORECASE)
# Heads that name a person, a pet or an amount, not a thing "it" may stand for ("a lot
# of effort into it", "a huge fan of it", "a producer falls in love with it").
_NOT_THING = patterns.word_set(
    "mom dad mother father parents family friend friends wife husband son daughter kids kid "
    "brother sister partner boss teacher coach grandma grandpa team teammates dog cat pup "
    "puppy kitten pet pets self producer director person people someone guy girl lot bit fan "
) | patterns.word_set("way little few couple bunch ton tons deal chance part piece")
_COMING = re.compile(r"\bthis\s+(?=(?:next|coming|upcoming)\b)", re.IGNORECASE)
_RELATIVE = re.compile(r"\bthose\s+(?=[a-z]+\s+(?:that|who|which)\b)", re.IGNORECASE)


def without_inner_pointers(fact: str) -> str:
    """``fact`` without the pointers that point inside it (see above), so that only
    one pointing outside is left for the pointer test."""
    it = _IT.search(fact)
    if it is not None:
        clause = re.split(r"[,;.!?]", fact[: it.start()])[-1]
        if any(
            not {w.lower() for w in thing.group(1).split()} & _NOT_THING
            for thing in _THING.finditer(clause)
        ):
            fact = fact[: it.start()] + "one" + fact[it.end() :]
    return _RELATIVE.sub("", _COMING.sub("", fact))


# "I love making this dairy-free lemon cake", "I found this super old map": "this" as
# the object of a verb or preposition, before a noun phrase of two or more words,
# introduces a thing, as "a" does. Before one word ("this team") it points at one the
# conversation named; after "how", "and" ... it is a subject ("how this helps others");
# "these" points back far more often ("these kittens": the pets in the photo).
_INTRODUCED = re.compile(r"\b([a-z]+)\s+this\s+([a-z][\w-]*)\s+([a-z][\w-]*)\b")
_NOT_INTRODUCED = patterns.word_set(
    "week weekend month year morning afternoon evening night summer winter spring fall "
    "time times day days season semester one ones kind sort way next last past coming "
    "whole same very other"
)
_SUBJECT_BEFORE = patterns.word_set(
    "how what why when where that and but so because if as since all of while though "
    "although until whether"
)


def introduced(fact: str) -> str:
    """``fact`` with "this" before a noun phrase of two or more words, as an object,
    made indefinite ("making this dairy-free cake" -> "making a dairy-free cake")."""

    def article(match: re.Match[str]) -> str:
        before, first, second = match.group(1), match.group(2), match.group(3)
        words = {first, second}
        if before in _SUBJECT_BEFORE or words & STOPWORDS or words & _NOT_INTRODUCED:
            return match.group(0)
        return f"{before} {'an' if first[:1] in 'aeiou' else 'a'} {first} {second}"

    return _INTRODUCED.sub(article, fact)


_ING = re.compile(r"^[a-z]+ing$")
# "Starting a store is scary": a verb after the gerund makes it the subject.
_GERUND_SUBJECT = re.compile(
    r"\b(?:is|was|are|were|has|makes|made|can|could|must|will|would|should|helps|"
    r"seems|gives|means|brings|keeps|warms|isn't|wasn't)\b|'s\s+(?:a|an|the|so|really|"
    r"been|not)\b"
)


# The verb of a gerund subject, past or present: "Exploring the city and trying all the
# restaurants was awesome" has it past the first seven words, where the tense test stops.
_GERUND_VERB = re.compile(
    r"\b(?:(?P<past>was|were|made|created|gave|brought|kept|took|helped)|is|are|makes|creates|"
    r"gives|brings|keeps|takes|helps|means|seems|can|could|will|would|should|must|might)\b",
    re.IGNORECASE,
)


def gerund_tense(sentence: str) -> str | None:
    """``"past"`` or ``"present"`` for a sentence whose subject is a gerund phrase
    ("Fitting into a new team's style of play was a challenge"), else None."""
    first = sentence.split(" ", 1)[0].lower()
    if not _ING.match(first) or first in patterns.NOT_VERBS_ING and first != "being":
        return None  # "Being around people who ... creates a bond" has a gerund subject
    verb = _GERUND_VERB.search(sentence)
    if verb is None:
        return None
    return "past" if verb["past"] else "present"


# "Can't wait to surprise my family ...", "Love experimenting with spices": a plan or a
# liking with "I" dropped (experiment 43); "Love the necklace!" praises what is shown.
_PLAN_OR_LIKING = re.compile(r"^(?:can't\s+wait\s+to|love\s+[a-z]+ing)\b", re.IGNORECASE)


# "Gonna be a great night": "it's" dropped, not "I'm".
_GONNA_BE = re.compile(r"^gonna\s+be\s+(?:a|an|the|so|such)\b", re.IGNORECASE)
# "Still working on my biz", "Trying to get a petition going", "Finishing up the
# choreography": the speaker's own doing. Other -ing openers are as often a gerund
# subject whose verb the tense test misses ("Networking plays a big role") or a
# reaction to the listener's news ("Volunteering and making a difference - so
# heartwarming"): 4 of 14 right on fold B (issue 28, seventh pass).
_DOING = re.compile(
    r"^(?:(?:still|currently)\s+[a-z]+ing\b|(?:just\s+)?[a-z]+ing\s+(?:to|on|for|up)\b"
    r"|busy\s+(?:with|[a-z]+ing)\b)",
    re.IGNORECASE,
)


def elided(sentence: str) -> tuple[str, str] | None:
    """The rule and the ``"I ..."`` sentence for a sentence that drops its subject
    ("Lost my job yesterday", "Still looking for a place"), else None. The rule is
    ``elided_event`` for a past verb or "been V-ing" ("Lost my job as a banker
    yesterday", "Been rehearsing hard"), ``elided_plan`` for "gonna" or "can't wait to"
    ("Gonna explore more next month"), ``elided_doing`` for the speaker's own doing
    (:data:`_DOING`), else ``elided`` (feelings, "wanna", "gotta", "love V-ing", other
    -ing)."""
    words = sentence.split()
    if not words:
        return None
    first = words[0].lower().strip(",")
    rest = words[1:]
    if first in {"just", "still", "also", "finally", "recently", "really"} and rest:
        first = rest[0].lower().strip(",")
    lowered = sentence[0].lower() + sentence[1:]
    if first == "been":
        # "Been practicing a lot" drops "I've"; "Been a few days", "Been a busy week"
        # drop "It's".
        after = [w.lower().strip(",.!") for w in words[1:3]]
        if after and after[0] in {"a", "an", "the", "such"}:
            return None
        if any(_ING.match(w) and w not in patterns.NOT_VERBS_ING or w == "busy" for w in after):
            return "elided_event", "I've " + lowered
        return None
    if first == "gonna":
        return None if _GONNA_BE.match(sentence) else ("elided_plan", "I'm " + lowered)
    if first in patterns.FEELINGS:
        # "Busy with studies but finding time to relax": the speaker's own doing.
        return ("elided_doing" if _DOING.match(sentence) else "elided"), "I'm " + lowered
    if first in {"wanna", "gotta"} or _PLAN_OR_LIKING.match(sentence):
        # "Wanna try surfing", "Can't wait to show my family", "Love experimenting with ..."
        plan = sentence[:1] in "Cc" and _PLAN_OR_LIKING.match(sentence) is not None
        return ("elided_plan" if plan else "elided"), "I " + lowered
    if first in patterns.ADJECTIVES_ED or not first.isalpha():
        return None
    if first in patterns.IRREGULAR_PAST - patterns.NOT_ELIDED_PAST or (
        first.endswith("ed") and len(first) > 3
    ):
        return "elided_event", "I " + lowered
    if _ING.match(first) and first not in patterns.NOT_VERBS_ING:
        # "Starting a store is scary": a gerund subject, not a dropped "I'm".
        if _GERUND_SUBJECT.search(sentence):
            return None
        return ("elided_doing" if _DOING.match(sentence) else "elided"), "I'm " + lowered
    return None


# After a capitalised word that is not a name, an imperative or a word of a clause
# that leans on another: "Invest in a blanket ...", "Then I have no doubt ...".
_AFTER_COMMAND = patterns.word_set("in on to the a an your my some of with for at about")
_LEADS = STOPWORDS - {"even", "only", "just", "also", "still"}


def opinion_rule(said: str) -> str:
    """``loose_opinion`` for a view whose first word kept its capital but names no one
    ("Nate thinks Then Nate has no doubt ...", "John says Instead of getting stuck in
    that moment, ...", "Tim says Haven't talked in a few days": a lead the trimming
    missed, an imperative or a fragment); else ``opinion`` (experiment 41)."""
    words = said.split(" ", 2)
    first = words[0]
    if not first[:1].isupper() or first == "I" or first.startswith("I'"):
        return "opinion"
    lead = first.lower().strip(",.!")
    if lead in _LEADS or "'" in lead or len(words) > 1 and words[1].lower() in _AFTER_COMMAND:
        return "loose_opinion"
    return "opinion"


#: A health or diet condition the owner states ("I'm vegetarian", "allergic to peanuts")
#: is the whole fact in a word or two, and one an assistant must not lose: its one
#: content word is enough (task extract20, tests/data/plain_statements.json). Only for
#: the owner's notes (:data:`engram.pipeline.turns.OWNER`): in a chat turn the
#: condition's clause, once it stood alone, split "I'm lactose intolerant, so I'll just
#: need the dairy-free recipe" in two, and the second half is not a fact (LoCoMo fold B,
#: labelled wrong).
CONDITION_WORDS = 1
_CONDITION = re.compile(
    r"\b(?:allergic|allergy|allergies|intolerant|intolerance|vegan|vegetarian|pescatarian|"
    r"celiac|coeliac|diabetic)\b",
    re.IGNORECASE,
)


def condition(fact: str) -> bool:
    """Whether ``fact`` names a health or diet condition (:data:`CONDITION_WORDS`)."""
    return _CONDITION.search(fact) is not None


def statement_tense(sentence: str) -> str | None:
    """``"present"`` or ``"past"`` for a sentence whose subject (its first few words)
    is followed by a verb; None for a fragment."""
    words = [w.lower().strip('.,!?;:"') for w in sentence.split()][1:8]
    # Present first: an "-ed" word before the verb is often an adjective ("loved ones").
    if any(word in patterns.PRESENT_VERBS for word in words):
        return "present"
    if any(
        word in patterns.IRREGULAR_PAST
        and word not in patterns.MODALS
        or (word.endswith("ed") and len(word) > 4)
        for word in words
    ):
        return "past"
    return None


def lower_first(sentence: str) -> str:
    """Lower-case the first word unless it looks like a name ("Paris", "NASA")."""
    first = sentence.split(" ", 1)[0]
    if (
        first[1:2].isupper()
        or first.lower() not in patterns.COMMON_OPENERS
        and not first.endswith(("ing", "s"))
    ):
        return sentence
    return sentence[:1].lower() + sentence[1:]
