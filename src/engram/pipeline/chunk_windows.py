"""Where a document is cut into chunks (seed 004's documentChunkSize windows, sharing
documentChunkOverlap characters), at word boundaries: the job handler cuts with it and
``chunk_source.relocated`` finds a window again with it."""

from __future__ import annotations

from engram.errors import ConfigError


def chunk_text(text: str, size: int, overlap: int) -> list[str]:
    """The windows of ``chunk_spans``, without their offsets."""
    return [window for _, window in chunk_spans(text, size, overlap)]


def chunk_spans(text: str, size: int, overlap: int) -> list[tuple[int, str]]:
    """Cut ``text`` into windows of at most ``size`` characters, each with the offset
    it starts at; a text of at most ``size`` characters is one chunk (seed 004). A
    window ends at the last space inside it and the next starts at the start of a word,
    at least ``overlap`` characters before that end, so no chunk begins or ends inside a
    word (a word longer than what is left of the window is cut where it must be); the
    last window ends at the end of the text."""
    if size < 1 or not 0 <= overlap < size:
        raise ConfigError(
            f"[documents] chunk_overlap ({overlap}) must be smaller than chunk_size ({size})"
        )
    if len(text) <= size:
        return [(0, text)] if text else []
    spans: list[tuple[int, str]] = []
    begin = 0
    while True:
        end = begin + size
        if end >= len(text):
            spans.append((begin, text[begin:]))
            return spans
        if not text[end].isspace():  # the window would end inside a word
            cut = text.rfind(" ", begin + 1, end)
            end = cut if cut > begin else end
        spans.append((begin, text[begin:end]))
        following = end - overlap if end - overlap > begin else end
        if not text[following - 1].isspace():  # it would start inside a word
            space = text.rfind(" ", begin + 1, following)
            if space > begin:
                following = space + 1
            elif text[end].isspace():  # one word up to the cut: start at the next one
                following = end
        if following < len(text) and text[following].isspace():  # past the cut's space
            following += 1
        if following >= len(text):  # only that space was left
            return spans
        begin = following
