"""Places and pieces named as the board shows them (RULINGS G4)."""

from __future__ import annotations

from engine.tenfour import MoveBear, MoveSmokey, Release
from engine.tenfour.names import (
    board_rank,
    destination_phrase,
    in_board_order,
    piece_at,
    piece_name,
    place_name,
)
from tests.tenfour.helpers import make, police_out, put, started


def test_places_are_named_by_what_the_board_shows() -> None:
    board = make(players=4).board
    assert place_name(board, "R13") == "R13"
    assert place_name(board, "side:B4") == "side of road B4"
    assert place_name(board, "TB") == "Bear Trap on Blue"
    assert place_name(board, "SC1") == "short cut R16-G2"
    assert place_name(board, "AG") == "Bear space on Green"
    assert place_name(board, "park") == "Yellowstone Park"
    assert destination_phrase(board, "TB") == "into the Bear Trap on Blue"
    assert destination_phrase(board, "home") == "home"


def test_pieces_are_named_with_their_place() -> None:
    game = make(players=4)
    assert piece_name(game, "smokey2") == "Smokey 2"
    assert piece_name(game, "yellow") == "Yellow truck"
    assert piece_at(game, "red", "R13") == "Red truck at R13"
    assert piece_at(game, "smokey1", "TY") == "Smokey 1 in the Bear Trap on Yellow"
    assert piece_at(game, "bear", "AG") == "Bear on Green route"
    assert piece_at(game, "bear", "park") == "Bear in Yellowstone Park"


def test_board_order_runs_clockwise_from_the_first_route() -> None:
    board = make(players=4).board
    assert in_board_order(board, ["AY", "TB", "R3", "park", "SC1", "G1", "home"]) == [
        "park", "R3", "SC1", "G1", "TB", "AY", "home"]
    assert board_rank(board, "side:R4") > board_rank(board, "R4")


def test_police_choices_read_in_board_order() -> None:
    state = started(make(players=4))
    state.phase = "police"
    releases = state.in_board_order(state.legal_actions())
    assert [a.to for a in releases if isinstance(a, Release) and a.piece != "bear"] == [
        "TR", "TG", "TB", "TY"]
    assert [a.to for a in releases if isinstance(a, Release) and a.piece == "bear"] == [
        "AR", "AG", "AB", "AY"]
    police_out(state, "TY", "TG", "AB")
    put(state, "smokey1", "R5")
    state.phase = "police"
    state._legal = None
    moves = state.in_board_order(state.legal_actions())
    first = [a.to for a in moves if isinstance(a, MoveSmokey) and a.smokey == "smokey1"]
    assert first == ["TR", "R15"], "the trap comes before the space beyond it"
    bears = [a.to for a in moves if isinstance(a, MoveBear)]
    assert bears == ["AR", "AG", "AY"]
