"""A file's text for ``mem.documents.ingest``: read from a path on this machine, or from
bytes a caller already holds (an upload, or what ``engram.client`` read on the caller's
machine and sent over HTTP).

Both go through :func:`file_text`, so a PDF, a UTF-16 note or a ZIP saved as ``.txt`` is
read, or refused, with the same words whichever way it arrived.
"""

from __future__ import annotations

from pathlib import Path, PurePath

from engram.errors import ContentTooLargeError, EmptyContentError, InvalidInputError, shown
from engram.pipeline.documents import file_type
from engram.pipeline.pdf import PDF_TYPE, looks_like_pdf, read_pdf
from engram.validate import no_nul

#: Longest file name accepted with bytes (a path's last part is at most 255 bytes on
#: common file systems; a name is a label, not a path, so this is generous).
MAX_FILENAME_CHARS = 1024


def one_source(**sources: object) -> None:
    """Refuse a call that passes not exactly one of ``sources`` (``text``, ``path``,
    ``data``, ``url``...), or a ``filename`` without ``data``: ``mem.documents.ingest``
    and ``engram.client``'s say it in the same words."""
    filename = sources.pop("filename", None)
    passed = [name for name, value in sources.items() if value is not None]
    if len(passed) != 1:
        raise InvalidInputError(
            f"pass exactly one of {', '.join(list(sources)[:-1])} or {list(sources)[-1]}"
            + (f" (got {', '.join(passed)})" if passed else "")
        )
    if filename is not None and sources.get("data") is None:
        raise InvalidInputError(
            "filename names the bytes passed as data; a path names itself, and a text "
            "is labelled by its title"
        )


def over(size: int, limit: int, what: str = "the document") -> str:
    """The message for a document over ``[documents] max_content_bytes``."""
    return f"{what} is {size:,} bytes, over the limit of {limit:,} ([documents] max_content_bytes)"


def read_path(path: Path, limit: int) -> tuple[str, str]:
    """The text and media type of the file at ``path`` (see :func:`file_text`), the
    file within the size limit."""
    try:
        if path.is_dir():
            raise InvalidInputError(
                f"{path} is a directory: ingest takes one file; ingest each file in it "
                '(for f in DIR/*.md; do engram ingest "$f"; done)'
            )
        if not path.is_file():
            raise InvalidInputError(f"no file at {path}")
        size = path.stat().st_size
        if size > limit:
            raise ContentTooLargeError(over(size, limit))
        data = path.read_bytes()
    except OSError as exc:
        raise InvalidInputError(f"cannot read {path}: {exc.strerror or exc}") from None
    return file_text(data, path.name, str(path), limit)


def read_bytes(data: object, filename: object, limit: int) -> tuple[str, str, str | None]:
    """The text, media type and cleaned name of a file given as ``data`` (bytes) with an
    optional ``filename``: the name picks how it is read (``.pdf``, ``.html``...) and
    labels its chunks; a name with directories keeps only its last part (it is the
    caller's machine's)."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise InvalidInputError(f"data must be bytes (a file's content), got {shown(data)}")
    name = _filename(filename)
    blob = bytes(data)
    if len(blob) > limit:
        raise ContentTooLargeError(over(len(blob), limit))
    what = name or "the uploaded file"
    text, content_type = file_text(blob, name or "", what, limit)
    return text, content_type, name


def _filename(filename: object) -> str | None:
    if filename is None:
        return None
    if not isinstance(filename, str) or len(filename) > MAX_FILENAME_CHARS:
        raise InvalidInputError(
            f"filename is a file's name, e.g. 'paper.pdf' (at most {MAX_FILENAME_CHARS} "
            f"characters), got {shown(filename)}"
        )
    no_nul("filename", filename)
    # Either separator: a Windows caller's "C:\\notes\\a.md" names a.md here too.
    name = " ".join(PurePath(filename.replace("\\", "/")).name.split())
    if name in ("", ".", ".."):
        raise InvalidInputError(
            f"filename {shown(filename)} has no name in it; pass the file's name, e.g. 'paper.pdf'"
        )
    return name


def file_text(data: bytes, name: str, what: str, limit: int) -> tuple[str, str]:
    """A file's text and media type: a PDF's pages' text (``engram.pipeline.pdf``), or
    a text file's content, UTF-8 (a BOM dropped) or the UTF-16/32 its BOM names. ``name``
    is the file's name (its suffix decides the type), ``what`` names it in errors."""
    if looks_like_pdf(data, name):
        text = read_pdf(data, what)
        size = len(text.encode("utf-8"))
        if size > limit:  # a compressed PDF can hold more text than its own size
            raise ContentTooLargeError(over(size, limit, f"the text of {what}"))
        return text, PDF_TYPE
    text = _decoded(what, data)
    if "\x00" in text:
        raise InvalidInputError(f"{what} holds NUL bytes: it is not a text file")
    if not text.strip():
        raise EmptyContentError(f"{what} is empty")
    return text, file_type(name)


#: Byte-order marks that say how a text file is encoded (UTF-32's first: its
#: little-endian mark begins with UTF-16's). Python's codec of each drops the mark.
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def _decoded(what: str, data: bytes) -> str:
    """A file's text: UTF-8 (a BOM dropped), or the UTF-16/32 its byte-order mark names
    (Windows tools save text so). Anything else is refused saying what the file looks
    like and how to get text engram reads: encodings are not guessed."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError:
                raise InvalidInputError(
                    f"{what} starts with a {codec.upper()} byte-order mark but is not valid "
                    f"{codec.upper()} text; save it again as UTF-8 and ingest that"
                ) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    if data.startswith(b"PK\x03\x04"):
        said = (
            "is a ZIP archive (a .docx, .xlsx, .odt or .zip); save it as text, or convert it "
            "(pandoc FILE -t plain -o FILE.txt), and ingest that"
        )
    elif b"\x00" in data:
        said = "is a binary file (it holds NUL bytes), not a UTF-8 text file"
    else:
        said = (
            "is not UTF-8 text (perhaps Latin-1 or Windows-1252); convert it "
            "(iconv -f WINDOWS-1252 -t UTF-8 FILE > FILE.utf8.txt) and ingest that"
        )
    raise InvalidInputError(
        f"{what} {said}. engram ingests PDF, UTF-8 text, Markdown, HTML, JSON and XML files"
    )
