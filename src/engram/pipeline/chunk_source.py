"""Where a document chunk came from: the name of its document's file (or URL, or the
title of a text) and, for a PDF, the pages its window spans.

A PDF is cut page by page (``document_spans``): a page shorter than a chunk is a chunk
of its own and a longer one is cut inside as any text, so a chunk's label names the
one page that holds it; a page with less text than the chunks' overlap (a title, a
page number alone) joins the page after it, the one case where a label names two.

A chunk memory carries both in its metadata (``source`` and ``pages``, the keys
``engram.recall.format`` reads), written when the chunk is stored, so recall renders
``(from paper.pdf, pp. 1-2)`` without reading the document back; when a removed
document's chunk moves to another document that holds the same text, they are written
again from that document (``relocated``).

Pages are counted in the whitespace-collapsed text the chunker cuts: each page's text
collapsed on its own, the pages joined by one space, is exactly
``normalize_content(text).storage`` (a form feed is whitespace to ``str.split``), so an
offset into what the chunker cut is an offset into the page map.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from engram.core import Core
from engram.pipeline.chunk_windows import chunk_spans
from engram.pipeline.pdf import PAGE_BREAK, PDF_TYPE
from engram.recall.format import PAGES_KEY, SOURCE_KEY
from engram.records import MemoryRecord
from engram.store.protocols import Document

#: A source name is cut to this many characters (a long URL's query string says little).
MAX_NAME_CHARS = 200


def source_name(document: Document) -> str | None:
    """How a chunk names its document: a file's name (not its directory: the path is
    the user's machine's), a URL whole, a text's title; None for an untitled text."""
    if document.source_type == "file" and document.source:
        name = PurePath(document.source).name or document.source
    elif document.source_type == "url" and document.source:
        name = document.source
    else:
        name = document.title or ""
    name = " ".join(name.split())
    if len(name) > MAX_NAME_CHARS:
        name = name[: MAX_NAME_CHARS - 1] + "…"
    return name or None


@dataclass(frozen=True, slots=True)
class PageMap:
    """Where each page with text starts in the collapsed text."""

    starts: Sequence[int]
    """Offsets, ascending: where each page's collapsed text begins."""
    numbers: Sequence[int]
    """The page number (from 1) of each start."""

    @classmethod
    def of(cls, text: str) -> PageMap:
        """The map of a PDF document's text (pages joined by ``PAGE_BREAK``)."""
        starts: list[int] = []
        numbers: list[int] = []
        at = 0
        for number, page in enumerate(text.split(PAGE_BREAK), start=1):
            flat = " ".join(page.split())
            if flat:  # a page without text adds nothing to the collapsed text
                starts.append(at)
                numbers.append(number)
                at += len(flat) + 1
        return cls(starts, numbers)

    def span(self, begin: int, end: int) -> tuple[int, int] | None:
        """The first and last page of the collapsed text's ``[begin, end)``."""
        if not self.starts or end <= begin:
            return None
        first = max(0, bisect_right(self.starts, begin) - 1)
        last = max(first, bisect_left(self.starts, end) - 1)
        return self.numbers[first], self.numbers[last]

    def of_window(self, window: str, begin: int) -> tuple[int, int] | None:
        """The pages of the chunker's ``window`` cut at ``begin``, without the spaces
        at its edges (which the stored chunk drops too: a window that starts on the
        space between two pages starts on the second)."""
        lead = len(window) - len(window.lstrip())
        return self.span(begin + lead, begin + len(window.rstrip()))


def document_spans(
    flat: str, pages: PageMap | None, size: int, overlap: int
) -> list[tuple[int, str]]:
    """The chunker's windows of a document's collapsed text ``flat``, each with its
    offset: ``chunk_spans`` of the whole text, or for a PDF (``pages``) of each page
    on its own, so no window crosses a page break (a page shorter than ``overlap``
    characters is cut with the page after it: it would make a chunk of a few words)."""
    if pages is None or not pages.starts:
        return chunk_spans(flat, size, overlap)
    ends = [*pages.starts[1:], len(flat) + 1]  # each page ends one space before the next
    spans: list[tuple[int, str]] = []
    begin = pages.starts[0]
    for end in ends:
        if end - 1 - begin < overlap and end <= len(flat):  # too short: join the next
            continue
        spans.extend((begin + at, w) for at, w in chunk_spans(flat[begin : end - 1], size, overlap))
        begin = end
    return spans


def page_map(document: Document, text: str) -> PageMap | None:
    """The page map of a PDF document's text; None for any other document."""
    return PageMap.of(text) if document.content_type == PDF_TYPE else None


def chunk_source(document: Document, pages: tuple[int, int] | None) -> dict[str, Any]:
    """The metadata a chunk of ``document`` carries to say where it came from."""
    name = source_name(document)
    out: dict[str, Any] = {}
    if name is not None:
        out[SOURCE_KEY] = name
    if pages is not None:
        out[PAGES_KEY] = list(pages)
    return out


def relocated(core: Core, record: MemoryRecord, heir: str, index: int) -> dict[str, Any]:
    """``record``'s metadata once it is chunk ``index`` of document ``heir``: the
    document id, index, name and pages are the heir's (pages found by where the chunk's
    text is in the heir's text: the same window may sit on other pages of an edited
    PDF)."""
    base = {k: v for k, v in record.metadata.items() if k not in (SOURCE_KEY, PAGES_KEY)}
    moved = {**base, "document_id": heir, "chunk_index": index}
    document = core.store.documents.get(record.namespace, heir)
    if document is None:
        return moved
    pages = None
    text = core.store.documents.raw_content(record.namespace, heir)
    found = page_map(document, text or "")
    if found is not None and text is not None:
        flat = " ".join(text.split())
        # Where the chunker cut window ``index`` (the same settings cut both), else the
        # first place the text is: a window of boilerplate may repeat on other pages.
        cfg = core.config.documents
        size = min(cfg.chunk_size, core.config.max_content_chars)
        spans = document_spans(flat, found, size, cfg.chunk_overlap)
        cut = spans[index][0] if index < len(spans) else 0
        at = flat.find(record.content, cut)
        if at - cut not in (0, 1):  # a stored chunk drops the window's leading space
            at = flat.find(record.content)
        if at >= 0:
            pages = found.span(at, at + len(record.content))
    return {**moved, **chunk_source(document, pages)}
