"""The generic battery every game must pass (after OpenSpiel's random simulation test),
run case by case from the library any game calls on itself (cbrig.conformance)."""

from __future__ import annotations

import pytest

from cbrig import conformance
from cbrig.conformance import Invariants, no_invariants
from engine.api import Action, State
from rig import registry
from rig.gamebuild import GAME_MODULES
from tests.gamecases import buildable, case_id, make

CASES = buildable()
SEEDS = conformance.SEEDS


def test_every_game_and_variant_is_covered() -> None:
    for name in GAME_MODULES:
        for variant in registry.entry(name).variants:
            assert any(c[0] == name and c[1] == variant for c in CASES), (name, variant)


def _tenfour_invariants(game, state: State, before: dict | None, action: Action | None) -> None:
    data = state.to_json()
    assert set(data["trucks"]) == set(game.trucks), "every truck is still in the game"
    assert all(t["driven"] >= 0 for t in data["trucks"].values())
    assert len(data["lose_next_turn"]) == game.num_players
    assert all(isinstance(flag, bool) for flag in data["lose_next_turn"])
    options = state.correction_options()
    placing = game.variant == "two-player" and data["phase"] in {"start_spin", "place_smokey"}
    for piece, where in data["police"].items():
        if placing and where == "park":
            continue  # two players: not yet put into its Bear Trap
        assert where in options[piece], f"{piece} is somewhere real: {where}"
    copies = {card.id: card.copies for card in game.deck.cards}
    assert set(data["pile"]) == set(copies)
    assert all(0 <= data["pile"][c] <= copies[c] for c in copies), "pile + discards = deck"
    if before is not None and action is not None and action.KIND == "draw":
        assert sum(data["pile"].values()) == sum(before["pile"].values()) - 1


def _bumpem_invariants(game, state: State, before: dict | None, action: Action | None) -> None:
    data = state.to_json()
    cars = game.rules.cars
    taken: dict[str, str] = {}
    for colour, places in data["cars"].items():
        assert len(places) == cars, f"{colour} still has all {cars} cars"
        for place in places:
            kind, _, rest = place.partition(":")
            if kind in {"pit", "finish"}:
                assert rest == colour, place
                continue
            if kind == "home":
                assert rest.split(":")[0] == colour, place
            else:
                assert place.startswith("T"), place
            assert place not in taken, f"{place} holds {taken.get(place)} and {colour}"
            taken[place] = colour


INVARIANTS: dict[str, Invariants] = {"tenfour": _tenfour_invariants,
                                     "bumpem": _bumpem_invariants}
"""The shipped games' own invariants; any other registered game (a test game, a game
installed from outside) runs the battery with the invariants it brings to
``cbrig.conformance.check_game`` in its own tests, and here with none."""


def test_every_built_in_game_has_invariants() -> None:
    assert set(INVARIANTS) == set(registry.built_in_names())


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playthrough_conforms(case, seed) -> None:
    conformance.random_playthrough(make(case), seed, INVARIANTS.get(case[0], no_invariants))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_illegal_input_is_refused_and_changes_nothing(case) -> None:
    conformance.illegal_input_is_refused(make(case))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_finished_game_refuses_input(case) -> None:
    conformance.finished_game_refuses_input(make(case))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_same_seed_same_game_whatever_the_global_random(case) -> None:
    """Disturb the global random module between steps: the game must not notice."""
    conformance.same_seed_same_game(make(case))


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_replaying_the_inputs_gives_the_same_state(case) -> None:
    conformance.replaying_the_inputs_gives_the_same_state(make(case))


def test_the_library_battery_passes_a_shipped_game_and_names_a_broken_one() -> None:
    """``check_game`` is what an outside game calls: it passes Bump 'Em (two seeds, its
    own invariants) and its message names the case and the seed of a broken rule."""
    report = conformance.check_game("bumpem", invariants=_bumpem_invariants, seeds=range(2))
    assert {case.players for case in report.cases} == {2, 3, 4}
    assert report.games == 2 * len(report.cases) and report.steps > 0

    def broken(game, state, before, action) -> None:
        assert before is None, "no step may be taken"

    with pytest.raises(conformance.ConformanceError, match=r"bumpem-standard-2p, seed 0:"):
        conformance.check_game("bumpem", invariants=broken, seeds=[0])
