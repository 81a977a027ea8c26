"""Run every measurement and assemble the one JSON report."""

from __future__ import annotations

import datetime
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bench.voice_pace as voice_pace
from bench import (
    bus,
    calibration,
    counted,
    daemon,
    engine_speed,
    frames,
    latency,
    progress,
    voice,
)
from bench.machine import machine_info, pin_to_one_core
from bench.stats import rnd
from valueclass import Frozen


class Target(Frozen):
    op: str
    """">=", "<=" or "<"."""
    limit: float
    what: str
    kind: str
    """One of KINDS: how this machine can judge the figure."""
    quick_limit: float | None = None
    """The limit a quick run is held to, when it differs (its figures are shorter and
    taken while the test suite loads the machine)."""


KINDS: dict[str, str] = {
    "raw": "CPU rate as measured in this process, unscaled (time.process_time), with the "
           "yardstick's spread over the run and the figure at the reference speed beside "
           "it; reported, not gated (issue 46: a rate moves with the machine's load, so "
           "an unmodified tree and a 30 %-slower copy failed alike): the engine's speed "
           "is judged as a ratio against a baseline, turn about (cbrig bench --paired), "
           "and its work by the counted budgets",
    "counted": "counted, the same on any machine under any load: bits on the I2C bus, and "
               "the budgets of bench/budgets.toml (instructions and calls per engine step "
               "and per input, bus bytes per input, modules and calls to READY); gated",
    "cpu": "CPU time, shown at the reference machine's speed: the figure x "
           "REFERENCE_CALIBRATION_MS / calibration_ms, the yardstick CPU-timed in this "
           "process; reported, not gated (issue 46: timing is never a verdict on a shared "
           "machine; the work behind it is gated as counted)",
    "memory": "resident memory of the daemon, not a matter of speed; gated",
    "wall": "wall clock, decided by this machine's disk (its fsync) and by waiting for a "
            "core on a shared host: reported with the disk's own sync time beside it, "
            "not gated",
}
GATED_KINDS = ("counted", "memory")
"""What decides the exit code: what load cannot move (issue 46)."""

TARGETS: dict[str, Target] = {
    "engine_steps_per_second.tenfour": Target(">=", 100_000, "10-Four random self-play "
                                              "steps per CPU second, the slowest variant, "
                                              "raw", "raw", quick_limit=50_000),
    "input_to_frame_ms.p99": Target("<", 1.0, "input to frame shown on the display, fsync "
                                    "included, p99 ms", "wall"),
    "input_to_frame_cpu_ms.p99": Target("<", 2.0, "the same, CPU time only (no fsync wait), "
                                        "p99 ms", "cpu"),
    "input_to_frame_hints_ms.p99": Target("<", 2.0, "input to frame with hints on (shipped "
                                          "config), fsync included, p99 ms", "wall"),
    "input_to_frame_hints_cpu_ms.p99": Target("<", 2.0, "the same, CPU time only, p99 ms",
                                              "cpu"),
    "start_to_ready_seconds": Target("<", 1.0, "process start to READY=1, s", "wall"),
    "start_to_ready_cpu_seconds": Target("<", 0.18, "CPU the daemon used from start to "
                                         "READY=1, no display, s", "cpu"),
    "start_to_ready_oled_cpu_seconds": Target("<", 0.21, "the same with an SSD1306 OLED "
                                              "configured (luma imported), s", "cpu"),
    "idle_cpu_percent": Target("<", 0.2, "CPU of the READY daemon with no input, % of a "
                               "core", "cpu"),
    "rss_mb": Target("<", 60.0, "resident memory of the daemon mid-game, MB", "memory"),
    "bus_spin_tick_share_of_full_frame_max": Target("<=", 0.25, "I2C bits of a "
                                                    "spin-animation tick, worst, as a share "
                                                    "of a whole frame", "counted"),
    "bus_input_share_of_full_frame_p50": Target("<=", 0.51, "I2C bits of the median input "
                                                "(both games, the worse controller), as a "
                                                "share of a whole frame", "counted"),
}
"""The budget. The bus median's limit is what today's pictures need (the SSD1306 at
50.5 %: a Bump 'Em move-menu cursor changes four whole pages, docs/PERFORMANCE.md), so a
change that sends more bytes for the same screens fails. READY with an OLED has its own
limit: luma's import (~65 modules, `multiprocessing` through its serial interface) is
not ours to cut, and that start sat at 0.10-0.12 s at the reference speed with a
run-to-run spread of 15-20 % (limit 0.15 s; 0.12 s without a display). Since issue 30
READY=1 also waits for the pins, knobs and reader to be claimed (READY had promised a rig
that then failed on a missing pin library): gpiozero's import, ~0.05 s at the reference
speed (importlib.metadata, inspect, colorzero), is in both figures now, so both limits
moved by 0.06 s: 0.18 s and 0.21 s. Since issue 26 gpiozero is imported without
importlib.metadata, about half of it (hardware.pins.import_pin_module)."""

SECTIONS: tuple[tuple[str, Callable[..., dict[str, Any]], str], ...] = (
    ("engine", engine_speed.measure, engine_speed.METHOD),
    ("input_to_frame", latency.measure, latency.METHOD),
    ("frame_render", frames.measure, frames.METHOD),
    ("bus", bus.measure, bus.METHOD),
    ("daemon", daemon.measure, daemon.METHOD),
    ("voice", voice.measure, voice.METHOD),
    ("counted", lambda quick: counted_section(), counted.METHOD),
)
ASKED_ONLY: tuple[tuple[str, Callable[..., dict[str, Any]], str], ...] = (
    ("voice_pace", voice_pace.measure, voice_pace.METHOD),
)
"""Sections run only when named with --only: the voice at table pace plays whole
stretches of games in (scaled) real time, minutes, and gates nothing."""

CPU_FIGURES: dict[str, tuple[str, ...]] = {
    # report key -> path to a CPU figure in ms (or s), for the calibration ratios
    "input_to_frame_cpu_ms_p50": ("input_to_frame_cpu_ms", "p50"),
    "input_to_frame_cpu_ms_p99": ("input_to_frame_cpu_ms", "p99"),
    "input_to_frame_hints_cpu_ms_p99": ("input_to_frame_hints_cpu_ms", "p99"),
    "spin_animation_tick_cpu_ms_p99": ("spin_animation_tick_cpu_ms", "p99"),
    "start_to_ready_cpu_ms": ("start_to_ready_cpu_seconds",),
    "start_to_ready_oled_cpu_ms": ("start_to_ready_oled_cpu_seconds",),
    "start_to_ready_resume_cpu_ms": ("start_to_ready_resume_cpu_seconds",),
}


def counted_section() -> dict[str, Any]:
    """The counted budgets (bench/counted.py): the counts and their verdict."""
    counts = counted.measure()
    return {"counted": counts, "counted_budgets": counted.judge(counts, counted.load_budgets())}


def _value(report: dict[str, Any], key: str) -> float:
    if key.startswith("engine_steps_per_second."):
        game = key.split(".", 1)[1]
        return float(min(v for k, v in report["engine_steps_per_second"].items()
                         if k.startswith(game + "/")))
    if "." in key:
        outer, inner = key.split(".", 1)
        return float(report[outer][inner])
    return float(report[key])


def at_reference_speed(value: float, op: str, calibration_ms: float) -> float:
    """A CPU figure as the reference machine would show it: times (rates: over) how
    much slower the yardstick ran in this process than there."""
    slower = calibration_ms / calibration.REFERENCE_CALIBRATION_MS
    return value * slower if op == ">=" else value / slower


def yardstick_spread(report: dict[str, Any]) -> dict[str, Any]:
    """The calibration runs' range over the bench: how far a figure scaled by the
    yardstick could move with the load alone."""
    runs = report.get("calibration_runs_ms") or [report["calibration_ms"]]
    return {"median_ms": report["calibration_ms"], "min_ms": min(runs), "max_ms": max(runs),
            "max_over_min": rnd(max(runs) / min(runs))}


def _check(report: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    quick = report.get("mode") == "quick"
    for key, target in TARGETS.items():
        value = _value(report, key)
        judged = value
        limit = target.quick_limit if quick and target.quick_limit is not None else target.limit
        entry: dict[str, Any] = {"value": value, "target": f"{target.op} {limit:g}",
                                 "what": target.what, "kind": target.kind,
                                 "gated": target.kind in GATED_KINDS}
        if target.kind == "cpu":
            judged = rnd(at_reference_speed(value, target.op, report["calibration_ms"]))
            entry["at_reference_speed"] = judged
        if target.kind == "raw":
            entry["at_reference_speed_not_judged"] = rnd(
                at_reference_speed(value, target.op, report["calibration_ms"]))
            entry["yardstick"] = yardstick_spread(report)
            if limit != target.limit:
                entry["full_run_target"] = f"{target.op} {target.limit:g}"
        if target.kind == "wall" and key.startswith("input_to_frame"):
            hints = "_hints" if "hints" in key else ""
            sync = report["input_to_frame_hints_fsync_ms" if hints else "fsync_ms"]
            entry["disk_sync_ms_p99"] = sync["p99"]
            entry["without_fsync_ms_p99"] = \
                report[f"input_to_frame{hints}_without_fsync_ms"]["p99"]
        entry["met"] = {">=": judged >= limit, "<=": judged <= limit,
                        "<": judged < limit}[target.op]
        out[key] = entry
    return out


def _figure(report: dict[str, Any], path: tuple[str, ...]) -> float | None:
    value: Any = report
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    if path[-1].endswith("seconds"):
        value = value * 1000
    return float(value)


def calibration_ratios(report: dict[str, Any]) -> dict[str, float]:
    """Each CPU figure (ms) divided by the calibration workload's CPU ms."""
    base = report["calibration_ms"]
    out = {}
    for name, path in CPU_FIGURES.items():
        value = _figure(report, path)
        if value is not None:
            out[name] = rnd(value / base)
    return out


def pi_zero_estimate(report: dict[str, Any]) -> dict[str, Any]:
    """CPU-bound figures scaled by how much slower the calibration workload is expected
    to run on a Pi Zero 2 W than it ran here, in this process (so this machine's load
    and speed cancel out). fsync is storage, not CPU: it is carried over unscaled as this
    machine's figure, to be measured on the Pi's SD card. Bus time is the bus's."""
    f = calibration.PI_ZERO_2W_CALIBRATION_MS / report["calibration_ms"]
    cpu = report["input_to_frame_cpu_ms"]
    fsync = report["fsync_ms"]
    bus_ms = report["input_to_frame_bus_ms_400khz"]
    return {
        "factor": rnd(f),
        "factor_method": "PI_ZERO_2W_CALIBRATION_MS / calibration_ms, the median of "
                         f"this run's {len(report['calibration_runs_ms'])} calibration runs "
                         "(one before each section, one at the end)",
        "pi_zero_2w_calibration_ms": calibration.PI_ZERO_2W_CALIBRATION_MS,
        "pi_zero_2w_calibration_measured": calibration.PI_ZERO_2W_MEASURED,
        "pi_zero_2w_calibration_basis": (
            "measured on a Pi Zero 2 W" if calibration.PI_ZERO_2W_MEASURED else
            "not measured: assumed 10 x the reference machine's idle calibration "
            "(4.5 ms), the earlier rule of thumb; see bench/calibration.py"),
        "input_to_frame_ms_p99_with_bus_400khz_and_this_disk_fsync": rnd(
            cpu["p99"] * f + bus_ms["p99"] + fsync["p99"]),
        "engine_steps_per_second": {k: rnd(v / f) for k, v in
                                    report["engine_steps_per_second"].items()},
        "input_to_frame_cpu_ms_p50": rnd(cpu["p50"] * f),
        "input_to_frame_cpu_ms_p99": rnd(cpu["p99"] * f),
        "input_to_frame_hints_cpu_ms_p99": rnd(report["input_to_frame_hints_cpu_ms"]["p99"] * f),
        "input_to_frame_ms_p50_with_this_disk_fsync": rnd(cpu["p50"] * f + fsync["p50"]),
        "input_to_frame_ms_p99_with_this_disk_fsync": rnd(cpu["p99"] * f + fsync["p99"]),
        "frame_render_ms": {k: (rnd(v * f) if v is not None else None)
                            for k, v in report["frame_render_ms"].items()},
        "start_to_ready_seconds": rnd(report["start_to_ready_cpu_seconds"] * f),
        "start_to_ready_resume_seconds": rnd(report["start_to_ready_resume_cpu_seconds"] * f),
        "idle_cpu_percent": rnd(report["idle_cpu_percent"] * f),
        "rss_mb": report["rss_mb"],
        **_voice_loop_estimate(report, f),
        "measured_here": _measured_here(report),
        "note": "CPU figures x factor (factor = the calibration workload's ms on a Pi "
                "Zero 2 W, assumed and not measured (pi_zero_2w_calibration_basis), "
                "over its ms in this run; "
                "start-up from the daemon's CPU time by READY, so cold SD-card reads come "
                "on top); I2C bus time at 400 kHz added as counted; fsync is storage, "
                "not CPU: this machine's disk figure is added unscaled and must be "
                "measured on the Pi's SD card; "
                "RSS about the same on 64-bit Pi OS, smaller on 32-bit",
    }


def _voice_loop_estimate(report: dict[str, Any], f: float) -> dict[str, Any]:
    """The loop's CPU per input with the voice off and on, x factor: CPU figures. The
    voice's first-sound times are wall clock and get no estimate."""
    voice_report = report.get("voice", {})
    keys = ("input_to_frame_cpu_ms_voice_off", "input_to_frame_cpu_ms_voice_on")
    if not all(key in voice_report for key in keys):
        return {}
    return {f"{key}_p99": rnd(voice_report[key]["p99"] * f) for key in keys}


def _measured_here(report: dict[str, Any]) -> dict[str, Any]:
    """The figures the estimate scales, as measured in this run, so each scaled figure
    has its raw one beside it (same keys)."""
    cpu = report["input_to_frame_cpu_ms"]
    voice_report = report.get("voice", {})
    here: dict[str, Any] = {
        "engine_steps_per_second": dict(report["engine_steps_per_second"]),
        "input_to_frame_cpu_ms_p50": cpu["p50"],
        "input_to_frame_cpu_ms_p99": cpu["p99"],
        "input_to_frame_hints_cpu_ms_p99": report["input_to_frame_hints_cpu_ms"]["p99"],
        "frame_render_ms": dict(report["frame_render_ms"]),
        "start_to_ready_seconds": report["start_to_ready_cpu_seconds"],
        "start_to_ready_resume_seconds": report["start_to_ready_resume_cpu_seconds"],
        "idle_cpu_percent": report["idle_cpu_percent"],
    }
    for key in ("input_to_frame_cpu_ms_voice_off", "input_to_frame_cpu_ms_voice_on"):
        if key in voice_report:
            here[f"{key}_p99"] = voice_report[key]["p99"]
    return here


def estimate_lines(report: dict[str, Any]) -> list[str]:
    """The Pi Zero 2 W estimate for a person: each scaled figure beside its raw one,
    the factor named an assumption unless it was measured on a Pi."""
    est = report.get("pi_zero_2w_estimate")
    if not est:
        return []
    basis = "measured" if est["pi_zero_2w_calibration_measured"] else "ASSUMED, not measured"
    here = est["measured_here"]
    lines = [f"  Pi Zero 2 W estimate, factor x{est['factor']} ({basis}): "
             "here -> on the Pi"]
    for key, value in est["engine_steps_per_second"].items():
        lines.append(f"    engine {key:<24} {here['engine_steps_per_second'][key]:>10,.0f} -> "
                     f"{value:>9,.0f} steps/s")
    for key in ("input_to_frame_cpu_ms_p99", "input_to_frame_hints_cpu_ms_p99",
                "start_to_ready_seconds", "idle_cpu_percent",
                "input_to_frame_cpu_ms_voice_off_p99", "input_to_frame_cpu_ms_voice_on_p99"):
        if key in est and key in here:
            lines.append(f"    {key:<35} {here[key]} -> {est[key]}")
    return lines


def gate(report: dict[str, Any]) -> dict[str, Any]:
    """Which targets decide the exit code: those this machine can judge (GATED_KINDS),
    in a quick run as in a full one; none when sections were left out."""
    targets = report.get("targets", {})
    gated = [k for k, check in targets.items() if check["gated"]]
    missed = [k for k in gated if not targets[k]["met"]]
    budgets = report.get("counted_budgets")
    if budgets is not None:  # the counted budgets gate whenever they were counted
        gated.append("counted_budgets")
        missed += [f"counted_budgets.{key}" for key in budgets["missed"]]
    return {"gated": gated, "missed": missed, "exit_code": 1 if missed else 0}


def _calibrate(quick: bool, runs: list[tuple[str, float]], label: str) -> list[float]:
    ms, rounds = calibration.measure_ms(5 if quick else calibration.ROUNDS)
    runs.append((label, rnd(ms)))
    return rounds


def run(quick: bool = False, only: list[str] | None = None,
        journal_dir: Path | None = None) -> dict[str, Any]:
    pinned = pin_to_one_core()
    started = time.perf_counter()
    report: dict[str, Any] = {
        "cbrig_bench": 1,
        "mode": "quick" if quick else "full",
        "when": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine_info(pinned),
    }
    methods: dict[str, str] = {}
    timings: dict[str, float] = {}
    runs: list[tuple[str, float]] = []
    chosen = [(name, measure, method) for name, measure, method in SECTIONS
              if not only or name in only]
    chosen += [(name, measure, method) for name, measure, method in ASKED_ONLY
               if only and name in only]
    progress.say(f"{report['mode']} run, {len(chosen)} section(s), pinned to CPU {pinned}")
    first_rounds: list[float] = []
    for number, (name, measure, method) in enumerate(chosen, 1):
        # the yardstick before every section: the machine's speed drifts with its load
        rounds = _calibrate(quick, runs, f"before {name}")
        first_rounds = first_rounds or rounds
        progress.say(f"[{number}/{len(chosen)}] {name} (yardstick {runs[-1][1]} ms)")
        t = time.perf_counter()
        if name == "input_to_frame":
            report.update(measure(quick, journal_dir=journal_dir))
        else:
            report.update(measure(quick))
        timings[name] = rnd(time.perf_counter() - t)
        methods[name] = " ".join(method.split())
        progress.say(f"[{number}/{len(chosen)}] {name} done in {timings[name]:g} s")
    rounds = _calibrate(quick, runs, "at the end")
    report.update(calibration.summary(first_rounds or rounds, [ms for _, ms in runs]))
    report["calibration_by_section"] = dict(runs)
    methods["calibration"] = " ".join(calibration.METHOD.split()) + (
        " Taken before every section and once at the end; calibration_ms is the median "
        "of those runs (calibration_runs_ms), calibration_rounds_ms the first run's "
        "rounds.")
    report["method"] = {
        **methods,
        "single_core": "the benchmark process is pinned to one CPU with "
                       "sched_setaffinity; the daemons it starts inherit the pin",
        "gate": "; ".join(f"{kind}: {text}" for kind, text in KINDS.items()),
    }
    if "calibration_ms" in report:
        report["calibration_ratios"] = calibration_ratios(report)
    # no Pi estimate of the voice's first-sound times: they are wall clock (a process
    # started, a file read, a device fed), which a CPU factor does not scale
    if not only:
        report["targets"] = _check(report)
        report["pi_zero_2w_estimate"] = pi_zero_estimate(report)
    report["gate"] = gate(report)
    report["bench_seconds"] = {**timings, "total": rnd(time.perf_counter() - started)}
    report["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    progress.say(f"done in {report['bench_seconds']['total']:g} s")
    return report


def summary(report: dict[str, Any]) -> str:
    """A few lines for a person; --json gives everything."""
    lines = [f"cb-rig bench ({report['mode']}) on {report['machine']['cpu_model']}, "
             f"Python {report['machine']['python']}, pinned to CPU "
             f"{report['machine']['pinned_cpu']}",
             f"  load average {report['machine'].get('load_average')} before, "
             f"{report['machine'].get('load_average_after')} after: the timing figures "
             "below were taken under it and are reported, not gated"]
    for key, value in report.get("engine_steps_per_second", {}).items():
        games = report["engine_games_per_second"][key]
        lines.append(f"  engine {key:<24} {value:>10,.0f} steps/s {games:>8,.1f} games/s")
    if "input_to_frame_ms" in report:
        ttf = report["input_to_frame_ms"]
        cpu = report["input_to_frame_cpu_ms"]
        lines.append(f"  input to frame          p50 {ttf['p50']} ms  p99 {ttf['p99']} ms "
                     f"(fsync share {report['fsync_share_of_input_to_frame']:.0%})")
        lines.append(f"  input to frame, CPU     p50 {cpu['p50']} ms  p99 {cpu['p99']} ms")
        hints = report["input_to_frame_hints_cpu_ms"]
        lines.append(f"  ... hints on, CPU       p50 {hints['p50']} ms  p99 {hints['p99']} ms")
    for kind, ms in report.get("frame_render_ms", {}).items():
        lines.append(f"  render {kind:<16} {ms} ms")
    for key in ("start_to_ready_seconds", "start_to_ready_cpu_seconds",
                "start_to_ready_oled_seconds", "start_to_ready_oled_cpu_seconds",
                "start_to_ready_resume_seconds", "import_seconds", "import_cpu_seconds",
                "rss_mb", "idle_cpu_percent", "idle_wakeups_per_second"):
        if key in report:
            lines.append(f"  {key:<30} {report[key]}")
    if "calibration_ms" in report:
        lines.append(f"  calibration workload           {report['calibration_ms']} ms CPU, "
                     f"median of {report['calibration_runs_ms']} "
                     f"(x{report['calibration_speed_vs_reference']} the reference machine)")
    for driver, inputs in report.get("bus_per_input", {}).items():
        full = report["bus_full_frame"][driver]
        lines.append(f"  bus {driver}: whole frame {full['bytes']} bytes, "
                     f"{full['ms']['400kHz']} ms at 400 kHz")
        for cause in ("all_inputs", "turn", "press", "spin", "card_presented", "spin_tick"):
            if cause in inputs:
                block = inputs[cause]
                lines.append(f"    {cause:<15} median {block['bytes_p50']:>6} bytes "
                             f"({block['share_of_full_frame_p50']:.0%} of a frame), "
                             f"{block['ms_p50']['400kHz']} ms at 400 kHz")
    lines += voice.summary_lines(report)
    lines += voice_pace.summary_lines(report)
    if "counted_budgets" in report:
        lines += counted.summary_lines(report["counted_budgets"])
    lines += estimate_lines(report)
    for key, check in report.get("targets", {}).items():
        lines.append(target_line(key, check))
    return "\n".join(lines)


def target_line(key: str, check: dict[str, Any]) -> str:
    """One target: its verdict, the figure, and how it was judged."""
    mark = ("met " if check["met"] else "MISS") if check["gated"] else (
        "ok  " if check["met"] else "over")  # ok/over: reported against the limit, not gated
    line = f"  [{mark}] {key} = {check['value']} (target {check['target']})"
    if check["kind"] == "cpu":
        line += f", {check['at_reference_speed']} at the reference machine's speed; not gated"
    elif check["kind"] == "raw":
        spread = check["yardstick"]
        line += (f", raw, not gated; {check['at_reference_speed_not_judged']} at the reference "
                 f"speed, not judged (yardstick {spread['min_ms']}-{spread['max_ms']} ms "
                 f"over the run, x{spread['max_over_min']})")
    elif check["kind"] == "wall":
        line += "; wall, not gated"
        if "disk_sync_ms_p99" in check:
            line += (f": this disk's own sync p99 {check['disk_sync_ms_p99']} ms, "
                     f"the rest p99 {check['without_fsync_ms_p99']} ms")
    return line
