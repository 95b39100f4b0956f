"""Change verbs by meaning (issue 28, FEATURES G2): one table of the verbs that say a
value moved or an amount went up or down, and their inflections, so every rule that
reads a kind of change reads all of its verbs the same way.

- **moving** (``MOVING``): a subject or what it uses goes somewhere else ("we moved
  billing to Postgres", "Leo transferred to St Andrews", "the review got shifted to
  Wednesdays"); the object after "to / onto / over to" is the new value;
- **raising** (``RAISING``): someone sets an amount of an owner ("the landlord raised
  my rent to $1650", "we bumped the grocery budget to 450 dollars"); the owner's
  attribute is the object, the amount after "to" the value;
- **rising** (``RISING``): an amount moves by itself ("our mortgage rate dropped to 3.6
  percent", "the price rose to 42 pounds"); the subject is the attribute;
- **happening** (``HAPPENING``): when a thing takes place, in the present ("book club
  meets on Sundays", "the nightly backup runs at 3am"), as "is at / is on" says it;
  the time or day after "at / on" is the value.

A verb states a change in its past forms (simple past and participle). Present forms
are read only for the moving verbs the rules always read in the present ("we switch
to", "the team moves to"); the "-ing" form never is: "we're moving to Lisbon" is a
plan, which the hedge words leave alone anyway.
"""

from __future__ import annotations

#: (past forms, present forms read too) per moving verb.
MOVING: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("switched",), ("switch", "switches")),
    (("moved",), ("move", "moves")),
    (("migrated",), ("migrate", "migrates")),
    (("changed",), ()),
    (("transitioned",), ()),
    (("upgraded",), ()),
    (("downgraded",), ()),
    (("ported",), ("port",)),
    (("converted",), ("convert",)),
    (("relocated",), ("relocate",)),
    (("shifted",), ("shift",)),
    (("transferred",), ()),
)
#: Past forms of the verbs that set an owner's amount.
RAISING = ("raised", "increased", "bumped", "hiked", "lowered", "cut", "reduced", "upped")
#: Past forms of the verbs an amount moves by itself with ("went up" as one verb).
RISING = (
    "rose", "risen", "fell", "fallen", "dropped", "climbed", "jumped", "increased",
    "decreased", "went up", "went down", "gone up", "gone down", "crept up",
)  # fmt: skip


#: Present forms that say when a thing takes place.
HAPPENING = (
    "is", "are", "meets", "meet", "runs", "run", "happens", "happen", "starts", "start",
    "takes place", "take place", "is held", "are held", "goes out", "go out",
)  # fmt: skip


def alternation(forms: tuple[str, ...]) -> str:
    """A regex alternation of ``forms`` (longest first), spaces as ``\\s+``."""
    ordered = sorted(set(forms), key=len, reverse=True)
    return "(?:" + "|".join(f.replace(" ", r"\s+") for f in ordered) + ")"


def moving_forms() -> tuple[str, ...]:
    """Every form of a moving verb the rules read."""
    return tuple(form for past, present in MOVING for form in (*past, *present))


def words(forms: tuple[str, ...]) -> tuple[str, ...]:
    """The words a clause must hold for one of ``forms`` to match (the quick test in
    front of each rule), padded so "cut" is not "cute"."""
    return tuple(f" {form} " if len(form) <= 4 else form for form in forms)
