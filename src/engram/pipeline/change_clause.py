"""The clause of a change that states what holds (change reading round twelve).

A past state or a complaint said in a reason ("the renewal quote from Aviva was
ridiculous, so I went with Admiral") is no past state of the new value: the slot pass
(``change_slots``) and the named-change reading (``change_named``) read only the clause
that states the value. Its own module so that neither imports the other for it.
"""

from __future__ import annotations

import re

#: Where a reason ends and the statement begins ("X was too slow, so we use Y now"; "we
#: use Y now, since X was too slow"; "After months of moaning about how slow it was,
#: we dropped X").
_SO = re.compile(r"(?:,|;|\s-)?\s+(?:so|which\s+is\s+why|that['’]s\s+why)\s+|;\s+", re.I)
_BECAUSE = re.compile(r",?\s+(?:because|since|as)\s+", re.IGNORECASE)
_LEADING = re.compile(r"^(?:after|since|because|as|when|while|with)\b[^,]{3,80},\s+", re.I)


def stated(text: str) -> str:
    """The clause of ``text`` that states what holds, a reason said before or after it
    left out: a past state or a complaint in the reason ("the renewal quote from Aviva
    was ridiculous, so I went with Admiral") is no past state of the new value."""
    parts = _SO.split(text)
    main = parts[-1] if len(parts) > 1 else text
    main = _BECAUSE.split(main, maxsplit=1)[0]
    return _LEADING.sub("", main)
