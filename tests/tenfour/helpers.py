"""Hand-built 10-Four positions: a small known deck, scripted chance, corrections."""

from __future__ import annotations

from collections.abc import Mapping

from engine.api import Event
from engine.tenfour import Correct, Draw, Spin, TenFourGame, TenFourState, build
from rig.datafiles import read_data

TEST_DECK = """
# A deck whose cards the scenario tests name directly.
[[card]]
id = "HI"
band = "hi"
text = "Spin the Hi-Band."
copies = 10

[[card]]
id = "HI2"
band = "hi"
extra = 2
text = "Spin the Hi-Band and move 2 extra."
copies = 10

[[card]]
id = "LO"
band = "lo"
text = "Spin the Lo-Band."
copies = 10

[[card]]
id = "B19HI"
band = "hi"
break_one_nine = true
text = "BREAK ONE NINE! Hi-Band."
copies = 10

[[card]]
id = "B19LO"
band = "lo"
break_one_nine = true
text = "BREAK ONE NINE! Lo-Band."
copies = 10
"""


def make(players: int = 3, variant: str = "standard", deck: str = TEST_DECK,
         options: Mapping[str, object] | None = None, board: str | None = None,
         bands: str | None = None) -> TenFourGame:
    """A game on the shipped board and bands (unless given) with the test deck."""
    data = {
        "board": (board, "test_board.toml") if board else read_data(
            "default:tenfour_board.toml", "engine.tenfour.data"),
        "bands": (bands, "test_bands.toml") if bands else read_data(
            "default:tenfour_bands.toml", "engine.tenfour.data"),
        "deck": (deck, "test_deck.toml"),
    }
    return build(players=players, variant=variant, data=data, options=options)


def started(game: TenFourGame, first: int = 0) -> TenFourState:
    """A new game where seat `first` won the start-order spin."""
    state = game.new_initial_state()
    for seat in range(game.num_players):
        state.apply(Spin(12 if seat == first else 2))
    return state


def put(state: TenFourState, piece: str, location: str) -> list[Event]:
    return state.apply(Correct(piece, location))


def police_out(state: TenFourState, smokey1: str = "TB", smokey2: str = "TY",
               bear: str | None = "AB") -> None:
    """Take every police piece out of the Park by correction, to harmless places."""
    put(state, "smokey1", smokey1)
    put(state, "smokey2", smokey2)
    if bear is not None and "bear" in state.police:
        put(state, "bear", bear)


def turn(state: TenFourState, card: str, spin: int) -> list[Event]:
    """Draw `card` and spin `spin` for the player to move."""
    assert state.prompt().kind == "draw", state.prompt()
    events = state.apply(Draw(card))
    return events + state.apply(Spin(spin))


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def where(state: TenFourState, colour: str) -> str:
    return state.truck_where(state.g.truck_index[colour])
