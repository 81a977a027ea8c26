"""The key screens, as fixed values: golden images, render benchmarks and docs use them.

Each is worded as the real controller words that moment of a game; the audit in
test_screen_audit.py checks the controller's own screens, and test_golden.py puts these
through the same checks.
"""

from __future__ import annotations

from rig.screens.screen import Part, Screen

KEY_SCREENS: dict[str, Screen] = {
    "setup": Screen(title="NEW GAME", menu=("Game: 10-Four, Good Buddy", "Players: 4",
                                            "Colours: red green blue yellow", "Red: human",
                                            "Green: strong", "START"),
                    cursor=1, footer="turn:move press:set"),
    "draw": Screen(title="10-4  BLUE", lines=(Part("Blue: draw a Mike card", "instruction"),
                                              Part("Tap it on the rig", "instruction"))),
    "draw_card": Screen(title="10-4  BLUE", lines=(
        Part('"Blow my doors in, good buddy. Spin the Hi-Band."', "card"),
        Part("Blue: flick the HI knob (Hi-Band)", "instruction", "Blue: flick HI"))),
    "bear_warning": Screen(title="10-4  GREEN", lines=(
        Part('"Hammer down -- easy now. Spin the Lo-Band and move 1 extra space."', "card"),
        Part("Green: flick the LO knob (Lo-Band), move spin +1", "instruction",
             "Green: flick LO, +1"),
        Part("Bear watching the Green route: spin 6 at most", "warning",
             "Bear on Green: 6 max"))),
    "move_result": Screen(title="10-4  BLUE", big="MOVE 8",
                          lines=(Part("Blue truck at B5: 8 ahead to B13", "result"),),
                          footer="press: ok"),
    "early_press": Screen(title="10-4  BLUE", big="MOVE 8",
                          lines=(Part("Blue truck at B5: 8 ahead to B13", "result"),),
                          footer="too soon: press again"),
    "spin": Screen(title="10-4  BLUE", big="11", lines=("spinning...",)),
    "hammer": Screen(title="10-4  RED", lines=(
        Part("HAMMER UP! Red: no card, flick the LO knob (Lo-Band)", "instruction",
             "HAMMER UP! Red: flick LO"),)),
    "police": Screen(title="10-4  RED", lines=(
        Part("Red: BREAK ONE NINE! Move a Smokey or the Bear", "instruction",
             "Red: move a Smokey or the Bear"),),
        menu=("Smokey 1 in the Bear Trap on Yellow: 10 to Y19",
              "Smokey 2 in the Bear Trap on Red: 10 to G3 by short cut",
              "Bear to the Red route", "Bear to the Green route"), cursor=0),
    "alert": Screen(title="BEAR BITE!", lines=(
        Part("Blue truck at B4: 4 ahead to B8", "result"),
        Part("Blue truck at B8 caught by Smokey 1: to the side of the road, loses next turn",
             "alert", "Blue truck caught: side of road, loses next turn")),
        alert=True, footer="press: ok"),
    "refused": Screen(title="10-4  RED", lines=(
        Part("! Card already drawn since the last reshuffle", "refusal"),
        Part("Red: draw a Mike card", "instruction"), Part("Tap it on the rig", "instruction"))),
    "winner": Screen(title="10-4, WINNER!", lines=(
        Part("Green truck at G17: 5 ahead, home!", "result"),
        Part("10-4, good buddy! Green wins", "alert")), alert=True, footer="press: ok"),
    "bumpem_move": Screen(title="BUMP 'EM  BLUE", lines=(
        Part("Blue drew 7: choose a move", "instruction", "Blue: use 7"),),
        menu=("Blue car at T14: 7 to T21, bumps Red", "Blue car at T14: swap with Red car at "
              "T30", "Blue car at T3: swap with Red car at T30"), cursor=0),
    "bumpem_result": Screen(title="BUMP 'EM  RED", lines=(
        Part("Red draws 5", "result"), Part("Only move: Red car at T6: 5 to T11", "result")),
        footer="press: ok"),
    "correction_pieces": Screen(title="CORRECTION", lines=(
        Part("FIX: which piece or turn?", "instruction", "FIX: what is wrong?"),),
        menu=("Red truck at R8", "Green truck at the side of road G4", "Blue truck at B1",
              "Smokey 1 in the Bear Trap on Blue", "Whose turn: Green", "Lost turns: Blue",
              "Take back: Draw Mike card M05", "Done"), cursor=1,
        footer="turn:pick press:ok"),
    "correction_places": Screen(title="CORRECTION", lines=(
        Part("FIX: Green truck at the side of road G4 to", "instruction", "FIX: set it to"),),
        menu=("G3", "G4 (now)", "G5", "G6"), cursor=1, footer="HI:space LO:section"),
}
