"""Small real PDFs for the document tests, written byte by byte (PDF 1.4: a catalog, a
page tree, one Helvetica font, a content stream per page, a cross-reference table).

``pdf_bytes(["page one text", "page two text"])`` draws each page's lines with ``Tj``,
so any PDF reader extracts them; ``scanned_pdf`` draws only an image (a scan without a
text layer); ``encrypted_pdf`` encrypts one with a user password through pypdf's own
writer (RC4, which pypdf does without extra packages).
"""

from __future__ import annotations

import io
from collections.abc import Sequence


def _escaped(line: str) -> str:
    """A line as a PDF literal string's content."""
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _text_stream(text: str) -> bytes:
    ops = ["BT", "/F1 11 Tf", "14 TL", "72 760 Td"]
    for line in text.splitlines() or [""]:
        ops.append(f"({_escaped(line)}) Tj T*")
    ops.append("ET")
    return "\n".join(ops).encode("latin-1")


#: A page that only paints a 2x2 grey image: what a scanner makes, without OCR.
_IMAGE_STREAM = b"q 200 0 0 200 72 500 cm /Im1 Do Q"


def _document(streams: Sequence[bytes], image: bool = False) -> bytes:
    """A PDF with one page per content stream."""
    objects: list[bytes] = []
    count = len(streams)
    first_page = 4
    kids = " ".join(f"{first_page + 2 * i} 0 R" for i in range(count))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {count} >>".encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    image_ref = first_page + 2 * count
    for i, stream in enumerate(streams):
        resources = "/Font << /F1 3 0 R >>"
        if image:
            resources += f" /XObject << /Im1 {image_ref} 0 R >>"
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << {resources} >> /Contents {first_page + 2 * i + 1} 0 R >>".encode()
        )
        objects.append(f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream")
    if image:
        pixels = b"\x80\x40\x40\x80"
        objects.append(
            b"<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Length 4 >>\nstream\n" + pixels + b"\nendstream"
        )
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)


def pdf_bytes(pages: Sequence[str]) -> bytes:
    """A PDF whose pages hold these texts (a page's line breaks are its lines)."""
    return _document([_text_stream(page) for page in pages])


def scanned_pdf(pages: int = 2) -> bytes:
    """A PDF of ``pages`` pages that only show an image: no text to extract."""
    return _document([_IMAGE_STREAM] * pages, image=True)


def encrypted_pdf(pages: Sequence[str], password: str = "s3cret") -> bytes:
    """``pdf_bytes(pages)`` encrypted with a user password."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_bytes(pages))))
    writer.encrypt(user_password=password, owner_password=password, algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


#: Three pages of 150 characters each, a word on each that no other page has.
ROLLOUT_PAGES = [
    (f"Page {n} is about the {word} rollout; " + "filler text " * 20)[:150]
    for n, word in ((1, "falcon"), (2, "heron"), (3, "osprey"))
]
