"""The "Phones: join" screen of the setup menu: how a phone at the table joins the live
board (issue 44): the address to open and the code to type, and the owner's "New code".

Shown on the OLED, and so on the browser rig's OLED too. The invitation itself (the code
and the token pages keep) is rig.web.invite's; this screen only shows it and renews it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from hardware.events import KnobPress, KnobTurn
from rig.screens import words
from rig.screens.screen import Screen

TITLE = words.JOIN_TITLE


class Invited(Protocol):
    """What the screen needs of rig.web.invite.Invitation."""

    code: str

    def renew_all(self) -> None: ...


def spaced(code: str) -> str:
    """"482913" as "482 913": easier to read off the OLED and to say."""
    return f"{code[:3]} {code[3:]}" if len(code) == 6 else code


class JoinScreen:
    """The addresses a phone opens and the join code (big); turn to choose Back or New
    code, press to do it. "New code" renews the token too: every page must join again."""

    OPTIONS = words.JOIN_OPTIONS

    def __init__(self, invitation: Invited, addresses: Callable[[], list[str]]) -> None:
        self.invitation = invitation
        self.addresses = addresses
        self.cursor = 0
        self.closed = False
        self.renewed = False

    def handle(self, event: object) -> None:
        if isinstance(event, KnobTurn):
            self.cursor = (self.cursor + event.steps) % len(self.OPTIONS)
        elif isinstance(event, KnobPress):
            if self.cursor == 0:
                self.closed = True
            else:
                self.invitation.renew_all()
                self.renewed = True

    def screen(self) -> Screen:
        lines = tuple(self.addresses()) or (words.NOT_SERVING,)
        return Screen(title=TITLE, big=spaced(self.invitation.code),
                      lines=lines, menu=self.OPTIONS, cursor=self.cursor,
                      footer=words.MENU_FOOTER)
