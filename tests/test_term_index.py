"""The in-memory term index of large SQLite namespaces (issue 13): FTS5's terms, FTS5's
BM25, MaxScore top-k, and keeping in step with every writer through ``fts_log``."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engram import Config, Memory
from engram.store.sqlite import fts, term_search
from engram.store.sqlite.term_index import Doc, TermBlock
from engram.store.sqlite.tokenize import porter, term_ids, terms, terms_many

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo" / "locomo10_dev.json"

# Words chosen to walk Porter's rules (plurals, -ed/-ing with doubling and "e" restored,
# y -> i, every step-2/3/4 suffix, the FTS5 length guards) and text FTS5 must cut itself.
WORDS = [
    "caresses",
    "ponies",
    "ties",
    "caress",
    "cats",
    "feed",
    "agreed",
    "plastered",
    "bled",
    "motoring",
    "sing",
    "conflated",
    "troubled",
    "sized",
    "hopping",
    "tanned",
    "falling",
    "hissing",
    "fizzed",
    "failing",
    "filing",
    "happy",
    "sky",
    "relational",
    "conditional",
    "rational",
    "valenci",
    "hesitanci",
    "digitizer",
    "conformabli",
    "radicalli",
    "differentli",
    "vileli",
    "analogousli",
    "vietnamization",
    "predication",
    "operator",
    "feudalism",
    "decisiveness",
    "hopefulness",
    "callousness",
    "formaliti",
    "sensitiviti",
    "sensibiliti",
    "triplicate",
    "formative",
    "formalize",
    "electriciti",
    "electrical",
    "hopeful",
    "goodness",
    "revival",
    "allowance",
    "inference",
    "airliner",
    "gyroscopic",
    "adjustable",
    "defensible",
    "irritant",
    "replacement",
    "adjustment",
    "dependent",
    "adoption",
    "homologou",
    "communism",
    "activate",
    "angulariti",
    "homologous",
    "effective",
    "bowdlerize",
    "probate",
    "rate",
    "cease",
    "controll",
    "roll",
    "generalizations",
    "oscillators",
    "sses",
    "ies",
    "eed",
    "ated",
    "bled",
    "archeology",
    "logi",
    "syzygy",
    "yyyy",
    "a",
    "an",
    "it",
    "2023",
    "3rd",
    "x86_64",
    "snake_case",
    "e-mail",
    "Café",
    "naïve",
    "résumé",
    "ΣΙΣΥΦΟΣ",
    "straße",
    "Øre",
    "½",
    "日本語",
    "🧘",
    "don't",
    "l'été",
]


def _fts5_terms(texts: list[str]) -> list[list[str]]:
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE t USING fts5(c, tokenize='{fts.TOKENIZE}')")
    conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    conn.executemany("INSERT INTO t(rowid, c) VALUES (?, ?)", enumerate(texts))
    found: list[list[tuple[int, str]]] = [[] for _ in texts]
    for term, doc, offset in conn.execute("SELECT term, doc, offset FROM v"):
        found[doc].append((offset, term))
    return [[t for _, t in sorted(row)] for row in found]


def test_every_word_is_cut_and_stemmed_as_fts5_does() -> None:
    texts = [*WORDS, " ".join(WORDS), "", "   ...   "]
    assert terms_many(texts) == _fts5_terms(texts)
    assert [terms(t) for t in texts] == _fts5_terms(texts)


def test_bulk_ids_name_the_same_terms_as_one_text_at_a_time() -> None:
    # "meaning" is FTS5's stem of "meaningful" in the non-ASCII text, and a plain word
    # (stem "mean") in the ASCII one: the two must not be taken for each other.
    texts = ["a meaningful café visit", "the meaning of joy", *WORDS, "joy ☺ joyful"]
    vocab: dict[str, int] = {}
    ids, counts = term_ids(texts, vocab)
    names = {i: t for t, i in vocab.items()}
    flat = [names[int(i)] for i in ids]
    expected = terms_many(texts)
    assert counts.tolist() == [len(t) for t in expected]
    assert flat == [t for terms_of in expected for t in terms_of]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([*WORDS, ",", ".", "-", "'", "\n", "!!"]), max_size=40))
def test_any_mix_of_words_and_punctuation_matches_fts5(words: list[str]) -> None:
    text = " ".join(words)
    assert terms(text) == _fts5_terms([text])[0]


def test_porter_reference_examples() -> None:
    # From M. F. Porter's paper: each rule's own examples.
    cases = {
        "caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed",
        "agreed": "agre", "plastered": "plaster", "motoring": "motor", "sing": "sing",
        "conflated": "conflat", "hopping": "hop", "falling": "fall", "filing": "file",
        "happy": "happi", "relational": "relat", "generalizations": "gener",
        "oscillators": "oscil", "adjustment": "adjust", "electrical": "electr",
    }  # fmt: skip
    assert {w: porter(w) for w in cases} == cases


@pytest.mark.skipif(not LOCOMO.is_file(), reason="the LoCoMo dev split lies beside the checkout")
def test_every_locomo_turn_is_cut_as_fts5_does() -> None:
    data = json.loads(LOCOMO.read_text())
    texts = [
        turn["text"]
        for sample in data
        for key, value in sample["conversation"].items()
        if key.startswith("session_") and isinstance(value, list)
        for turn in value
    ]
    assert len(texts) > 2000
    assert terms_many(texts) == _fts5_terms(texts)


# -- BM25 and top-k -------------------------------------------------------------------
def _corpus(n: int, seed: int = 7) -> list[Doc]:
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(60)] + ["alpha", "beta", "gamma", "running", "runs"]
    docs = []
    for i in range(n):
        body = " ".join(rng.choices(vocab, weights=range(len(vocab), 0, -1), k=rng.randint(1, 30)))
        title = " ".join(rng.choices(vocab, k=2)) if i % 5 == 0 else None
        tags = json.dumps(rng.choices(vocab, k=2)) if i % 7 == 0 else None
        docs.append(Doc(i + 1, f"m{i + 1}", (body, title, None, None, tags)))
    return docs


def _fts5_bm25(docs: list[Doc], query: list[str]) -> dict[int, float]:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        f"CREATE VIRTUAL TABLE f USING fts5({', '.join(fts.COLUMNS)}, tokenize='{fts.TOKENIZE}')"
    )
    conn.executemany(
        "INSERT INTO f(rowid, content, title, narrative, facts, tags) VALUES (?, ?, ?, ?, ?, ?)",
        [(d.seq, *d.columns) for d in docs],
    )
    match = " OR ".join(f'"{t}"' for t in query)
    rows = conn.execute(
        f"SELECT rowid, -bm25(f, {fts.WEIGHTS}) FROM f WHERE f MATCH ?", (match,)
    ).fetchall()
    return {int(r): float(s) for r, s in rows}


@pytest.mark.parametrize(
    "query", [["alpha"], ["w0", "gamma"], ["w1", "w2", "w3", "beta"], ["runs", "running", "w59"]]
)
def test_scores_are_fts5_bm25(query: list[str]) -> None:
    docs = _corpus(400)
    block = TermBlock(docs)
    expected = _fts5_bm25(docs, query)
    stems = [terms(q)[0] for q in query]
    got = dict(block.top(stems, len(docs)))
    assert {block.seqs[r] for r in got} == set(expected)
    for row, score in got.items():
        assert score == pytest.approx(expected[block.seqs[row]], rel=1e-5)
    rows = list(range(block.size))
    for row, score in zip(rows, block.scores(stems, rows), strict=True):
        assert score == pytest.approx(expected.get(block.seqs[row], 0.0), rel=1e-5, abs=1e-9)


def _dupes(n: int, seed: int) -> list[Doc]:
    """``_corpus`` with every third document's text repeated later: exact score ties."""
    docs = _corpus(n, seed)
    return [
        Doc(d.seq, d.id, docs[d.seq - 3].columns if d.seq % 3 == 0 and d.seq > 3 else d.columns)
        for d in docs
    ]


def _exhaustive(block: TermBlock, query: list[str], k: int) -> list[tuple[int, float]]:
    """Every live row scored one by one (``scores``: lookups, no scatter), best first,
    ties by row."""
    every = block.scores(query, list(range(block.size)))
    hits = sorted(((-s, r) for r, s in enumerate(every) if s > 0 and block.alive[r]))
    return [(r, -s) for s, r in hits[:k]]


def _same_ranking(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> None:
    """The same rows in the same order, scores to 1e-6, except that rows whose scores
    differ by rounding alone (float32 sums in another order) may trade places."""
    assert len(got) == len(want)
    assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-6, abs=1e-6)
    for (row, score), (other, expected) in zip(got, want, strict=True):
        if row != other:
            assert score == pytest.approx(expected, rel=1e-6)
            assert abs(score - expected) <= 1e-6 * max(1.0, abs(expected))
    last = want[-1][1] if want else 0.0
    # Below the k-th score's rounding, the two hold the same rows.
    firm = {r for r, s in want if s > last + 1e-6 * max(1.0, last)}
    assert firm <= {r for r, _ in got}


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    k=st.integers(1, 300),
    query=st.lists(
        st.sampled_from(["w0", "w1", "w5", "w20", "w40", "w59", "alpha", "zzz"]),
        min_size=1,
        max_size=6,
    ),
    removed=st.lists(st.integers(1, 300), max_size=30),
)
def test_maxscore_top_k_is_the_exhaustive_top_k(
    seed: int, k: int, query: list[str], removed: list[int]
) -> None:
    """Every live row scored one by one gives the same rows in the same order: ties
    (texts repeated), removed, appended and re-indexed rows, a term asked twice, k
    beyond the matches."""
    docs = _dupes(300, seed)
    block = TermBlock(docs[:200])
    block.append(docs[200:])
    for seq in removed:
        block.remove(seq)
    block.append([Doc(d.seq, d.id, docs[(d.seq * 7) % 300].columns) for d in docs[:5]])
    got = block.top(query, k)
    _same_ranking(got, _exhaustive(block, query, k))
    assert all(block.alive[r] for r, _ in got)


def test_a_term_asked_twice_weighs_twice_as_in_fts5() -> None:
    docs = _corpus(100)
    block = TermBlock(docs)
    once = dict(block.top(["alpha"], 100))
    twice = dict(block.top(["alpha", "alpha"], 100))
    assert {r: 2 * s for r, s in once.items()} == pytest.approx(twice)


# -- keeping in step with the store ---------------------------------------------------
def _config(config: Config, **recall: object) -> Config:
    base: dict[str, object] = {"keyword_index_min": 5, "keyword_index_background": False}
    return config.with_overrides(recall={**base, **recall})


def _search(mem: Memory, words: str, ns: str = "ns") -> list[tuple[str, float]]:
    match = " OR ".join(f'"{w}"' for w in words.split())
    return mem.store.keyword.search(ns, match, 100)


TEXTS = [f"note {i} about alpha" if i % 3 else f"note {i} about beta and alpha" for i in range(12)]


def test_large_namespaces_rank_from_memory_and_agree_with_fts5(
    config: Config, tmp_path: Path
) -> None:
    path = tmp_path / "s.db"
    with Memory(path, config=config, embedder=None) as plain:  # default: FTS5 below 20,000
        plain.add_many(TEXTS, namespace="ns")
        expected = _search(plain, "beta alpha")
        assert plain.store.keyword.state()["namespaces"] == {}
    with Memory(path, config=_config(config), embedder=None) as mem:
        got = _search(mem, "beta alpha")
        assert mem.store.keyword.state()["namespaces"] == {"ns": 12}
    assert [i for i, _ in got] == [i for i, _ in expected]
    assert [s for _, s in got] == pytest.approx([s for _, s in expected], rel=1e-5)


def test_small_namespaces_stay_on_fts5(config: Config) -> None:
    with Memory(":memory:", config=_config(config), embedder=None) as mem:
        mem.add_many(TEXTS[:4], namespace="small")
        assert _search(mem, "alpha", "small")
        assert mem.store.keyword.state()["namespaces"] == {}


def test_adds_updates_and_deletes_show_at_once(config: Config) -> None:
    with Memory(":memory:", config=_config(config), embedder=None) as mem:
        records = mem.add_many(TEXTS, namespace="ns")
        assert _search(mem, "alpha")  # the block is built
        added = mem.add("a fresh gamma note", namespace="ns")
        assert [i for i, _ in _search(mem, "gamma")] == [added.id]
        mem.update(records[0].id, content="now about delta only", namespace="ns")
        assert [i for i, _ in _search(mem, "delta")] == [records[0].id]
        assert records[0].id not in {i for i, _ in _search(mem, "alpha")}
        mem.delete(added.id, namespace="ns")
        assert _search(mem, "gamma") == []
        assert mem.store.keyword.state()["builds"] == 1  # kept in step, never rebuilt


def test_another_writer_is_seen_through_the_change_log(config: Config, tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with Memory(path, config=_config(config), embedder=None) as reader:
        reader.add_many(TEXTS, namespace="ns")
        assert _search(reader, "alpha")
        with Memory(path, config=config, embedder=None) as writer:
            other = writer.add("written elsewhere about epsilon", namespace="ns")
            writer.delete(
                reader.get(_search(reader, "beta")[0][0], namespace="ns").id, namespace="ns"
            )
        assert [i for i, _ in _search(reader, "epsilon")] == [other.id]
        assert len(_search(reader, "beta")) == 3
        assert reader.store.keyword.state()["builds"] == 1


def test_a_pruned_log_or_a_reindex_rebuilds(
    config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fts, "LOG_KEEP", 2)
    monkeypatch.setattr(fts, "LOG_PRUNE_EVERY", 1)
    path = tmp_path / "s.db"
    with Memory(path, config=_config(config), embedder=None) as mem:
        mem.add_many(TEXTS, namespace="ns")
        assert _search(mem, "alpha")
        with Memory(path, config=config, embedder=None) as writer:
            for i in range(5):
                writer.add(f"zeta {i}", namespace="ns")
        assert len(_search(mem, "zeta")) == 5
        assert mem.store.keyword.state()["builds"] == 2
        with mem.store._db.tx() as conn:  # the repair path re-indexes every namespace
            fts.rebuild(conn)
        assert len(_search(mem, "zeta")) == 5
        assert mem.store.keyword.state()["builds"] == 3


def test_too_many_changes_at_once_rebuild(config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(term_search, "CATCH_UP_MAX", 3)
    with Memory(":memory:", config=_config(config), embedder=None) as mem:
        mem.add_many(TEXTS, namespace="ns")
        assert _search(mem, "alpha")
        mem.add_many([f"eta {i}" for i in range(4)], namespace="ns")
        assert len(_search(mem, "eta")) == 4
        assert mem.store.keyword.state()["builds"] == 2


def test_a_background_build_lets_fts5_answer_meanwhile(config: Config, tmp_path: Path) -> None:
    with Memory(
        tmp_path / "s.db", config=_config(config, keyword_index_background=True), embedder=None
    ) as mem:
        mem.add_many(TEXTS, namespace="ns")
        first = _search(mem, "beta")  # FTS5, while the block builds
        deadline = time.monotonic() + 30
        while mem.store.keyword.state()["building"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert mem.store.keyword.state()["namespaces"] == {"ns": 12}
        assert [i for i, _ in _search(mem, "beta")] == [i for i, _ in first]


def test_a_phrase_keyword_is_left_to_fts5(config: Config) -> None:
    with Memory(":memory:", config=_config(config), embedder=None) as mem:
        mem.add_many([*TEXTS, "snake case here", "a snake_case name"], namespace="ns")
        found = _search(mem, "snake_case")  # FTS5 reads it as the phrase "snake case"
        assert len(found) == 2


def test_recall_is_the_same_from_memory_as_from_fts5(config: Config) -> None:
    texts = [f"{w} turn {i}" for i, w in enumerate(WORDS[:60])]
    with Memory(":memory:", config=config, embedder=None) as plain:
        plain.add_many(texts, namespace="ns")
        expected = [
            h.memory.content for h in plain.recall("hopeful formative falling", namespace="ns").hits
        ]
    with Memory(":memory:", config=_config(config), embedder=None) as mem:
        mem.add_many(texts, namespace="ns")
        got = [
            h.memory.content for h in mem.recall("hopeful formative falling", namespace="ns").hits
        ]
    assert got == expected and got


def test_scores_are_what_search_gives_and_exact_says_how(config: Config) -> None:
    with Memory(":memory:", config=_config(config), embedder=None) as mem:
        records = mem.add_many([*TEXTS, "nothing in common"], namespace="ns")
        match = '"beta" OR "alpha"'
        assert not mem.store.keyword.exact("ns")  # nothing built before the first search
        ranked = dict(mem.store.keyword.search("ns", match, 3))
        assert mem.store.keyword.exact("ns")
        everything = dict(mem.store.keyword.search("ns", match, 100))
        ids = [r.id for r in records]
        scored = mem.store.keyword.scores("ns", match, [*ids, "unknown"])
        assert scored == pytest.approx(everything)  # the unmatched memory is left out
        assert records[-1].id not in scored and set(ranked) <= set(scored)
        mem.delete(records[1].id, namespace="ns")
        assert records[1].id not in mem.store.keyword.scores("ns", match, ids)


def test_a_build_in_chunks_is_the_build_in_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from engram.store.sqlite import term_index

    docs = _corpus(300)
    whole = TermBlock(docs)
    monkeypatch.setattr(term_index, "BUILD_CHUNK", 7)
    chunked = TermBlock(docs)
    assert chunked.vocab.keys() == whole.vocab.keys()
    for term in whole.vocab:
        a, b = _postings(whole, term), _postings(chunked, term)
        assert a[0] == b[0]
        assert a[1] == pytest.approx(b[1])


def _postings(block: TermBlock, term: str) -> tuple[list[int], list[float]]:
    """Every posting of ``term`` (the build's, then the rows appended since)."""
    lists = block._lists(term)
    return [r for p in lists for r in p.rows.tolist()], [t for p in lists for t in p.tf.tolist()]


def test_the_plan_of_a_query_is_kept_until_the_block_changes() -> None:
    # Recall plans one query twice (its top few, then the other candidates' scores):
    # the second is the kept plan, and any append or removal plans afresh, so a row
    # written since is scored and a removed one is not.
    docs = [Doc(i, f"m{i}", (f"tea and cake {i}", None, None, None, None)) for i in range(1, 9)]
    block = TermBlock(docs)
    query = terms("tea")
    first = block._plan(query)
    assert block._plan(list(query)) is first
    block.append([Doc(20, "m20", ("tea tea tea", None, None, None, None))])
    assert block._plan(query) is not first
    [new_row] = block.live_rows(["m20"])[1].tolist()
    assert block.scores(query, [new_row])[0] > 0
    before = block._plan(query)
    block.remove(20)
    assert block._plan(query) is not before
    assert block.scores(query, [new_row]) == [0.0]


def test_ties_at_the_kth_score_go_to_the_oldest_rows() -> None:
    """Many memories score exactly the k-th score (one term, the same length): the
    oldest of them are the ones ranked, as ``scores`` over every row says, not those
    a partial sort happens to leave in front."""
    rng = random.Random(3)
    docs = [
        Doc(i + 1, f"m{i + 1}", (f"{word} {'filler ' * rng.randint(0, 4)}", None, None, None, None))
        for i, word in enumerate(["alpha", "beta", "gamma"] * 1000)
    ]
    block = TermBlock(docs[:2000])
    block.append(docs[2000:])
    got = block.top(["alpha"], 10)
    want = _exhaustive(block, ["alpha"], 10)
    assert [row for row, _ in got] == [row for row, _ in want]
    assert [score for _, score in got] == pytest.approx([score for _, score in want], rel=1e-6)
    assert len({score for _, score in got}) == 1
