"""How Bump 'Em is said (RULINGS G6): its track codes and tickets.

A track space is printed as "T35": it is said "track thirty-five"; the home stretch,
the pit and the finish are already words on the screen ("home stretch 3": "home stretch
three"). The Bump 'em! ticket and the game's name are said as words, not letters. A
result is said short: a forced move without its "Only move:" (the table just makes it),
and "Red cannot use 10" after "Red draws 10" as "Cannot use it".

One module, self-contained beyond the generic :mod:`rig.voice.speech`, so that it can move
into the game's own folder as it is.
"""

from __future__ import annotations

import re

from cbrig.game import Vocabulary, number_words

_TRACK = re.compile(r"\bT(\d{1,3})\b")
_BARE_CAR = re.compile(r"\b(Red|Blue|Green|Yellow) ([TH]\d{1,3}|in pit)\b")
"""A car named by colour and place only, as an oil slide's list of bumped cars is."""


def bare_cars(text: str) -> str:
    """"Green T25": "Green car at T25" ("Green in pit": "Green car in pit")."""
    return _BARE_CAR.sub(lambda m: f"{m.group(1)} car "
                         f"{'in pit' if m.group(2) == 'in pit' else 'at ' + m.group(2)}", text)
_HOME = re.compile(r"\bH(\d{1,2})\b")


_CANNOT = re.compile(r"^(\w+) cannot use (.+)$")
_PLACE = r"(?:T\d+|H\d+|home stretch \d+|finish|pit)"
_FROM_PIT = re.compile(rf"^\w+ car in pit (?:enters at|onto) ({_PLACE}|\w+ car at T\d+)(.*)$")
"""A move option out of the pit ("Red car in pit enters at T5", "Red car in pit onto
Blue car at T20"), and its consequence."""
_MOVE = re.compile(rf"^\w+ car (?:at|in) ({_PLACE}): \d+ (back )?to ({_PLACE})(.*)$")
"""A move option of a car on the track ("Red car at T9: 1 to T10"), and its
consequence (", bumps Blue")."""
_SPLIT = re.compile(rf"^\w+ car (?:at|in) ({_PLACE}): \d+ to ({_PLACE}), "
                    rf"\w+ car (?:at|in) ({_PLACE}): \d+ to ({_PLACE})$")
"""An 8 split between two cars ("Red car at T8: 1 to T9, Red car at T10: 7 to T17")."""
_SWAP = re.compile(rf"^\w+ car (?:at|in) ({_PLACE}): swap with (\w+) car at (T\d+)$")
_SLID = re.compile(rf"^, slides to ({_PLACE})(?:, bumps (.+))?$")
_ZOOMS = re.compile(r"^, zooms (\w+) car")
_ENDS = re.compile(rf"^, ends to ({_PLACE})$")
_BUMPED = re.compile(r"\b(Red|Blue|Green|Yellow)\b")


_DRAWS = re.compile(r"^(\w+) draws [^.]*\. ")
_NO_MOVE = re.compile(r"^(\w+) draws [^.]*\. Cannot use it\.?$")
_CAR_BRIEF = re.compile(r"(\w+) car at ([\w -]+?): [\w-]+ (back )?to ")
_PIT_BRIEF = re.compile(r"(\w+) car in pit enters at ")


def _bumped(cars: str) -> str:
    """", bumps Green and Yellow" for the cars a move bumps, by colour ("" for none)."""
    colours = list(dict.fromkeys(_BUMPED.findall(cars)))
    if not colours:
        return ""
    return ", bumps " + (" and ".join(colours) if len(colours) <= 2
                         else ", ".join(colours[:-1]) + " and " + colours[-1])


class BumpEmVocabulary(Vocabulary):
    REPLACE = (("BUMP 'EM", "Bump 'em"),)
    WINNER_TITLES = frozenset({"CHECKERED FLAG"})

    def said_line(self, text: str, before: str) -> str:
        """"Only move: Red car at T6: 3 to T9": "Red car at T6: 3 to T9"; "Red cannot use
        10" after "Red draws 10": "Cannot use it"."""
        text = text.removeprefix("Only move: ")
        cannot = _CANNOT.match(text)
        if cannot and before == f"{cannot.group(1)} draws {cannot.group(2)}":
            return "Cannot use it"
        return text

    def brief(self, text: str, kind: str) -> str:
        """A move in brief, when the voice is behind: "Red draws ten. Red car at track
        ten: ten to track twenty": "Red: track ten to track twenty"; a ticket that could
        not be used: "Blue cannot move"."""
        if kind != "move":
            return text
        no_move = _NO_MOVE.match(text)
        if no_move is not None:
            return f"{no_move.group(1)} cannot move"
        text = _DRAWS.sub("", text)
        text = _CAR_BRIEF.sub(lambda m: f"{m.group(1)}: {m.group(2)} {m.group(3) or ''}to ",
                              text)
        return _PIT_BRIEF.sub(r"\1 enters at ", text).rstrip(".")

    def options(self, menu: tuple[str, ...]) -> bool:
        """Which move: the options are read out (the rig's only choice in Bump 'Em)."""
        return True

    def option(self, item: str) -> str:
        """A move in the fewest words that still say which car goes where, short enough
        to hear between two turns of the knob at 3 s a gesture (issue 43): the player's
        own colour and the count (the prompt says both) left out, a car by where it
        stands ("Red car at T9: 1 to T10": "T9 to T10"; "... 9 back to T37": "T46 back
        to T37"), out of the pit "pit to T5" or "pit to Blue car at T20" (a Bump 'em!);
        an 8 split "T8 to T9, T10 to T17"; and what it does to others by their colour
        (", bumps Blue"; ", zooms Blue"): an oil slide by where the car ends ("T19
        slides to T31, bumps Green"), a turn into the home stretch by where it ends."""
        text = item.removeprefix("Only move: ")
        pit = _FROM_PIT.match(text)
        if pit is not None:
            return f"pit to {pit.group(1)}{self._consequence(pit.group(2))}"
        split = _SPLIT.match(text)
        if split is not None:
            return f"{split.group(1)} to {split.group(2)}, {split.group(3)} to {split.group(4)}"
        swap = _SWAP.match(text)
        if swap is not None:
            return f"{swap.group(1)} swaps with {swap.group(2)} at {swap.group(3)}"
        move = _MOVE.match(text)
        if move is None:
            return text
        here, back, to, then = move.groups()
        slid = _SLID.match(then)
        if slid is not None:
            bumps = _bumped(slid.group(2) or "")
            return f"{here} slides to {slid.group(1)}{bumps}"
        ends = _ENDS.match(then)
        if ends is not None:
            to, then = ends.group(1), ""
        return f"{here} {back or ''}to {to}{self._consequence(then)}"

    def knob(self, said: str) -> str:
        """The track named once in an option ("track eight to nine, ten to seventeen";
        "track nineteen slides to thirty-one"): every place after it is on the track
        unless it says otherwise (home stretch, finish, pit); what the move does to
        others without a pause before it ("track eleven back to five bumps Red": a
        comma costs about 0.3 s)."""
        head, track, rest = said.partition("track ")
        said = head + track + rest.replace("track ", "")
        return said.replace(", bumps ", " bumps ").replace(", zooms ", " zooms ")

    @staticmethod
    def _consequence(then: str) -> str:
        """A move's effect on others, by their colour (", bumps Blue", ", zooms Red")."""
        zooms = _ZOOMS.match(then)
        if zooms is not None:
            return f", zooms {zooms.group(1)}"
        if then.startswith(", bumps "):
            return _bumped(then.removeprefix(", bumps "))
        return then

    def places(self, text: str) -> str:
        """"T35": "track thirty-five"; a printed "H3": "home stretch three"; a car the
        screen names by colour and place only (an oil slide's bumped cars, "bumps Green
        T25, Yellow T57", short to fit a menu line) said as a car ("Green car at track
        twenty-five": issue 43, "bumps Yellow track fifty-seven" named no car)."""
        text = bare_cars(text)
        text = _TRACK.sub(lambda m: f"track {number_words(int(m.group(1)))}", text)
        return _HOME.sub(lambda m: f"home stretch {number_words(int(m.group(1)))}", text)


VOCABULARY = BumpEmVocabulary()
