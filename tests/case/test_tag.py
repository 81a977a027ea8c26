"""The card's tag and the reader's antenna agree by construction: the print kit draws
the sticker spot and the case places the antenna from one figure (rig/maker/case/tag.py), and
the tag stays in the antenna's read zone wherever the card lies in its recess."""

from __future__ import annotations

from typing import Any, cast

import pytest

from rig.maker.case import tag
from tests.case.conftest import Case

pytestmark = pytest.mark.case


def test_the_tag_stays_in_the_antenna_s_read_zone_wherever_the_card_lies(case: Case) -> None:
    from rig.maker.case.checks import tag_check
    from rig.maker.case.coupling import READ_ZONE

    found = tag_check(case.layout)
    assert found is not None
    assert found.nominal == pytest.approx((0.0, 0.0), abs=1e-6)
    assert found.worst >= READ_ZONE, (
        f"a tag {found.offset} mm off the antenna's centre keeps {found.worst:.0%}")


def test_the_coupling_model_finds_the_null_just_past_the_winding() -> None:
    """A tag over the centre couples fully, one straddling the winding far less, and one
    centred 24 mm off a 32 mm coil (the old sticker spot over a centred coil) has
    crossed the null: its net flux is reversed."""
    from rig.maker.case.coupling import READ_ZONE, coupling

    coil = (46.0, 32.0)
    assert coupling(coil, (0.0, 0.0), 4.6) == pytest.approx(1.0)
    assert coupling(coil, (0.0, 4.0), 4.6) > 0.95
    assert coupling(coil, (0.0, 16.0), 4.6) < READ_ZONE
    assert coupling(coil, (0.0, 24.0), 4.6) < 0.0
    assert coupling((30.7, 28.4), (0.0, 24.0), 5.4) < 0.0


class _Recorder:
    """A PDF canvas that only remembers the circles drawn on it."""

    def __init__(self) -> None:
        self.circles: list[tuple[float, float, float]] = []

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, *rest: Any,
                **named: Any) -> None:
        self.circles.append((cx, cy, rx))

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None


@pytest.mark.parametrize("game_name", ["tenfour", "bumpem"])
def test_the_printed_cards_put_the_sticker_where_the_case_reads_it(game_name: str) -> None:
    from rig.gamebuild import build_game
    from rig.maker.printout.sheets import CARD_H, CARD_W, print_tools

    game = build_game(game_name, players=2)
    sheet = print_tools(game_name).cards_of(game)
    assert sheet is not None
    faces = sheet[0]
    assert faces and (CARD_W, CARD_H) == tag.CARD
    for face in faces:
        canvas = _Recorder()
        face.draw(cast(Any, canvas), 10.0, 20.0)
        spots = [c for c in canvas.circles if c[2] == pytest.approx(tag.TAG_DIAMETER / 2)]
        assert len(spots) == 1, face.ident
        cx, cy, _ = spots[0]
        # centred across, TAG_FROM_BOTTOM above the bottom edge (the PDF's y runs down)
        assert cx == pytest.approx(10.0 + CARD_W / 2)
        assert 20.0 + CARD_H - cy == pytest.approx(tag.TAG_FROM_BOTTOM)
