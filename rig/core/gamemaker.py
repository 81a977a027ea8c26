"""A game chosen on the setup menu made ready to play: the game with the config's data
files and rule options, its seats (computer players, hints) and its controller, and the
card enrolment walking its deck."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from hardware.clock import Clock
from rig.config import RigConfig
from rig.core.service import StepSeeded
from rig.core.setup_menu import SetupChoice

if TYPE_CHECKING:  # imported with the first game (see Daemon._load_game_modules)
    from engine.api import Game
    from rig.core.controller import Controller
    from rig.core.enroll import EnrolScreen
    from rig.core.session import Session
    from rig.screens.views import Notice

log = logging.getLogger(__name__)


class GameMaker:
    """Makes the chosen game and its controller from the rig's config."""

    def __init__(self, config: RigConfig, clock: Clock, cards: dict[str, str],
                 card_map: Callable[[Game], dict[str, str]] | None,
                 autoplay: int | None, seed: int | None,
                 on_alert: Callable[[Notice], None]) -> None:
        self.config = config
        self.clock = clock
        self.cards = cards
        """The enrolled cards' tags (shared with the daemon: a save updates it in place)."""
        self.card_map = card_map
        self.autoplay = autoplay
        self.seed = seed
        self.on_alert = on_alert

    def build_game(self, choice: SetupChoice) -> Game:
        """The game chosen on the menu, with the config's data files and rule options
        when it is the configured game (the shipped ones otherwise)."""
        from rig.gamebuild import build_game

        game_cfg = self.config.game
        same = choice.game == game_cfg.name
        return build_game(
            choice.game, players=choice.players, variant=choice.variant,
            data=dict(game_cfg.data) if same else None,
            options=dict(game_cfg.options) if same else None,
            seats=choice.seats or (tuple(game_cfg.seats) if same and game_cfg.seats else None),
        )

    def enrol(self, choice: SetupChoice) -> EnrolScreen:
        """"Enrol cards" on the menu: walk the deck of the game chosen there, with the
        reader the daemon already holds."""
        from rig.core.enroll import Enrolment, EnrolScreen, deck_cards

        cards = deck_cards(self.build_game(choice))
        return EnrolScreen(Enrolment(cards, dict(self.cards)), save=self.save_cards)

    def save_cards(self, tags: dict[str, str]) -> None:
        """Write the map, then use it for the next game (controllers share the dict)."""
        from rig.core.enroll import save_card_map

        save_card_map(self.config.reader.cards, tags)
        self.cards.clear()
        self.cards.update(tags)
        log.info("enrolled cards saved to %s (%d tags)", self.config.reader.cards, len(tags))

    def controller(self, session: Session, levels: tuple[str, ...],
                    hints: bool = False) -> Controller:
        from rig.core.computer import seat_for
        from rig.core.controller import Controller, ControllerOptions, Seat

        game_cfg = self.config.game
        seats = [seat_for(session.game.name, level, seed=i, hint=hints and level == "human",
                          hint_level=game_cfg.hint_level, game=session.game,
                          think_ms=game_cfg.think_ms)
                 if level != "human" or hints else Seat() for i, level in enumerate(levels)]
        seed = self.autoplay if self.autoplay is not None else self.seed
        rng = None if seed is None else StepSeeded(seed, lambda: session.steps, "chance")
        cards = self.card_map(session.game) if self.card_map is not None else self.cards
        options = ControllerOptions(virtual_deck=self.config.reader.type == "none",
                                    cards=cards)
        return Controller(session, clock=self.clock, options=options, seats=seats,
                          chance_rng=rng, on_alert=self.on_alert, defer_sync=True)
