"""The printed quick reference speaks to a family: no citation of files they do not
have, and it says how to open the corrections (a long press) and take a move back."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.boardart.test_print import poppler, run_print, words  # noqa: F401 (a fixture)


@pytest.mark.parametrize("game", ["tenfour", "bumpem"])
def test_the_reference_says_how_to_correct_and_take_back(
        game: str, tmp_path: Path, poppler: dict[str, str]) -> None:  # noqa: F811
    text = " ".join(word.text for word in words(run_print(tmp_path, "reference", "--game",
                                                            game)))
    assert "RULINGS" not in text and "G1" not in text
    assert "long press" in text and "correction menu" in text
    assert "Take back" in text and "undoes" in text
    if game == "bumpem":  # places as the board prints them and the screen says them
        assert "H1" not in text and "HOME STRETCH 1" in text
