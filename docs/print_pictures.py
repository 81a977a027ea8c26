"""Make the README's print-and-play pictures from real `cbrig print` output.

    .venv/bin/python docs/print_pictures.py

Prints the default 10-Four board tiled on A4, renders every tile with poppler's
pdftoppm, cuts each tile along its cut lines and lays the pieces side by side exactly as
a person glues them (docs/images/print-board-assembled.png), and renders the first Mike
card sheet (docs/images/print-cards.png). Needs poppler-utils.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from rig.cli import main
from rig.datafiles import read_data
from rig.maker.boardart import board_geometry
from rig.maker.boardart.pdf import MARGIN_MM, PAPERS
from rig.maker.boardart.tiles import plan_tiles

IMAGES = Path(__file__).resolve().parent / "images"
DPI = 60


def _render(pdf: Path, prefix: Path, dpi: int, first: int, last: int) -> list[Path]:
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-f", str(first), "-l", str(last),
                    str(pdf), str(prefix)], check=True)
    return sorted(prefix.parent.glob(f"{prefix.name}-*.png"),
                  key=lambda p: int(p.stem.rsplit("-", 1)[1]))


def assembled_board(work: Path) -> Image.Image:
    """The A4 tiles, each cut along its cut lines, glued into the whole board."""
    from engine.tenfour import load_board

    geometry = board_geometry("tenfour", load_board(*read_data("default:tenfour_board.toml")))
    plan = plan_tiles(geometry, PAPERS["a4"], MARGIN_MM)
    assert plan is not None
    pdf = work / "board.pdf"
    if main(["print", "board", "--paper", "a4", "--out", str(pdf)]) != 0:
        sys.exit("cbrig print failed")
    pages = _render(pdf, work / "tile", DPI, 2, len(plan.tiles) + 1)
    px = DPI / 25.4
    board = Image.new("RGB", (round(geometry.width * px), round(geometry.height * px)), "white")
    for tile, page in zip(plan.tiles, pages, strict=True):
        left, top, right, bottom = tile.region
        own = (tile.cut_left if tile.cut_left is not None else left,
               tile.cut_top if tile.cut_top is not None else top,
               tile.cut_right if tile.cut_right is not None else right,
               tile.cut_bottom if tile.cut_bottom is not None else bottom)
        with Image.open(page) as image:
            crop = image.convert("RGB").crop(tuple(
                round((MARGIN_MM + own[i] - tile.region[i % 2]) * px) for i in range(4)))
        board.paste(crop, (round(own[0] * px), round(own[1] * px)))
    return board


def card_sheet(work: Path) -> Image.Image:
    pdf = work / "cards.pdf"
    if main(["print", "cards", "--paper", "a4", "--out", str(pdf)]) != 0:
        sys.exit("cbrig print failed")
    with Image.open(_render(pdf, work / "cards", 50, 1, 1)[0]) as image:
        return image.convert("RGB")


def _save(image: Image.Image, name: str) -> None:
    path = IMAGES / name
    image.quantize(colors=64).save(path, optimize=True)
    print(f"{path} ({image.width}x{image.height}, {path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    IMAGES.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        _save(assembled_board(Path(folder)), "print-board-assembled.png")
        _save(card_sheet(Path(folder)), "print-cards.png")
