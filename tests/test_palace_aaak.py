"""AAAK pointers, slugs and the mining rules, without a store (FEATURES G6, G7, G8)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from engram.errors import InvalidInputError
from engram.palace import aaak, mining
from engram.store.protocols.palace import Drawer


def test_a_pointer_parses_into_its_numbers_and_tags() -> None:
    found = aaak.parse("§ W-042/R-11/D-007 @p derek @t 2026-04-30")
    assert (found.wing, found.room, found.drawer) == (42, 11, 7)
    assert found.tags == (("p", "derek"), ("t", "2026-04-30"))
    assert aaak.parse("§W-1/R-2/D-3") == aaak.Pointer(1, 2, 3)
    assert aaak.parse("  §  W-0001/R-2/D-3  ").wing == 1


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("W-042/R-11/D-007", "not an AAAK pointer"),
        ("§ W-042/R-11", "not an AAAK pointer"),
        ("§ W-42/D-7/R-11", "not an AAAK pointer"),
        ("§ W-042/R-11/D-007 trailing words", "not an AAAK pointer"),
        ("§ W-000/R-11/D-007", "start at 1"),
        ("§ W-042/R-11/D-007 @x derek", "unknown AAAK tag @x"),
        (42, "must be a string"),
    ],
)
def test_a_malformed_pointer_says_what_is_wrong(text: object, says: str) -> None:
    with pytest.raises(InvalidInputError, match=says):
        aaak.parse(text)


def test_a_drawer_pointer_pads_its_numbers_and_round_trips() -> None:
    drawer = Drawer(
        1, "ns", 1, 42, 1, 11, 7, 0, "m", "user", ("@p derek", "@l lisbon"), datetime.now(UTC)
    )
    assert drawer.pointer == "§ W-042/R-11/D-007 @p derek @l lisbon"
    parsed = aaak.parse(drawer.pointer)
    assert (parsed.wing, parsed.room, parsed.drawer) == (42, 11, 7)
    big = Drawer(1, "ns", 1, 1234, 1, 5, 12345, 0, "m", None, (), datetime.now(UTC))
    assert big.pointer == "§ W-1234/R-05/D-12345"


def test_slugs_are_lowercase_ascii_with_hyphens() -> None:
    assert aaak.slugify("Dr. Alice Smith") == "dr-alice-smith"
    assert aaak.slugify("  alice   SMITH ") == "alice-smith"
    assert aaak.slugify("Zoë's café!") == "zoe-s-cafe"
    assert aaak.slugify("2026-04-30 evening") == "2026-04-30-evening"
    # A name with no ASCII letter still gets a stable slug of its own.
    assert aaak.slugify("東京") == aaak.slugify(" 東京 ")
    assert aaak.slugify("東京").startswith("x-")
    assert aaak.slugify("東京") != aaak.slugify("大阪")


def test_tags_are_slugged_deduplicated_capped_and_ordered() -> None:
    pairs = [("t", "May 2024"), ("p", "Derek"), ("p", "derek"), ("i", "efoil")]
    pairs += [("p", f"Person {n}") for n in range(5)]
    assert aaak.tags(pairs) == (
        "@p derek",
        "@p person-0",
        "@p person-1",
        "@i efoil",
        "@t may-2024",
    )


@pytest.mark.parametrize("count", [1, 7, 8, 10, 11, 16, 21, 25, 30, 31, 32, 57, 61, 100])
def test_windows_are_balanced_and_at_most_ten_turns(count: int) -> None:
    spans = mining.windows(count)
    assert [i for s in spans for i in s] == list(range(count))
    sizes = [len(s) for s in spans]
    assert max(sizes) <= mining.WINDOW_MAX
    assert max(sizes) - min(sizes) <= 1
    # seed 003's 8-10 whenever some number of windows allows it (31 turns cannot be).
    if any(8 * n <= count <= 10 * n for n in range(1, count + 1)):
        assert min(sizes) >= 8


def test_no_windows_for_no_turns() -> None:
    assert mining.windows(0) == []


def test_a_window_finds_people_places_items_times_and_a_topic() -> None:
    when = datetime(2026, 4, 30, 19, 0, tzinfo=UTC)
    turns = [
        mining.Turn("Derek", "I bought a new efoil board for the summer.", when),
        mining.Turn("assistant", "Which battery does the efoil board use?", when),
        mining.Turn("Derek", "I moved to Lisbon, the efoil battery came later.", when),
    ]
    window = mining.read_window(turns, range(3))
    assert window.topic == "efoil board"
    assert window.tags[0][0] == "@p derek"
    assert "@t 2026-04-30" in window.tags[0]
    assert "@l lisbon" in window.tags[2]
    assert not any(t.startswith("@p") for t in window.tags[1])  # "assistant" is a role
    assert window.entity_types["Lisbon"] == "location"
    assert any(t[1] == "moved_to" for t in window.triples[2])


def test_roles_are_not_people() -> None:
    assert mining.speaker("user") is None
    assert mining.speaker("Assistant") is None
    assert mining.speaker("caroline") is None  # lowercase: not read as a name
    assert mining.speaker("Caroline") == "Caroline"
