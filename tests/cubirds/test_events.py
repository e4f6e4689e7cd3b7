"""The words of CuBirds' events and end labels (core.cubirds.events)."""

from __future__ import annotations

from core.cubirds.events import birds


def test_birds_counts_each_species_rarest_first_with_an_article_for_one() -> None:
    """The phrase groups cards by species in the table order of C1.1 (rarest first), whatever
    their order, and says "a"/"an" for a single bird."""
    assert birds([]) == "nothing"
    assert birds(["OW01"]) == "an Owl"
    assert birds(["RO03"]) == "a Robin"
    assert birds(["RO01", "OW02", "RO02", "OW01"]) == "2 Owls, 2 Robins"
    assert birds(["RW01", "FL01", "RO01", "RW02", "RW03"]) == "a Flamingo, 3 Reed Warblers, a Robin"
    assert birds([f"MA{i:02d}" for i in range(1, 18)]) == "17 Magpies"
