"""``engram bench paraphrase``: is recall ever wrongly silent? (issue 24)

The paraphrase set (``engram/data/paraphrase.json``, written for engram) holds small
agent stores of about eleven memories each (ops, software projects, a household, a
family, support, research notes, health, travel, finance), and three kinds of
questions per store:

- ``answerable``: asked the way a person asks an agent about its own notes, short and
  with category words ("which web framework does the API use?" for "We decided to
  switch the API layer from Flask to Litestar in March."): each shares at most one
  content word with the memory that answers it (``tests/test_paraphrase.py`` checks
  this with recall's own keyword and stem functions);
- ``unrelated``: same register, same store, but no memory answers it;
- ``cross``: the answerable questions of another domain's store.

Each store is loaded into a fresh in-memory ``Memory`` (one agent's namespace alone),
and every question is asked with the abstain decision off, recording what the decision
reads (``engram.bench.abstain.ask``), so any rule is scored without recalling again.
The stores whose split is ``held-out`` (a third of the first fifteen), ``held-out-2``,
``held-out-3`` to ``held-out-9`` (five stores of new domains each, written later as
clean checks) are never used to fit or tune anything. Round 11's set
(``engram/data/paraphrase36.json``, ``round11_path``: ``tune-36``, ``held-out-10`` and
round 12's ``held-out-11``, questions written another way) is read with ``--data``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from engram.bench import abstain as abstain_bench
from engram.bench.abstain import Row
from engram.bench.spaces import Spaces
from engram.errors import InvalidInputError
from engram.memory import Memory
from engram.recall import abstain

#: Where the questions' gold ids are kept in each memory's metadata.
KEY = "paraphrase_id"
NAMESPACE = "agent"
CALIBRATION = "calibration"
HELD_OUT = "held-out"
#: The second held-out set: five stores of new domains written after the first round
#: was tuned and before the next, so they are a check nothing has been looked at on.
HELD_OUT_2 = "held-out-2"
#: The third held-out set: five more stores of new domains, written before issue 24's
#: third round tuned anything (the category bridge), as its clean check.
HELD_OUT_3 = "held-out-3"
#: The fourth held-out set: five more stores of new domains, written and committed
#: before issue 24's fourth round tuned anything, to see whether what it keeps
#: generalises.
HELD_OUT_4 = "held-out-4"
#: The fifth: five more, written during the fourth round after its experiments were
#: scored, as the clean check of the lead it named (the store-level standing).
HELD_OUT_5 = "held-out-5"
#: The sixth: five more, written and committed for the fifth round before the store
#: standing was put in recall or anything was fitted, as the clean check of it.
HELD_OUT_6 = "held-out-6"
#: The seventh: five more (short, category-word questions), written and committed for
#: the sixth round before it fitted, coded or measured anything, as the clean check of
#: the decision it pre-registered.
HELD_OUT_7 = "held-out-7"
#: The eighth: five more (a bakery's books, class notes, a home-lab wiki, an apiary, a
#: pottery studio), written and committed for issue 24's ninth round before it
#: diagnosed, fitted or chose anything: the seven before had been read with round
#: eight's ranking variant, so its ranking change needed a check nothing had seen.
HELD_OUT_8 = "held-out-8"
#: The ninth: five more (a translation agency, an astronomy society, a hair salon, a
#: film shoot, a village water utility), written and committed for issue 24's tenth
#: round (stores that mix agent notes with chat sessions) before it measured anything:
#: held-out-8 had been read with round nine's ranking change.
HELD_OUT_9 = "held-out-9"
#: Round 11 (silent36): questions written a new way (very short, typos, yes/no, a
#: broader category, people by role) over twelve stores of new domains, in
#: ``engram/data/paraphrase36.json`` (``--data``): the split studied and tuned on ...
TUNE_36 = "tune-36"
#: ... and its held-out twin, written and committed with it before anything was measured.
HELD_OUT_10 = "held-out-10"
#: Round 12 (abstain38): twelve more stores in round 11's style and file, written and
#: committed before the round measured or changed anything; read only to report.
HELD_OUT_11 = "held-out-11"
SPLITS = (
    CALIBRATION,
    HELD_OUT,
    HELD_OUT_2,
    HELD_OUT_3,
    HELD_OUT_4,
    HELD_OUT_5,
    HELD_OUT_6,
    HELD_OUT_7,
    HELD_OUT_8,
    HELD_OUT_9,
    TUNE_36,
    HELD_OUT_10,
    HELD_OUT_11,
)
#: The context's default size (seed 000): "gold in the top 4".
TOP = 4


@dataclass(frozen=True, slots=True)
class Question:
    """An answerable question and the ids of the memories that answer it."""

    text: str
    gold: frozenset[str]


@dataclass(frozen=True, slots=True)
class Store:
    """One agent's small store and its questions."""

    id: str
    domain: str
    split: str
    cross_target: str
    """The store (of another domain, same split) this store's questions are asked of."""
    memories: Mapping[str, str]
    questions: Sequence[Question]
    unrelated: Sequence[str]

    @property
    def held_out(self) -> bool:
        """Never used to fit or tune."""
        return self.split != CALIBRATION


def default_path() -> Path:
    """The packaged set."""
    return Path(str(resources.files("engram") / "data" / "paraphrase.json"))


def round11_path() -> Path:
    """Round 11's set (tune-36 and held-out-10), written in another style, and round
    12's held-out-11 in the same style."""
    return Path(str(resources.files("engram") / "data" / "paraphrase36.json"))


def load(path: str | Path | None = None) -> list[Store]:
    """The stores of a paraphrase set file, checked for consistency."""
    raw = json.loads(Path(path or default_path()).read_text(encoding="utf-8"))
    stores = [
        Store(
            id=str(s["id"]),
            domain=str(s["domain"]),
            split=str(s["split"]),
            cross_target=str(s["cross_target"]),
            memories={str(k): str(v) for k, v in s["memories"].items()},
            questions=[
                Question(str(q["q"]), frozenset(str(g) for g in q["gold"])) for q in s["questions"]
            ],
            unrelated=[str(u) for u in s["unrelated"]],
        )
        for s in raw["stores"]
    ]
    by_id = {s.id: s for s in stores}
    for s in stores:
        if s.split not in SPLITS:
            raise InvalidInputError(f"store {s.id}: split must be one of {SPLITS}")
        target = by_id.get(s.cross_target)
        if target is None or target.domain == s.domain or target.split != s.split:
            raise InvalidInputError(
                f"store {s.id}: cross_target must be a store of another domain, same split"
            )
        for q in s.questions:
            if not q.gold or not q.gold <= set(s.memories):
                raise InvalidInputError(f"store {s.id}: {q.text!r} names unknown memories")
    return stores


Progress = Callable[[str, int, int], None]
Opener = Callable[[], AbstractContextManager[Memory]]


def _plan(stores: Sequence[Store], store: Store, fold: int) -> Iterator[tuple[str, str, str, Any]]:
    """(kind, question id, text, gold) asked of ``store``."""
    for n, q in enumerate(store.questions):
        yield "answerable", f"{store.id}:a{n}", q.text, q.gold
    for n, text in enumerate(store.unrelated):
        yield "unrelated", f"{store.id}:u{n}", text, frozenset()
    for other in stores:
        if other.cross_target == store.id:
            for n, q in enumerate(other.questions):
                yield "cross", f"{other.id}:a{n}>{store.id}", q.text, frozenset()


def folds(stores: Sequence[Store]) -> dict[str, int]:
    """Each store's fold (alternately within its split) for two-fold fitting."""
    out: dict[str, int] = {}
    for split in SPLITS:
        for n, s in enumerate(x for x in stores if x.split == split):
            out[s.id] = n % 2
    return out


def ask(
    mem: Memory,
    store: Store,
    fold: int,
    namespace: str,
    question: tuple[str, str, str, frozenset[str]],
    spaces: Spaces | None = None,
    categories: abstain_bench.Measure | None = None,
) -> Row:
    """One ``(kind, question id, text, gold)`` of ``store`` asked of ``namespace`` with
    the decision off (``engram.bench.abstain.ask``), labelled with the store's split."""
    kind, qid, text, gold = question
    return abstain_bench.ask(
        mem,
        kind,
        "paraphrase",
        fold,
        qid,
        namespace,
        text,
        gold,
        key=KEY,
        held_out=store.held_out,
        split=store.split,
        spaces=spaces,
        categories=categories,
    )


def collect(
    stores: Sequence[Store],
    open_memory: Opener,
    progress: Progress | None = None,
    namespace_evidence: bool = False,
    categories: abstain_bench.Measure | None = None,
) -> list[Row]:
    """Load each store into a fresh ``Memory`` from ``open_memory`` and ask its
    questions (its own, its unrelated ones, and other domains' asked of it); with
    ``namespace_evidence``, also measure each against the whole store, and with
    ``categories``, the category bridge (``engram.bench.categories``)."""
    fold_of = folds(stores)
    total = sum(
        len(s.questions)
        + len(s.unrelated)
        + sum(len(o.questions) for o in stores if o.cross_target == s.id)
        for s in stores
    )
    rows: list[Row] = []
    for store in stores:
        with open_memory() as mem:
            spaces = Spaces(mem) if namespace_evidence else None
            mem.add_many(
                [{"content": text, "metadata": {KEY: key}} for key, text in store.memories.items()],
                namespace=NAMESPACE,
            )
            for kind, qid, text, gold in _plan(stores, store, fold_of[store.id]):
                rows.append(
                    ask(
                        mem,
                        store,
                        fold_of[store.id],
                        NAMESPACE,
                        (kind, qid, text, gold),
                        spaces=spaces,
                        categories=categories,
                    )
                )
                if progress is not None:
                    progress("paraphrase", len(rows), total)
    return rows


# -- the report ---------------------------------------------------------------------------


def shipped_policy(embedder: str | None) -> abstain_bench.Policy:
    """What recall does by default: the shipped calibration, one line when unsure, and
    the default relative floor."""
    return abstain_bench.Policy(
        "shipped", abstain.CALIBRATION, embedder, floor=abstain.RELATIVE_FLOOR
    )


def policies(embedder: str | None) -> list[abstain_bench.Policy]:
    """The policies the report compares: none, issue 13's, the shipped one with its
    uncertain band silent, and the shipped one."""
    shipped = shipped_policy(embedder)
    before = abstain.Calibration.from_mapping(abstain_bench.ISSUE_13)
    return [
        abstain_bench.Policy("no decision", None, embedder),
        abstain_bench.Policy("issue 13 (before)", before, embedder),
        abstain_bench.Policy(
            "shipped, unsure -> silent",
            shipped.calibration,
            embedder,
            low_confidence=False,
            floor=shipped.floor,
        ),
        abstain_bench.Policy(
            "shipped, unsure -> one line", shipped.calibration, embedder, floor=shipped.floor
        ),
    ]


HEADLINE = (
    ("answerable wrongly silent", "answerable", "silent"),
    ("answerable one line (low confidence)", "answerable", "uncertain"),
    ("gold in context", "answerable", "gold"),
    ("context lines (answerable)", "answerable", "lines"),
    ("unrelated silent", "unrelated", "silent"),
    ("unrelated one line", "unrelated", "uncertain"),
    ("cross-domain silent", "cross", "silent"),
    ("cross-domain one line", "cross", "uncertain"),
    ("cross-domain lines", "cross", "lines"),
)


def summarize(rows: Sequence[Row], embedder: str | None) -> dict[str, Any]:
    """Per split and policy: the headline figures, and the gold in the top 4 without
    any decision (what ranking alone finds)."""
    out: dict[str, Any] = {"embedder": embedder, "counts": {}, "policies": {}}
    present = [s for s in SPLITS if any(abstain_bench.split_of(r) == s for r in rows)]
    for split in present:
        part = [r for r in rows if abstain_bench.split_of(r) == split]
        out["counts"][split] = {
            kind: sum(1 for r in part if r.set == kind)
            for kind in ("answerable", "unrelated", "cross")
        }
        answerable = [r for r in part if r.set == "answerable"]
        out["counts"][split]["gold in top 4 (no decision)"] = round(
            sum(1 for r in answerable if any(k < TOP for k in r.gold_ranks))
            / max(1, len(answerable)),
            4,
        )
    for policy in policies(embedder):
        scored = abstain_bench.score(rows, policy, TOP)
        out["policies"][policy.name] = {
            split: {
                label: scored.get(f"paraphrase {split} / {kind}", {}).get(cell)
                for label, kind, cell in HEADLINE
            }
            for split in present
        }
    return out


def markdown(summary: Mapping[str, Any]) -> str:
    """The tables docs/benchmarks.md shows."""
    from engram.bench.report import table

    lines = [
        f"embedder: {summary['embedder']}",
        "",
        table(
            ["split", "answerable", "unrelated", "cross-domain", "gold in top 4 (no decision)"],
            [
                [
                    split,
                    c["answerable"],
                    c["unrelated"],
                    c["cross"],
                    c["gold in top 4 (no decision)"],
                ]
                for split, c in summary["counts"].items()
            ],
        ),
        "",
        table(
            ["policy", "split", *(label for label, _, _ in HEADLINE)],
            [
                [name, split, *(cells[split][label] for label, _, _ in HEADLINE)]
                for name, cells in summary["policies"].items()
                for split in cells
            ],
        ),
    ]
    return "\n".join(lines)
