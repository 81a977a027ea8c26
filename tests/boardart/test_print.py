"""`cbrig print`: the PDFs rendered by poppler and read back, page by page."""

from __future__ import annotations

import math
import re
import subprocess
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from rig.cli import main
from rig.datafiles import read_data
from rig.maker.boardart import board_geometry
from rig.maker.boardart.geometry import contains
from rig.maker.boardart.pdf import MARGIN_MM, PAPERS
from rig.maker.boardart.tiles import OVERLAP_MM, plan_tiles
from tests.boardart.test_geometry import bumpem_board, longer_red_route, tenfour_board
from tests.system_tools import require_commands

PT_PER_MM = 72 / 25.4


@pytest.fixture(scope="module")
def poppler() -> dict[str, str]:
    return require_commands({"pdftoppm": "poppler-utils", "pdftotext": "poppler-utils",
                             "pdfinfo": "poppler-utils"})


def run_print(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / f"{'-'.join(a.strip('-') for a in args)}.pdf"
    assert main(["print", *args, "--out", str(out)]) == 0
    return out


def page_count(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    return int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.M).group(1))  # type: ignore[union-attr]


class Word:
    def __init__(self, page: int, box: tuple[float, float, float, float], text: str,
                 page_size: tuple[float, float]) -> None:
        self.page, self.box, self.text, self.page_size = page, box, text, page_size


def words(pdf: Path) -> list[Word]:
    """Every word poppler finds, with its box in mm (y down) and its page's size."""
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    out: list[Word] = []
    for number, page in enumerate(re.findall(r"<page (.*?)</page>", html, re.S)):
        size = re.match(r'width="([\d.]+)" height="([\d.]+)"', page)
        assert size is not None
        page_size = (float(size.group(1)) / PT_PER_MM, float(size.group(2)) / PT_PER_MM)
        for match in re.finditer(r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" '
                                 r'yMax="([\d.-]+)">(.*?)</word>', page):
            box = tuple(float(v) / PT_PER_MM for v in match.groups()[:4])
            out.append(Word(number, box, unescape(match.group(5)), page_size))  # type: ignore[arg-type]
    return out


def render(pdf: Path, tmp_path: Path, dpi: int, page: int | None = None) -> list[Image.Image]:
    prefix = tmp_path / f"{pdf.stem}-{dpi}"
    args = ["pdftoppm", "-r", str(dpi), "-png"]
    if page is not None:
        args += ["-f", str(page), "-l", str(page)]
    subprocess.run([*args, str(pdf), str(prefix)], check=True)
    files = sorted(tmp_path.glob(f"{prefix.name}-*.png"),
                   key=lambda p: int(p.stem.rsplit("-", 1)[1]))
    return [Image.open(p).convert("RGB") for p in files]


def space_words(geometry: Any) -> set[str]:
    return {part for space in geometry.spaces for label in space.labels
            for part in label.text.split()}


# -- the board ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "paper", "pages"), [
    # 10-Four (404 x 389 mm): 2 x 3 tiles on A4 and Letter, one A2 sheet, 2 x 1 on A3
    # landscape (404 mm fits its 420 mm width).
    ("tenfour", "a4", 7), ("tenfour", "letter", 7), ("tenfour", "a2", 1),
    ("tenfour", "a3", 3),
    # Bump 'Em (317 x 311 mm): 2 x 2 tiles on A4, 1 x 2 on A3, one A2 sheet.
    ("bumpem", "a4", 5), ("bumpem", "a3", 3), ("bumpem", "a2", 1),
])
def test_page_count_for_each_paper(tmp_path: Path, poppler: dict[str, str], game: str,
                                   paper: str, pages: int) -> None:
    """A tiled board has an overview page and then one page per tile."""
    pdf = run_print(tmp_path, "board", "--game", game, "--paper", paper)
    assert page_count(pdf) == pages
    w, h = PAPERS[paper]
    for word in words(pdf):
        assert sorted(word.page_size) == pytest.approx(sorted((w, h)), abs=0.2)


def test_one_sheet_has_every_label_inside_the_page(tmp_path: Path,
                                                   poppler: dict[str, str]) -> None:
    for game, board in (("tenfour", tenfour_board()), ("bumpem", bumpem_board())):
        pdf = run_print(tmp_path, "board", "--game", game, "--paper", "a2")
        found = words(pdf)
        for word in found:
            w, h = word.page_size
            assert contains((MARGIN_MM, MARGIN_MM, w - MARGIN_MM, h - MARGIN_MM), word.box,
                            0.5), word.text
        expected = space_words(board_geometry(game, board))
        assert expected <= {word.text for word in found}
        assert {f"R{n}" for n in range(1, 21)} <= expected or game == "bumpem"


def test_tiles_show_every_space_label_whole(tmp_path: Path, poppler: dict[str, str]) -> None:
    """Cut lines avoid the places' labels: each is whole inside one tile's area."""
    geometry = board_geometry("tenfour", tenfour_board())
    plan = plan_tiles(geometry, PAPERS["a4"], MARGIN_MM)
    assert plan is not None
    pdf = run_print(tmp_path, "board", "--paper", "a4")
    found = words(pdf)
    for space in geometry.spaces:
        for label in space.labels:
            for part in label.text.split():
                whole = [w for w in found if w.text == part and w.page > 0 and _inside_tile(
                    w, plan.tiles[w.page - 1].region)]
                assert whole, (space.id, part)


def _inside_tile(word: Word, region: tuple[float, float, float, float]) -> bool:
    width, height = region[2] - region[0], region[3] - region[1]
    return contains((MARGIN_MM, MARGIN_MM, MARGIN_MM + width, MARGIN_MM + height), word.box,
                    0.3)


def test_tile_overlaps_match_so_the_marks_line_up(tmp_path: Path,
                                                  poppler: dict[str, str]) -> None:
    """The strip two neighbouring tiles share prints the same on both pages (board and
    registration marks alike), so laid over each other the marks coincide."""
    geometry = board_geometry("tenfour", tenfour_board())
    plan = plan_tiles(geometry, PAPERS["a4"], MARGIN_MM)
    assert plan is not None
    pdf = run_print(tmp_path, "board", "--paper", "a4")
    dpi = 60
    pages = render(pdf, tmp_path, dpi)[1:]
    px = dpi / 25.4
    by_place = {(t.row, t.column): (t, pages[i]) for i, t in enumerate(plan.tiles)}
    pairs = 0
    for (row, column), (tile, image) in by_place.items():
        for other_place, axis in (((row, column + 1), 0), ((row + 1, column), 1)):
            if other_place not in by_place:
                continue
            other, other_image = by_place[other_place]
            cut = tile.cut_right if axis == 0 else tile.cut_bottom
            assert cut is not None
            lo, hi = cut - OVERLAP_MM / 2, cut + OVERLAP_MM / 2
            span = (max(tile.region[1 - axis], other.region[1 - axis]),
                    min(tile.region[3 - axis], other.region[3 - axis]))
            mine = _strip(image, tile.region, axis, (lo, hi), span, px)
            theirs = _strip(other_image, other.region, axis, (lo, hi), span, px)
            magenta = _magenta(mine)
            assert magenta > 20 and abs(magenta - _magenta(theirs)) < magenta * 0.15
            assert _difference(mine, theirs) < 6.0
            shifted = _strip(other_image, other.region, axis, (lo + 3, hi + 3), span, px)
            assert _difference(mine, shifted) > _difference(mine, theirs) + 2
            pairs += 1
    rows, columns = plan.grid
    assert pairs == rows * (columns - 1) + columns * (rows - 1)


def _strip(image: Image.Image, region: tuple[float, float, float, float], axis: int,
           across: tuple[float, float], along: tuple[float, float], px: float) -> Image.Image:
    """Board area `across` (on `axis`) x `along` (the other axis) as printed on a page."""
    def page(value: float, index: int) -> int:
        return round((MARGIN_MM + value - region[index]) * px)
    if axis == 0:
        box = (page(across[0], 0), page(along[0], 1), page(across[1], 0), page(along[1], 1))
    else:
        box = (page(along[0], 0), page(across[0], 1), page(along[1], 0), page(across[1], 1))
    return image.crop(box)


def _magenta(image: Image.Image) -> int:
    return sum(1 for r, g, b in _pixels(image) if r > 180 and g < 120 and b > 90)


def _pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return list(zip(data[0::3], data[1::3], data[2::3], strict=True))


def _difference(a: Image.Image, b: Image.Image) -> float:
    w, h = min(a.width, b.width), min(a.height, b.height)
    pa, pb = _pixels(a.crop((0, 0, w, h))), _pixels(b.crop((0, 0, w, h)))
    total = sum(abs(x - y) for p, q in zip(pa, pb, strict=True)
                for x, y in zip(p, q, strict=True))
    return total / (3 * w * h)


def test_sizes_in_mm_are_as_stated(tmp_path: Path, poppler: dict[str, str]) -> None:
    """The 50 mm scale bar measures 50 mm and a highway space measures its stated size."""
    geometry = board_geometry("tenfour", tenfour_board())
    pdf = run_print(tmp_path, "board", "--paper", "a2")
    dpi = 100
    image = render(pdf, tmp_path, dpi)[0]
    px = dpi / 25.4
    bar = max(_runs(image, (0, 0, 0), rows=range(image.height - round(40 * px),
                                                 image.height)))
    assert bar / px == pytest.approx(50.0, abs=0.6)
    space = geometry.by_id["R5"]
    found = words(pdf)
    label = next(w for w in found if w.text == "R5")
    centre_x = (label.box[0] + label.box[2]) / 2
    centre_y = (label.box[1] + label.box[3]) / 2 + space.h / 2 - 2.4
    inner = _run_through(image, (round(centre_x * px), round(centre_y * px)), space.fill)
    assert inner / px == pytest.approx(space.w - space.stroke, abs=0.6)
    words_found = " ".join(w.text for w in found)
    assert f"Spaces {geometry.space_mm:.0f} mm" in words_found


def _close(p: Any, colour: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 12 for a, b in zip(p, colour, strict=True))


def _run_through(image: Image.Image, at: tuple[int, int], colour: tuple[int, int, int]) -> int:
    """Width of the horizontal run of `colour` through pixel `at`."""
    x, y = at
    assert _close(image.getpixel(at), colour)
    left = right = x
    while left > 0 and _close(image.getpixel((left - 1, y)), colour):
        left -= 1
    while right < image.width - 1 and _close(image.getpixel((right + 1, y)), colour):
        right += 1
    return right - left + 1


def _extent(image: Image.Image, box: tuple[int, int, int, int],
            colour: tuple[int, int, int]) -> tuple[int, int]:
    """(width, height) of the pixels of `colour` inside `box`."""
    data = image.crop(box)
    points = [(x, y) for y in range(data.height) for x in range(data.width)
              if _close(data.getpixel((x, y)), colour)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def _runs(image: Image.Image, colour: tuple[int, int, int], rows: range) -> list[int]:
    """Lengths of horizontal runs of pixels close to `colour` on the given rows."""
    out = [0]
    data = image.load()
    assert data is not None
    for y in rows:
        run = 0
        for x in range(image.width):
            p = data[x, y]
            if _close(p, colour):
                run += 1
            else:
                if run:
                    out.append(run)
                run = 0
    return out


def test_an_edited_board_file_changes_the_printed_board(tmp_path: Path,
                                                        poppler: dict[str, str]) -> None:
    edited = tmp_path / "board.toml"
    edited.write_text(longer_red_route(), encoding="utf-8")
    before = {w.text for w in words(run_print(tmp_path, "board", "--paper", "a2"))}
    after_pdf = tmp_path / "edited.pdf"
    assert main(["print", "board", "--board", str(edited), "--paper", "a2",
                 "--out", str(after_pdf)]) == 0
    after = {w.text for w in words(after_pdf)}
    assert "R24" in after and "R24" not in before


def test_a_config_selects_the_data_files_printed(tmp_path: Path,
                                                 poppler: dict[str, str]) -> None:
    edited = tmp_path / "board.toml"
    edited.write_text(longer_red_route(), encoding="utf-8")
    config = tmp_path / "cbrig.toml"
    config.write_text(f'[game]\nname = "tenfour"\nplayers = 4\n[game.data]\nboard = '
                      f'"{edited}"\n[game.options]\nbear_limit = 9\n', encoding="utf-8")
    board = tmp_path / "b.pdf"
    reference = tmp_path / "r.pdf"
    assert main(["print", "board", "--config", str(config), "--paper", "a2",
                 "--out", str(board)]) == 0
    assert main(["print", "reference", "--config", str(config), "--out", str(reference)]) == 0
    assert "R24" in {w.text for w in words(board)}
    text = " ".join(w.text for w in words(reference))
    assert "extra of 9 or more" in text and "84 highway spaces" in text


# -- cards, pieces, reference -------------------------------------------------------------


def test_every_mike_card_is_printed_with_its_text_band_and_tag_spot(
        tmp_path: Path, poppler: dict[str, str]) -> None:
    from engine.tenfour import load_deck

    deck = load_deck(*read_data("default:tenfour_deck.toml", "engine.tenfour.data"))
    pdf = run_print(tmp_path, "cards")
    per_sheet = 9  # 3 x 3 poker-size cards on A4
    assert page_count(pdf) == math.ceil(deck.size / per_sheet) + 1
    found = words(pdf)
    pages: dict[int, str] = {}
    for word in found:
        pages[word.page] = pages.get(word.page, "") + " " + word.text
    cards_text = " ".join(pages[p] for p in sorted(pages)[:-1])
    for card in deck.cards:
        assert f"enrol as {card.id}" in cards_text
        assert " ".join(card.text.split()[:4]) in cards_text
    assert cards_text.count("RFID sticker here") == deck.size
    assert cards_text.count("Hi-Band") >= sum(c.band == "hi" for c in deck.cards)
    assert cards_text.count("BREAK ONE NINE") >= sum(c.break_one_nine for c in deck.cards)
    enrolment = pages[max(pages)]
    positions = [enrolment.index(f" {card.id} ") for card in deck.cards]
    assert positions == sorted(positions)
    for word in found:
        assert contains((0, 0, *word.page_size), word.box)


def test_ticket_deck_prints_each_kind_as_often_as_counted(tmp_path: Path,
                                                          poppler: dict[str, str]) -> None:
    text, _ = read_data("default:bumpem_tickets.toml", "engine.bumpem.data")
    deck = text.replace('draw = "independent"', 'draw = "deck"').replace(
        'id = "7"\ncount = 1', 'id = "7"\ncount = 3')
    path = tmp_path / "tickets.toml"
    path.write_text(deck, encoding="utf-8")
    independent = words(run_print(tmp_path, "cards", "--game", "bumpem"))
    counted_pdf = tmp_path / "deck.pdf"
    assert main(["print", "cards", "--game", "bumpem", "--tickets", str(path),
                 "--out", str(counted_pdf)]) == 0
    counted = words(counted_pdf)

    def stickers(found: list[Word]) -> int:
        return " ".join(w.text for w in found).count("RFID sticker here")
    assert stickers(independent) == 13
    assert stickers(counted) == 15


def test_pieces_are_sized_for_the_spaces_in_the_board_colours(tmp_path: Path,
                                                               poppler: dict[str, str]) -> None:
    pdf = run_print(tmp_path, "pieces", "--paper", "a2")
    text = " ".join(w.text for w in words(pdf))
    for name in ("Red truck", "Green truck", "Blue truck", "Yellow truck", "Smokey 1",
                 "Smokey 2", "Bear"):
        assert name in text
    geometry = board_geometry("tenfour", tenfour_board())
    assert f"tokens {geometry.piece_mm:.0f} mm across" in text
    image = render(pdf, tmp_path, 100)[0]
    px = 100 / 25.4
    caption = next(w for w in words(pdf) if w.text == "Red")
    cx = (caption.box[0] + caption.box[2]) / 2 + 2.0  # "Red truck": "Red" is left of centre
    cy = caption.box[1] - 2.2 - geometry.piece_mm / 2 + 1.1
    box = tuple(round(v * px) for v in (cx - 9, cy - 9, cx + 9, cy + 9))
    width, height = _extent(image, box, (190, 30, 30))  # type: ignore[arg-type]
    assert width / px == pytest.approx(geometry.piece_mm, abs=0.8)
    assert height / px == pytest.approx(geometry.piece_mm, abs=0.8)
    cars = " ".join(w.text for w in words(run_print(tmp_path, "pieces", "--game", "bumpem")))
    board = bumpem_board()
    # each car as a token with 2 spares, and once as a standee
    assert cars.count("Red car") == board.cars_per_player * 3 + board.cars_per_player


def test_standees_fold_to_the_stated_size(tmp_path: Path, poppler: dict[str, str]) -> None:
    pdf = run_print(tmp_path, "pieces", "--paper", "a4")
    standees = [w for w in words(pdf) if w.page == 1]
    assert "Fold-over standees (12 mm wide, 16 mm tall)" in " ".join(w.text for w in standees)
    image = render(pdf, tmp_path, 100, page=2)[0]
    px = 100 / 25.4
    caption = next(w for w in standees if w.text == "Red")
    cx = (caption.box[0] + caption.box[2]) / 2 + 2.0
    box = tuple(round(v * px) for v in (cx - 8, caption.box[1] - 50, cx + 8, caption.box[1]))
    width, height = _extent(image, box, (190, 30, 30))  # type: ignore[arg-type]
    assert width / px == pytest.approx(12, abs=0.6)
    assert height / px == pytest.approx(32, abs=0.6)  # front and back panel, 16 mm each


def test_quick_reference_is_one_page_that_fits(tmp_path: Path, poppler: dict[str, str]) -> None:
    for game, paper in (("tenfour", "a4"), ("bumpem", "letter")):
        pdf = run_print(tmp_path, "reference", "--game", game, "--paper", paper)
        assert page_count(pdf) == 1
        found = words(pdf)
        w, h = PAPERS[paper]
        assert all(word.box[3] <= h - 5 and word.box[2] <= w - 5 for word in found)
        text = " ".join(word.text for word in found)
        assert ("exactly 10 steps" in text) if game == "tenfour" else ("Bump 'em!" in text)


def test_print_all_writes_every_sheet(tmp_path: Path, poppler: dict[str, str]) -> None:
    out = tmp_path / "all"
    assert main(["print", "all", "--game", "bumpem", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "bumpem-board.pdf", "bumpem-cards.pdf", "bumpem-pieces.pdf", "bumpem-reference.pdf"]


def test_nine_cards_a_sheet_on_letter_too(tmp_path: Path, poppler: dict[str, str]) -> None:
    from engine.tenfour import load_deck

    deck = load_deck(*read_data("default:tenfour_deck.toml", "engine.tenfour.data"))
    pdf = run_print(tmp_path, "cards", "--paper", "letter")
    assert page_count(pdf) == math.ceil(deck.size / 9) + 1
    for word in words(pdf):
        assert contains((0, 0, *word.page_size), word.box)
        assert sorted(word.page_size) == pytest.approx(sorted(PAPERS["letter"]), abs=0.2)


def test_a_bad_board_file_is_reported_by_line_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, _ = read_data("default:tenfour_board.toml", "engine.tenfour.data")
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('exit = "G2"', 'exit = "Q2"'), encoding="utf-8")
    out = tmp_path / "never.pdf"
    assert main(["print", "board", "--board", str(bad), "--out", str(out)]) == 1
    line = next(n for n, row in enumerate(bad.read_text().splitlines(), 1) if '"Q2"' in row)
    assert f"{bad}:{line}: shortcut[0].exit:" in capsys.readouterr().out
    assert not out.exists()


def test_without_the_pdf_library_the_command_names_the_extra(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "reportlab" else real(name, *a))
    assert main(["print", "board", "--out", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err  # cbrig is on no package index: the checkout's extra
    assert "from this checkout:" in err and "/bin/pip install -e '" in err
    assert "[print]'" in err and "cbrig[print]" not in err
