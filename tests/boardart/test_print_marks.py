"""The registration marks of a tiled board print over no word: not a space's name, not
the title, not the legend (Bump 'Em's Letter tile A2 had them on "Oil slick" and
"Turbo"). Read back from the PDF: poppler's word boxes against the marks' boxes."""

from __future__ import annotations

from pathlib import Path

import pytest

from rig.maker.boardart import board_geometry
from rig.maker.boardart.pdf import MARGIN_MM, PAPERS
from rig.maker.boardart.tiles import plan_tiles
from rig.maker.printout.board import MARK_RADIUS, mark_points
from tests.boardart.test_geometry import bumpem_board, tenfour_board
from tests.boardart.test_print import poppler, run_print, words  # noqa: F401 (a fixture)


@pytest.mark.parametrize("game", ["tenfour", "bumpem"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_mark_covers_a_word(game: str, paper: str, tmp_path: Path,
                               poppler: dict[str, str]) -> None:  # noqa: F811
    board = tenfour_board() if game == "tenfour" else bumpem_board()
    geometry = board_geometry(game, board)
    plan = plan_tiles(geometry, PAPERS[paper], MARGIN_MM)
    assert plan is not None and len(plan.tiles) > 1
    found = words(run_print(tmp_path, "board", "--game", game, "--paper", paper))
    reach = MARK_RADIUS * 1.6  # the cross's arms
    covered = []
    marks = 0
    for page, tile in enumerate(plan.tiles, start=1):  # page 0 is the overview
        on_page = [word for word in found if word.page == page]
        assert on_page
        left, top = tile.region[:2]
        for x, y in mark_points(tile, geometry):
            marks += 1
            px, py = MARGIN_MM + x - left, MARGIN_MM + y - top
            covered += [(tile.name, word.text) for word in on_page
                        if word.box[0] < px + reach and word.box[2] > px - reach
                        and word.box[1] < py + reach and word.box[3] > py - reach]
    assert marks >= 3 * len(plan.tiles)
    assert covered == [], f"{game} on {paper}: marks over {covered}"


@pytest.mark.parametrize("game", ["tenfour", "bumpem"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_mark_covers_a_legend_swatch(game: str, paper: str) -> None:
    from rig.maker.boardart.geometry import LEGEND_SWATCH, legend_swatch

    board = tenfour_board() if game == "tenfour" else bumpem_board()
    geometry = board_geometry(game, board)
    plan = plan_tiles(geometry, PAPERS[paper], MARGIN_MM)
    assert plan is not None
    reach = MARK_RADIUS * 1.6 + LEGEND_SWATCH / 2
    swatches = [legend_swatch(geometry, i) for i in range(len(geometry.legend))]
    assert swatches
    for tile in plan.tiles:
        for x, y in mark_points(tile, geometry):
            assert not any(abs(x - sx) < reach and abs(y - sy) < reach
                           for sx, sy in swatches), (game, paper, tile.name, (x, y))
