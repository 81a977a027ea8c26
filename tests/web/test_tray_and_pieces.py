"""What the browser's tray and piece list say: true to the pile, and in the screen's words."""

from __future__ import annotations

import random

from engine.api import Game, State
from rig.gamebuild import build_game
from rig.web.live import card_tray, piece_places


def _play_until(game: Game, until: object, seed: int = 3, limit: int = 400) -> State:
    """A random game from the start until `until(state)` holds."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(limit):
        if until(state):  # type: ignore[operator]
            return state
        if state.is_chance_node():
            outcomes = [action for action, _ in state.chance_outcomes()]
            state.apply(rng.choice(outcomes))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    raise AssertionError("the game never got there")


def _drawn_cards(state: State) -> int:
    pile = state.pile
    return sum(1 for left in pile if left == 0)


def test_only_cards_out_of_the_pile_are_marked_out_even_when_no_card_is_asked() -> None:
    game = build_game("tenfour", players=3)
    fresh = card_tray(game, game.new_initial_state(), [])
    assert fresh and not any(card["out"] for card in fresh)  # the whole pile is there

    # a later moment with cards drawn and no card asked (a spin, a move or the police)
    state = _play_until(game, lambda s: _drawn_cards(s) >= 2 and s.prompt().kind != "draw")
    tray = card_tray(game, state, [])
    out = {card["id"] for card in tray if card["out"]}
    pile = state.pile
    assert out == {card.id for card, left in zip(game.deck.cards, pile, strict=True)
                   if left == 0}
    assert 2 <= len(out) < len(tray)
    assert not any(card["can"] for card in tray)  # nothing is asked: no card can be tapped


def test_tickets_drawn_uniformly_are_never_out() -> None:
    game = build_game("bumpem", players=2)
    state = _play_until(game, lambda s: not s.is_chance_node() and s.prompt().kind != "start")
    assert not any(ticket["out"] for ticket in card_tray(game, state, []))


def test_the_piece_list_names_cars_as_the_screen_does() -> None:
    from engine.bumpem.names import car_at

    game = build_game("bumpem", players=4)
    pieces = piece_places(game, game.new_initial_state())
    assert {piece.says for piece in pieces} == {
        car_at(colour, f"pit:{colour}") for colour in ("red", "blue", "yellow", "green")}
    assert "Red car in pit" in {piece.says for piece in pieces}
    assert not any(char.isdigit() for piece in pieces for char in piece.says)
