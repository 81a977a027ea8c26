"""The shipped games play exactly as they did: a fingerprint of seeded random games.

Speed work on the engines (docs/PERFORMANCE.md, "engine") must not change a single
observable: the legal actions, their order and previews, `describe`, the prompt, the
chance outcomes, every state's JSON and every event's kind, text and data. Each case
below plays seeded random games with both the default options and every option turned
the other way, and hashes all of that; the expected digests were taken from the engines
before the speed work (`bench.engine_trace` digests many more games, and compares two
trees). A rules change that is meant shows up here: update the digest in the same
commit, saying why.
"""

from __future__ import annotations

import pytest

from bench.engine_trace import FLIPPED, configurations, fingerprint, flatmc_fingerprint
from rig.gamebuild import build_game

GAMES = 4
EXPECTED: dict[tuple[str, str, int, bool], str] = {
    ('tenfour', 'standard', 3, False): '126798106f60ff8b0872',
    ('tenfour', 'standard', 3, True): '4bf62f4343f554f92f2b',
    ('tenfour', 'standard', 4, False): 'bf158ffab08f7df9e7bd',
    ('tenfour', 'standard', 4, True): '1b2b27181bd5492b4bf3',
    ('tenfour', 'two-player', 2, False): '51f9dc91d279be37d9a5',
    ('tenfour', 'two-player', 2, True): '2084e47482009b5928cd',
    ('bumpem', 'standard', 2, False): 'd67a427e9807e5e55a23',
    ('bumpem', 'standard', 2, True): '208fa2641b88fcac2d50',
    ('bumpem', 'standard', 3, False): 'a01744443cf71a865094',
    ('bumpem', 'standard', 3, True): '2f54ebfb239a0d01123e',
    ('bumpem', 'standard', 4, False): '0ae03391881b5d0b0fdd',
    ('bumpem', 'standard', 4, True): 'a9df423498a08f333c52',
}
"""(game, variant, players, options flipped) -> digest of GAMES seeded random games.
Bump 'Em and two-player 10-Four were retaken when `describe` (so the move events' text)
came to name every car the table must find (issue 27): the car an oil slide bumps, the
second car of a split 8, where each truck stands in "which truck moves?"; the rules
did not change (tenfour's 3-4 player digests, which have no such words, are as before)."""


@pytest.mark.parametrize("case", sorted(EXPECTED), ids=lambda c: "-".join(map(str, c)))
def test_seeded_games_play_as_before(case: tuple[str, str, int, bool]) -> None:
    name, variant, players, flipped = case
    game = build_game(name, players=players, variant=variant,
                      options=FLIPPED[name] if flipped else None)
    assert fingerprint(game, GAMES) == EXPECTED[case]


def test_every_shipped_configuration_is_fingerprinted() -> None:
    from tests.gamecases import buildable

    shipped = {case for case in buildable() if case[0] in FLIPPED}
    assert set(configurations()) == shipped
    assert {(*case, f) for case in shipped for f in (False, True)} == set(EXPECTED)


FLATMC: dict[tuple[str, int], str] = {
    ("bumpem", 2): "3c4e55e385f299b3a1de",
    ("bumpem", 3): "e2a170605a54bee9569d",
    ("tenfour", 2): "19b0af6e43ee2eacc79c",
    ("tenfour", 4): "156b2a83303424f9adde",
}
"""(game, players) -> digest of the first 60 steps of 2 seeded games of the flat Monte
Carlo reference (6 playouts per action) against `random`, taken before its playouts
were made cheaper (bc2ffe9): the reference's games measured earlier stay valid only
if its playouts draw and play exactly as they did."""


@pytest.mark.parametrize("case", sorted(FLATMC), ids=lambda c: f"{c[0]}-{c[1]}p")
def test_the_flat_monte_carlo_reference_plays_as_before(case: tuple[str, int]) -> None:
    name, players = case
    assert flatmc_fingerprint(build_game(name, players=players), 2, 60) == FLATMC[case]
