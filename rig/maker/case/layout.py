"""Where everything goes: the case's size and each part's place, from the config.

Pure arithmetic on the part table (no CAD library), so the figures can be read and
tested on their own. Case coordinates, millimetres: x to the right, y from the front
face (0) to the back, z up from the table. The console is a tray (floor, side and back
walls, a front frame), a faceplate that slides into the frame from above, and a lid that
closes the top and holds the faceplate down; the knobs go on the encoder shafts.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from hardware.rfid.kinds import NO_READER, reader_kind
from rig.maker.case import tag
from rig.maker.case.parts import Part, PartTable
from valueclass import Frozen

if TYPE_CHECKING:
    from rig.config import RigConfig

# -- printing rules and the fixed figures of the design -----------------------------------

BED = 220.0
"""The print bed every part must fit (a common 220 x 220 mm bed)."""
MIN_WALL = 1.6
MAX_BRIDGE = 20.0
"""The longest unsupported span (a bridge) a downward face may have."""
MAX_OVERHANG = 45.0
"""Degrees from vertical a downward face may lean without a bridge or support."""

WALL = 2.0
FLOOR = 2.4
LID = 3.2
RECESS_DEPTH = 1.2
"""The card recess in the lid: 2.0 mm of lid stays over the antenna (REFERENCE.md: a
2-3 mm printed wall over the antenna is fine)."""
CARD = tag.CARD
"""A Mike card printed by the kit: poker size (REFERENCE.md; rig/maker/case/tag.py)."""
CARD_CLEARANCE = 1.0
FINGER_NOTCH = (18.0, 8.0)
"""The finger notch through the lid at the card recess's front edge (width, front to
back): a fingertip, not a fingernail, gets under the card."""
RECESS_INSET = 8.0
"""From the left wall's inner face to the card recess: the left lid screws' heads (M3 pan
head, 5.6 mm) stand beside the recess with MIN_WALL of lid between."""
"""Room around the card in its recess, each side."""
PANEL = 2.4
"""The faceplate's thickness."""
SLOT_GAP = 0.2
"""Clearance of the faceplate in its slot, each side."""
FRAME_DEPTH = 2.0
"""The front frame in front of the faceplate (y 0 to 2)."""
FRAME_LIP = 4.0
"""How far the frame and the ribs behind the faceplate reach in from the walls."""
RIB = 2.0
FIT = 0.2
"""Clearance of a printed hole round a part (LED, bushing, sockets), each side."""
KNOB_DIAMETER = 30.0
KNOB_RIM_GAP = 20.0
"""At least this much between the two knobs' rims (grip ribs included): finger and thumb
turn one knob without touching the other (panel-design guides ask about 25 mm between
knobs; one each side of the display gives more)."""
KNOB_HEIGHT = 19.0
KNOB_GAP = 1.0
"""Between the knob's underside and the faceplate."""
KNOB_BORE_CLEARANCE = 0.1
"""On the D-bore's radius and flat: a snug push fit on a 6 mm D shaft."""
KNOB_TOP = 2.0
"""The knob's top over the end of its bore."""
KNOB_RECESS = (14.0, 5.0)
"""The knob's underside pocket that clears the bushing's end and its nut (dia, depth)."""
BOSS_WALL = 1.7
PI_STANDOFF = 5.0
LID_SCREW = "M3"
LID_SPIGOT = (7.4, 1.2)
"""A ring on each lid column's top (outer diameter, height) that stands into a pocket in
the lid's underside (SPIGOT_FIT larger all round, 0.2 mm deeper): the lid drops into
place and cannot slide."""
SPIGOT_FIT = 0.2
ANTENNA_GAP_MIN = 2.6
"""Under the lid over a reader: room for a clamp screw's washer and head."""
SPEAKER_RIM = 3.0
"""The speaker frame's rim, and so its socket ring and clamp posts, behind the faceplate."""
SPEAKER_SCREW = 3.2
"""The speaker clamp screws' centres outside its rim: the pilot hole keeps a 1.6 mm wall
to the speaker's ring and the washer still reaches 1.8 mm over the rim."""
PLUG_MARGIN = 0.5
"""Room round a plug's moulding in its wall opening, each side."""
PLUG_MARGIN_MIN = 0.2
"""What a wall opening may shrink to round a plug to keep the web beside it MIN_WALL."""
PORT_CLEARANCE = 0.5
"""Kept clear round every socket's envelope (wiring/parts.toml: width, height, overhang,
depth), besides the board's tolerance: the board drops onto its bosses past the walls."""
PANEL_MARGIN = 5.0
"""Between neighbouring parts on the faceplate."""
GAP = 1.5
"""Between a board's edge and a wall it faces, at least (more where a socket reaches past
the edge: see `edge_gap`)."""

INSERT_HOLE = {"M2": 3.2, "M2.5": 3.6, "M3": 4.0}
"""Heat-set insert holes (M2.5 and M3 inserts hold screws in PLA: REFERENCE.md)."""
INSERT_LENGTH = {"M2.5": 4.0, "M3": 5.7}
"""The heat-set inserts the BOM names (the common short brass inserts: M2.5 x 4 mm,
M3 x 5.7 mm); each sits in its pocket with room below it to spare."""
PILOT_HOLE = {"M2": 1.6, "M2.5": 2.1, "M3": 2.5}
"""Self-tapping screws' pilot holes (small modules)."""
CLEAR_HOLE = {"M2": 2.4, "M2.5": 2.9, "M3": 3.4}
CLAMP_WASHER = 10.0
"""A 10 mm fender washer (3.2 mm hole, sold as M3) on an M2.5 screw holds a board without
holes, or the speaker's rim, by its edge."""
CLAMP_POST = 7.0
"""A clamp post's diameter: it reaches under the board's edge, the washer over it."""

Vec = tuple[float, float, float]


class Placed(Frozen):
    """One part in the case. `orient`: "flat" (top up, turned `turn` degrees about z)
    or "panel" (behind the faceplate, its top facing the front)."""

    key: str
    part: Part
    origin: Vec
    orient: str = "flat"
    turn: int = 0
    """Degrees about the part's own z: 90 for a flat part, 270 for a panel part whose
    right edge then points down."""

    def point(self, u: float, v: float, w: float) -> Vec:
        """A point of the part (board coordinates) in case coordinates."""
        ox, oy, oz = self.origin
        if self.orient == "panel":
            if self.turn == 270:
                return (ox + v, oy - w, oz - u)
            return (ox + u, oy - w, oz + v)
        if self.turn == 90:
            return (ox - v, oy + u, oz + w)
        return (ox + u, oy + v, oz + w)

    def seat(self, u: float, v: float) -> Vec:
        """Where a hole at (u, v) meets its boss: the board's underside on a floor post,
        its top face on a faceplate boss (panel parts face the front)."""
        return self.point(u, v, self.part.thickness if self.orient == "panel" else 0.0)

    def footprint(self, grow: float = 0.0) -> tuple[float, float, float, float]:
        """The outline's box in the case's xy plane (x0, y0, x1, y1), or for a panel
        part in xz (x0, z0, x1, z1); grown by `grow` each side."""
        sx, sy = self.part.size
        a = self.point(0, 0, 0)
        b = self.point(sx, sy, 0)
        if self.orient == "panel":
            lo, hi = (min(a[0], b[0]), min(a[2], b[2])), (max(a[0], b[0]), max(a[2], b[2]))
        else:
            lo, hi = (min(a[0], b[0]), min(a[1], b[1])), (max(a[0], b[0]), max(a[1], b[1]))
        return (lo[0] - grow, lo[1] - grow, hi[0] + grow, hi[1] + grow)


class Boss(Frozen):
    """A screw boss standing on a printed part: a post from `base` along `axis`
    ("z" up from the floor, or "y" back from the faceplate) of `length`, with a hole
    of `hole` mm for `depth` mm at its end."""

    key: str
    holds: str
    """The Placed key (or "lid") whose screw goes in."""
    center: Vec
    """Where the post starts (on the floor or on the faceplate's back)."""
    axis: str
    length: float
    diameter: float
    hole: float
    depth: float
    screw: str
    fixing: str
    """"insert" (heat-set insert) or "pilot" (a self-tapping screw)."""
    clamp: bool = False
    """The screw's washer clamps a board without holes by its edge."""

    @property
    def end(self) -> Vec:
        x, y, z = self.center
        return (x, y + self.length, z) if self.axis == "y" else (x, y, z + self.length)


class Opening(Frozen):
    """A hole through a wall for a plug: `wall` "right" or "back", the rectangle's
    centre along the wall and its bottom and top."""

    name: str
    wall: str
    along: float
    width: float
    z0: float
    z1: float


class Layout(Frozen):
    width: float
    depth: float
    height: float
    placed: tuple[Placed, ...]
    bosses: tuple[Boss, ...]
    openings: tuple[Opening, ...]
    recess: tuple[float, float, float, float]
    """The card recess in the lid's top (x0, y0, x1, y1)."""
    lid_screws: tuple[tuple[float, float], ...]
    vents_side: tuple[tuple[float, float, float, float], ...]
    """Slots in the left wall: (y0, y1, z0, z1) each."""
    vents_top: tuple[tuple[float, float, float, float], ...]
    """Slots through the lid and the floor over and under the Pi: (x0, y0, x1, y1)."""
    grille: tuple[float, float, float] | None
    """The speaker grille's centre (x, z) on the faceplate and its radius."""
    config: tuple[str, str, str, bool, bool, bool]
    """(pi, display, reader, speaker, buzzer, led): what this layout holds."""

    def get(self, key: str) -> Placed:
        for placed in self.placed:
            if placed.key == key:
                return placed
        raise KeyError(key)

    def has(self, key: str) -> bool:
        return any(p.key == key for p in self.placed)

    @property
    def lid_underside(self) -> float:
        return self.height - LID

    @property
    def panel_y(self) -> tuple[float, float]:
        """The faceplate's front and back faces."""
        return (FRAME_DEPTH + SLOT_GAP, FRAME_DEPTH + SLOT_GAP + PANEL)

    @property
    def panel_x(self) -> tuple[float, float]:
        return (WALL + SLOT_GAP, self.width - WALL - SLOT_GAP)

    @property
    def panel_z(self) -> tuple[float, float]:
        return (FLOOR, self.lid_underside - SLOT_GAP)

    def card_to_antenna(self) -> float:
        """From the underside of a card lying in the recess to the antenna's face."""
        antenna = self.antenna()
        if antenna is None:
            return math.inf
        return (self.height - RECESS_DEPTH) - antenna[4]

    def antenna(self) -> tuple[float, float, float, float, float] | None:
        """The reader's antenna area in case coordinates: x0, y0, x1, y1 and its top z."""
        for placed in self.placed:
            box = placed.part.antenna
            if box is None:
                continue
            u, v, w, h = box
            a = placed.point(u, v, placed.part.thickness)
            b = placed.point(u + w, v + h, placed.part.thickness)
            return (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]), a[2])
        return None


class CaseChoice(Frozen):
    """What the case holds: read from the rig config (rig.config: [case], [display],
    [reader], [pins])."""

    pi: str = "zero2w"
    display: str = "ssd1306"
    reader: str = "rdm6300"
    speaker: bool = False
    buzzer: bool = True
    led: bool = True


CHECKED = {
    "zero-ssd1306-rdm6300": CaseChoice(pi="zero2w", display="ssd1306", reader="rdm6300"),
    "pi4-sh1106-pn532-speaker": CaseChoice(pi="pi4", display="sh1106", reader="pn532",
                                           speaker=True),
    "zero-sh1106-pn532-speaker": CaseChoice(pi="zero2w", display="sh1106", reader="pn532",
                                            speaker=True),
    "pi5-ssd1306-rdm6300": CaseChoice(pi="pi5", display="ssd1306", reader="rdm6300",
                                      buzzer=False),
    "pi3-ssd1306-pn532": CaseChoice(pi="pi3", display="ssd1306", reader="pn532"),
}
"""The configurations tests/case/ builds and checks (docs/case_figures.py measures them):
Pi Zero vs Pi 3/4/5, SSD1306 vs SH1106, RDM6300 vs PN532, speaker or not, buzzer or not."""


def choice_from_config(config: RigConfig) -> CaseChoice:
    """The CaseChoice of a rig config (a display the case cannot hold is a ValueError
    saying so)."""
    if config.display.driver not in ("ssd1306", "sh1106"):
        raise ValueError(f"the case holds an ssd1306 or sh1106 display, not "
                         f"display.driver = {config.display.driver!r}")
    return CaseChoice(pi=config.case.pi, display=config.display.driver,
                      reader=config.reader.type, speaker=config.case.speaker,
                      buzzer=config.pins.buzzer is not None,
                      led=config.pins.led is not None)


def _reader_part(reader: str) -> str:
    """The part table's choice of a reader type (its record's ``case_part``)."""
    part = reader_kind(reader).case_part
    if part is None:
        raise ValueError(f"the case has no place for the reader {reader!r} (its reader "
                         "type names no case_part in wiring/parts.toml)")
    return part


def _boss_diameter(hole: float) -> float:
    return round(hole + 2 * BOSS_WALL, 2)


def plan(table: PartTable, choice: CaseChoice) -> Layout:
    """The layout for `choice`: size the console to its parts and place each one."""
    pi = table.choose("pi", choice.pi)
    display = table.choose("display", choice.display)
    knob = table.choose("encoder", "ky040")
    reader = table.choose("reader", _reader_part(choice.reader)) \
        if choice.reader != NO_READER else None
    antenna = table.by_id(reader.antenna_part) if reader and reader.antenna_part else None
    speaker = table.choose("speaker", "speaker") if choice.speaker else None
    amp = table.choose("amplifier", "max98357a") if choice.speaker else None
    buzzer = table.choose("buzzer", "buzzer") if choice.buzzer else None
    led = table.choose("led", "led") if choice.led else None

    # -- the faceplate, left to right: grille, hi knob, display, lo knob, LED/buzzer -------
    widths: list[tuple[str, float]] = []
    if speaker:
        widths.append(("speaker", speaker.diameter + 2 * (FIT + MIN_WALL) + 2 * CLAMP_POST))
    # the encoders stand turned so their pin header points down, its housings above the
    # floor: across the faceplate they take the board's short side
    shaft_v = knob.shaft[1] if knob.shaft else 0.0
    knob_w = max(KNOB_DIAMETER, 2 * (max(shaft_v, knob.size[1] - shaft_v) + knob.tolerance))
    # one knob each side of the display, as a CB radio's volume and squelch: a hand turns
    # one without brushing the other (KNOB_RIM_GAP between their rims at least)
    widths += [("hi", knob_w), ("display", display.size[0] + 2 * display.tolerance),
               ("lo", knob_w)]
    if led or buzzer:
        widths.append(("side", 16.0))
    inside = sum(w for _, w in widths) + PANEL_MARGIN * (len(widths) + 1)
    panel_width = inside + 2 * FRAME_LIP

    # -- the top: the card recess on the left, the Pi at the back right --------------------
    recess_w, recess_d = CARD[0] + 2 * CARD_CLEARANCE, CARD[1] + 2 * CARD_CLEARANCE
    pi_w, pi_l = pi.size[1], pi.size[0]  # turned 90 degrees: its length runs front to back
    right_gap, back_gap = edge_gap(pi, "bottom"), edge_gap(pi, "right")
    top_width = WALL + RECESS_INSET + recess_w + 34 + pi_w + right_gap + WALL
    width = math.ceil(max(panel_width + 2 * WALL, top_width))
    front_zone = 31.0
    depth = math.ceil(max(front_zone + pi_l + back_gap + WALL + 8, recess_d + 2 * 14))
    # the card's recess: its tag's spot over the antenna, the antenna (and the posts
    # beside it) behind the faceplate's parts, a lid rim behind the recess
    tag_dx, tag_dy = tag.tag_offset()
    recess_cy = depth / 2 + 6.0
    if reader:
        top_thing = antenna or reader
        reach = top_thing.size[1] / 2 + top_thing.tolerance + (
            CLAMP_POST if top_thing.mount == "clamp" else 0.0)
        recess_cy = max(recess_cy, front_zone + reach - tag_dy)
    depth = max(depth, math.ceil(recess_cy + recess_d / 2 + WALL + 4.0))
    height = 56.0
    if width > BED or depth > BED:
        raise ValueError(f"the console would be {width} x {depth} mm, over the {BED} mm bed")

    placed: list[Placed] = []
    bosses: list[Boss] = []
    panel_back = FRAME_DEPTH + SLOT_GAP + PANEL
    z_mid = (FLOOR + FRAME_LIP + height - LID) / 2

    x = WALL + FRAME_LIP + PANEL_MARGIN
    centres: dict[str, float] = {}
    for name, w in widths:
        centres[name] = x + w / 2
        x += w + PANEL_MARGIN
    grille = None
    if speaker:
        r = speaker.diameter / 2
        cx = centres["speaker"]
        placed.append(Placed("speaker", speaker, (cx - r, panel_back + speaker.thickness,
                                                  z_mid - r), "panel"))
        grille = (cx, z_mid, r - 3.0)
        for side in (-1, 1):  # two clamp screws whose washers hold the frame's rim
            hole = PILOT_HOLE["M2.5"]
            bosses.append(Boss(f"speaker clamp {'left' if side < 0 else 'right'}", "speaker",
                               (cx + side * (r + SPEAKER_SCREW), panel_back, z_mid), "y",
                               SPEAKER_RIM, CLAMP_POST, hole, SPEAKER_RIM, "M2.5", "pilot",
                               clamp=True))
    # the display: its window centred at the knobs' height, glass 0.2 mm off the faceplate
    sx = display.size[0]
    assert display.window is not None
    wv, wh = display.window[1], display.window[3]
    window_cz = z_mid + 6.0
    standoff = display.above + 0.2
    d_origin = (centres["display"] - sx / 2, panel_back + standoff + display.thickness,
                window_cz - (wv + wh / 2))
    disp = Placed("display", display, d_origin, "panel")
    placed.append(disp)
    hole = PILOT_HOLE[display.screw]
    for i, (hu, hv) in enumerate(display.holes):
        px, _, pz = disp.seat(hu, hv)
        # the pilot hole goes on into the faceplate, leaving it MIN_WALL thick in front
        bosses.append(Boss(f"display {i + 1}", "display", (px, panel_back, pz), "y",
                           standoff, _boss_diameter(hole), hole,
                           standoff + PANEL - MIN_WALL, display.screw, "pilot"))
    # the knobs: the encoder body against the faceplate's back, shaft through a 7 mm hole
    assert knob.shaft is not None and knob.body is not None
    su, sv = knob.shaft
    reach = knob.header[1] if knob.header else 0.0
    knob_z = FLOOR + 0.5 + reach + (knob.size[0] - su) + knob.tolerance
    for name in ("hi", "lo"):
        body_h = knob.body[2]
        # turned 270: board (u, v) -> case (x0 + v, z0 - u); the shaft lands on (cx, knob_z)
        origin = (centres[name] - sv, panel_back + body_h + knob.thickness, knob_z + su)
        placed.append(Placed(f"{name} knob", knob, origin, "panel", 270))
    if led or buzzer:
        cx = centres["side"]
        if led:
            placed.append(Placed("led", led, (cx - led.diameter / 2, panel_back + 1.0,
                                              z_mid + 12.0 - led.diameter / 2), "panel"))
        if buzzer:
            placed.append(Placed("buzzer", buzzer,
                                 (cx - buzzer.diameter / 2, panel_back + buzzer.thickness,
                                  z_mid - 8.0 - buzzer.diameter / 2), "panel"))

    # -- the Pi: turned 90 degrees, power edge to the right wall, ports to the back -------
    pi_origin = (width - WALL - right_gap, depth - WALL - back_gap - pi_l, FLOOR + PI_STANDOFF)
    pi_placed = Placed("pi", pi, pi_origin, "flat", 90)
    placed.append(pi_placed)
    for i, (hu, hv) in enumerate(pi.holes):
        px, py, _ = pi_placed.point(hu, hv, 0)
        hole = INSERT_HOLE[pi.screw]
        bosses.append(Boss(f"pi {i + 1}", "pi", (px, py, FLOOR), "z", PI_STANDOFF,
                           _boss_diameter(hole), hole, 4.5, pi.screw, "insert"))
    openings = _openings(pi_placed)
    pi_x0 = pi_placed.footprint()[0]

    # -- the card recess and the reader under it --------------------------------------------
    rx0 = WALL + RECESS_INSET
    ry0 = recess_cy - recess_d / 2
    recess = (rx0, ry0, rx0 + recess_w, ry0 + recess_d)
    # the antenna goes under the tag's printed spot (rig/maker/case/tag.py) of a card lying
    # face up the right way round: its top edge towards the back of the console
    rcx = (recess[0] + recess[2]) / 2 + tag_dx
    rcy = (recess[1] + recess[3]) / 2 + tag_dy
    if reader:
        top_thing = antenna or reader
        gap = max(ANTENNA_GAP_MIN, top_thing.above + 0.4)
        top_z = height - LID - gap
        tx, ty = top_thing.size
        t_origin = (rcx - tx / 2, rcy - ty / 2, top_z - top_thing.thickness)
        key = "antenna" if antenna else "reader"
        top = Placed(key, top_thing, t_origin)
        placed.append(top)
        bosses += _mount_bosses(top, FLOOR, t_origin[2] - FLOOR)
        if antenna:  # the reader board on the floor under its coil, between the posts
            board_z = FLOOR + reader.below + 1.0
            b = Placed("reader", reader, (rcx - reader.size[0] / 2, rcy - reader.size[1] / 2,
                                          board_z))
            placed.append(b)
            bosses += _mount_bosses(b, FLOOR, board_z - FLOOR)
    if amp:
        board_z = FLOOR + amp.below + 1.0
        ax = (recess[2] + pi_x0) / 2 - amp.size[0] / 2
        a = Placed("amplifier", amp, (ax, depth - WALL - back_gap - 14.0 - amp.size[1],
                                      board_z))
        placed.append(a)
        bosses += _mount_bosses(a, FLOOR, board_z - FLOOR)

    # -- lid screws: columns in the corners, the back right one just left of the Pi --------
    c = WALL + 3.6  # the lid's spigot pocket keeps MIN_WALL to the lid's edge
    lid_screws = ((c, front_zone), (width - c, front_zone), (c, depth - c),
                  (pi_x0 - 6.0, depth - c))
    for i, (lx, ly) in enumerate(lid_screws):
        hole = INSERT_HOLE[LID_SCREW]
        bosses.append(Boss(f"lid {i + 1}", "lid", (lx, ly, FLOOR), "z", height - LID - FLOOR,
                           8.0, hole, 6.0, LID_SCREW, "insert"))

    vents_side = tuple((y, y + 2.5, 18.0, 44.0) for y in _steps(44.0, depth - 14.0, 6.0))
    px0, py0, px1, py1 = pi_placed.footprint()
    vents_top = tuple((x, py0 + 10.0, x + 2.5, py1 - 10.0)
                      for x in _steps(px0 + 8.0, px1 - 10.0, 6.0))
    return Layout(width=float(width), depth=float(depth), height=height,
                  placed=tuple(placed), bosses=tuple(bosses), openings=openings,
                  recess=recess, lid_screws=lid_screws, vents_side=vents_side,
                  vents_top=vents_top, grille=grille,
                  config=(choice.pi, choice.display, choice.reader, choice.speaker,
                          choice.buzzer, choice.led))


def _steps(start: float, stop: float, pitch: float) -> list[float]:
    count = int((stop - start) // pitch) + 1
    return [start + i * pitch for i in range(max(count, 0))]


def _mount_bosses(placed: Placed, base_z: float, length: float) -> list[Boss]:
    """Posts under a flat part: at its holes, or (no holes) clamp posts beside its long
    edges whose screw's washer holds the edge down."""
    part = placed.part
    if part.holes:
        hole = PILOT_HOLE[part.screw]
        out = []
        for i, (hu, hv) in enumerate(part.holes):
            px, py, _ = placed.point(hu, hv, 0)
            out.append(Boss(f"{placed.key} {i + 1}", placed.key, (px, py, base_z), "z",
                            length, _boss_diameter(hole), hole, min(length, 6.0), part.screw,
                            "pilot"))
        return out
    hole = PILOT_HOLE[part.screw]
    # the screw's centre just outside the outline (and its tolerance), so the washer
    # reaches over the edge while the screw misses the board; the post reaches 0.4 mm
    # under the edge of the smallest board the tolerance allows
    off = part.tolerance + hole / 2 + 0.6
    diameter = max(_boss_diameter(hole), CLAMP_POST, round(2 * (off + part.tolerance + 0.4), 2))
    sx, sy = part.size
    out = []
    for i, (u, side) in enumerate(((0.2, -1), (0.8, -1), (0.2, 1), (0.8, 1))):
        v = -off if side < 0 else sy + off
        px, py, _ = placed.point(u * sx, v, 0)
        out.append(Boss(f"{placed.key} clamp {i + 1}", placed.key, (px, py, base_z), "z",
                        length, diameter, hole, min(length, 6.0), part.screw, "pilot",
                        clamp=True))
    return out


def edge_gap(part: Part, edge: str) -> float:
    """Between the board's `edge` and the wall it faces: its sockets' overhang past that
    edge, the board's tolerance and PORT_CLEARANCE (at least GAP)."""
    reach = max((c.overhang for c in part.connectors if c.edge == edge), default=0.0)
    return max(GAP, round(reach + part.tolerance + PORT_CLEARANCE, 2))


def _openings(pi: Placed) -> tuple[Opening, ...]:
    """The wall openings for the Pi's plugs: its bottom edge faces the right wall and its
    right edge the back wall (turned 90 degrees). Each passes its plug's moulding with
    PLUG_MARGIN round it; where two would leave a web under MIN_WALL between them, both
    give way (down to PLUG_MARGIN_MIN), or the layout is refused."""
    board_top = pi.origin[2] + pi.part.thickness
    walls: dict[str, list[tuple[str, float, float, float, float, float]]] = {}
    for c in pi.part.connectors:
        w, h = c.plug[0] + 2 * PLUG_MARGIN, c.plug[1] + 2 * PLUG_MARGIN
        zc = board_top + c.height / 2
        if c.edge == "bottom":
            wall, along = "right", pi.point(c.at, 0, 0)[1]
        elif c.edge == "right":
            wall, along = "back", pi.point(pi.part.size[0], c.at, 0)[0]
        else:
            continue
        walls.setdefault(wall, []).append((c.name, along, c.plug[0], along - w / 2,
                                           along + w / 2, zc))
    out = []
    for wall, found in walls.items():
        found.sort(key=lambda o: o[1])
        spans = [[o[3], o[4]] for o in found]
        for i in range(len(found) - 1):
            (a_name, a_at, a_plug, *_), (b_name, b_at, b_plug, *_) = found[i], found[i + 1]
            short = MIN_WALL - (spans[i + 1][0] - spans[i][1])
            if short <= 0:
                continue
            spans[i][1] -= short / 2
            spans[i + 1][0] += short / 2
            if (spans[i][1] < a_at + a_plug / 2 + PLUG_MARGIN_MIN
                    or spans[i + 1][0] > b_at - b_plug / 2 - PLUG_MARGIN_MIN):
                raise ValueError(f"the {a_name} and {b_name} plugs are too close to leave a "
                                 f"{MIN_WALL} mm wall between their openings")
        for (name, _, _, _, _, zc), (x0, x1) in zip(found, spans, strict=True):
            c = next(c for c in pi.part.connectors if c.name == name)
            h = c.plug[1] + 2 * PLUG_MARGIN
            out.append(Opening(name, wall, (x0 + x1) / 2, x1 - x0, zc - h / 2, zc + h / 2))
    return tuple(out)


__all__ = ["BED", "CHECKED", "MAX_BRIDGE", "MAX_OVERHANG", "MIN_WALL", "Boss", "CaseChoice",
           "Layout", "Opening", "Placed", "choice_from_config", "edge_gap", "plan"]
