"""Content normalisation (seed 004), keywords (seed 000) and FTS5 query safety."""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engram import Config, InvalidInputError, Memory
from engram import text as text_module
from engram.store.sqlite import SQLiteStore
from engram.text import MAX_KEYWORDS, estimate_tokens, fts_query, keywords, normalize_content
from engram.validate import build_record


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# -- seed 004: normalizeAndHashContent ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "storage", "normalized"),
    [
        ("Hello  world.", "Hello world.", "hello world"),
        ("  Hello\t\n world  ", "Hello world", "hello world"),
        ("Ends with many?!.;:", "Ends with many?!.;:", "ends with many"),
        ("Inner, punctuation. stays", "Inner, punctuation. stays", "inner, punctuation. stays"),
        ("Trailing quote.'", "Trailing quote.'", "trailing quote.'"),  # only [.,!?;:] strip
        ("ÜBER Café", "ÜBER Café", "über café"),
        ("a\u00a0b\u2003c", "a b c", "a b c"),  # unicode whitespace collapses too
        ("", "", ""),
    ],
)
def test_normalize_content(text: str, storage: str, normalized: str) -> None:
    n = normalize_content(text)
    assert n.storage == storage
    assert n.normalized == normalized
    assert n.content_hash == sha(normalized if normalized else storage.lower())
    assert len(n.content_hash) == 64


def test_storage_keeps_casing_hash_ignores_it() -> None:
    a, b = normalize_content("Hello  world."), normalize_content("hello world")
    assert a.storage == "Hello world."
    assert b.storage == "hello world"
    assert a.content_hash == b.content_hash == sha("hello world")


def test_hash_distinguishes_real_differences() -> None:
    assert normalize_content("hello world").content_hash != (
        normalize_content("hello, world").content_hash
    )
    assert normalize_content("hello world").content_hash != (
        normalize_content("hello worlds").content_hash
    )


@pytest.mark.parametrize("text", ["!!!", " ... ", "?;:", "!"])
def test_empty_normalized_falls_back_to_lowercased_storage(text: str) -> None:
    n = normalize_content(text)
    assert n.normalized == ""
    assert n.content_hash == sha(n.storage.lower())
    assert n.content_hash != sha("")


def test_punctuation_only_contents_stay_distinct() -> None:
    assert normalize_content("!!!").content_hash != normalize_content("???").content_hash


# -- keywords (seed 000: non-stopword terms, up to 8, deduped, in order) ---------------


def test_keywords_drop_stopwords_and_keep_order() -> None:
    assert keywords("What is the staging database called?") == ["staging", "database", "called"]


def test_keywords_dedup_case_insensitively() -> None:
    assert keywords("Deploy deploy DEPLOY script Script") == ["deploy", "script"]


def test_keywords_cap_at_eight() -> None:
    text = "one two three four five six seven eight nine ten"
    assert MAX_KEYWORDS == 8
    assert keywords(text) == ["one", "two", "three", "four", "five", "six", "seven", "eight"]
    assert keywords(text, limit=3) == ["one", "two", "three"]


def test_keywords_dedup_before_cap() -> None:
    text = "alpha alpha alpha alpha alpha alpha alpha alpha alpha beta"
    assert keywords(text) == ["alpha", "beta"]


def test_keywords_single_chars_and_digits() -> None:
    assert keywords("a b c 7 x 2024 v2") == ["7", "2024", "v2"]


def test_keywords_only_stopwords() -> None:
    assert keywords("what is the and of it") == []
    assert fts_query("what is the and of it") is None
    assert fts_query("") is None
    assert fts_query("!!! ... ---") is None


def test_keywords_fold_unicode() -> None:
    assert keywords("ＦＵＬＬＷＩＤＴＨ Café") == ["fullwidth", "café"]


def test_fts_query_quotes_every_term() -> None:
    assert fts_query('deploy "script" NEAR(ops)') == '"deploy" OR "script" OR "near" OR "ops"'


def test_estimate_tokens() -> None:
    assert estimate_tokens("") == 1
    assert estimate_tokens("abcd") == 1
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens("x" * 400) == 100


# -- FTS5 query safety against a real store -------------------------------------------

HOSTILE = [
    '"',
    '""',
    '"unbalanced quote',
    'say "hello',
    "deploy*",
    "*",
    "NEAR",
    "NEAR(deploy script)",
    "NEAR(deploy script, 2)",
    "deploy - script",
    "-deploy",
    "a - b",
    "(deploy OR",
    "((()))",
    ")",
    "deploy AND script",
    "deploy OR",
    "NOT deploy",
    "AND OR NOT",
    "content:deploy",
    "title:anything",
    "col:term",
    "{content title}: deploy",
    "^deploy",
    "deploy^",
    "+deploy",
    "deploy;DROP TABLE memories;--",
    "'; DELETE FROM memories; --",
    "\\",
    "deploy\x00script",
    "日本語 デプロイ",
    "emoji 🚀 deploy",
    "İstanbul ǅ ß",
    "\u200b\u200d",
    "   ",
    "a_b _ __init__",
    "x" * 5000,
]


@pytest.fixture(scope="module")
def kw_mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """Keyword-only memory shared by the read-only query tests of this module."""
    config = Config.load(env={}, home=str(tmp_path_factory.mktemp("home")))
    with Memory(":memory:", config=config, embedder=None) as m:
        m.add("The deploy script lives in ops/deploy.sh")
        m.add("Alice likes green tea")
        m.add("NEAR the river there is a cabin", tags=["content:title"])
        m.add("日本語 デプロイ の メモ")
        yield m


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries_never_raise(kw_mem: Memory, query: str) -> None:
    """No hostile query breaks the keyword search or recall; one holding a NUL is refused
    by recall with the writes' message, as nothing with a NUL can be stored."""
    store = kw_mem.store
    match = fts_query(query)
    if match is not None:
        found = store.keyword.search("default", match, 10)
        live = {r.id for r in kw_mem.get_all()}
        assert {memory_id for memory_id, _ in found} <= live
        assert all(score >= 0 for _, score in found)
    if "\x00" in query:
        with pytest.raises(InvalidInputError, match="NUL character"):
            kw_mem.recall(query, limit=10)
    elif query.strip():
        recall = kw_mem.recall(query, limit=10)
        assert recall.mode.value in ("keyword", "recent")
        assert len(recall.hits) <= 10
    assert len(kw_mem.get_all()) == 4  # nothing was dropped or deleted


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("NEAR(deploy script)", "The deploy script lives in ops/deploy.sh"),
        ('"unbalanced deploy', "The deploy script lives in ops/deploy.sh"),
        ("deploy*", "The deploy script lives in ops/deploy.sh"),
        ("content:tea", "Alice likes green tea"),
        ("-tea", "Alice likes green tea"),  # "-" is not NOT: the term still matches
        ("NOT tea", "Alice likes green tea"),
        ("^alice", "Alice likes green tea"),
        ("river AND cabin", "NEAR the river there is a cabin"),
        ("日本語", "日本語 デプロイ の メモ"),
    ],
)
def test_operators_are_plain_words(kw_mem: Memory, query: str, expected: str) -> None:
    hits = kw_mem.search(query)
    assert hits, query
    assert hits[0].memory.content == expected


def test_keyword_search_is_namespace_scoped(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=None) as mem:
        mem.add("The deploy script lives in ops/deploy.sh")
        mem.add("The deploy script for team b", namespace="b")
        match = fts_query("deploy")
        assert match is not None
        a_ids = {i for i, _ in mem.store.keyword.search("default", match, 10)}
        b_ids = {i for i, _ in mem.store.keyword.search("b", match, 10)}
        assert len(a_ids) == 1 and len(b_ids) == 1 and not a_ids & b_ids


def test_any_text_never_breaks_keyword_search() -> None:
    store = SQLiteStore(":memory:")
    store.memories.insert([build_record("some stored text", namespace="default", max_chars=1000)])

    @settings(max_examples=200, deadline=None)
    @given(st.text(max_size=200))
    def check(text: str) -> None:
        match = fts_query(text)
        if match is not None:
            assert len(store.keyword.search("default", match, 5)) <= 1

    try:
        check()
    finally:
        store.close()


def test_any_text_round_trips_through_memory(tmp_path: Path) -> None:
    # Arbitrary text can look like an injection (bidi controls, say): "flag" stores it
    # marked instead of refusing, so every input exercises the storage path.
    config = Config.load(env={}, home=str(tmp_path), injection_mode="flag")
    namespaces = itertools.count()
    with Memory(":memory:", config=config, embedder=None) as mem:

        @settings(max_examples=50, deadline=None)
        @given(st.text(min_size=1, max_size=200))
        def check(text: str) -> None:
            storage = normalize_content(text).storage
            if not storage:
                return
            ns = f"ns{next(namespaces)}"
            if "\x00" in text:
                # NUL is refused on every backend; nothing is stored.
                with pytest.raises(InvalidInputError, match="NUL character"):
                    mem.add(text, namespace=ns)
                assert mem.get_all(namespace=ns) == []
                return
            record = mem.add(text, namespace=ns)
            stored = mem.get(record.id, namespace=ns)
            assert stored.content == text  # exactly as given (issue 26)
            assert stored.content_hash == normalize_content(text).content_hash
            recall = mem.recall(text, namespace=ns, limit=3)
            assert [h.id for h in recall.hits] in ([], [record.id])

        check()


_SPACES = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())


@pytest.mark.parametrize(
    "text",
    [
        f"  a{_SPACES}b {_SPACES}",
        "Done!?.\n",
        "Done.\n.",
        "a.b..\t;:",
        "...",
        " \u00a0Mixed\u2028Lines\u3000Here!! ",
        "İSTANBUL ſtraße. ",
        "",
    ],
)
def test_normalize_content_matches_the_seed_patterns(text: str) -> None:
    """The string methods give what seed 004's two patterns give."""
    storage = text_module._WHITESPACE.sub(" ", text).strip()
    normalized = text_module._TRAILING_PUNCT.sub("", storage.lower())
    n = normalize_content(text)
    assert (n.storage, n.normalized) == (storage, normalized)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(f"aZ.,!?;:\n\t {_SPACES[:40]}İſß")))
def test_normalize_content_matches_the_seed_patterns_on_any_text(text: str) -> None:
    test_normalize_content_matches_the_seed_patterns(text)
