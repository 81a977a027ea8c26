"""A board line may be drawn above the spaces (issue 45): a ladder or a chute joins two
spaces across the ones between, which would hide it if it were drawn under them."""

from __future__ import annotations

from rig.maker.boardart.geometry import FILL, INK, Line, Space, finish
from rig.maker.boardart.svg import board_svg


def _board(over: bool) -> str:
    spaces = [Space(str(n), "space", "yellow", "rect", n * 20.0, 0.0, 18.0, 18.0,
                    FILL["yellow"], INK["yellow"]) for n in range(3)]
    road = Line(((0.0, 0.0), (40.0, 0.0)), (1, 2, 3), 0.5)
    ladder = Line(((0.0, 0.0), (40.0, 0.0)), (40, 140, 40), 1.6, over=over)
    return board_svg(finish("test", "layers", 18.0, 6.0, spaces, [road, ladder], [], [],
                            (0.0, 30.0)))


def test_a_line_over_the_spaces_is_drawn_after_them_and_others_before() -> None:
    for over in (False, True):
        svg = _board(over)
        road, ladder = svg.index("#010203"), svg.index("#288c28")
        last_space = svg.index('data-location="2"')
        assert road < last_space, "a road is under the spaces"
        assert (ladder > last_space) is over, svg
