"""The Ladders board: its file read and checked (every mistake with its line and field),
summarised, and drawn: squares in rows, each ladder and chute a line drawn ABOVE the
squares it joins (``Line(..., over=True)``), which the squares would otherwise hide."""

from __future__ import annotations

from cbrig.game import (
    BLACK,
    FILL,
    INK,
    BoardGeometry,
    BoardTools,
    Checker,
    DataError,
    Frozen,
    Label,
    LegendEntry,
    Line,
    Space,
    finish,
    grid_slots,
    parse_toml,
    piece_mm,
)

PITCH_MM = 20.0
LADDER = (40, 140, 40)
CHUTE = (200, 60, 40)


class Jump(Frozen):
    start: int
    end: int


class Board(Frozen):
    name: str
    squares: int
    per_row: int
    ladders: tuple[Jump, ...]
    chutes: tuple[Jump, ...]

    def jump(self, square: int) -> tuple[str, int] | None:
        """("ladder" or "chute", where it ends) for a runner landing on `square`."""
        for kind, jumps in (("ladder", self.ladders), ("chute", self.chutes)):
            for jump in jumps:
                if jump.start == square:
                    return kind, jump.end
        return None


def load_board(text: str, source: str) -> Board:
    """The board, or DataError naming every mistake with its line and field."""
    data, locator = parse_toml(text, source)
    check = Checker(source, locator)
    squares = check.require(data, "squares", int, "squares")
    per_row = check.require(data, "per_row", int, "per_row")
    if isinstance(squares, int) and not 6 <= squares <= 100:
        check.fail("6 to 100 squares", "squares")
        squares = None
    if isinstance(per_row, int) and not 2 <= per_row <= 12:
        check.fail("2 to 12 squares a row", "per_row")
    jumps: dict[str, list[Jump]] = {"ladder": [], "chute": []}
    starts: set[int] = set()
    for kind, (start, end) in (("ladder", ("foot", "top")), ("chute", ("top", "foot"))):
        items = data.get(kind, [])
        if not isinstance(items, list):
            check.fail("a list of [[" + kind + "]] tables", kind)
            continue
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                check.fail("a table", kind, index)
                continue
            ends = [check.require(item, key, int, kind, index, key) for key in (start, end)]
            if not all(isinstance(value, int) for value in ends) or squares is None:
                continue
            first, last = int(ends[0]), int(ends[1])  # type: ignore[arg-type]
            up = last > first
            if not (min(first, last) > 0 and max(first, last) < squares) \
                    or up != (kind == "ladder") or first == last:
                check.fail(f"its squares are 1 to {squares - 1}, {kind} going "
                           f"{'up' if kind == 'ladder' else 'down'}", kind, index)
            elif first in starts:
                check.fail(f"square {first} starts another ladder or chute", kind, index,
                           start)
            else:
                starts.add(first)
                jumps[kind].append(Jump(first, last))
    if check.problems:
        raise DataError(check.problems)
    assert isinstance(squares, int) and isinstance(per_row, int)
    return Board(str(data.get("name", "Ladders")), squares, per_row, tuple(jumps["ladder"]),
                 tuple(jumps["chute"]))


def summary(board: Board) -> list[str]:
    return [board.name, f"{board.squares} squares, {board.per_row} a row, "
            f"{len(board.ladders)} ladders, {len(board.chutes)} chutes"]


def centre(board: Board, square: int) -> tuple[float, float]:
    """Where square `square` is drawn: rows back and forth, START at the bottom left."""
    row, column = divmod(square, board.per_row)
    if row % 2:
        column = board.per_row - 1 - column
    rows = board.squares // board.per_row
    return column * PITCH_MM, (rows - row) * PITCH_MM


def _below(point: tuple[float, float]) -> tuple[float, float]:
    """A point left of and under a square's number, where a ladder or chute ends (the
    number stays readable)."""
    return point[0] - PITCH_MM * 0.25, point[1] + PITCH_MM * 0.15


def geometry(board: Board) -> BoardGeometry:
    side = PITCH_MM * 0.9
    spaces = []
    for number in range(board.squares + 1):
        x, y = centre(board, number)
        colour = "green" if number == 0 else "red" if number == board.squares else "yellow"
        words = "START" if number == 0 else str(number)
        spaces.append(Space(str(number), "square", colour, "rect", x, y, side, side,
                            FILL[colour], INK[colour],
                            labels=(Label(words, x, y - side / 3, 3.0, BLACK, True),),
                            slots=grid_slots(x, y + 2, side * 0.8, side * 0.5, 3, 2)))
    lines = [Line((_below(centre(board, jump.start)), _below(centre(board, jump.end))),
                  colour, 1.6, dashed=colour == CHUTE, over=True)
             for jumps, colour in ((board.ladders, LADDER), (board.chutes, CHUTE))
             for jump in jumps]
    legend = [LegendEntry("rect", LADDER, LADDER, "ladder: up from its foot"),
              LegendEntry("rect", CHUTE, CHUTE, "chute: down from its top", dashed=True)]
    bottom = (board.squares // board.per_row + 1) * PITCH_MM
    return finish("mygame", board.name, side, piece_mm(side) / 2, spaces, lines, [], legend,
                  (-PITCH_MM / 2, bottom))


TOOLS = BoardTools(Board, load_board, summary, geometry)
"""``cbrig board``, ``cbrig print`` and the live board (found by folder_parts)."""
