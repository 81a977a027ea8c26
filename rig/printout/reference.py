"""The quick reference text of each game, as the rig rules it (RULINGS.md).

Numbers that are options or data (the Bear's limit, a Smokey's move, turbo on or off,
the board's lengths) come from the game being printed, so the page matches the rig.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Sections = list[tuple[str, Sequence[str]]]


def reference_text(game_name: str, game: Any) -> tuple[str, Sections]:
    """The page's title and sections, from the game's registry entry."""
    from rig.printout.sheets import print_tools
    from rig.registry import entry

    return f"{entry(game_name).title}: quick reference", print_tools(game_name).reference(game)


def tenfour_reference(game: Any) -> Sections:
    board = game.board
    bear = game.options["bear_limit"]
    move = game.options["smokey_move"]
    return [
        ("The road", [
            f"One clockwise loop of {board.size} highway spaces in four coloured routes. Each "
            "truck starts on the first space of its colour's route (START) and must drive the "
            "whole loop back to it. Reaching or passing it wins at once: no exact count.",
            "Spaces are named as printed (R13); the rig names every other place as the "
            "board does: Bear Trap on Blue, short cut R16-G2, Bear space on Green, "
            f"{board.park}, side of road R13.",
        ]),
        ("Your turn (3-4 players)", [
            "Tap the next Mike card on the rig (or let it draw one), spin the band the card "
            "names with the knob, and move spin + extra spaces.",
            "BREAK ONE NINE: first spin and move, then you must make one police move, even "
            "if your truck could not move.",
            "Start order: everyone spins the Hi-Band, highest first, ties spin again; play "
            "then goes to the left. Used cards are reshuffled when the deck runs out.",
        ]),
        ("Caught!", [
            "Smokey on the highway: when any move ends, a truck on the Smokey's space or the "
            "space just in front or behind is caught. Passing does not count.",
            "Bear Trap: a truck whose move ends on one of the trap's three spaces while a "
            "Smokey is in the trap is caught (not one already standing there).",
            "A caught truck goes to the side of the road at its space; its owner loses the "
            "next turn, then it goes on from there. While there it cannot be caught again.",
            f"Bear In The Air: a truck that starts its turn on the watched route with spin + "
            f"extra of {bear} or more is caught and does not move (no later turn lost).",
        ]),
        ("Hammer Up", [
            "A truck whose turn ends on a Hammer Up curve (orange) plays its next turn "
            "without a card, on the Lo-Band.",
        ]),
        ("Police moves (on BREAK ONE NINE)", [
            f"While any police piece is still in {board.park}, take one out: a Smokey into "
            "any Bear Trap (both may share one), the Bear onto any Bear space. Nothing ever "
            "returns to the Park.",
            f"Once all are out: a Smokey moves exactly {move} steps clockwise (it may take a "
            f"short cut, 1 step); or at most {move} steps ending in a Bear Trap (stepping in "
            "is 1 step); or the Bear moves to another Bear space.",
            "A Smokey enters a trap from any of its three spaces and leaves it onto the "
            "space after the last. A Smokey in a trap or on a short cut catches nobody.",
        ]),
        ("Two players", [
            "Each player has two trucks on one entrance (red + green on R's start, blue + "
            "yellow on B's start) and puts a Smokey in any Bear Trap first; no Bear, no Park.",
            "A turn: draw, spin, choose either truck and move it; a truck on a Hammer Up "
            "space is declared before drawing (no card, Lo-Band). Both trucks home wins.",
        ]),
        ("Cards", [
            "Each Mike card carries an RFID tag enrolled to its entry; a tag not enrolled, "
            "or a card already drawn since the last reshuffle, is refused and nothing "
            "changes.",
        ]),
        corrections("any piece's place (Red truck at R8), whose turn it is, a lost turn or "
                    "a pending Hammer Up", "card", spins=True),
    ]


def corrections(what: str, card: str, spins: bool) -> tuple[str, Sequence[str]]:
    """How to open the correction menu and take back (RULINGS G5), in a family's words."""
    return ("Corrections and take-back", [
        "When the table and the rig disagree, hold either knob down until the correction "
        "menu opens (a long press); turn to a row and press. Another long press closes it.",
        f"The menu sets {what}.",
        f"Its last row, Take back, undoes the last move chosen, correction or {card} tapped "
        f"({'never a spin, nor' if spins else 'never'} a {card} the rig drew itself). The "
        "rig keeps every correction "
        "and take-back with the game.",
    ])


def _ticket_lines(game: Any) -> list[str]:
    """What each ticket does, in the words of the ticket file in use, two kinds a line."""
    from engine.bumpem.tickets import TICKET_IDS, ticket_label

    tickets = game.tickets
    kinds = [f"{ticket_label(kind)}: {text}" for kind, text, count
             in zip(TICKET_IDS, tickets.texts, tickets.counts, strict=True) if count > 0]
    return [" ".join(kinds[i:i + 2]) for i in range(0, len(kinds), 2)]


def bumpem_reference(game: Any) -> Sections:
    board = game.board
    turbo = game.options.get("turbo", True)
    sections: Sections = [
        ("The track", [
            f"A loop of {board.track_length} spaces (T1-T{board.track_length}), cars move "
            f"clockwise. Each colour has {board.cars_per_player} cars, a pit row beside its "
            f"start, a home stretch of {board.home_length} spaces (HOME STRETCH 1-"
            f"{board.home_length}) that leaves the track just before its start, and a finish "
            "area.",
        ]),
        ("Your turn", [
            "Draw a ticket (tap a ticket card or let the rig draw), then make one of the "
            "moves it allows; the rig lists them. No legal move: the ticket is lost. "
            "Exactly one: it must be made, even when it hurts.",
            *_ticket_lines(game),
        ]),
        ("Landing", [
            "Landing on another player's car sends it to its pit row. You may not land on "
            "your own car (unless it is on a turbo space).",
            "A car reaching its own home-stretch entrance goes in instead of going on; cars "
            "in the home stretch cannot be bumped or swapped; finishing needs the exact count.",
            "Entering onto your start space bumps an opponent there; your own car there "
            "blocks the entry. Backward moves may take a car out of its home stretch.",
            "Oil slick: landing on one of another colour slides the car 6 spaces forward, "
            "sending every car on those spaces (its owner's too) to its pit row.",
        ]),
    ]
    if turbo and board.turbo:
        sections.append(("Turbo spaces", [
            "Landing on a turbo space where a car sits does not bump it: the sitting car "
            "zooms forward to the next turbo space (or straight into its finish if its own "
            "entrance comes first). A zoom onto an occupied turbo space sets that car off "
            "in turn.",
        ]))
    sections.append(("Winning", [
        "The first player with every car in the finish area wins.",
    ]))
    sections.append(corrections("any car's place (cars are named by where they stand: Red "
                                "car at T35, Red car in home stretch 3) or whose turn it is",
                                "ticket", spins=False))
    return sections
