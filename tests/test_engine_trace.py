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
from rig.games import build_game

GAMES = 4
EXPECTED: dict[tuple[str, str, int, bool], str] = {
    ('tenfour', 'standard', 3, False): '126798106f60ff8b0872',
    ('tenfour', 'standard', 3, True): '4bf62f4343f554f92f2b',
    ('tenfour', 'standard', 4, False): 'bf158ffab08f7df9e7bd',
    ('tenfour', 'standard', 4, True): '1b2b27181bd5492b4bf3',
    ('tenfour', 'two-player', 2, False): 'ed115bf9837f06eb1843',
    ('tenfour', 'two-player', 2, True): '29a0507b34506feac16e',
    ('bumpem', 'standard', 2, False): '09cb8c38015b1da13f74',
    ('bumpem', 'standard', 2, True): 'e10f3cb09e27e1aa5793',
    ('bumpem', 'standard', 3, False): '50bd36a0915f220c9d17',
    ('bumpem', 'standard', 3, True): 'd71e347c95fcb4213c07',
    ('bumpem', 'standard', 4, False): 'cc2bb069fb6c6a73c6c7',
    ('bumpem', 'standard', 4, True): '1007094aa8c585168849',
}
"""(game, variant, players, options flipped) -> digest of GAMES seeded random games."""


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
