"""Document ingest (seed 004, FEATURES P11): the URL fetcher, HTML to text, the chunker
and the ``document_ingest`` job handler.

``mem.documents.ingest`` stores the document row and queues its job in one transaction;
the worker then runs ``ingest_document``, which walks the document through seed 004's
statuses:

- **extracting**: a URL is fetched (once: the body is kept in ``raw_content``, so a retry
  does not fetch again), only from public addresses unless the operator allows more
  (``engram.netguard``, ``engram.pipeline.pinned``: every redirect hop is checked, and
  a refusal fails the document at once); HTML becomes text (without its navigation,
  asides, header and footer) and its first ``<title>`` fills a missing title;
- **chunking**: the text is cut into ``[documents] chunk_size`` windows that share
  ``chunk_overlap`` characters; chunks already linked to the document (by content hash)
  are skipped, which also makes a retried job resume where it stopped;
- **embedding**: the chunks go through the library's raw-first write path
  (``engram.write.add_batch``) as memories of type ``document_chunk``, importance 0.3,
  tagged with the title: validated, scanned for injection, committed, then embedded
  outside the transaction. A chunk the scan blocks is skipped and reported;
- **indexing**: each chunk's memory is linked to the document with its index;
- **done**, or **failed** with the error once the job's last attempt fails (a refusal that
  no retry can change, such as an unsupported content type, fails at once).
"""

from __future__ import annotations

import mimetypes
import time
from collections.abc import Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from engram._version import __version__
from engram.core import Core
from engram.errors import ConfigError, InvalidInputError, StoreClosedError
from engram.netguard import STRICT, Resolver, UrlPolicy, lookup
from engram.pipeline.chunk_source import chunk_source, document_spans, page_map
from engram.pipeline.document_replace import replace_earlier
from engram.pipeline.handlers import register
from engram.pipeline.pdf import PDF_TYPE, read_pdf
from engram.pipeline.pinned import FetchError, check_url, open_url
from engram.records import ItemResult, MemoryType, Outcome, utcnow
from engram.store.protocols import Document, Job
from engram.text import normalize_content
from engram.write import add_batch

#: seed 004: a chunk memory's importance.
CHUNK_IMPORTANCE = 0.3
#: seed 004's URL fetcher accepts these media types (``text/`` covers every text type),
#: and PDF (read by ``engram.pipeline.pdf``).
ACCEPTED_TYPES = ("text/", "application/json", "application/xml", PDF_TYPE)
#: The media types whose content is HTML, turned into text before chunking.
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
#: Tags are titles cut to this length (the HTTP API's tag limit).
MAX_TAG_CHARS = 200

#: Elements whose text is not content: seed 004 strips ``<script>`` and ``<style>``
#: blocks entirely.
_SKIPPED = frozenset({"script", "style"})
#: Page chrome: navigation, asides and a page's own header and footer (a site's menu,
#: "© 2026 ...", links to other pages) say nothing of the page's content; their text is
#: dropped unless nothing else is left. A header or footer inside an ``<article>`` or
#: ``<main>`` is that content's own (a title, a byline) and is kept.
_CHROME = frozenset({"nav", "aside", "header", "footer"})
_SECTIONING = frozenset({"article", "main"})
_PAGE_LEVEL = frozenset({"header", "footer"})
#: ARIA roles that mark the same chrome on any element (``<div role="navigation">``).
_CHROME_ROLES = frozenset({"navigation", "banner", "contentinfo", "complementary", "search"})
#: Elements that never close (HTML's void elements): a role on one marks nothing.
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
     "track", "wbr"}
)  # fmt: skip
#: Elements that end a line, so words of adjacent blocks do not run together.
_BLOCKS = frozenset(
    {
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt",
        "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header",
        "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "td", "th", "tr",
        "ul",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class FetchResult:
    """What the URL fetcher returns (seed 004: content, contentType, title, byteLength)."""

    content: str
    """The text to chunk: for HTML, the page without tags, scripts and styles."""
    content_type: str
    """The response's media type, without parameters."""
    title: str | None
    """The first ``<title>`` of an HTML page."""
    byte_length: int
    """The body's size in bytes, as received."""
    raw: str
    """The body as received, decoded (what the document keeps as its source)."""


# -- HTML to text ------------------------------------------------------------------------
class _TextExtractor(HTMLParser):
    """Collects a page's text and its first title, skipping scripts and styles; the
    text outside page chrome (``_CHROME``) is kept apart from the whole."""

    def __init__(self) -> None:
        # convert_charrefs decodes every entity (&amp;, &#39;, &eacute; ...) in the text.
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        """The whole text, chrome included."""
        self.content: list[str] = []
        """The text outside page chrome."""
        self.title: str | None = None
        self._skipping = 0
        self._in_title = False
        self._title_parts: list[str] = []
        # The chrome elements open, innermost last: each its tag and how many elements
        # of that tag are open inside it (HTML does not say which </div> closes which).
        self._chrome: list[list[Any]] = []
        self._sectioning = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self._skipping += 1
        elif tag == "title":
            self._in_title = True
        elif tag in _BLOCKS:
            self._add("\n")
        if self._chrome and self._chrome[-1][0] == tag:
            self._chrome[-1][1] += 1
        elif self._is_chrome(tag, attrs):
            self._chrome.append([tag, 1])
        if tag in _SECTIONING:
            self._sectioning += 1

    def _is_chrome(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        if tag in _VOID or (tag in _PAGE_LEVEL and self._sectioning and not self._chrome):
            return False
        role = next((v for k, v in attrs if k == "role"), None) or ""
        return tag in _CHROME or role.strip().lower() in _CHROME_ROLES

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self._skipping = max(0, self._skipping - 1)
        elif tag == "title" and self._in_title:
            self._in_title = False
            if self.title is None:  # seed 004: the first <title> only
                self.title = " ".join("".join(self._title_parts).split()) or None
            self._title_parts = []
        elif tag in _BLOCKS:
            self._add("\n")
        if self._chrome and self._chrome[-1][0] == tag:
            self._chrome[-1][1] -= 1
            if not self._chrome[-1][1]:
                self._chrome.pop()
        if tag in _SECTIONING:
            self._sectioning = max(0, self._sectioning - 1)

    def handle_data(self, data: str) -> None:
        if self._skipping:
            return
        if self._in_title:
            self._title_parts.append(data)
        else:
            self._add(data)

    def _add(self, text: str) -> None:
        self.parts.append(text)
        if not self._chrome:
            self.content.append(text)


def html_to_text(html: str) -> tuple[str, str | None]:
    """A page's text and its first ``<title>`` (seed 004): ``<script>`` and ``<style>``
    blocks are dropped whole, page chrome too (``_CHROME``: the page's text is its
    content, unless that is empty), other tags removed, entities decoded, and whitespace
    collapsed to single spaces within lines and single newlines between blocks."""
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    return _lines(parser.content) or _lines(parser.parts), parser.title


def _lines(parts: list[str]) -> str:
    lines = (" ".join(line.split()) for line in "".join(parts).splitlines())
    return "\n".join(line for line in lines if line)


def media_type(content_type: str | None) -> str:
    """``text/html; charset=utf-8`` -> ``text/html``."""
    return (content_type or "").split(";", 1)[0].strip().lower()


def accepted(media: str) -> bool:
    """True for the media types seed 004's fetcher accepts."""
    return any(media.startswith(t) if t.endswith("/") else media == t for t in ACCEPTED_TYPES)


def extract(raw: str, content_type: str | None) -> tuple[str, str | None]:
    """The text to chunk from a document's content, and the title it names (HTML only)."""
    if media_type(content_type) in HTML_TYPES:
        return html_to_text(raw)
    return raw, None


def file_type(name: str) -> str:
    """The media type of a text file: what its suffix says when that is a type the
    fetcher accepts (so ``.html`` is read as HTML), else ``text/plain``."""
    guessed = media_type(mimetypes.guess_type(name)[0])
    return guessed if accepted(guessed) else "text/plain"


# -- the URL fetcher -----------------------------------------------------------------------
def fetch_url(
    url: str,
    *,
    timeout_s: float,
    max_bytes: int,
    policy: UrlPolicy = STRICT,
    resolve: Resolver = lookup,
) -> FetchResult:
    """Fetch a web page or text resource with seed 004's guards and issue 26's.

    Only public addresses are fetched unless ``policy`` (``[documents]
    allow_private_urls``, ``allowed_private_hosts``) allows more: every hop's host is
    resolved once and checked, and the connection goes to the checked address
    (``engram.pipeline.pinned``); ``UrlRefusedError`` otherwise. ``timeout_s`` bounds
    each network wait and the whole transfer, redirects included; a ``Content-Length``
    over ``max_bytes`` is refused before the body is read, and a running byte count
    stops the transfer as soon as it passes ``max_bytes`` (a server may omit the header
    or lie in it). Only ``text/*``, ``application/json`` and ``application/xml`` are
    accepted, and ``application/pdf``, whose pages' text is read (``InvalidInputError``
    for a PDF that cannot be). ``FetchError`` on any other failure.
    """
    import httpx  # here, not at import: see engram.llm.http

    url = check_url(url)
    deadline = time.monotonic() + timeout_s
    headers = {"User-Agent": f"engram/{__version__} (document ingest)"}
    # An explicit transport keeps proxies from the environment out: a proxy would
    # resolve the name itself, after the check. SSL_CERT_FILE is still honoured.
    transport = httpx.HTTPTransport()
    try:
        with (
            httpx.Client(timeout=timeout_s, transport=transport) as client,
            open_url(client, url, policy, headers=headers, resolve=resolve) as (url, response),
        ):
            status = response.status_code
            if status >= 400:
                # 5xx and 429 may pass; any other error status will not.
                raise FetchError(
                    f"{url} answered HTTP {status}", retryable=status >= 500 or status == 429
                )
            media = media_type(response.headers.get("content-type"))
            if not accepted(media):
                raise FetchError(
                    f"{url} has content type {media or 'none'!r}; engram ingests text/html, "
                    "text/*, application/json, application/xml and application/pdf",
                    retryable=False,
                )
            declared = response.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > max_bytes:
                raise FetchError(_too_large(url, int(declared), max_bytes), retryable=False)
            body = bytearray()
            for piece in response.iter_bytes():
                body += piece
                if len(body) > max_bytes:
                    raise FetchError(_too_large(url, len(body), max_bytes), retryable=False)
                if time.monotonic() > deadline:
                    raise FetchError(_timed_out(url, timeout_s), retryable=True)
            encoding = response.charset_encoding or "utf-8"
    except httpx.TimeoutException as exc:
        raise FetchError(_timed_out(url, timeout_s), retryable=True) from exc
    except OSError as exc:  # the name did not resolve (DNS may recover)
        raise FetchError(f"fetching {url} failed: {exc}", retryable=True) from exc
    except httpx.HTTPError as exc:
        raise FetchError(f"fetching {url} failed: {exc}", retryable=True) from exc
    return _decoded(url, bytes(body), encoding, media)


def _decoded(url: str, body: bytes, encoding: str, media: str) -> FetchResult:
    if media == PDF_TYPE:  # its pages' text; a PDF that cannot be read fails at once
        text = read_pdf(body, url)
        return FetchResult(text, media, None, len(body), text)
    try:
        raw = body.decode(encoding, errors="replace")
    except LookupError:  # a charset Python does not know
        raw = body.decode("utf-8", errors="replace")
    if "\x00" in raw:
        raise FetchError(f"{url} sent NUL bytes: it is not text", retryable=False)
    text, title = extract(raw, media)
    return FetchResult(text, media, title, len(body), raw)


def _too_large(url: str, size: int, limit: int) -> str:
    return (
        f"{url} is over the size limit ({size:,} > {limit:,} bytes, [documents] max_content_bytes)"
    )


def _timed_out(url: str, timeout_s: float) -> str:
    return f"fetching {url} timed out after {timeout_s:g} s ([documents] fetch_timeout_s)"


# -- the job handler -----------------------------------------------------------------------
def ingest_document(core: Core, job: Job) -> Mapping[str, Any]:
    """The ``document_ingest`` handler: extract, chunk, store and link a document.

    An error the next attempt may not hit is raised again for the worker to retry; the
    document is marked ``failed`` when this was the job's last attempt. A refusal no
    retry can change fails the document at once and completes the job."""
    store = core.store.documents
    if job.document_id is None:
        raise InvalidInputError(f"job {job.id} names no document")
    document = store.get(job.namespace, job.document_id)
    if document is None:  # deleted since it was queued: nothing to do
        return {"document_id": job.document_id, "status": "missing"}
    try:
        return _ingest(core, job, document)
    except StoreClosedError:
        raise  # the Memory closed under the job: nothing can be recorded
    except (InvalidInputError, ConfigError) as exc:
        return _failed(core, document, exc)
    except FetchError as exc:
        if not exc.retryable:
            return _failed(core, document, exc)
        _record_attempt(core, job, document, exc)
        raise
    except Exception as exc:
        _record_attempt(core, job, document, exc)
        raise


def _failed(core: Core, document: Document, exc: Exception) -> dict[str, Any]:
    core.store.documents.set_status(document.id, "failed", error=str(exc), now=utcnow())
    return {"document_id": document.id, "status": "failed", "error": str(exc)}


def _record_attempt(core: Core, job: Job, document: Document, exc: Exception) -> None:
    """Keep a failed attempt's error on the document; on the last attempt (seed 004: the
    worker's retry limit) the document is ``failed``."""
    current = core.store.documents.get(document.namespace, document.id) or document
    last = job.attempts >= job.max_attempts
    status = "failed" if last else current.status
    core.store.documents.set_status(document.id, status, error=str(exc), now=utcnow())


def _ingest(core: Core, job: Job, document: Document) -> dict[str, Any]:
    store = core.store.documents
    cfg = core.config.documents
    store.set_status(document.id, "extracting", now=utcnow())
    raw = store.raw_content(document.namespace, document.id)
    if raw is None:  # a URL not fetched yet
        if document.source is None:
            raise InvalidInputError(f"document {document.id} has neither content nor a URL")
        fetched = fetch_url(
            document.source,
            timeout_s=cfg.fetch_timeout_s,
            max_bytes=cfg.max_content_bytes,
            policy=cfg.url_policy(),
        )
        document = store.set_extracted(
            document.id,
            raw_content=fetched.raw,
            content_type=fetched.content_type,
            byte_length=fetched.byte_length,
            title=fetched.title,
            now=utcnow(),
        )
        text = fetched.content
    else:
        text, title = extract(raw, document.content_type)
        if title is not None and document.title is None:
            document = store.set_extracted(document.id, title=title, now=utcnow())

    store.set_status(document.id, "chunking", now=utcnow())
    # Chunks are cut from the whitespace-collapsed text, so each stored chunk is its
    # window (without the space a cut may leave at either edge: a memory keeps its
    # content as given, and a window's edge is the cut's, not the author's); never
    # longer than a memory may be.
    flat = normalize_content(text).storage
    if not flat:
        raise InvalidInputError("the document holds no text to index")
    size = min(cfg.chunk_size, core.config.max_content_chars)
    pages = page_map(document, text)  # a PDF's: its chunks are cut page by page
    chunks = document_spans(flat, pages, size, cfg.chunk_overlap)
    linked = {c.content_hash for c in store.chunks(document.id)}
    pending: list[tuple[int, str, dict[str, Any]]] = []
    repeated = 0
    for index, (begin, window) in enumerate(chunks):
        chunk = window.strip()
        digest = normalize_content(chunk).content_hash
        if digest in linked:  # seed 004: dedup against the document's own chunks
            repeated += 1
            continue
        linked.add(digest)
        span = pages.of_window(window, begin) if pages else None
        pending.append((index, chunk, chunk_source(document, span)))

    store.set_status(document.id, "embedding", now=utcnow())
    batch = add_batch(
        core,
        [_chunk_item(document, job, *chunk) for chunk in pending],
        namespace=document.namespace,
        on_blocked="skip",
        on_invalid="skip",
        enqueue=False,  # chunks are indexed whole: no extraction or hints
    )

    store.set_status(document.id, "indexing", now=utcnow())
    links: list[tuple[int, str]] = []
    refused: list[dict[str, Any]] = []
    for (index, _, _), item in zip(pending, batch.items, strict=True):
        if item.record is not None:
            links.append((index, item.record.id))
        else:
            refused.append({"chunk_index": index, "outcome": item.outcome.value, **_why(item)})
    count = store.link(document.id, links, now=utcnow())
    document = store.set_status(document.id, "done", now=utcnow())
    replaced = replace_earlier(core, document)
    return {
        "document_id": document.id,
        "status": "done",
        "chunks": len(chunks),
        "chunk_count": count,
        "stored": sum(1 for i in batch.items if i.outcome is Outcome.STORED),
        "existing": sum(1 for i in batch.items if i.outcome is Outcome.DUPLICATE),
        "repeated": repeated,
        "refused": refused,
        "replaced": replaced,
    }


def _chunk_item(
    document: Document, job: Job, index: int, chunk: str, source: Mapping[str, Any]
) -> dict[str, Any]:
    """One chunk as an item of ``add_batch``, in the scope the document was ingested in;
    ``source`` (``chunk_source``) names the document and a PDF chunk's pages."""
    scope = {k: job.payload.get(k) for k in ("user_id", "agent_id", "run_id")}
    return {
        "content": chunk,
        "type": MemoryType.DOCUMENT_CHUNK.value,
        "importance": CHUNK_IMPORTANCE,
        "tags": [document.title[:MAX_TAG_CHARS]] if document.title else None,
        "document_id": document.id,
        "metadata": {"document_id": document.id, "chunk_index": index, **source},
        **scope,
    }


def _why(item: ItemResult) -> dict[str, Any]:
    return {"reason": item.reason, "reasons": list(item.reasons)}


register("document_ingest", ingest_document)
