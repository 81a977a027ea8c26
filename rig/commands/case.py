"""`cbrig case build`: the printable enclosure, sized by the rig config (docs/CASE.md).

Which Pi and whether there is a speaker come from the config's [case]; the display,
reader, buzzer and LED from [display], [reader] and [pins]; --pi, --display, --reader
and --speaker override them. The CAD library (manifold3d, the `case` extra) is imported
only here, only when the command runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable
from pathlib import Path

from engine.errors import DataError
from hardware.rfid.kinds import reader_types
from rig.commands._config import command_config
from rig.config import CASE_PIS, I2C_DRIVERS
from rig.extras import missing
from valueclass import replace


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("build",), help="build: write every part, the "
                        "bill of materials and the pictures")
    parser.add_argument("--out", type=Path, default=Path("cbrig-case"),
                        help="the folder to write into (default: ./cbrig-case)")
    parser.add_argument("--config", type=Path, default=None, metavar="FILE",
                        help="the rig config that says what the case holds")
    parser.add_argument("--parts", type=Path, default=None, metavar="FILE",
                        help="the part table (default: wiring/parts.toml)")
    parser.add_argument("--pi", choices=CASE_PIS, default=None,
                        help="the Pi it holds (default: the config's [case] pi)")
    parser.add_argument("--display", choices=I2C_DRIVERS, default=None,
                        help="the OLED (default: the config's display.driver)")
    parser.add_argument("--reader", choices=reader_types(), default=None,
                        help="the card reader (default: the config's reader.type)")
    parser.add_argument("--speaker", action=argparse.BooleanOptionalAction, default=None,
                        help="a speaker grille and amplifier (default: the config's "
                             "[case] speaker)")
    parser.add_argument("--no-pictures", action="store_true",
                        help="only the meshes and the bill of materials")
    parser.add_argument("--slice", action="store_true",
                        help="slice every part with PrusaSlicer (prusa-slicer on the PATH): "
                             "G-code, and the print time and filament in the BOM")


def run(args: argparse.Namespace) -> int:
    if importlib.util.find_spec("manifold3d") is None or importlib.util.find_spec(
            "numpy") is None:
        print(missing("case", "the CAD library (manifold3d, numpy)", "case"), file=sys.stderr)
        return 2
    # the case's modules import the CAD library: only once it is known to be there
    from rig.maker.case.build import build_solids, write_all
    from rig.maker.case.checks import describe, summarise
    from rig.maker.case.layout import choice_from_config, plan
    from rig.maker.case.parts import load_parts
    from rig.maker.case.slicing import slicer

    config = command_config(args.config, "case")
    try:
        table = load_parts(args.parts)
        choice = choice_from_config(config)
    except DataError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    except FileNotFoundError as exc:
        print(f"cbrig case: no part table at {exc.filename}: run it from a checkout "
              "of cb-rig, or name the table with --parts FILE",
              file=sys.stderr)
        return 1
    except (OSError, ValueError) as exc:
        print(f"cbrig case: {exc}", file=sys.stderr)
        return 1
    overrides = {k: v for k, v in (("pi", args.pi), ("display", args.display),
                                   ("reader", args.reader), ("speaker", args.speaker))
                 if v is not None}
    choice = replace(choice, **overrides)
    start = time.perf_counter()
    progress = _progress()

    slice_with = None
    if args.slice:
        slice_with = slicer()
        if slice_with is None:
            print("cbrig case: --slice needs PrusaSlicer's command line: apt-get install "
                  "prusa-slicer (or put prusa-slicer on the PATH)", file=sys.stderr)
            return 2

    try:
        layout = plan(table, choice)
    except (KeyError, ValueError) as exc:
        print(f"cbrig case: {exc}", file=sys.stderr)
        return 1
    progress("building the solids")
    built = build_solids(layout)
    try:
        files = write_all(built, args.out, images=not args.no_pictures, progress=progress,
                          slice_with=slice_with)
    except OSError as exc:
        progress("")
        print(f"cbrig case: cannot write {args.out}: {exc}", file=sys.stderr)
        return 1
    except RuntimeError as exc:
        progress("")
        print(f"cbrig case: {exc}", file=sys.stderr)
        return 1

    progress("checking the parts")
    summary = describe(summarise(built))
    progress("")
    print(summary)
    print(f"{len(built.printed)} printed parts for a {layout.width:.0f} x {layout.depth:.0f} "
          f"x {layout.height:.0f} mm console; {len(files)} files in {args.out} "
          f"({time.perf_counter() - start:.1f} s; solids {built.seconds:.1f} s)")
    return 0


def _progress() -> Callable[[str], None]:
    """One status line on a terminal (rewritten in place, the seconds so far); nothing
    when stderr is not a terminal (a log or a pipe gets only the summary). An empty
    text clears the line."""
    if not sys.stderr.isatty():
        return lambda _: None
    start = time.perf_counter()

    def show(text: str) -> None:
        line = f"cbrig case [{time.perf_counter() - start:5.1f} s] {text}" if text else ""
        sys.stderr.write("\r\x1b[K" + line)
        sys.stderr.flush()

    return show
