"""Step 4 of the offline extractor (:mod:`engram.pipeline.offline`): first person
rewritten as the speaker, so every fact reads on its own: "I love my dog" -> "Jon loves
Jon's dog", "we" -> "Jon and others"."""

from __future__ import annotations

import re

from engram.pipeline import patterns


def _is_past(word: str) -> bool:
    """A simple past form, prefixed ones included ("retook", "overslept")."""
    if word in patterns.IRREGULAR_PAST:
        return True
    for prefix in ("re", "over", "under", "mis", "out", "with", "fore"):
        if word.startswith(prefix) and word[len(prefix) :] in patterns.IRREGULAR_PAST:
            return True
    return False


def _third_person(verb: str) -> str:
    """The third-person singular of a present-tense verb ("love" -> "loves")."""
    lower = verb.lower()
    special = {"am": "is", "have": "has", "do": "does", "go": "goes", "'m": "is"}
    if lower in special:
        return special[lower]
    if lower.endswith(("don't",)):
        return "doesn't"
    if lower in ("dont", "havent"):  # typed without the apostrophe ("i really dont like")
        return "doesnt" if lower == "dont" else "hasnt"
    if lower.endswith(("haven't",)):
        return "hasn't"
    if (
        lower.endswith("n't")
        or lower in _NEGATIVES_TYPED
        or lower in patterns.MODALS
        or lower == "cannot"  # "I cannot log in" read "User cannots log in" (pass39)
        or (lower.endswith("ed") and lower not in _PRESENT_ED)
        or _is_past(lower)
    ):
        return verb
    if lower.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if len(lower) > 2 and lower.endswith("y") and lower[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


#: Negated auxiliaries typed without the apostrophe ("i cant swim"): not agreed.
_NEGATIVES_TYPED = patterns.word_set(
    "cant wont didnt isnt wasnt couldnt wouldnt shouldnt arent werent hasnt doesnt"
)
#: Present-tense verbs that end in "-ed" like a past ("I need" -> "User needs").
_PRESENT_ED = patterns.word_set(
    """
    need feed bleed breed speed succeed proceed exceed heed weed seed embed shred wed
    """
)
#: Verbs a shared subject often takes a second time after "and" ("I'm vegetarian and
#: avoid mushrooms"): the second is agreed with the rewritten subject too (task x22).
#: A closed list, since after "and" a bare word may as well be a noun ("cats and dogs").
_SECOND_VERBS = patterns.word_set(
    """
    avoid love like hate want need use work live have go prefer enjoy eat drink play
    take make get do try run cook own drive walk ride teach study read watch write visit
    travel speak know think feel keep spend plan hope miss listen bake climb swim train
    sleep buy pay rent share help care stay call text sing dance paint collect volunteer
    attend commute tend struggle skip require
    """
)
_AUXILIARY_OR_TO = re.compile(
    r"\bto\s+(?!(?:the|a|an|my|his|her|their|our|its|this|that)\b|[A-Z0-9])|"
    r"\b(?:can|could|will|would|should|must|might|may|shall|does|did|doesn't|didn't|"
    r"won't|can't|cannot|I|we|you|he|she|they|it)\b",
)
#: Verbs that end in "-ly" like an adverb: "I fly out on Tuesday" was read as the adverb
#: "fly" before a verb "out", "User fly outs on Tuesday" (task junk32).
_LY = r"(?!(?:fly|apply|rely|reply|supply|comply|imply|multiply|ally|rally|tally|bully)\b)\w+ly"
_HEDGES = rf"(?:also|often|usually|always|never|sometimes|still|just|really|rarely|{_LY})"

# (pattern, replacement, a character the pattern cannot match without): a pattern is
# tried only on text holding its character, which is cheaper than a failed search.
_CONTRACTIONS = (
    (re.compile(r"\bI'm\b|\bI\s+am\b"), "{n} is", "I"),
    (re.compile(r"\bI've\b|\bI\s+have\b(?!\s+to\b)"), "{n} has", "I"),
    (re.compile(r"\bI\s+have\s+to\b"), "{n} has to", "I"),
    (re.compile(r"\bI'll\b"), "{n} will", "I"),
    (
        re.compile(r"\bI'd(?=\s+(?:\w+ly\s+|never\s+|just\s+|already\s+)?(?:been|\w+ed)\b)"),
        "{n} had",
        "I",
    ),
    (re.compile(r"\bI'd\b"), "{n} would", "I"),
    (re.compile(r"\bwe're\b", re.I), "{n} and others are", "'"),
    (re.compile(r"\bwe've\b", re.I), "{n} and others have", "'"),
    (re.compile(r"\bwe'll\b", re.I), "{n} and others will", "'"),
    (re.compile(r"\bwe'd\b", re.I), "{n} and others would", "'"),
)
_SLANG_FORMS = {"gonna": "going to", "wanna": "want to", "gotta": "have to"}
_SLANG = re.compile(r"\b(?:gonna|wanna|gotta)\b", re.IGNORECASE)
# A token joined by a slash before the verb ("I A/B test", "we blue/green deploy") is how
# the verb is done, as an adverb is: the verb after it agrees, the token stays as said
# (task notes27: "User As/B test" was read). Never "and/or", which joins two subjects.
_I_VERB = re.compile(
    r"\bI\s+((?:(?:no\s+longer|"  # "I no longer work" (task junk32: "User noes longer")
    + _LY
    + "|"
    + "|".join(sorted(patterns.ADVERBS))
    + r"|(?!and/or\b)[\w-]+/[\w-]+)\s+)*)"
    r"([A-Za-z][\w']*)(?![\w'/])"
)
_I = re.compile(r"(?<!/)\bI\b(?!/)")  # not the "I" of "I/O"
_WE_US = re.compile(r"\b(?:we|us)\b", re.I)
_OUR = re.compile(r"\bour\b", re.I)
_MINE = re.compile(r"\bmine\b", re.I)
_REFLEXIVE = re.compile(r"\b(?:myself|ourselves)\b", re.I)
_WORD = re.compile(r"\S+")
_MY = re.compile(r"(?i)\bmy\b")
_ME = re.compile(r"(?i)\bme\b")
# Whether ``_possessives`` has a word to rewrite: "my" or "me" with punctuation around.
_MY_OR_ME = re.compile(r"(?i)\bm[ey]\b")
# A word some rewrite of ``resolve_person`` starts from, read in lower-cased ASCII
# text (where IGNORECASE is plain case folding): every pattern there needs one, so
# without them each substitution is a no-op.
_FIRST_PERSON_WORD = re.compile(r"\b(?:i|we|us|our|mine|myself|ourselves|gonna|wanna|gotta)\b")


def resolve_person(sentence: str, name: str) -> str:
    """Rewrite first person as ``name``: "I love my dog" -> "Jon loves Jon's dog"
    (a second "my" in the same clause becomes "their")."""
    if sentence.isascii() and _FIRST_PERSON_WORD.search(sentence.lower()) is None:
        return _possessives(sentence, name)
    text = _SLANG.sub(lambda m: _SLANG_FORMS[m.group(0).lower()], sentence)
    for pattern, replacement, needed in _CONTRACTIONS:
        if needed in text:
            text = pattern.sub(replacement.format(n=name), text)
    if "I" in text:
        text = _I_VERB.sub(lambda m: _subject_verb(m, name), text)
        text = _I.sub(name, text)
    text = _agree_second_verbs(text, name)
    if _may_hold(text, "we", "us"):
        text = _WE_US.sub(f"{name} and others", text)
    if _may_hold(text, "our"):
        text = _OUR.sub(f"{name}'s", text)
    if _may_hold(text, "mine"):
        text = _MINE.sub(f"{name}'s", text)
    if _may_hold(text, "myself", "ourselves"):
        text = _REFLEXIVE.sub("themself", text)
    return _possessives(text, name)


# A chat typed in lower case ("i moved to leeds", "im thinking ..."): its first person
# is the same "I" (task x22). "im" and "ive" are only read so before a word.
_LOWER_I = re.compile(r"\bi\b(?!['’]?\w*-)|\b(?:im|ive)\b(?=\s+[a-z])")
_LOWER_I_FORMS = {"i": "I", "im": "I'm", "ive": "I've"}


def upper_i(text: str) -> str:
    """``text`` with a first person typed in lower case written as "I" ("i need",
    "im tired" -> "I need", "I'm tired"), so the rules read it as the speaker's."""
    return _LOWER_I.sub(lambda m: _LOWER_I_FORMS[m.group(0)], text)


def _subject_verb(match: re.Match[str], name: str) -> str:
    """ "I love" -> "Jon loves"; after an inverted modal ("what should I ask") the verb
    stays bare: "what should Jon ask"."""
    before = match.string[: match.start()].split()[-1:]
    if before and before[0].lower() in _INVERTED:
        return f"{name} {match.group(1)}{match.group(2)}"
    if match.group(2).lower() in _JOINS or _shared(match.string[: match.start()]):
        # "I and my wife moved" (no verb after "I"); "my wife and I are": a subject
        # of two, whose verb stays as it was said.
        return f"{name} {match.group(1)}{match.group(2)}"
    return f"{name} {match.group(1)}{_third_person(match.group(2))}"


_JOINS = patterns.word_set("and or nor but")
#: The clause before "and I".
_BEFORE_AND_I = re.compile(r"(?:^|[.,;:!?]\s*)([^.,;:!?]*?)\s+and\s*$")
#: A subject that can share a verb with "I": someone's relative or thing ("my sister",
#: "Yesterday my wife") or a name ("Tom", "Mia Lopez"), never a clause ("Rock on", "It
#: rained", "I went home").
_PARTNER = re.compile(
    r"(?:[A-Z]\w*\s+)?(?i:my|our|his|her|their|the)\s+\w+(?:\s+\w+)?|[A-Z]\w*(?:\s+[A-Z]\w*)?"
)


def _shared(before: str) -> bool:
    """Whether the "I" after ``before`` is the second of a subject of two: "and" ends
    ``before`` and its clause is a name or someone's relative ("my sister and I");
    "I went home and I cook" and "Rock on and I hope" are two clauses."""
    found = _BEFORE_AND_I.search(before)
    if found is None or _PARTNER.fullmatch(clause := found.group(1).strip()) is None:
        return False
    return clause.split()[0].lower() not in _NOT_PARTNERS


#: Capitalised words a clause opens with that name nobody ("Yes and I love it").
_NOT_PARTNERS = patterns.word_set(
    "yes yeah no ok okay so then well oh now sure thanks it we they he she you this that there"
)


_INVERTED = patterns.word_set(
    """
    should can could would will shall may might must do does did don't didn't can't
    won't wouldn't shouldn't couldn't
    """
)


def _agree_second_verbs(text: str, name: str) -> str:
    """ "User is vegetarian and avoid mushrooms" -> "... and avoids mushrooms": a verb
    after "and", "or" or "but" that shares the rewritten subject agrees with it as the
    first did. Not after "to", a modal or an auxiliary ("User wants to travel and see
    Japan", "User can cook and bake"), nor once a new subject has come in."""
    pattern = re.compile(
        rf"(?<!and )\b{re.escape(name)}\s+(?P<mid>[^.;!?]*?)\b(?P<join>and|or|but)\s+"
        rf"(?P<adv>(?:{_HEDGES}\s+)*)(?P<verb>[a-z]+)\b"
        # "felt inspired and like Tim got ...": a clause follows, "like" joins it
        rf"(?!\s+(?:{re.escape(name)}|I|he|she|they|we)\b)"
    )

    def agree(match: re.Match[str]) -> str:
        verb = match.group("verb")
        mid = match.group("mid")
        if verb not in _SECOND_VERBS or _AUXILIARY_OR_TO.search(mid) or not mid.strip():
            return match.group(0)
        if mid.split()[0].lower() in ("and", "or"):
            return match.group(0)  # "User and others love ... and camp": a plural subject
        head = match.group(0)[: match.start("verb") - match.start()]
        return head + _third_person(verb)

    return pattern.sub(agree, text)


def _may_hold(text: str, *words: str) -> bool:
    """Whether a case-insensitive pattern for ``words`` can match ``text``: on ASCII text
    (plain case folding) only when one is in it; other text is always tried."""
    if not text.isascii():
        return True
    lower = text.lower()
    return any(w in lower for w in words)


def _possessives(text: str, name: str) -> str:
    """``my`` and ``me``: the name, or a pronoun right after the name is used."""
    if _MY_OR_ME.search(text) is None:
        return " ".join(_WORD.findall(text))  # nothing to rewrite
    out: list[str] = []
    last_name_at = -100
    for index, match in enumerate(_WORD.finditer(text)):
        word = match.group(0)
        bare = word.lower().strip(".,!?;:\"'()")
        near = index - last_name_at <= 6
        if word.startswith(name):
            last_name_at = index
        if bare == "my":
            word = _MY.sub("their" if near else f"{name}'s", word)
            if not near:
                last_name_at = index
        elif bare == "me":
            word = _ME.sub("them" if near else name, word)
        out.append(word)
    return " ".join(out)
