"""Document ingest's pure steps: the chunker's windows, HTML to text, URL and file checks
(seed 004's "Document Ingest" and "URL Fetcher")."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engram.errors import ConfigError, InvalidInputError
from engram.pipeline.chunk_windows import chunk_spans, chunk_text
from engram.pipeline.documents import (
    accepted,
    check_url,
    extract,
    file_type,
    html_to_text,
)


# -- chunking -----------------------------------------------------------------------------
def test_windows_are_exact_and_overlap_by_the_configured_amount() -> None:
    text = "".join(chr(ord("a") + i % 26) for i in range(2500))
    chunks = chunk_text(text, 2000, 200)  # seed 004's defaults
    assert chunks == [text[0:2000], text[1800:2500]]
    assert chunks[0][-200:] == chunks[1][:200]


def test_the_last_window_ends_at_the_end_of_the_text() -> None:
    text = "0123456789" * 3  # 30 characters
    assert chunk_text(text, 10, 3) == [text[0:10], text[7:17], text[14:24], text[21:30]]


def test_a_text_that_fills_a_window_exactly_is_not_followed_by_a_sliver() -> None:
    text = "x" * 17
    assert chunk_text(text, 10, 3) == ["x" * 10, "x" * 10]


@pytest.mark.parametrize("length", [1, 199, 200])
def test_a_document_shorter_than_one_chunk_is_not_split(length: int) -> None:
    text = "y" * length
    assert chunk_text(text, 200, 20) == [text]


def test_no_overlap_tiles_the_text() -> None:
    assert chunk_text("abcdefghij", 4, 0) == ["abcd", "efgh", "ij"]


def test_empty_text_has_no_chunks() -> None:
    assert chunk_text("", 200, 20) == []


@pytest.mark.parametrize(("size", "overlap"), [(200, 200), (200, 500), (200, -1), (0, 0)])
def test_an_overlap_as_wide_as_the_window_is_a_config_error(size: int, overlap: int) -> None:
    with pytest.raises(ConfigError, match="chunk_overlap"):
        chunk_text("z" * 1000, size, overlap)


@given(
    text=st.text(alphabet="ab ", min_size=0, max_size=400),
    size=st.integers(min_value=1, max_value=60),
    overlap_ratio=st.floats(min_value=0.0, max_value=0.95),
)
def test_chunks_cover_the_text_in_order(text: str, size: int, overlap_ratio: float) -> None:
    overlap = min(size - 1, int(size * overlap_ratio))
    spans = chunk_spans(text, size, overlap)
    assert all(text[b : b + len(w)] == w and len(w) <= size for b, w in spans)
    # In order, each window starting inside the one before or past a space after it,
    # the last ending at the end of the text (or a space before it): no word is left out.
    ends = [b + len(w) for b, w in spans]
    assert [b for b, _ in spans[:1]] == ([0] if text else [])
    assert all(spans[i][0] > spans[i - 1][0] for i in range(1, len(spans)))
    assert all(not text[ends[i - 1] : spans[i][0]].strip() for i in range(1, len(spans)))
    assert not text[ends[-1] :].strip() if spans else not text


def _words_whole(text: str, size: int, overlap: int) -> None:
    for begin, window in chunk_spans(text, size, overlap):
        end = begin + len(window)
        assert begin == 0 or text[begin - 1] == " ", window
        assert end == len(text) or text[end] == " " or window.endswith(" "), window


def test_no_chunk_begins_or_ends_inside_a_word() -> None:
    # A contract's clause cut by seed 004's windows began "y giving fifteen working
    # days' notice" (round twenty-two): a window ends at its last space, the next
    # starts at a word.
    words = [f"w{i % 97}" + "x" * (i % 7) for i in range(900)]
    text = " ".join(words)
    spans = chunk_spans(text, 2000, 200)
    assert len(spans) > 2
    _words_whole(text, 2000, 200)
    for (b0, w0), (b1, _) in zip(spans, spans[1:], strict=False):
        assert b0 + len(w0) - b1 >= 200  # at least the configured overlap
        assert len(w0) <= 2000


@given(
    words=st.lists(st.text(alphabet="abc", min_size=1, max_size=8), min_size=1, max_size=80),
    size=st.integers(min_value=10, max_value=60),
    overlap_ratio=st.floats(min_value=0.0, max_value=0.5),
)
def test_words_shorter_than_the_window_are_never_cut(
    words: list[str], size: int, overlap_ratio: float
) -> None:
    _words_whole(" ".join(words), size, int(size * overlap_ratio))


# -- HTML to text -------------------------------------------------------------------------
PAGE = """<!doctype html>
<html><head>
  <title>  Deploy   runbook &amp; notes </title>
  <style>body { color: red } .x:after { content: "<b>styled</b>" }</style>
  <script>var s = "</div><p>not content</p>"; alert(1 < 2);</script>
</head>
<body>
  <h1>Deploys</h1>
  <p>Freeze on <b>Fri</b>days &mdash; no exceptions.</p>
  <!-- a comment <p>hidden</p> -->
  <ul><li>caf&eacute; &lt;staging&gt;</li><li>&#8364;5 &quot;budget&quot;</li></ul>
  <SCRIPT type="module">document.write("also gone")</SCRIPT>
  <svg><title>icon title</title></svg>
</body></html>"""


def test_html_keeps_the_text_and_the_first_title() -> None:
    text, title = html_to_text(PAGE)
    assert title == "Deploy runbook & notes"
    assert text.splitlines() == [
        "Deploys",
        "Freeze on Fridays \u2014 no exceptions.",
        "caf\u00e9 <staging>",
        '\u20ac5 "budget"',
    ]


def test_scripts_styles_and_comments_leave_nothing_behind() -> None:
    text, _ = html_to_text(PAGE)
    for gone in ("alert", "not content", "color", "styled", "hidden", "also gone", "icon"):
        assert gone not in text


def test_html_without_a_title_has_none() -> None:
    assert html_to_text("<p>just text</p>") == ("just text", None)


def test_an_unclosed_script_swallows_the_rest_not_the_text_before() -> None:
    assert html_to_text("<p>kept</p><script>var x = 1; <p>lost") == ("kept", None)


def test_extract_only_parses_html() -> None:
    assert extract("<b>not html</b>", "text/plain") == ("<b>not html</b>", None)
    assert extract("<title>T</title><b>bold</b>", "text/html; charset=utf-8") == ("bold", "T")


# -- types, URLs and files ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("media", "ok"),
    [
        ("text/html", True),
        ("text/plain", True),
        ("text/markdown", True),
        ("application/json", True),
        ("application/xml", True),
        ("application/pdf", True),  # read by engram.pipeline.pdf
        ("image/png", False),
        ("application/octet-stream", False),
        ("application/jsonx", False),
        ("", False),
    ],
)
def test_accepted_content_types_follow_the_seed(media: str, ok: bool) -> None:
    assert accepted(media) is ok


@pytest.mark.parametrize(
    "url", ["http://example.org/a", "https://example.org:8443/x?y=1#z", "HTTP://EXAMPLE.ORG"]
)
def test_http_and_https_urls_pass(url: str) -> None:
    assert check_url(f"  {url} ") == url


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("file:///etc/passwd", "only http and https"),
        ("ftp://example.org/f", "only http and https"),
        ("javascript:alert(1)", "only http and https"),
        ("example.org/page", "only http and https"),
        ("http:///nohost", "has no host"),
        ("http://[::1", "malformed"),
        ("", "non-empty"),
        ("http://example.org/\x00", "NUL"),
        ("http://example.org/" + "a" * 9000, "over 8192"),
    ],
)
def test_other_urls_are_refused(url: str, message: str) -> None:
    with pytest.raises(InvalidInputError, match=message):
        check_url(url)


@pytest.mark.parametrize(
    ("name", "media"),
    [
        ("page.html", "text/html"),
        ("table.csv", "text/csv"),
        ("data.json", "application/json"),
        ("README", "text/plain"),
        ("config.yaml", "text/plain"),
        ("archive.tar.gz", "text/plain"),
    ],
)
def test_a_file_is_html_when_its_suffix_says_so_else_text(name: str, media: str) -> None:
    assert file_type(name) == media


#: A news site's article page as sites write them: a header with the logo and a menu, a
#: breadcrumb trail, the article (its own header and footer), a sidebar, a cookie banner
#: marked by its role, and the site's footer.
SITE_PAGE = """<!DOCTYPE html>
<html lang="en"><head><title>Harbour wall repairs start in May | Portsea Gazette</title></head>
<body>
<header class="site-header">
  <a href="/"><img src="/logo.png" alt="Portsea Gazette"> Portsea Gazette</a>
  <nav><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li>
  <li><a href="/subscribe">Subscribe</a></li></ul></nav>
</header>
<nav aria-label="Breadcrumb"><a href="/">Home</a> &rsaquo; <a href="/news">News</a></nav>
<main>
  <article>
    <header><h1>Harbour wall repairs start in May</h1>
      <p class="byline">By Ana Ribeiro, 2 December 2026</p></header>
    <p>Work on the eastern harbour wall begins on 4 May and lasts eleven weeks.</p>
    <div class="share" role="navigation"><div><a href="#">Share</a></div>
      <div><a href="#">Email this story</a></div></div>
    <p>The council says the slipway stays open to fishing boats throughout.</p>
    <footer><p>Corrections: the first version gave the wrong start date.</p></footer>
  </article>
  <aside><h2>Most read</h2><ol><li>Ferry timetable changes</li></ol></aside>
</main>
<div role="contentinfo" class="cookies">We use cookies. <input role="search"> Accept all</div>
<footer><p>&copy; 2026 Portsea Gazette Ltd. All rights reserved.</p>
  <nav><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></nav></footer>
</body></html>"""


def test_page_chrome_is_dropped_and_the_article_kept() -> None:
    text, title = html_to_text(SITE_PAGE)
    assert title == "Harbour wall repairs start in May | Portsea Gazette"
    assert text.splitlines() == [
        "Harbour wall repairs start in May",
        "By Ana Ribeiro, 2 December 2026",
        "Work on the eastern harbour wall begins on 4 May and lasts eleven weeks.",
        "The council says the slipway stays open to fishing boats throughout.",
        "Corrections: the first version gave the wrong start date.",
    ]


def test_a_page_of_nothing_but_chrome_keeps_its_text() -> None:
    page = "<header><h1>Opening hours</h1></header><footer>Mon-Fri 9-17</footer>"
    assert html_to_text(page) == ("Opening hours\nMon-Fri 9-17", None)
    assert html_to_text("<nav>Home</nav><p>Body</p><nav>Next</nav>") == ("Body", None)
