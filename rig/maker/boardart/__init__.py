"""One drawing of each board, shared by `cbrig board show`, `cbrig print` and the browser.

`board_geometry(game, board)` turns a loaded board into millimetre geometry
(`geometry.BoardGeometry`); `draw.draw_board` draws it through a small canvas protocol
with Pillow (`pillow.render_png`), SVG (`svg.board_svg`) and PDF (`pdf`) backends;
`piece_position` says where a piece at a location stands.
"""

from __future__ import annotations

from rig.maker.boardart.geometry import BoardGeometry, piece_position
from rig.registry import entry

__all__ = ["BoardGeometry", "board_geometry", "piece_position"]


def board_geometry(game: str, board: object) -> BoardGeometry:
    """The geometry of a loaded board of `game` (its registry entry's drawing), checked
    to be that game's board (``BoardTools.geometry_of``)."""

    tools = entry(game).board
    if tools is None:
        raise ValueError(f"no board drawing for game {game!r}")
    return tools().geometry_of(board)
