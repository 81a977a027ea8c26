"""The key screens, as fixed values: golden images, render benchmarks and docs use them."""

from __future__ import annotations

from rig.screen import Screen

KEY_SCREENS: dict[str, Screen] = {
    "setup": Screen(title="NEW GAME", menu=("Game: 10-Four, Good Buddy", "Players: 4",
                                            "Seat 1: human", "Seat 2: strong", "START"),
                    cursor=1, footer="turn:move press:set"),
    "draw": Screen(title="10-4  BLUE", big="MOVE 8",
                   lines=("Green truck: 8 ahead to G13", "Blue: draw a card",
                          "Tap it on the rig")),
    "spin": Screen(title="10-4  BLUE", big="11", lines=("spinning...",)),
    "hammer": Screen(title="10-4  RED", lines=("HAMMER UP: no card", "Red: spin Lo-Band",
                                               "Flick the LO knob")),
    "police": Screen(title="10-4  RED", big="MOVE 5",
                     lines=("BREAK ONE NINE, Red", "Move a Smokey or the Bear"),
                     menu=("Smokey 1: 10 ahead by the short cut", "Smokey 2: into trap TB, 6",
                           "Bear to Green"), cursor=0),
    "alert": Screen(title="BEAR BITE!", lines=("Blue truck caught by", "Smokey 1 at B8:",
                                               "loses the next turn"),
                    alert=True, footer="press: ok"),
    "refused": Screen(title="10-4  RED", lines=("! Card already drawn", "since the last reshuffle",
                                                "Red: draw a card")),
    "winner": Screen(title="10-4, WINNER!", lines=("10-4, good buddy!", "Green wins"),
                     alert=True, footer="press: ok"),
    "bumpem_move": Screen(title="BUMP 'EM  BLUE", lines=("Blue draws 7", "Blue: use 7"),
                          menu=("Blue car 2: 7 ahead, bumps Red", "Blue car 1: swap with Red 3"),
                          cursor=0),
}
