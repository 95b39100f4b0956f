"""Issue 24, task beam40: what fold A's lost BEAM gold shares with its question, and
offline second rankings of the default ranking that were not tried before.

Reads a ``scripts/beam29_pool.py dump`` (the default ranking's 50 hits and whole
candidate pool per question) and the store it was dumped from (the message vectors, and
the embedder for the questions). Folds: A = chats 1-5 (tuning), B = chats 6-10 (read
once per row chosen on A; then the swap). Usage (a copy of a store ``engram bench beam
--store`` wrote):

    PYTHONPATH=src python scripts/beam29_pool.py dump STORE POOL.pkl
    PYTHONPATH=src python scripts/beam40_measure.py diagnose POOL.pkl STORE [A|B]
    PYTHONPATH=src python scripts/beam40_measure.py grid POOL.pkl STORE
    PYTHONPATH=src python scripts/beam40_measure.py early POOL.pkl STORE
    PYTHONPATH=src python scripts/beam40_measure.py limits POOL.pkl STORE
    PYTHONPATH=src python scripts/beam40_measure.py locomo LR.pkl LOCOMO_STORE W K

``grid`` prints R@10 per fold for every variant (question-points against the default):

- ``centred``: a second ranking of the candidates by the cosine of the question and the
  message after both have the chat's mean message vector taken off (what the chat is
  about is shared by all its messages; what is left is the aspect the question names),
  fused by rank into the default ranking: a hit's score is ``1 / (60 + base rank) +
  w / (k + centred rank)``;
- ``pool``: the same with the mean of the question's whole candidate pool taken off (what
  recall holds without a namespace centroid; at the bench's depth the pool is 0.95 to
  0.99 of a chat);
- ``local``: the same with the mean of the question's own 50 hits taken off;
- ``subject``: the same second ranking by the plain cosine of the question's subject
  (its request wrapper and answer-format sentences cut: "Can you list the order in which
  I brought up different aspects of X throughout our conversations? Mention ONLY ..."
  becomes "X");

each for every question, thread questions only (``coverage.thread``), or the others.
"""

from __future__ import annotations

import json
import pickle
import re
import sqlite3
import sys
from collections import defaultdict
from typing import Any

import numpy as np
import numpy.typing as npt

from engram import Memory
from engram.config import RecallConfig
from engram.recall import coverage

Matrix = npt.NDArray[np.float32]
BASE_K = 60  # the default ranking's rank constant in the fused score
# the second ranking's weights: at BASE_K 60 the default top 10 spans 0.0164 to 0.0143,
# so a w of 0.01 at k 30 (0.0003 to 0.00025) already reorders neighbours
WEIGHTS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
WORD = re.compile(r"[a-z][a-z0-9'-]+")
STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "how",
        "i",
        "i'm",
        "i've",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "over",
        "so",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "this",
        "those",
        "through",
        "throughout",
        "to",
        "up",
        "us",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
        "across",
        "conversations",
        "conversation",
        "discussions",
        "sessions",
        "order",
        "brought",
        "different",
        "aspects",
        "give",
        "list",
        "mention",
        "only",
        "summary",
        "comprehensive",
        "clear",
        "walk",
    ]
)


def load(pool: str) -> list[dict[str, Any]]:
    with open(pool, "rb") as f:
        rows: list[dict[str, Any]] = pickle.load(f)
    return rows


def vectors(store: str) -> tuple[dict[int, dict[str, Matrix]], dict[int, dict[str, str]]]:
    """chat -> turn -> its stored vector, and chat -> turn -> its text."""
    conn = sqlite3.connect(store)
    out: dict[int, dict[str, Matrix]] = defaultdict(dict)
    text: dict[int, dict[str, str]] = defaultdict(dict)
    for ns, meta, content, blob in conn.execute(
        "SELECT m.namespace, m.metadata, m.content, v.vector FROM memories m "
        "JOIN memory_vectors v ON v.memory_seq = m.seq WHERE m.deleted_at IS NULL"
    ):
        if not ns.startswith("bench:beam"):
            continue
        chat = int(ns.rsplit("-", 1)[1])
        turn = str(json.loads(meta).get("turn"))
        out[chat][turn] = np.frombuffer(blob, dtype=np.float32)
        text[chat][turn] = content
    conn.close()
    return out, text


def subject(question: str) -> str:
    """The question's subject: the first sentence with its request wrapper cut."""
    first = re.split(r"(?<=[?.])\s+", question.strip())[0]
    cut = re.sub(
        r"^(can|could|would) you (please )?(list|give me|provide|walk me through|summarize"
        r"|tell me|explain)( (a|an|the)\b)?( (clear|comprehensive|brief|detailed)\b)?"
        r"( (summary|overview|order|list)\b)?( (of|in which|about)\b)?\s*",
        "",
        first,
        flags=re.I,
    )
    cut = re.sub(r"^(i|how) (brought up|discussed|raised|mentioned)\s*", "", cut, flags=re.I)
    cut = re.sub(r"^(different )?(aspects|concepts|topics|steps)( of| related to)?\s*", "", cut)
    cut = re.sub(
        r"\s*(,\s*)?(throughout|across|over|during|in) (all )?(our|my) "
        r"(conversations|discussions|sessions|chats)[^?.]*",
        "",
        cut,
        flags=re.I,
    )
    return cut.strip(" ?.,") or question


def content_words(text: str) -> set[str]:
    return {w for w in WORD.findall(text.lower()) if w not in STOP and len(w) > 2}


def diagnose(rows: list[dict[str, Any]], store: str, fold: str) -> None:
    """Per ability: the lost gold (ranked 11-50 / past 50) against the found gold and the
    top 10's other hits: share of the question's content words it holds, its length,
    its role, and its place in the chat (first, middle, last third)."""
    _, text = vectors(store)
    stats: dict[tuple[str, str], list[tuple[float, int, bool, float]]] = defaultdict(list)
    for row in rows:
        if not row["gold"] or (row["chat"] <= 5) != (fold == "A"):
            continue
        words = content_words(row["question"])
        order = sorted(text[row["chat"]], key=int)
        where = {t: i / max(1, len(order) - 1) for i, t in enumerate(order)}
        for g in row["gold"]:
            rank = row["final"].index(g) + 1 if g in row["final"] else 99
            kind = "found" if rank <= 10 else "11-50" if rank <= 50 else ">50"
            body = text[row["chat"]].get(g, "")
            share = len(words & content_words(body)) / max(1, len(words))
            stats[(row["category"], kind)].append(
                (share, len(body), body.startswith("user:"), where.get(g, 0.0))
            )
        for t in row["final"][:10]:
            if t not in row["gold"]:
                body = text[row["chat"]].get(t, "")
                share = len(words & content_words(body)) / max(1, len(words))
                stats[(row["category"], "top-10 other")].append(
                    (share, len(body), body.startswith("user:"), where.get(t, 0.0))
                )
    print(f"fold {fold}: gold by place, mean share of the question's words / median length")
    print("/ share user / mean place in chat (0 first, 1 last)")
    print("| ability | kind | n | words | length | user | place |\n|---|---|---|---|---|---|---|")
    for (ability, kind), vals in sorted(stats.items()):
        arr = np.array(vals, dtype=float)
        print(
            f"| {ability} | {kind} | {len(vals)} | {arr[:, 0].mean():.2f} | "
            f"{int(np.median(arr[:, 1]))} | {arr[:, 2].mean():.2f} | {arr[:, 3].mean():.2f} |"
        )


def recall10(top: list[str], gold: list[str]) -> float:
    return sum(g in top[:10] for g in gold) / len(gold)


def ranking(row: dict[str, Any]) -> list[str]:
    """The default ranking as far as the dump holds it: its hits, then the rest of the
    candidate pool in fused order (a recall of 10 keeps only 10 hits)."""
    return list(dict.fromkeys([*row["final"], *row["pool"]]))


def fused(base: list[str], second: list[str], w: float, k: float) -> list[str]:
    score: dict[str, float] = defaultdict(float)
    for i, t in enumerate(base):
        score[t] += 1.0 / (BASE_K + i + 1)
    for i, t in enumerate(second):
        score[t] += w / (k + i + 1)
    return sorted(score, key=lambda t: -score[t])


def grid(rows: list[dict[str, Any]], store: str) -> None:
    vec, _ = vectors(store)
    cfg = RecallConfig()
    with Memory(store) as mem:
        assert mem.embedder is not None
        qv = mem.embedder.embed_batch([r["question"] for r in rows])
        sv = mem.embedder.embed_batch([subject(r["question"]) for r in rows])
    means = {c: np.mean(np.stack(list(v.values())), axis=0) for c, v in vec.items()}
    base = {
        f: sum(recall10(r["final"], r["gold"]) for r in rows if r["gold"] and _fold(r) == f)
        for f in "AB"
    }
    print(f"default: A {base['A'] / 90:.4f} ({base['A']:.2f}) / B {base['B'] / 89:.4f}")
    seconds: dict[str, list[list[str]]] = {"centred": [], "pool": [], "local": [], "subject": []}
    for i, r in enumerate(rows):
        cands = list(dict.fromkeys([*r["final"], *r["pool"]]))
        cands = [t for t in cands if t in vec[r["chat"]]]
        m = np.stack([vec[r["chat"]][t] for t in cands])
        for name, centre, q in (
            ("centred", means[r["chat"]], qv[i]),
            ("pool", np.mean(m, axis=0), qv[i]),
            ("local", np.mean(m[: min(50, len(m))], axis=0), qv[i]),
            ("subject", np.zeros_like(qv[i]), sv[i]),
        ):
            a = m - centre
            b = q - centre
            cos = (a @ b) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b) + 1e-9)
            seconds[name].append([cands[j] for j in np.argsort(-cos)])
    threads = [coverage.thread(r["question"], cfg) for r in rows]
    print("| second | scope | w | k | R@10 A / B | points A / B |\n|---|---|---|---|---|---|")
    for name, ranked in seconds.items():
        for scope in ("all", "thread", "other"):
            for w in WEIGHTS:
                for k in (10, 30, 60):
                    got = {"A": 0.0, "B": 0.0}
                    for i, r in enumerate(rows):
                        if not r["gold"]:
                            continue
                        on = scope == "all" or (scope == "thread") == threads[i]
                        top = fused(ranking(r), ranked[i], w, k) if on else r["final"]
                        got[_fold(r)] += recall10(top, r["gold"])
                    print(
                        f"| {name} | {scope} | {w} | {k} | {got['A'] / 90:.4f} / "
                        f"{got['B'] / 89:.4f} | {got['A'] - base['A']:+.2f} / "
                        f"{got['B'] - base['B']:+.2f} |"
                    )


def places(store: str) -> dict[str, dict[int, dict[str, float]]]:
    """ "chat" and "session" -> chat -> turn -> its place (0 = first message, 1 = last)
    in its chat, or in its session (a BEAM batch: 30 to 60 messages)."""
    conn = sqlite3.connect(store)
    members: dict[tuple[int, Any], list[int]] = defaultdict(list)
    whole: dict[int, list[int]] = defaultdict(list)
    for ns, meta in conn.execute("SELECT namespace, metadata FROM memories"):
        if not ns.startswith("bench:beam"):
            continue
        chat, m = int(ns.rsplit("-", 1)[1]), json.loads(meta)
        members[(chat, m.get("session"))].append(int(m["turn"]))
        whole[chat].append(int(m["turn"]))
    conn.close()
    out: dict[str, dict[int, dict[str, float]]] = {"chat": {}, "session": {}}
    for chat, turns in whole.items():
        turns.sort()
        out["chat"][chat] = {str(t): i / max(1, len(turns) - 1) for i, t in enumerate(turns)}
    for (chat, _), turns in members.items():
        turns.sort()
        here = {str(t): i / max(1, len(turns) - 1) for i, t in enumerate(turns)}
        out["session"].setdefault(chat, {}).update(here)
    return out


def early_top(row: dict[str, Any], place: dict[str, float], w: float) -> list[str]:
    """The default ranking's candidates (its 50, then the rest of the pool) reordered by
    ``1 / (60 + rank) + w × (1 − place)``."""
    cands = ranking(row)
    score = {t: 1.0 / (BASE_K + i + 1) + w * (1.0 - place.get(t, 1.0)) for i, t in enumerate(cands)}
    return sorted(cands, key=lambda t: -score[t])


def early(rows: list[dict[str, Any]], store: str) -> None:
    """Order and summary questions: a prior for an early place in the chat or in the
    session (the user opens an aspect, then follows it up; a batch opens with its plan)."""
    where = places(store)
    base = {
        f: sum(recall10(r["final"], r["gold"]) for r in rows if r["gold"] and _fold(r) == f)
        for f in "AB"
    }
    print("| place | shapes | w | R@10 A / B | points A / B |\n|---|---|---|---|---|")
    for kind in ("chat", "session"):
        for shapes in (("order",), ("summary",), ("order", "summary")):
            for w in (0.001, 0.002, 0.003, 0.005, 0.01, 0.02):
                got = {"A": 0.0, "B": 0.0}
                for r in rows:
                    if not r["gold"]:
                        continue
                    top = r["final"]
                    if str(coverage.shape(r["question"])) in shapes:
                        top = early_top(r, where[kind][r["chat"]], w)
                    got[_fold(r)] += recall10(top, r["gold"])
                print(
                    f"| {kind} | {'+'.join(shapes)} | {w} | {got['A'] / 90:.4f} / "
                    f"{got['B'] / 89:.4f} | {got['A'] - base['A']:+.2f} / "
                    f"{got['B'] - base['B']:+.2f} |"
                )


def limits(rows: list[dict[str, Any]], store: str) -> None:
    """Per ability and fold: questions with evidence, gold per question, R@10 lost (in
    question-points), its ceiling (10 / gold when a question has more than 10), how much
    of the gold the default ranking holds at 10 / 50, the gold past 50, and the share of
    the gold that is the user's own words (the rest: the assistant's answers)."""
    _, text = vectors(store)
    cells: dict[tuple[str, str], list[tuple[int, float, float, float, int, float]]]
    cells = defaultdict(list)
    for r in rows:
        if not r["gold"]:
            continue
        g = r["gold"]
        past = sum(t not in r["final"] for t in g)
        user = sum(text[r["chat"]].get(t, "").startswith("user:") for t in g) / len(g)
        top50 = sum(t in r["final"] for t in g) / len(g)
        cells[(r["category"], _fold(r))].append(
            (len(g), recall10(r["final"], r["gold"]), min(1.0, 10 / len(g)), top50, past, user)
        )
    print(
        "| ability | questions A / B | gold each | R@10 lost A / B | ceiling | R@10 | "
        "R@50 | gold past 50 A / B | user's words |\n|---|---|---|---|---|---|---|---|---|"
    )
    for ability in sorted({a for a, _ in cells}):
        a, b = cells[(ability, "A")], cells[(ability, "B")]

        def col(i: int, rows_: list[tuple[int, float, float, float, int, float]]) -> float:
            return float(np.mean([x[i] for x in rows_]))

        print(
            f"| {ability} | {len(a)} / {len(b)} | {col(0, a):.1f} / {col(0, b):.1f} | "
            f"{sum(1 - x[1] for x in a):.2f} / {sum(1 - x[1] for x in b):.2f} | "
            f"{col(2, a):.2f} / {col(2, b):.2f} | {col(1, a):.3f} / {col(1, b):.3f} | "
            f"{col(3, a):.3f} / {col(3, b):.3f} | {sum(x[4] for x in a)} / "
            f"{sum(x[4] for x in b)} | {col(5, a):.2f} / {col(5, b):.2f} |"
        )


def locomo(dump: str, store: str, w: float, k: int) -> None:
    """The ``centred`` row on LoCoMo dev (every LoCoMo question is an "other" question:
    the thread detector fires on none), with this script's fusion (the default ranking
    by rank, ``1 / (60 + rank)``, plus ``w / (k + centred rank)``), through hop39's
    reorder of a ``scripts/learned_rank.py dump`` (its top 100 per question)."""
    import dataclasses

    sys.path.insert(0, "scripts")
    import hop39_measure as hop

    with open(dump, "rb") as f:
        rows = pickle.load(f)["rows"]
    for row in rows:  # the rank form: hop39 adds its gain to the hit's score
        row["hits"] = [
            dataclasses.replace(h, score=1.0 / (BASE_K + r)) for r, h in enumerate(row["hits"], 1)
        ]
    sp = hop.spaces(store)
    qv = hop.question_vectors(store, [r["question"].text for r in rows], "/tmp/beam40-qvec.pkl")
    print(hop.report(hop.reorder(rows, sp, qv, "centred", 0.0, k, "all"), "baseline"))
    print(hop.report(hop.reorder(rows, sp, qv, "centred", w, k, "all"), f"centred w {w} k {k}"))


def _fold(row: dict[str, Any]) -> str:
    return "A" if row["chat"] <= 5 else "B"


if __name__ == "__main__":
    cmd, pool_path, store_path = sys.argv[1:4]
    data = load(pool_path) if cmd != "locomo" else []
    if cmd == "diagnose":
        diagnose(data, store_path, sys.argv[4] if len(sys.argv) > 4 else "A")
    elif cmd == "locomo":  # POOL is a learned_rank.py dump here, STORE its LoCoMo store
        locomo(pool_path, store_path, float(sys.argv[4]), int(sys.argv[5]))
        sys.exit(0)
    elif cmd == "limits":
        limits(data, store_path)
    elif cmd == "early":
        early(data, store_path)
    else:
        grid(data, store_path)
