"""Reading a PDF's text, page by page (``mem.documents.ingest`` of a ``.pdf`` file or of
a URL that answers ``application/pdf``).

The text of each page is extracted with pypdf and the pages are joined by a form feed
(:data:`PAGE_BREAK`, the page separator ``pdftotext`` writes too): that text is what the
document keeps as its content, so a retried job, or the chunker naming a chunk's pages
(``engram.pipeline.chunk_source``), reads the pages again without the PDF.

Whatever goes wrong inside pypdf (an encrypted file, a damaged one, a scan without a
text layer) becomes an ``InvalidInputError`` that says what was wrong and what to do,
never a pypdf traceback: the file comes from a user, and the parser's own exception
types (and the ``KeyError`` or ``ValueError`` a malformed object can raise deep inside
it) say nothing to them.
"""

from __future__ import annotations

import io
import logging

from engram.errors import InvalidInputError

#: The media type of a PDF (a document's ``content_type``; the URL fetcher accepts it).
PDF_TYPE = "application/pdf"
#: What separates two pages in a PDF document's text (as ``pdftotext`` writes it).
PAGE_BREAK = "\f"
#: Every PDF starts with this, within its first kilobyte (ISO 32000-1, 7.5.2 and its
#: implementation note: readers accept leading bytes before it).
_MAGIC = b"%PDF-"
_MAGIC_WINDOW = 1024
#: What to run on a scanned PDF to give it a text layer.
OCR_HINT = "run OCR first (ocrmypdf in.pdf out.pdf) and ingest the result"


def looks_like_pdf(data: bytes, name: str = "") -> bool:
    """True for a file named ``*.pdf`` or whose first kilobyte holds the PDF header."""
    return name.lower().endswith(".pdf") or _MAGIC in data[:_MAGIC_WINDOW]


def read_pdf(data: bytes, what: str) -> str:
    """The text of the PDF ``data``: each page's text, pages joined by
    :data:`PAGE_BREAK` (a page without text is an empty page, so page numbers hold).
    ``what`` names the file or URL in errors. ``InvalidInputError`` for a file that is
    not a readable PDF, an encrypted one, or one with no text at all (a scan)."""
    if _MAGIC not in data[:_MAGIC_WINDOW]:
        raise InvalidInputError(
            f"{what} is not a PDF (it does not start with %PDF-); "
            "if it is text, give it a .txt or .md name"
        )
    from pypdf import PdfReader  # here, not at import: only a PDF ingest needs it
    from pypdf.errors import DependencyError, FileNotDecryptedError

    # pypdf reports what it repairs in a damaged file through logging; the outcome
    # (text or one of the errors below) is what the caller hears.
    quiet = logging.getLogger("pypdf")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            raise FileNotDecryptedError("a password is needed")
        pages = [_page_text(page.extract_text()) for page in reader.pages]
    except FileNotDecryptedError:
        raise InvalidInputError(
            f"{what} is an encrypted PDF that needs a password; save an unencrypted copy "
            "(qpdf --decrypt --password=PASSWORD in.pdf out.pdf) and ingest that"
        ) from None
    except DependencyError:  # AES without the cryptography package
        raise InvalidInputError(
            f"{what} is an AES-encrypted PDF; save a decrypted copy "
            "(qpdf --decrypt in.pdf out.pdf) and ingest that"
        ) from None
    except Exception as exc:  # a damaged file can fail anywhere in pypdf
        raise InvalidInputError(
            f"{what} is damaged or not a PDF engram can read ({_why(exc)}); repair it "
            "(qpdf in.pdf out.pdf, or print it to a new PDF) and ingest that"
        ) from None
    finally:
        quiet.setLevel(level)
    if not any(page.strip() for page in pages):
        raise InvalidInputError(
            f"{what} has no text layer ({len(pages)} page{'s' if len(pages) != 1 else ''} "
            f"of images: a scan?); {OCR_HINT}"
        )
    return PAGE_BREAK.join(pages)


def _page_text(text: str) -> str:
    """A page's text with any form feed in it made a line break (it would split the page)
    and NULs dropped (no store keeps them in text)."""
    return text.replace(PAGE_BREAK, "\n").replace("\x00", "")


def _why(exc: BaseException) -> str:
    """A parser error in one short clause."""
    said = " ".join(str(exc).split())[:200]
    return said or type(exc).__name__
