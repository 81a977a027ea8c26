"""The shipped games play exactly as they did: a fingerprint of seeded random games.

Speed work on the engines (docs/PERFORMANCE.md, "engine") must not change a single
observable: the legal actions, their order and previews, `describe`, the prompt, the
chance outcomes, every state's JSON and every event's kind, text and data. Each case
below plays seeded random games with both the default options and every option turned
the other way, and hashes all of that; the expected digests were taken from the engines
before the speed work. A rules change that is meant shows up here: update the digest
in the same commit, saying why.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from engine.api import Game
from engine.selfplay import random_choice, sample_chance
from rig.games import build_game

FLIPPED: dict[str, dict[str, object]] = {
    "bumpem": {"turbo": False, "extra_ticket_without_move": False,
               "backward_from_home_stretch": False, "bump_ticket_lands": False},
    "tenfour": {"trap_catches_on_entry": True, "sidelined_immune": False,
                "police_move_when_stuck": False},
}
"""Every boolean rule option the other way from its default."""

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


def fingerprint(game: Game, games: int) -> str:
    """A digest of everything the rig or a player can observe along `games` games."""
    digest = hashlib.sha256()

    def see(value: object) -> None:
        digest.update(repr(value).encode("utf-8"))

    for seed in range(games):
        rng = random.Random(f"trace:{seed}")
        state = game.new_initial_state()
        while not state.is_terminal():
            see(json.dumps(state.to_json(), sort_keys=True))
            see(state.prompt())
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                see([(action, str(p)) for action, p in outcomes])
                action = sample_chance(outcomes, rng)
            else:
                legal = state.legal_actions()
                see([(a, a.key(), state.describe(a)) for a in legal])
                action = random_choice(state, legal, rng)
            see(state.describe(action))
            for event in state.apply(action):
                see((event.kind, event.text, json.dumps(event.data, sort_keys=True)))
        see(state.winners())
    return digest.hexdigest()[:20]


@pytest.mark.parametrize("case", sorted(EXPECTED), ids=lambda c: "-".join(map(str, c)))
def test_seeded_games_play_as_before(case: tuple[str, str, int, bool]) -> None:
    name, variant, players, flipped = case
    game = build_game(name, players=players, variant=variant,
                      options=FLIPPED[name] if flipped else None)
    assert fingerprint(game, GAMES) == EXPECTED[case]


def test_every_shipped_configuration_is_fingerprinted() -> None:
    from tests.gamecases import buildable

    wanted = {(n, v, p, f) for n, v, p in buildable() if n in FLIPPED for f in (False, True)}
    assert wanted <= set(EXPECTED)
