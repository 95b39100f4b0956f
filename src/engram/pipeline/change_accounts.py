"""A customer's account slots in a support bot's notes (issue 28, FEATURES G2; dogfood
round fifteen).

A support bot writes what it learns about a customer as notes, and a change as a new
note: "Customer is on the Basic broadband plan." then "Customer upgraded from Basic to
the Fibre 500 plan", "Customer's delivery address is 14 Elm Row ..." then "Customer
moved house; new delivery address is ...". The account's slots hold one value at a
time: an address of each kind (delivery, billing, home, shipping), a plan of each kind
(plan, subscription, membership, tier, tariff, package), a payment method, a number of
seats. This module reads both halves:

- :func:`firsts`: the slot a plain note gives a value ("Customer subscribes to the
  Classic meal plan", "Customer was on the free Starter membership", "Billing address
  is 8 Rue Cler, Paris", "Customer pays by Visa card ending 1234", "Customer has 5
  seats"), recorded as ``(holder, slot, value)``;
- :func:`changes`: a note that gives a held slot a new value ("new delivery address is
  ...", "updated the billing address to ...", "switched from Classic to the Veggie
  plan", "changed the payment method to direct debit", "increased seats from 5 to 12"):
  the held relation or relations of that slot (one value read twice, "Fixed Saver 12"
  and "Fixed Saver") close and the new value is recorded on the same holder and slot.

Every guard is against a wrong close: a question, a trial, a quote, a price asked
about, a maybe, "also" or "second" (a second address kept), someone else's move ("the
customer's daughter moved to ...") close nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engram.pipeline.change_signals import HEDGE
from engram.pipeline.prefilter import gated
from engram.store.protocols.graph import Relation, canonical_name, canonical_relation

#: Confidence of a value read here: a reading of shape (``change_firsts.CONFIDENCE``).
CONFIDENCE = 0.7
#: The speaker's entity when a note names no holder (``closing.SPEAKER``).
SPEAKER = "user"

_HOLDER = r"(?P<holder>(?:the\s+)?(?:customer|client|account\s+holder|subscriber|member))"
_ADDRESS_KINDS = r"(?:delivery|billing|home|shipping|postal|mailing|service|installation)"
#: The words that head a plan-like slot: one of each kind holds at a time.
PLAN_HEADS = (
    "plan",
    "subscription",
    "membership",
    "tier",
    "tariff",
    "package",
    "bundle",
)
_HEAD = r"(?:plan|subscription|membership|tier|tariff|package|bundle)"
# A plan's name: up to five words before its head ("the Fibre 500 plan", "the free
# Starter membership", "the unlimited data plan").
_PLAN_VALUE = rf"(?P<value>(?:[\w.+&'-]+\s+){{0,5}}?{_HEAD})\b"
# An address: its first part ("14 Elm Row" of "14 Elm Row, Leeds LS6 2AB"), a flat's
# number with the street after it ("Flat 3, 88 Harbour Street").
_ADDRESS_VALUE = (
    r"(?P<value>(?:(?:flat|apt\.?|apartment|unit)\s+\w+,\s+)?[^,;()]+?)"
    # A sentence's full stop ends the value ("... is now 40 Quay Road." kept the stop).
    r"(?=\s*(?:[,;(]|\.?$|\s+after\b|\s+from\b))"
)
_PAYMENT_VALUE = (
    r"(?P<value>(?:[A-Z][\w-]*(?:\s+[A-Z][\w-]*)*(?:\s+(?:card|account))?(?:\s+ending\s+\d{2,4})?"
    r"|direct\s+debit|bank\s+transfer|cash|invoice|credit\s+card|debit\s+card))"
)

#: "Customer's delivery address is 14 Elm Row", "Billing address is 22 Rue des Lilas".
_FIRST_ADDRESS = re.compile(
    rf"^(?:{_HOLDER}(?:['’]s)?\s+)?(?P<kind>{_ADDRESS_KINDS}\s+)?address\s+is\s+{_ADDRESS_VALUE}",
    re.IGNORECASE,
)
#: "Customer is on the Basic plan", "Customer subscribes to the Classic meal plan",
#: "Customer has the Standard streaming plan", "Customer was on the free Explorer
#: membership".
_FIRST_PLAN = re.compile(
    rf"^{_HOLDER}\s+(?:is|was)?\s*(?:on|subscribes\s+to|subscribed\s+to|has)\s+(?:the|a|an)\s+{_PLAN_VALUE}",
    re.IGNORECASE,
)
#: "Customer pays by Visa card ending 1234", "Payment method is PayPal".
_FIRST_PAYMENT = re.compile(
    rf"^(?:{_HOLDER}(?:['’]s)?\s+)?(?:pays\s+(?:by|with|via)|payment\s+method\s+is|"
    # the speaker's own card: "I pay for most things with American Express"
    r"(?P<speaker>I|we)\s+pay(?:\s+for\s+(?:\w+\s+){0,2}?\w+)?\s+(?:by|with|via|using)(?:\s+my)?)"
    rf"\s+(?:(?:a|an|the)\s+)?{_PAYMENT_VALUE}",
    re.IGNORECASE,
)
#: "Customer has 5 seats on the Business plan".
_FIRST_SEATS = re.compile(rf"^{_HOLDER}\s+has\s+(?P<value>\d+)\s+seats\b", re.IGNORECASE)

#: A word of a change: a note with none of them changes no slot (read before the graph).
_CUE = gated(
    re.compile(
        r"\b(?:moved|relocated|new|updated|changed|switched|upgraded|downgraded|increased|"
        r"decreased|reduced|raised|replaced|now|from|nowadays|instead|these\s+days)\b",
        re.IGNORECASE,
    )
)
#: Not a change of the holder's own slot: a question, a trial, a quote, a price asked,
#: a maybe, a second value kept, someone else's move.
_NOT_CHANGED = re.compile(
    r"\?|\b(?:trial|quote[ds]?|quoted|asked|asks|asking|enquired|wants?\s+to|would|might|"
    r"maybe|may|considering|thinking|plans?\s+to|planning|if|also|second|another|"
    r"additional|extra|temporar\w*|revert\w*|cancelled\s+the\s+(?:upgrade|change)|"
    r"did\s+not|didn['’]t|declined|refused)\b|"
    r"\b(?:customer|client)['’]s\s+(?:son|daughter|wife|husband|partner|mother|father|"
    r"mum|mom|dad|brother|sister|friend|colleague|neighbou?r|family)\b",
    re.IGNORECASE,
)
#: "new delivery address is V", "updated the billing address to V", "Shipping address
#: changed to V", "moved house; new address: V".
_ADDRESS_CHANGED = re.compile(r"\b(?:new|moved|relocated|updated|changed|now)\b", re.I)
_NEW_ADDRESS = re.compile(
    # "is now" before "is": the value is what follows the change word, not "now 40 ...".
    rf"\b(?P<kind>{_ADDRESS_KINDS}\s+)?address\s+(?:is\s+now|changed\s+to|updated\s+to|is|"
    rf"to|:|now)\s+{_ADDRESS_VALUE}",
    re.IGNORECASE,
)
#: "switched from Classic to the Veggie plan", "upgraded to the Gold membership",
#: "moved to the Annual subscription", "Support plan upgraded to Gold".
_NEW_PLAN = re.compile(
    rf"\b(?:switched|upgraded|downgraded|moved|changed|changing|went)\b(?:\s+\w+){{0,4}}?"
    rf"(?:\s+from\s+(?:the\s+)?(?P<old>[\w.+&' -]+?))?\s+to\s+(?:the\s+|a\s+|an\s+)?{_PLAN_VALUE}",
    re.IGNORECASE,
)
_SLOT_PLAN = re.compile(
    rf"\b(?P<slot>(?:[\w-]+\s+)?{_HEAD})\s+(?:was\s+|has\s+been\s+)?"
    r"(?:upgraded|downgraded|changed|switched|moved)\s+(?:from\s+(?P<old>[\w.+&' -]+?)\s+)?"
    r"to\s+(?:the\s+)?(?P<value>[A-Z][\w.+&'-]*(?:\s+[A-Z0-9][\w.+&'-]*){0,2})",
)
_NEW_PAYMENT = re.compile(
    rf"\b(?:switched|changed|updated|moved)\s+(?:the\s+|her\s+|his\s+|their\s+)?"
    rf"(?:payment(?:\s+method)?|card)\s+(?:from\s+[^,;]+?\s+)?to\s+(?:(?:a|an|the)\s+)?"
    rf"{_PAYMENT_VALUE}",
    re.IGNORECASE,
)
#: The speaker's card said as the one used now: "I pay with a Monzo debit card now".
_NEW_OWN_PAYMENT = re.compile(
    r"(?i:\b(?:I|we)\s+(?:now\s+)?pay(?:\s+for\s+(?:\w+\s+){0,2}?\w+)?\s+(?:by|with|via|using)\s+"
    r"(?:(?:my|a|an|the)\s+)?)"
    # the value as written: a capitalised name ("a Monzo debit card" is Monzo)
    rf"{_PAYMENT_VALUE}",
)
_HOLDS_NOW = gated(re.compile(r"\b(?:now|these\s+days|nowadays|instead|from\s+now\s+on)\b", re.I))
_NEW_SEATS = re.compile(
    r"\b(?:increased|decreased|reduced|raised|changed|cut|went)\b[^.;]*?\bseats\s+"
    r"(?:from\s+(?P<old>\d+)\s+)?to\s+(?P<value>\d+)\b|"
    r"\bseats\s+(?:increased|decreased|reduced|raised|changed|went\s+(?:up|down))\s+"
    r"(?:from\s+(?P<old2>\d+)\s+)?to\s+(?P<value2>\d+)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class AccountChange:
    """What a note replaced: every held relation of one holder's slot, and its value."""

    old: tuple[Relation, ...]
    target: str


def _holder(found: dict[str, str | None]) -> str:
    holder = found.get("holder")
    if not holder:
        return SPEAKER
    words = holder.split()
    return " ".join(w for w in words if w.lower() != "the").capitalize()


def _plan_slot(value: str) -> str:
    return value.split()[-1].lower()


def firsts(text: str) -> list[tuple[str, str, str, float]]:
    """The ``(holder, slot, value, confidence)`` a plain account note names, or none
    (module docstring)."""
    if _ACCOUNT.search(text) is None:
        return []  # most memories: no slot of an account named
    sentence = " ".join(text.split())
    if _NOT_CHANGED.search(sentence) or HEDGE.search(sentence):
        return []
    match = _FIRST_ADDRESS.match(sentence)
    if match is not None:
        kind = (match["kind"] or "").strip().lower()
        slot = f"{kind}_address" if kind else "address"
        return [(_holder(match.groupdict()), slot, match["value"].strip(), CONFIDENCE)]
    match = _FIRST_PLAN.match(sentence)
    if match is not None:
        value = _plan_name(match["value"])
        return [(_holder(match.groupdict()), _plan_slot(value), value, CONFIDENCE)]
    match = _FIRST_PAYMENT.match(sentence)
    if match is not None:
        return [(_holder(match.groupdict()), "payment_method", match["value"], CONFIDENCE)]
    match = _FIRST_SEATS.match(sentence)
    if match is not None:
        return [(_holder(match.groupdict()), "seats", match["value"], CONFIDENCE)]
    return []


def _plan_name(value: str) -> str:
    """A plan's name without an article or "free" in front."""
    words = value.split()
    while len(words) > 1 and words[0].lower() in ("the", "a", "an", "free", "new"):
        words = words[1:]
    return " ".join(words)


#: A word of an account's slot: a note without one changes none.
_ACCOUNT = gated(re.compile(rf"\b(?:address|{_HEAD}s?|payment|pays?|card|seats)\b", re.IGNORECASE))


def cued(text: str) -> bool:
    """Whether ``text`` may change an account slot: a word of a slot and one of a change,
    and none of a look-alike (no graph read otherwise: 3 of LoCoMo dev's 2,760 turns;
    41 name a slot's word and are read by :func:`firsts`)."""
    return (
        _ACCOUNT.search(text) is not None
        and _CUE.search(text) is not None
        and _NOT_CHANGED.search(text) is None
    )


def changes(text: str, held: Sequence[Relation]) -> list[AccountChange]:
    """The held account slot ``text`` gives a new value, with that value (module
    docstring); none when the note changes no slot, or more than one holder's slot of
    that kind is held."""
    sentence = " ".join(text.split())
    if not cued(sentence) or HEDGE.search(sentence):
        return []
    match = _NEW_ADDRESS.search(sentence)
    if match is not None and re.search(
        r"\b(?:new|moved|relocated|updated|changed|now)\b", sentence, re.I
    ):
        kind = (match["kind"] or "").strip().lower()
        return _close(held, lambda r: _address_slot(r, kind), match["value"].strip())
    match = _SLOT_PLAN.search(sentence)
    if match is not None:
        slot = canonical_relation(match["slot"])
        return _close(held, lambda r: _named_slot(r, slot), match["value"], old=match["old"])
    match = _NEW_PLAN.search(sentence)
    if match is not None:
        value = _plan_name(match["value"])
        head = _plan_slot(value)
        return _close(held, lambda r: _plan_of(r, head), value, old=match["old"])
    match = _NEW_PAYMENT.search(sentence)
    if match is not None:
        return _close(held, _payment_of, match["value"])
    match = _NEW_OWN_PAYMENT.search(sentence)
    if match is not None and _HOLDS_NOW.search(sentence):
        return _close(held, _payment_of, match["value"])
    match = _NEW_SEATS.search(sentence)
    if match is not None:
        value = match["value"] or match["value2"]
        return _close(held, lambda r: canonical_relation(r.relation_type) == "seats", value)
    return []


def _close(
    held: Sequence[Relation],
    of_slot: Callable[[Relation], bool],
    value: str,
    *,
    old: str | None = None,
) -> list[AccountChange]:
    found = [r for r in held if of_slot(r) and _holds_account(r)]
    if old:
        named = [r for r in found if canonical_name(old) in canonical_name(r.target)]
        found = named or found
    slots = {(r.source_entity_id, r.relation_type) for r in found}
    if len(slots) != 1:
        return []
    new = canonical_name(value)
    if any(canonical_name(r.target) == new for r in found):
        return []  # the value held, said again
    source, relation_type = next(iter(slots))
    old_values = tuple(
        r for r in held if (r.source_entity_id, r.relation_type) == (source, relation_type)
    )
    return [AccountChange(old_values, value)]


def _holds_account(relation: Relation) -> bool:
    """Whether the relation's holder is the account's: the customer or the speaker."""
    return canonical_name(relation.source) in (
        "user",
        "customer",
        "client",
        "account holder",
        "subscriber",
        "member",
    )


def _address_slot(relation: Relation, kind: str) -> bool:
    name = canonical_relation(relation.relation_type)
    if not name.endswith("address") or "email" in name or "ip" in name.split("_"):
        return False
    return not kind or name in (f"{kind}_address", "address")


def _named_slot(relation: Relation, slot: str) -> bool:
    return canonical_relation(relation.relation_type) == slot


def _plan_of(relation: Relation, head: str) -> bool:
    name = canonical_relation(relation.relation_type)
    if name.endswith(f"_{head}") or name == head:
        return True
    target = canonical_name(relation.target).split()
    return name.startswith("uses") and bool(target) and target[-1] == head


def _payment_of(relation: Relation) -> bool:
    name = canonical_relation(relation.relation_type)
    return "payment" in name or name == "pays_by"
