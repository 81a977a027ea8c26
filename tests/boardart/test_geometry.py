"""The shared board geometry: every place is drawn, labelled by its id, unclipped, joined."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest

from engine.bumpem import load_board as load_bumpem
from engine.tenfour import load_board as load_tenfour
from rig.datafiles import read_data
from rig.maker.boardart import BoardGeometry, board_geometry, piece_position
from rig.maker.boardart.geometry import Box, contains
from rig.maker.boardart.pillow import render_png
from rig.maker.boardart.svg import board_svg


def tenfour_board(text: str | None = None) -> Any:
    default, source = read_data("default:tenfour_board.toml", "engine.tenfour.data")
    return load_tenfour(text if text is not None else default, source)


def bumpem_board(text: str | None = None) -> Any:
    default, source = read_data("default:bumpem_board.toml", "engine.bumpem.data")
    return load_bumpem(text if text is not None else default, source)


def tenfour_places(board: Any) -> list[str]:
    """Every location a 10-Four piece can be at, as the engine names them."""
    return [*board.loop, *(f"side:{s}" for s in board.loop), "home", "park",
            *(t.id for t in board.traps), *(c.id for c in board.shortcuts),
            *(b.id for b in board.bears)]


def bumpem_places(board: Any) -> list[str]:
    places = [f"T{i + 1}" for i in range(board.track_length)]
    for colour in board.colours:
        places += [f"pit:{colour}", f"finish:{colour}"]
        places += [f"home:{colour}:{j}" for j in range(1, board.home_length + 1)]
    return places


def longer_red_route() -> str:
    text, _ = read_data("default:tenfour_board.toml", "engine.tenfour.data")
    extra = ", ".join(f'"R{n}"' for n in range(21, 25))
    return text.replace('"R19", "R20"]', f'"R19", "R20", {extra}]', 1)


def _drawn_tenfour(text: str | None = None) -> tuple[BoardGeometry, list[str]]:
    board = tenfour_board(text)
    return board_geometry("tenfour", board), tenfour_places(board)


def _drawn_bumpem() -> tuple[BoardGeometry, list[str]]:
    board = bumpem_board()
    return board_geometry("bumpem", board), bumpem_places(board)


BOARDS: dict[str, Callable[[], tuple[BoardGeometry, list[str]]]] = {
    "tenfour": _drawn_tenfour,
    "bumpem": _drawn_bumpem,
    "tenfour-edited": lambda: _drawn_tenfour(longer_red_route()),
}


@pytest.fixture(params=sorted(BOARDS))
def drawn(request: pytest.FixtureRequest) -> tuple[BoardGeometry, list[str]]:
    return BOARDS[request.param]()


def overlap(a: Box, b: Box, slack: float = 0.05) -> bool:
    return (a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack
            and b[1] < a[3] - slack)


def test_every_place_of_the_game_is_drawn(drawn: tuple[BoardGeometry, list[str]]) -> None:
    geometry, places = drawn
    assert sorted(geometry.by_id) == sorted(places)


def test_playing_spaces_are_labelled_with_their_board_ids() -> None:
    geometry = board_geometry("tenfour", tenfour_board())
    for ident in tenfour_board().loop:
        assert geometry.by_id[ident].labels[0].text == ident
    named = {"TR": "Bear Trap", "SC1": "short cut R16-G2", "AB": "Bear space on Blue",
             "park": "Yellowstone Park"}
    for ident, name in named.items():
        assert geometry.by_id[ident].labels[0].text == name
    bumpem = board_geometry("bumpem", bumpem_board())
    assert [bumpem.by_id[f"T{n}"].labels[0].text for n in (1, 35, 60)] == ["T1", "T35", "T60"]


def test_no_label_is_clipped_by_the_drawing(drawn: tuple[BoardGeometry, list[str]]) -> None:
    geometry, _ = drawn
    page = (0.0, 0.0, geometry.width, geometry.height)
    for label in geometry.all_labels():
        assert contains(page, label.box), label
    for space in geometry.spaces:
        assert contains(page, space.box), space.id


def test_labels_stay_inside_the_places_they_name(drawn: tuple[BoardGeometry, list[str]]) -> None:
    """"Finish" no longer spills out of its circle; ids fit their spaces (a circle's
    label must fit the square inscribed in it, with a little room)."""
    geometry, _ = drawn
    for space in geometry.spaces:
        if space.kind in ("shortcut", "bear"):
            continue  # their captions sit under the shape by design
        box = space.box
        if space.form == "circle":
            inset = space.w / 2 * (1 - 1 / math.sqrt(2)) * 0.6
            box = (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset)
        for label in space.labels:
            assert contains(box, label.box), (space.id, label.text)


def test_places_and_labels_do_not_overlap(drawn: tuple[BoardGeometry, list[str]]) -> None:
    geometry, _ = drawn
    boxes = [(s.id, s.box) for s in geometry.spaces]
    for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
        assert not overlap(box_a, box_b), (a, b)
    owned = {id(lb) for s in geometry.spaces for lb in s.labels}
    loose = [lb for lb in geometry.all_labels() if id(lb) not in owned]
    for label in loose:
        for ident, box in boxes:
            assert not overlap(label.box, box), (label.text, ident)


def test_home_stretches_are_joined_to_the_track() -> None:
    board = bumpem_board()
    geometry = board_geometry("bumpem", board)
    pitch = math.dist(*((geometry.by_id[t].x, geometry.by_id[t].y) for t in ("T1", "T2")))
    for colour in board.colours:
        chain = [f"T{board.entrance[colour] + 1}",
                 *(f"home:{colour}:{j}" for j in range(1, board.home_length + 1))]
        centres = [(geometry.by_id[p].x, geometry.by_id[p].y) for p in chain]
        for a, b in itertools.pairwise(centres):
            assert math.dist(a, b) == pytest.approx(pitch, abs=0.05)
        last = geometry.by_id[chain[-1]]
        goal = geometry.by_id[f"finish:{colour}"]
        assert math.dist((last.x, last.y), (goal.x, goal.y)) <= (last.w + goal.w) / 2 + 1.5
        assert len(goal.slots) >= board.cars_per_player


def test_piece_positions_lie_on_their_place_and_slots_differ(
        drawn: tuple[BoardGeometry, list[str]]) -> None:
    geometry, places = drawn
    for place in places:
        space = geometry.by_id[place]
        points = {piece_position(geometry, place, slot) for slot in range(len(space.slots))}
        assert len(points) == max(1, len(space.slots))
        for x, y in points:
            assert contains(space.box, (x, y, x, y)), place
    assert piece_position(geometry, places[0], 0) == piece_position(
        geometry, places[0], len(geometry.by_id[places[0]].slots))
    with pytest.raises(KeyError):
        piece_position(geometry, "nowhere")


def test_space_size_is_as_stated() -> None:
    geometry = board_geometry("tenfour", tenfour_board())
    r1, r2 = geometry.by_id["R1"], geometry.by_id["R2"]
    assert r1.w == pytest.approx(geometry.space_mm)
    assert math.dist((r1.x, r1.y), (r2.x, r2.y)) == pytest.approx(16.0)
    assert geometry.piece_mm < geometry.space_mm
    note = f"Spaces {geometry.space_mm:.0f} mm, 16 mm apart"
    assert any(lb.text.startswith(note) for lb in geometry.labels)


def test_an_edited_board_changes_the_drawing() -> None:
    before = board_geometry("tenfour", tenfour_board())
    after = board_geometry("tenfour", tenfour_board(longer_red_route()))
    assert "R24" in after.by_id and "R24" not in before.by_id
    assert after.width > before.width


def test_svg_names_every_location_in_millimetres(drawn: tuple[BoardGeometry, list[str]]) -> None:
    geometry, places = drawn
    root = ET.fromstring(board_svg(geometry))
    ns = "{http://www.w3.org/2000/svg}"
    box = [float(v) for v in root.get("viewBox", "").split()]
    assert box == pytest.approx([0, 0, geometry.width, geometry.height], abs=0.01)
    assert root.get("width", "").endswith("mm")
    groups = {g.get("data-location"): g for g in root.iter(f"{ns}g") if g.get("data-location")}
    for place in places:
        group = groups[place]
        assert group.get("id") == f"loc-{place}"
        assert float(group.get("data-x", "nan")) == pytest.approx(geometry.by_id[place].x,
                                                                   abs=0.01)
    texts = {t.text for t in root.iter(f"{ns}text")}
    assert {lb.text for s in geometry.spaces for lb in s.labels} <= texts


def test_png_is_the_geometry_at_scale() -> None:
    geometry = board_geometry("bumpem", bumpem_board())
    image = render_png(geometry, 2.0)
    assert image.size == (round(geometry.width * 2), round(geometry.height * 2))
    colours = {c for _, c in image.getcolors(1 << 20) or []}
    t5 = geometry.by_id["T5"]  # red's start: filled with red's light fill
    assert image.getpixel((round((t5.x - t5.w * 0.3) * 2), round(t5.y * 2))) == t5.fill
    assert t5.fill in colours
