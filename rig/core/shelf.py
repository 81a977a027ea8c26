"""The journals on disk: the game in progress resumed at start, or set aside when the
rig cannot use it, and a finished game filed in games/ (kept beside it when games/
cannot take it, and filed once it can)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from rig.config.records import StateConfig
from rig.core.service import seats_from_header
from rig.core.startup import (
    HeaderError,
    StateUnwritable,
    _cause_words,
    _filing_fix,
    _filing_why,
    _fix_advice,
)

if TYPE_CHECKING:  # the session and the controller are imported with the first game
    from rig.core.controller import Controller
    from rig.core.session import Session

log = logging.getLogger(__name__)

UNFILED = "unfiled-"
"""Prefix of a journal kept in the state directory because games/ could not take it."""

MakeController = Callable[..., "Controller"]
"""The daemon's controller for a resumed session: (session, levels, hints=...)."""


class Shelf:
    """Where the rig's journals go (the state directory's current game and games/)."""

    def __init__(self, state: StateConfig, wall_clock: Callable[[], datetime]) -> None:
        self.state = state
        self.wall_clock = wall_clock
        """The calendar time, a label only (a damaged journal's name)."""
        self.not_resumed = ""
        """Why a game on disk was not resumed (said on the setup menu)."""

    def resume(self, make_controller: MakeController) -> Controller | None:
        """The game in progress, or None for the setup menu.

        A journal that cannot be used as it is gets set aside (the rig must come up),
        and so does one whose header names a data file the rig cannot read (missing,
        not a regular file, too large): it is kept whole in games/. Only a healthy one
        the rig cannot write refuses the start (`StateUnwritable`): moving it would lose
        the table's game over a permission that one command fixes.
        """
        current = self.state.current
        if not os.path.lexists(current):  # a link, even dangling, is set aside below
            return None
        from rig.core.journalread import JournalError, JournalWriteError
        from rig.core.replay import ReplayError
        from rig.core.session import Session
        from rig.gamebuild import DataFileUnreadable, GameSetupError

        try:
            session = Session.resume(current)
        except JournalWriteError as exc:
            raise StateUnwritable(_fix_advice(current, exc),
                                  _cause_words(exc, "Journal", current)) from exc
        except DataFileUnreadable as exc:
            # the header names a file this rig cannot read (gone, a device, a FIFO, too
            # big): kept whole in games/ to restore by hand, and the table plays on
            self._refuse(current, str(exc), "data file unreadable")
            return None
        except (JournalError, ReplayError) as exc:
            self._refuse(current, str(exc), "a link, not a file"
                                 if current.is_symlink() else "damaged file")
            return None
        except GameSetupError as exc:
            self._refuse(current, str(exc), "unknown settings")
            return None
        try:
            levels, hints = seats_from_header(session)
            if session.state.is_terminal() or session.abandoned:
                # finished, or abandoned before it was filed
                self.not_resumed = self.archive(session)
                return None
            controller = make_controller(session, levels, hints=hints)
        except JournalWriteError as exc:
            raise StateUnwritable(_fix_advice(current, exc),
                                  _cause_words(exc, "Journal", current)) from exc
        except (HeaderError, ValueError) as exc:
            session.close()
            self._refuse(current, str(exc), "unknown seats")
            return None
        log.info("resumed %s at input %d", current, session.steps)
        return controller

    def _refuse(self, current: Path, why: str, short: str) -> None:
        """Set a journal the rig cannot use aside, log why in full and say it in a short
        line on the setup menu (the table needs the fact; the owner reads the log)."""
        from rig.core.journalread import JournalWriteError

        try:
            aside, unfiled = self._set_aside(current)
        except JournalWriteError as exc:
            raise StateUnwritable(f"cannot resume {current} ({why}) nor set it aside: "
                                  f"{exc}") from exc
        log.error("cannot resume %s: %s; set aside as %s", current, why, aside)
        self.not_resumed = f"Old game set aside: {short}" + (f". {unfiled}" if unfiled else "")

    def archive(self, session: Session) -> str:
        """Move the finished game to games/, named from the header already in memory
        (the file is not read again: damage on disk since must not stop the filing).
        "" when filed; else it was kept beside (see :meth:`_put_away`) and this says so."""
        from rig.core.filing import archive_name

        session.close()
        header = session.journal.header if session.journal is not None else {}
        _, problem = self._put_away(self.state.current, archive_name(header),
                                    "Finished game")
        return problem

    def _set_aside(self, current: Path) -> tuple[Path, str]:
        stamp = self.wall_clock().strftime("%Y-%m-%dT%H-%M-%SZ")  # a label: filed numbered
        return self._put_away(current, f"damaged-{stamp}.jsonl", "Old game")

    def _put_away(self, current: Path, name: str, what: str) -> tuple[Path, str]:
        """File `current` as games/`name`. When games/ cannot take it (root-owned after a
        `sudo cbrig run`, a plain file, a link, a read-only mount), keep it beside, in
        the state directory as ``unfiled-<name>``: the game is never lost and never in
        the way of the next game's journal, and the table can start a new game at once.
        Returns where it went and, when not filed, what to tell the table (why, and the
        fix); the log has the same. JournalWriteError only if it cannot even be renamed
        there (then no new game could be started either)."""
        from rig.core.filing import archive
        from rig.core.journalread import JournalWriteError

        games = self.state.games
        try:
            filed = archive(current, games, name=name)
        except JournalWriteError as exc:
            problem = exc
        else:
            self._file_kept(current.parent, games)
            return filed, ""
        beside = archive(current, current.parent, name=f"{UNFILED}{name}", numbered=False)
        fix = _filing_fix(games, problem)
        log.error("%s not filed: %s; kept as %s. Fix: %s (it is filed at the end of the "
                  "next game)", what, problem, beside, fix)
        return beside, (f"{what} not filed: {games} {_filing_why(problem)}. Kept as "
                        f"{beside}. Fix: {fix}")

    def _file_kept(self, state: Path, games: Path) -> None:
        """games/ takes journals again: file the ones kept beside it meanwhile."""
        from rig.core.filing import archive
        from rig.core.journalread import JournalWriteError

        for kept in sorted(state.glob(f"{UNFILED}*.jsonl")):
            try:
                filed = archive(kept, games, name=kept.name[len(UNFILED):])
            except JournalWriteError as exc:
                log.error("kept game %s still not filed: %s", kept, exc)
                return
            log.info("kept game %s filed as %s", kept, filed)
