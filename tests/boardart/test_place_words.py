"""The printed board names Bump 'Em's places in the screen's words (RULINGS G4: places
are named as the printed board shows them): a home-stretch square reads "HOME STRETCH 3"
where the screen says "home stretch 3", not "H3"."""

from __future__ import annotations

from engine.bumpem.names import position_name
from rig.maker.boardart import board_geometry
from tests.boardart.test_geometry import bumpem_board


def _reads(space: object) -> str:
    """The words on a space, top to bottom, as a person reads them."""
    labels = sorted(space.labels, key=lambda label: label.y)  # type: ignore[attr-defined]
    return " ".join(label.text for label in labels).lower()


def test_off_track_places_print_the_screens_words() -> None:
    geometry = board_geometry("bumpem", bumpem_board())
    off_track = [space for space in geometry.spaces if not space.id.startswith("T")]
    homes = [space for space in off_track if space.id.startswith("home:")]
    assert homes and len(off_track) > len(homes)
    for space in off_track:
        assert _reads(space) == position_name(space.id), space.id
    assert _reads(homes[2]) == "home stretch 3"


def test_track_spaces_print_their_name_first() -> None:
    geometry = board_geometry("bumpem", bumpem_board())
    for space in geometry.spaces:
        if space.id.startswith("T"):
            assert _reads(space).split()[0] == position_name(space.id).lower()
