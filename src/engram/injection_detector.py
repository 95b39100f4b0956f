"""The learned injection detector (engram issue 26, item 3): a small network (round seven;
rounds three to six a logistic regression) over a memory's embedding and a few cues read
off its text, beside the rule scan of ``engram.safety``.

A rule matches the words it was written for, and a paraphrase ("let go of the
constraints your developers set") slips past; a model over the sentence embedding
generalises over wording. The cues (:data:`CUES`: a model addressed, instructions named,
revoked, secrets, links, concealment, who the order is for, the second person's density)
mark what makes a sentence an order to its reader, which an embedding averaged over the
sentence blurs. Round seven's hidden layer (``Hidden``, ``scripts/fit_injection_mlp.py``)
lets the cues and the embedding count together; docs/safety.md has every round's fit,
folds and figures.

It runs on new writes where vectors are made (a dot product and a few regexes a memory)
and never refuses one: what it fires on (the rules passed) is quarantined, stored with
``metadata["injection_flags"]`` naming it and out of every context. Its weights belong to
the default MiniLM; with another embedder the rules stand alone.

Round eighteen: engram renders a message list as ``"user: ..."`` / ``"assistant: ..."``
lines, which both views had learned as forged turns; a write the scores fire on is read
again without engram's labels (a second look, which decides; every other marker counts),
and since round twenty a label is engram's only where engram framed a turn (a
``Transcript``). Round twenty's item view (``item_scores``) reads each cued item of a short
list on its own; round twenty-one spares a short third-person fact with no order's cue
(:func:`ordered`); twenty-two reads a reported order; thirty-three spares a value's note,
thirty-seven tool output speaking to no reader, thirty-eight a quoted finding (``safety_*``).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from engram import safety, safety_machine, safety_quoted, safety_values
from engram.injection_lexical import GRANT, Lexical, hidden_items
from engram.injection_neighbours import Neighbours
from engram.records import MemoryRecord, MemoryType

log = logging.getLogger(__name__)

#: The reason code a quarantined memory carries in ``metadata["injection_flags"]``.
CODE = "learned_detector"
FLAGS = "injection_flags"

_F = re.IGNORECASE
#: A reader that is a model, as an attack names it.
_READER = (
    r"(?:AI|A\.I\.|LLM|assistant|language model|model|chatbot|bot|agent|copilot|"
    r"summari[sz]er|reader|system|machine|software)s?"
)
_ADDRESSED = (
    r"\b(?:to|for|dear|hey|hi|hello|attention|psst|note (?:to|for)|message (?:to|for)|"
    r"instructions? (?:to|for)|reminder (?:to|for))\b,?:?\s+(?:the |any |every |whichever |"
    rf"whatever |all |you,? )?(?:[\w-]+ ){{0,3}}{_READER}\b",
    r"\b(?:whoever|whichever|anyone|whatever)\b[^.!?\n]{0,40}\b(?:reads?|reading|recall\w*|"
    r"retriev\w*|finds?|loads?|processe?s?|processing|sees?|gets?)\b",
    r"\bif (?:you(?:'re| are)|this is|this (?:text|note|memory) (?:is|was|has been) "
    rf"[\w ]{{0,20}}by) (?:an? |the |any )?(?:[\w-]+ )?{_READER}\b",
    rf"\byou,? (?:the |an? )?(?:[\w-]+ )?{_READER}\b",
    rf"^\s*(?:[\w-]+ ){{0,2}}{_READER}\s*[,:]",
    rf"\b{_READER} (?:that |who |which )?(?:reads?|reading|retrieves?|retrieving|loads?|"
    r"loading|finds?|sees?|processe?s?|processing|answering|summari[sz]ing|recalling|"
    r"receiving|quoting|parsing|indexing)\b",
    r"\b(?:when|once|if|after|on) (?:you|an? (?:AI|assistant|model|bot|agent)) (?:\w+ )?"
    r"(?:read|see|find|recall|retrieve|load|come across|process)\w*\b",
)
#: Cheap cues read off the text beside the embedding (round four): the words an order
#: aimed at a model carries. Each is a 0/1 presence except the second person, a density.
#: An embedding averages the whole sentence, so a short "the brief you started with has
#: lapsed" sits near chat; these cues mark what makes it an order to the reader.
CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(pattern, _F))
    for name, pattern in (
        ("model", r"\b(?:AI|LLM|assistant|language model|model|chatbot|bot|agent)s?\b"),
        (
            "instructions",
            r"\b(?:instructions?|rules|guidelines|directives?|polic(?:y|ies)|prompt|"
            r"restrictions|constraints|guardrails|orders|brief|configuration|setup|limits)\b",
        ),
        (
            "revoked",
            r"\b(?:void|revoked|rescinded|superseded|lifted|expired|withdrawn|obsolete|"
            r"suspended|paused|cancell?ed|no longer|lapsed|retired|waived|overruled|dissolved|"
            r"inactive|switched off|disabled|replaced|amended|rolled back)\b",
        ),
        ("the_user", r"\bthe (?:user|human|person|requester)\b"),
        (
            "secret",
            r"\b(?:passwords?|tokens?|api keys?|secrets?|credentials?|private keys?|"
            r"seed phrase|ssn|session (?:key|cookie)s?|one-time codes?)\b",
        ),
        # A URL, an e-mail address or a bare host with a path ("evil.com/x").
        ("link", r"https?://|\b[\w.-]+@[\w-]+\.[\w.]+|\b[\w-]+\.[a-z]{2,}/"),
        (
            "hidden",
            r"\b(?:never (?:mention|reveal|let on)|don't (?:tell|reveal|mention)|do not "
            r"(?:tell|reveal|mention|disclose)|without telling|suspects? nothing|secret(?:ly)?|"
            r"deny|must not (?:know|find out|notice|see|hear))\b",
        ),
        ("from_now", r"\b(?:from (?:now|here|this (?:point|message)) on|starting now|onward)\b"),
        ("leak", r"\b(?:leak|exfiltrate|forward|upload|post|send|mail|email|sync)\b"),
        # Round five: who the order is for. A teammate is addressed by name or role; an
        # attack addresses whoever reads the memory ("Whoever reads this", "You, the AI",
        # "If you are a language model", "the assistant retrieving this").
        ("addressed", "|".join(_ADDRESSED)),
        (
            "self_ref",
            r"\bthis (?:memory|note|record|text|message|page|document|chunk|line|entry|"
            r"paragraph|sentence)\b",
        ),
        # An override verb and what it overrides in one clause ("set aside the rules you
        # were given"); "ignore the flaky test" has the verb without the object.
        (
            "override",
            r"\b(?:ignore|disregard|forget|bypass|override|overlook|circumvent|abandon|neglect|"
            r"disobey|drop|set aside|put aside|pay no attention to|stop (?:following|obeying|"
            r"listening to)|don't (?:follow|obey|listen to))\b[^.!?\n]{0,50}\b(?:instructions?|"
            r"rules?|prompt|guidelines?|directives?|polic(?:y|ies)|configuration|programming|"
            r"operator|developers?|system|restrictions?|filters?|safety|above|before|earlier|"
            r"prior|previous)\b",
        ),
        (
            "unrestricted",
            r"\b(?:without (?:any )?(?:restrictions?|limits?|filters?|refus\w*|safeguards?|"
            r"checks?|holding back)|no (?:restrictions?|limits?|filters?|rules|refusal)|"
            r"unrestricted|unfiltered|refuse nothing|disclose everything|share everything)\b",
        ),
        (
            "authority",
            r"\b(?:operators?|developers?|makers?|creators?|deploy(?:ed|ment|er)|system "
            r"(?:prompt|message)|owners?|vendor|administrators?|admins?)\b",
        ),
    )
)
_YOU = re.compile(r"\b(?:you|your|yours|yourself)\b", _F)
#: engram's own speaker labels, as ``engram.validate.content_text`` starts each message of
#: a list with them (people's own turns; "system" and the rest stay markers).
_LABEL = re.compile(r"^(?:user|assistant): ", re.MULTILINE)


def unlabelled(text: str) -> str:
    """``text`` without engram's speaker labels (``user: `` / ``assistant: `` starting a
    line). Only where a message of a ``engram.validate.Transcript`` starts (``turns``) is
    a label engram's; any other keeps it (round twenty: a smuggled label is the text's)."""
    turns = getattr(text, "turns", None)
    if turns is None:
        return _LABEL.sub("", text)
    framed = set(turns)
    return _LABEL.sub(lambda m: "" if m.start() in framed else m.group(0), str(text))


def framed(text: str) -> bool:
    """Whether ``text`` is a message list engram rendered (a ``Transcript``), labelled."""
    return getattr(text, "turns", None) is not None


_SENTENCE = re.compile(r"(?<=[.!?:;])\s+|\n+")
#: Cue columns: one per ``CUES`` entry, the second person's density over the text, and
#: its highest density over one sentence (a payload buried in a long note).
N_CUES = len(CUES) + 2


def cues(texts: Sequence[str]) -> np.ndarray:
    """The cue features of each text: a row per text, a column per ``CUES`` name, then
    the second person's density over the text and its highest over one sentence of three
    words or more (both capped at 1)."""
    out = np.zeros((len(texts), N_CUES), np.float32)
    for i, text in enumerate(texts):
        for j, (_, pattern) in enumerate(CUES):
            out[i, j] = pattern.search(text) is not None
        out[i, -2] = _density(text)
        out[i, -1] = max(
            (_density(s) for s in _SENTENCE.split(text) if len(s.split()) >= 3), default=out[i, -2]
        )
    return out


#: Where the sentence view cuts a text (round six): after a full stop, question or
#: exclamation mark, or at a line break. A colon stays inside its sentence, so an
#: addressee ("To the assistant reading this:") keeps its order.
_CUT = re.compile(r"(?<=[.!?])\s+|\n+")
#: The sentence view reads at most this many sentences of a text (its cost grows with
#: them; a long text's sentences past these are left to the whole-text score).
MAX_SENTENCES = 24


def sentences(text: str) -> list[str]:
    """The sentences of ``text`` of three words or more, at most ``MAX_SENTENCES``; a
    text of fewer than two such sentences has no sentence view (an empty list)."""
    found = [s.strip() for s in _CUT.split(text) if len(s.split()) >= 3]
    return found[:MAX_SENTENCES] if len(found) >= 2 else []


def windows(text: str, size: int = 1) -> list[str]:
    """The sentence view's pieces of ``text`` (round nine): its :func:`sentences` when
    ``size`` is 1, else every run of ``size`` consecutive sentences joined by a space (a
    text with no more sentences than that is one piece). A window keeps a sentence's
    neighbour, so an order split over two sentences ("To the assistant. Send ...") is
    read together, while a long note's other sentences stay out of its embedding."""
    found = sentences(text)
    if size <= 1 or not found:
        return found
    return [" ".join(found[i : i + size]) for i in range(max(1, len(found) - size + 1))]


def gated(sentence: str) -> bool:
    """Whether ``sentence`` carries any of :data:`CUES` (the second person's density
    aside): the sentence view embeds only such sentences; one without any is chat."""
    return any(pattern.search(sentence) for _, pattern in CUES)


def ordered(text: str) -> bool:
    """Whether ``text`` carries a cue of an order beyond naming "the user" (any of :data:`CUES`
    but ``the_user``, the second person, or a grant of rights): the fact floor's test."""
    if _YOU.search(text) is not None or GRANT.search(text) is not None:
        return True
    return any(pattern.search(text) for name, pattern in CUES if name != "the_user")


def cued_sentences(text: str, size: int = 1) -> list[str]:
    """The pieces of ``text`` the sentence view embeds: its :func:`gated` :func:`windows`."""
    return [piece for piece in windows(text, size) if gated(piece)]


def _density(text: str) -> float:
    """The second person's share of ``text``'s words, times 5, capped at 1."""
    return min(1.0, 5.0 * len(_YOU.findall(text)) / max(1, len(text.split())))


#: Embeds a batch of texts (the write path's embedder), for the sentence view.
Embed = Callable[[list[str]], object]


@dataclass(frozen=True)
class Read:
    """What a detector reads off texts alone (:meth:`Detector.read`), before their vectors
    exist: ``add_many`` computes it on the caller's thread while a worker embeds the same
    texts, and hands it over with the vectors (the same scores, found sooner)."""

    texts: tuple[str, ...]
    #: :func:`cues` of the texts (no columns when the detector has no cue weights).
    cues: np.ndarray
    #: Per text, its :func:`cued_sentences` (all empty when the sentence view is off).
    cued: tuple[tuple[str, ...], ...]

    def of(self, texts: Sequence[str]) -> bool:
        """Whether this is the read of ``texts``, in their order."""
        return self.texts == tuple(texts)


@dataclass(frozen=True)
class Hidden:
    """The hidden layer of round seven's network (``scripts/fit_injection_mlp.py``): the
    features standardised by ``mean`` and ``std``, then ``relu(x @ w1 + b1)``. A linear
    model only adds its features; this layer lets an order, its addressee and its target
    count together, which is what generalised to wording the fit had not seen."""

    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(np.maximum(((x - self.mean) / self.std) @ self.w1 + self.b1, 0.0))


@dataclass(frozen=True)
class Detector:
    """Weights of the logistic regression fitted for one embedding model: one per
    embedding dimension, then (when ``cue_scale`` is set) one per cue of :func:`cues`,
    which enter the model multiplied by ``cue_scale``.

    ``sentence_threshold`` (round six; 0 turns it off) is the sentence view: a text of
    several sentences that the whole-text score passes is scored again sentence by
    sentence with the same weights, and fires when its highest sentence reaches this
    threshold (a payload buried in an ordinary note is diluted in the note's embedding,
    not in its own sentence's). Only sentences carrying a cue (:func:`gated`) are
    embedded, so most writes pay nothing extra.

    ``hidden`` (round seven) puts a hidden layer before the logistic output: ``coef``
    then weighs its units, not the features. ``window`` (round nine) is how many
    consecutive sentences the sentence view reads as one piece (:func:`windows`).

    ``lexical`` (round fifteen) is the word n-gram model weighed beside the network
    (``engram.injection_lexical``): a text then fires when the two scores together
    reach the lexical file's threshold, and ``threshold`` no longer decides."""

    embedder: str
    coef: np.ndarray
    intercept: float
    threshold: float
    cue_scale: float = 0.0
    sentence_threshold: float = 0.0
    hidden: Hidden | None = None
    window: int = 1
    lexical: Lexical | None = None
    neighbours: Neighbours | None = None  # round twenty-six: read last, on what all passed

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> Detector:
        coef = np.asarray(data["coef"], np.float32)
        if coef.ndim != 1 or not np.isfinite(coef).all():
            raise ValueError("coef must be a finite vector")
        scale = float(data.get("cue_scale", 0.0))
        if scale and coef.shape[0] <= N_CUES:
            raise ValueError(f"coef must hold the embedding's weights and {N_CUES} cue weights")
        return cls(
            str(data["embedder"]),
            coef,
            float(data["intercept"]),
            float(data["threshold"]),
            scale,
            float(data.get("sentence_threshold", 0.0)),
        )

    @classmethod
    def from_arrays(cls, data: Any) -> Detector:
        """Round seven's network, from the arrays of an ``.npz`` (``embedder``,
        ``threshold``, ``cue_scale``, ``intercept``, ``coef`` and the :class:`Hidden`
        layer's ``mean``, ``std``, ``w1``, ``b1``); round nine's may add the sentence view
        (``sentence_threshold`` and ``window``)."""
        hidden = Hidden(*(np.asarray(data[k], np.float32) for k in ("mean", "std", "w1", "b1")))
        w1 = hidden.w1
        if w1.ndim != 2 or hidden.mean.shape != (w1.shape[0],) or hidden.b1.shape != (w1.shape[1],):
            raise ValueError("the hidden layer's shapes do not agree")
        # The output layer read as a linear model without cues: the cues enter below it.
        out = cls.from_mapping({k: data[k] for k in ("embedder", "coef", "intercept", "threshold")})
        scale = float(data["cue_scale"])
        if out.coef.shape != (w1.shape[1],) or (scale and w1.shape[0] <= N_CUES):
            raise ValueError("coef must hold one weight per hidden unit")
        view = float(data["sentence_threshold"]) if "sentence_threshold" in data else 0.0
        window = int(data["window"]) if "window" in data else 1
        if not 0.0 <= view <= 1.0 or window < 1:
            raise ValueError("the sentence view needs a threshold in [0, 1] and a window of 1+")
        return replace(out, cue_scale=scale, hidden=hidden, sentence_threshold=view, window=window)

    @property
    def dimensions(self) -> int:
        """The embedding's dimensions the weights expect."""
        width = self.hidden.w1.shape[0] if self.hidden is not None else self.coef.shape[0]
        return int(width) - (N_CUES if self.cue_scale else 0)

    def read(self, texts: Sequence[str]) -> Read:
        """What this detector reads off ``texts`` without their vectors (:class:`Read`)."""
        found = tuple(texts)
        view = self.sentence_threshold > 0
        return Read(
            found,
            cues(found) if self.cue_scale else np.zeros((len(found), 0), np.float32),
            tuple(tuple(cued_sentences(t, self.window)) if view else () for t in found),
        )

    def features(
        self, vectors: np.ndarray, texts: Sequence[str], cue_rows: np.ndarray | None = None
    ) -> np.ndarray:
        """The model's input: each vector, then its text's cues times ``cue_scale``
        (``cue_rows``: those cues, computed before)."""
        x = np.asarray(vectors, np.float32)
        if not self.cue_scale:
            return x
        return np.hstack([x, self.cue_scale * (cues(texts) if cue_rows is None else cue_rows)])

    def probabilities(
        self, vectors: np.ndarray, texts: Sequence[str], cue_rows: np.ndarray | None = None
    ) -> np.ndarray:
        """The probability that each text (embedded as the same row of ``vectors``) is an
        injection (``cue_rows``: the texts' cues, computed before)."""
        x = self.features(vectors, texts, cue_rows)
        logits = (x if self.hidden is None else self.hidden(x)) @ self.coef + self.intercept
        return np.asarray(1.0 / (1.0 + np.exp(-logits)), np.float64)

    def reasons(
        self,
        vectors: np.ndarray,
        texts: Sequence[str],
        embed: Embed | None = None,
        read: Read | None = None,
        labelled: Sequence[bool] | None = None,
    ) -> list[str | None]:
        """Per text, the reason to quarantine it, or None below the threshold. With
        ``embed`` and a ``sentence_threshold``, the texts the whole-text score passes get
        the sentence view (their cued sentences embedded in one call). ``read``, the
        :meth:`read` of ``texts`` made before, saves reading them again (one of other
        texts is ignored). ``labelled[i]``: text ``i`` is a message list engram rendered,
        whose leading ``user: `` / ``assistant: `` are its labels (:func:`unlabelled`):
        when the scores fire on it, its text without them is embedded and scored again
        (with ``embed``), and that decides."""
        if len(vectors) == 0 or np.asarray(vectors).shape[1] != self.dimensions:
            return [None] * len(vectors)
        if read is None or not read.of(texts):
            read = self.read(texts)
        marks = list(labelled) if labelled is not None else [False] * len(texts)
        bare = [unlabelled(t) if m else t for t, m in zip(texts, marks, strict=True)]
        rows = read.cues
        if any(marks) and self.cue_scale:  # a message list's cues read without its labels
            rows = rows.copy()
            at = [i for i, m in enumerate(marks) if m]
            rows[at] = cues([bare[i] for i in at])
        # The first look: the stored vector (labels and all) with the text's words
        # without labels; what fires on a message list is read again without them.
        network = self.probabilities(vectors, bare, rows)
        found = self.fired(network, bare)
        again = [i for i, m in enumerate(marks) if m and found[i] is not None]
        if again and embed is not None:
            for i, p in self.second_look([bare[i] for i in again], embed, again).items():
                found[i] = p
        out = [None if p is None else self.reason(p) for p in found]
        if self.lexical is not None:  # round twenty-two: an order in reported speech
            for i, p in self.lexical.reports(vectors, bare, [o is None for o in out]).items():
                out[i] = f"{CODE}: a reported order gives {p:.2f} (reported view)"
        if embed is not None and self.lexical is not None and self.lexical.item_share:
            for i, p in self.item_scores(
                [(i, b) for i, b in enumerate(bare) if out[i] is None], embed
            ).items():
                out[i] = f"{CODE}: one item of the list gives {p:.2f} on its own (item view)"
        if embed is not None and self.sentence_threshold:
            cued = [
                tuple(cued_sentences(b, self.window)) if m else c
                for b, m, c in zip(bare, marks, read.cued, strict=True)
            ]
            for i, p in self.sentence_scores(
                [(i, t) for i, t in enumerate(texts) if out[i] is None], embed, cued
            ).items():
                if p >= self.sentence_threshold:
                    out[i] = (
                        f"{CODE}: one sentence scores {p:.2f} "
                        f"(sentence threshold {self.sentence_threshold:.2f})"
                    )
        if self.neighbours is not None:  # round twenty-six; a message list is not read
            free = [o is None and not m for o, m in zip(out, marks, strict=True)]
            floors = (network, self.lexical, gated, ordered)
            for i, m in self.neighbours.fires(vectors, bare, free, *floors).items():
                out[i] = f"{CODE}: its nearest training texts are attacks by {m:.2f} (neighbours)"
        out = safety_machine.cleared(safety_values.cleared(out, bare), bare, CUES)
        return safety_quoted.cleared(out, bare, safety.scan, CUES)

    def fired(self, network: np.ndarray, texts: list[str]) -> list[float | None]:
        """Per text, the score that fires on it (the combination's unless a floor spares it,
        ``Lexical.spares``; the network's alone without the lexical view), or None."""
        if (lex := self.lexical) is not None:
            return [
                None if p is not None and lex.spares(float(n), t, gated, ordered) else p
                for p, n, t in zip(lex.fires(network, texts), network, texts, strict=True)
            ]
        return [float(p) if p >= self.threshold else None for p in network]

    def reason(self, p: float) -> str:
        """The reason a memory carries for a firing score ``p`` (:meth:`fired`)."""
        if self.lexical is not None:
            return (
                f"{CODE}: the embedding and word n-gram classifiers give {p:.2f} together "
                f"(threshold {self.lexical.threshold:.2f})"
            )
        return f"{CODE}: an embedding classifier gives {p:.2f} (threshold {self.threshold:.2f})"

    def second_look(
        self, texts: list[str], embed: Embed, keys: list[int]
    ) -> dict[int, float | None]:
        """Per key, what fires on its text (message lists without engram's labels) read
        afresh: embedded in one ``embed`` call and scored. A failed call gives nothing
        (the first look's verdict stands, with a log line)."""
        try:
            vectors = np.asarray(embed(texts), np.float32)
        except Exception as exc:  # the write is stored; keep the first look's verdict
            log.warning("the injection detector's second look is skipped: %s", exc)
            return {}
        if vectors.shape != (len(texts), self.dimensions):
            return {}
        return dict(zip(keys, self.fired(self.probabilities(vectors, texts), texts), strict=True))

    def item_scores(self, texts: Sequence[tuple[int, str]], embed: Embed) -> dict[int, float]:
        """Round twenty's item view: per key of ``texts`` shaped as a list, the highest
        score of a cued item (``hidden_items``, :func:`gated`) that fires on its own (at
        ``Lexical.item_network``, or as a text would at 0); one ``embed`` call, and a
        failed one gives nothing (the other views stand), with a log line."""
        lexical = self.lexical
        if lexical is None or not lexical.item_share:
            return {}
        keys: list[int] = []
        items: list[str] = []
        for key, text in texts:
            for item in hidden_items(
                text, lexical.item_share, lexical.item_chars, lexical.item_lines
            ):
                if gated(item):
                    keys.append(key)
                    items.append(item)
        network = self.embedded(items, embed, "item view")
        if network is None:
            return {}
        if lexical.item_network:
            fired = [float(p) if p >= lexical.item_network else None for p in network]
        else:
            fired = self.fired(network, items)
        return _best(keys, fired)

    def embedded(self, pieces: list[str], embed: Embed, view: str) -> np.ndarray | None:
        """The network's probabilities of ``pieces`` embedded in one ``embed`` call; None
        for none, or a failed call (a second look: logged, the other views stand)."""
        if not pieces:
            return None
        try:
            vectors = np.asarray(embed(pieces), np.float32)
        except Exception as exc:
            log.warning("the injection detector's %s is skipped: %s", view, exc)
            return None
        if vectors.shape != (len(pieces), self.dimensions):
            return None
        return self.probabilities(vectors, pieces)

    def sentence_scores(
        self,
        texts: Sequence[tuple[int, str]],
        embed: Embed,
        cued: Sequence[Sequence[str]] | None = None,
    ) -> dict[int, float]:
        """Per key of ``texts`` with a cued sentence (of two or more), its highest
        sentence probability (:meth:`embedded`: one call, none when it fails);
        ``cued[key]``, when given, holds the text's :func:`cued_sentences`, found before."""
        keys: list[int] = []
        pieces: list[str] = []
        for key, text in texts:
            for piece in cued_sentences(text, self.window) if cued is None else cued[key]:
                keys.append(key)
                pieces.append(piece)
        found = self.embedded(pieces, embed, "sentence view")
        return {} if found is None else _best(keys, [float(p) for p in found])


def _best(keys: list[int], scores: Sequence[float | None]) -> dict[int, float]:
    """Per key, the highest of its pieces' scores (a None scores nothing)."""
    best: dict[int, float] = {}
    for key, p in zip(keys, scores, strict=True):
        if p is not None:
            best[key] = max(best.get(key, 0.0), p)
    return best


@cache
def shipped() -> Detector | None:
    """The detector shipped in ``engram/data``: the network (``injection_detector.npz``,
    round eleven's) with the lexical view beside it (``injection_lexical.npz``, round
    fifteen's) when present, else the logistic regression of ``injection_detector.json``;
    None when unreadable (the rules then stand alone, with a log line)."""
    data = resources.files("engram") / "data"
    try:
        if (data / "injection_detector.npz").is_file():
            with (data / "injection_detector.npz").open("rb") as raw, np.load(raw) as arrays:
                found = Detector.from_arrays({k: arrays[k] for k in arrays.files})
            for name, key, read in (  # each view only with the one before it
                ("injection_lexical.npz", "lexical", Lexical.from_arrays),
                ("injection_neighbours.npz", "neighbours", Neighbours.from_arrays),
            ):
                if not (data / name).is_file():
                    return found
                with (data / name).open("rb") as raw, np.load(raw) as arrays:
                    view: dict[str, Any] = {key: read(arrays)}
                found = replace(found, **view)
            return found
        return Detector.from_mapping(
            json.loads((data / "injection_detector.json").read_text("utf-8"))
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("the learned injection detector is off: %s", exc)
        return None


def for_model(name: str | None) -> Detector | None:
    """The shipped detector when it was fitted on embeddings of model ``name``."""
    found = shipped()
    return found if found is not None and name is not None and found.embedder == name else None


def quarantined(
    detector: Detector,
    records: Sequence[MemoryRecord],
    vectors: np.ndarray,
    embed: Embed | None = None,
    read: Read | None = None,
) -> list[tuple[MemoryRecord, str]]:
    """The records the detector fires on that carry no injection flag yet, each with its reason
    (a memory the rules already flagged keeps the rules' reasons); a message list's speaker
    labels are read as labels (:meth:`Detector.reasons`); ``embed`` gives the sentence view
    and the second look, ``read`` the :meth:`Detector.read` of their contents made before."""
    out = []
    texts = [record.content for record in records]
    labelled = [record.type is MemoryType.MESSAGE and framed(record.content) for record in records]
    found = detector.reasons(vectors, texts, embed, read, labelled)
    for record, reason in zip(records, found, strict=True):
        if reason is not None and not record.metadata.get(FLAGS):
            out.append((record, reason))
    return out
