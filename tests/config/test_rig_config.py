"""rig.config: defaults, validation with file/line/field, TOML round trip, `cbrig config`."""

from __future__ import annotations

import os
import tomllib
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import DataError
from rig.cli import main
from rig.config import (
    DEFAULT_STATE_DIR,
    PIN_NAMES,
    SECTIONS,
    ConfigError,
    default_config,
    default_state_dir,
    dump_config,
    load_config,
    parse_config,
)
from valueclass import fields, replace


def write(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(text: str, tmp_path: Path) -> list[tuple[int | None, str, str]]:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    for problem in info.value.problems:
        assert problem.source == str(path)
    return [(p.line, p.field, p.message) for p in info.value.problems]


# -- defaults -------------------------------------------------------------------------

def test_defaults_are_a_working_rig() -> None:
    config = default_config()
    assert config.game.name == "tenfour"
    assert config.game.players == 3  # registry.DEFAULT_PLAYERS (issue 27: one default)
    assert config.game.levels == ("human", "human", "human")
    assert config.game.computer_seats == {}
    assert config.pins.backend == "lgpio"
    used = config.pins.used()
    assert len(set(used.values())) == len(used)
    assert not set(used.values()) & {2, 3, 14, 15}  # I2C and UART stay free
    assert config.reader.type == "rdm6300"
    assert config.reader.port == "/dev/serial0"
    assert config.reader.baud == 9600
    assert config.display.driver == "ssd1306"
    assert config.display.address == 0x3C
    assert config.display.i2c_port == 1
    # where this user's rig keeps its state: /var/lib/cbrig for root (and the Pi), else
    # ~/.local/state/cbrig (issue 47: the test assumed root); tests/config/
    # test_default_dirs.py pins each case
    state = default_state_dir()
    assert state == DEFAULT_STATE_DIR if os.geteuid() == 0 else state.name == "cbrig"
    assert config.reader.cards == state / "cards.toml"
    assert config.state.directory == state
    assert config.state.current == state / "current.jsonl"
    assert config.state.games == state / "games"
    assert config.daemon.watchdog is True


def test_empty_file_gives_the_defaults(tmp_path: Path) -> None:
    path = write(tmp_path, "# nothing set\n")
    config = load_config(path)
    assert config == replace(default_config(), source=str(path))


def test_no_path_and_no_default_file_gives_defaults(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.setattr("rig.config.paths.DEFAULT_PATH", tmp_path / "absent.toml")
    assert load_config() == default_config()


def test_no_path_reads_the_default_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = write(tmp_path, "[game]\nplayers = 3\n")
    monkeypatch.setattr("rig.config.paths.DEFAULT_PATH", path)
    assert load_config().game.players == 3


def test_a_full_config_is_read(tmp_path: Path) -> None:
    board = write(tmp_path, "# board\n", "my_board.toml")
    path = write(tmp_path, f"""
[game]
name = "bumpem"
players = 4
variant = "short"
seats = ["Red", "Blue", "Green", "Yellow"]
levels = ["human", "strong", "random"]
hints = false
hint_level = "medium"
think_ms = 900

[game.data]
board = "{board.name}"
deck = "default:tenfour_deck.toml"

[game.options]
police = false
laps = 2

[pins]
backend = "rpigpio"
hi_a = 20
hi_b = 21
hi_button = 16
lo_a = 19
lo_b = 13
lo_button = 6
buzzer = false
led = 25

[encoder]
edges_per_detent = 2
lo_reverse = true
flick_detents = 4

[reader]
type = "pn532"
removal_ms = 600

[display]
driver = "sh1106"
address = "0x3D"
rotate = 180
contrast = 128

[state]
directory = "state"

[daemon]
watchdog = false
log_level = "debug"
""")
    config = load_config(path, check_game=False)
    game = config.game
    assert (game.name, game.players, game.variant, game.hints) == ("bumpem", 4, "short", False)
    assert game.seats == ("Red", "Blue", "Green", "Yellow")
    assert game.levels == ("human", "strong", "random", "human")
    assert game.computer_seats == {1: "strong", 2: "random"}
    assert (game.hint_level, game.think_ms) == ("medium", 900)
    assert dict(game.data) == {"board": str(board), "deck": "default:tenfour_deck.toml"}
    assert dict(game.options) == {"police": False, "laps": 2}
    assert config.pins.used() == {"hi_a": 20, "hi_b": 21, "hi_button": 16, "lo_a": 19,
                                  "lo_b": 13, "lo_button": 6, "led": 25}
    assert config.pins.buzzer is None
    assert config.encoder.edges_per_detent == 2
    assert config.encoder.lo_reverse is True
    assert config.encoder.flick_detents == 4
    assert config.reader.baud == 115200  # the PN532's default
    assert config.reader.removal_misses == 3
    assert config.reader.removal_ms == 600
    assert config.display.address == 0x3D
    assert config.display.rotate_quarters == 2
    assert config.state.directory == tmp_path / "state"  # relative to the config file
    assert config.reader.cards == tmp_path / "state" / "cards.toml"  # follows the state dir
    assert config.daemon.log_level == "debug"


@pytest.mark.parametrize("written", ["60", "0x3C", "0x3c", '"0x3C"', '"60"', '" 0x3C "'])
def test_display_address_forms(tmp_path: Path, written: str) -> None:
    config = load_config(write(tmp_path, f"[display]\naddress = {written}\n"))
    assert config.display.address == 0x3C


# -- every mistake, located -----------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "line", "field", "message"),
    [
        ('[game]\nname = "tenfor"\n', 2, "game.name", "did you mean 'tenfour'"),
        ("[game]\nplayers = 1\n", 2, "game.players", "out of range (2 to 4"),
        ('[game]\nplayers = "two"\n', 2, "game.players", "expected an integer"),
        ("[game]\nplayers = true\n", 2, "game.players", "expected an integer"),
        ('[game]\nhints = "yes"\n', 2, "game.hints", "expected true or false"),
        ('[game]\nseats = ["Red", "red"]\n', 2, "game.seats", "named twice"),
        ('[game]\nseats = ["Red", 3]\n', 2, "game.seats", "colour names"),
        ('[game]\nplayers = 3\nseats = ["Red", "Blue"]\n', 3, "game.seats", "2 seats named for 3"),
        ('[game]\nplayers = 3\nseats = ["red", "bleu", "green"]\n', 3, "game.seats",
         "'bleu' is not a seat colour of 10-Four, Good Buddy for 3 players; choose from "
         "'red', 'green', 'blue', 'yellow'; did you mean 'blue'?"),
        ('[game]\nplayers = 2\nseats = ["red", "green"]\n', 3, "game.seats",
         "'green' is not a seat colour of 10-Four, Good Buddy for 2 players; choose from "
         "'red', 'blue'"),
        ('[game]\nlevels = ["human", "expert"]\n', 2, "game.levels", "seat 2: 'expert'"),
        ('[game]\nlevels = ["human", "human", "human", "strong"]\n', 2, "game.levels",
         "4 levels for 3"),
        ('[game]\nhint_level = "human"\n', 2, "game.hint_level", "is not one of 'easy'"),
        ("[game]\nthink_ms = 0\n", 2, "game.think_ms", "out of range"),
        ('[game]\nvariant = 3\n', 2, "game.variant", "expected a string"),
        ('[game.data]\nmap = "x.toml"\n', 2, "game.data.map", "unknown data file role"),
        ('[game.data]\nboard = "missing.toml"\n', 2, "game.data.board", "no such file"),
        ('[game.data]\nboard = 7\n', 2, "game.data.board", "file path string"),
        ("[game]\noptions = 3\n", 2, "game.options", "expected a table"),
        ('[pins]\nbackend = "pigpio"\n', 2, "pins.backend", "is not one of 'lgpio'"),
        ("[pins]\nhi_a = 28\n", 2, "pins.hi_a", "GPIO28 does not exist"),
        ("[pins]\nhi_a = -1\n", 2, "pins.hi_a", "does not exist"),
        ("[pins]\nhi_a = false\n", 2, "pins.hi_a", "expected a BCM pin number, got False"),
        ('[pins]\nled = "GPIO16"\n', 2, "pins.led", "or false (not fitted)"),
        ("[pins]\nlo_a = 17\n", 2, "pins.lo_a", "GPIO17 is also used for hi_a"),
        ("[pins]\nbuzzer = 3\n", 2, "pins.buzzer", "GPIO3 is the I2C SCL"),
        ("[pins]\nled = 14\n", 2, "pins.led", "GPIO14 is the UART TXD, used by the rdm6300"),
        ("[encoder]\nedges_per_detent = 3\n", 2, "encoder.edges_per_detent", "not 4"),
        ("[encoder]\nflick_window_ms = 0\n", 2, "encoder.flick_window_ms", "out of range"),
        ('[reader]\ntype = "rc522"\n', 2, "reader.type", "is not one of 'rdm6300'"),
        ("[reader]\nbaud = 9601\n", 2, "reader.baud", "not a serial speed"),
        ("[reader]\nbaud = 115200\n", 2, "reader.baud", "RDM6300 only talks at 9600"),
        ('[reader]\nport = ""\n', 2, "reader.port", "empty port"),
        ('[reader]\ncards = ""\n', 2, "reader.cards", "empty path"),
        ("[reader]\nremoval_ms = 5\n", 2, "reader.removal_ms", "out of range"),
        ('[display]\ndriver = "ssd1305"\n', 2, "display.driver", "did you mean 'ssd1306'"),
        ('[display]\naddress = "sixty"\n', 2, "display.address", "such as 0x3C or 60"),
        ("[display]\naddress = 0x78\n", 2, "display.address", "0x78 is not a 7-bit"),
        ("[display]\naddress = true\n", 2, "display.address", "such as 0x3C"),
        ("[display]\nrotate = 1\n", 2, "display.rotate", "(degrees)"),
        ("[display]\ncontrast = 256\n", 2, "display.contrast", "out of range (0 to 255)"),
        ("[state]\ndirectory = 5\n", 2, "state.directory", "expected a string"),
        ('[daemon]\nlog_level = "loud"\n', 2, "daemon.log_level", "is not one of"),
        ("[daemon]\nwatchdog = 1\n", 2, "daemon.watchdog", "expected true or false"),
        ("[daemon]\nwatchdogg = true\n", 2, "daemon.watchdogg", "did you mean 'watchdog'"),
        ("[stat]\ndirectory = '/x'\n", 1, "stat", "unknown section; did you mean 'state'"),
        ('game = "tenfour"\n', 1, "game", "expected a table [game]"),
        ("[game]\nname = \n", 2, "syntax", "Invalid value"),
    ],
)
def test_each_mistake_names_file_line_and_field(
    tmp_path: Path, text: str, line: int, field: str, message: str
) -> None:
    found = problems_of("# the rig\n" + text, tmp_path)
    assert len(found) == 1, found
    got_line, got_field, got_message = found[0]
    assert (got_line, got_field) == (line + 1, field)
    assert message in got_message


def test_all_mistakes_reported_at_once_in_line_order(tmp_path: Path) -> None:
    found = problems_of(
        '[display]\nrotate = 45\n\n[game]\nname = "chess"\nplayers = 9\n'
        '\n[pins]\nhi_a = 99\n',
        tmp_path,
    )
    assert [(line, name) for line, name, _ in found] == [
        (2, "display.rotate"), (5, "game.name"), (6, "game.players"), (9, "pins.hi_a")
    ]


def test_pin_clash_is_reported_once_on_the_later_pin(tmp_path: Path) -> None:
    found = problems_of("[pins]\nhi_a = 9\nlo_b = 9\nbuzzer = 9\n", tmp_path)
    assert found == [(3, "pins.lo_b", "GPIO9 is also used for hi_a"),
                     (4, "pins.buzzer", "GPIO9 is also used for hi_a and lo_b")]


def test_uart_and_i2c_pins_are_free_when_those_parts_are_absent(tmp_path: Path) -> None:
    path = write(tmp_path, '[reader]\ntype = "none"\n[display]\ndriver = "terminal"\n'
                           "[pins]\nbuzzer = 14\nled = 2\n")
    config = load_config(path)
    assert (config.pins.buzzer, config.pins.led) == (14, 2)


def test_config_error_is_a_data_error_with_readable_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "[pins]\nhi_a = 40\n")
    with pytest.raises(DataError) as info:
        load_config(path)
    assert isinstance(info.value, ConfigError)
    assert str(info.value) == f"{path}:2: pins.hi_a: GPIO40 does not exist (BCM 0 to 27)"


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "no such file"), (b"\xff\xfe[game]\n", "not UTF-8"), (b"", None)],
)
def test_unreadable_files(tmp_path: Path, content: bytes | None, message: str | None) -> None:
    path = tmp_path / "config.toml"
    if content is not None:
        path.write_bytes(content)
    if message is None:
        assert load_config(path).source == str(path)
        return
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert [(p.field, message in p.message) for p in info.value.problems] == [("file", True)]


# -- checks against the game package --------------------------------------------------

@pytest.fixture
def fake_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from rig.gametype import read_facts

    module = types.SimpleNamespace(
        VARIANT_PLAYERS={"standard": (2, 3, 4), "short": (2, 3, 4)},
        DATA_ROLES={"board": "b.toml", "deck": "d.toml"},
        OPTIONS={"police": True, "laps": 2, "speed": 1.5, "mode": "x"},
        SIM_COUNTERS={},
    )
    facts = read_facts(module, "fake")
    monkeypatch.setattr("rig.config.checks.game_facts", lambda name: facts)


@pytest.mark.parametrize(
    ("text", "field", "message"),
    [
        ('[game]\nvariant = "long"\n', "game.variant", "no variant 'long'; it has 'standard'"),
        ('[game.data]\ntickets = "default:t.toml"\n', "game.data.tickets", "no tickets file"),
        ("[game.options]\npolise = true\n", "game.options.polise", "did you mean 'police'"),
        ('[game.options]\npolice = "yes"\n', "game.options.police", "like true"),
        ("[game.options]\nlaps = true\n", "game.options.laps", "like 2"),
        ("[game.options]\nmode = 1\n", "game.options.mode", 'like "x"'),
    ],
)
def test_game_fields_are_checked_against_the_game(
    fake_game: None, tmp_path: Path, text: str, field: str, message: str
) -> None:
    found = problems_of(text, tmp_path)
    assert [(f, message in m) for _, f, m in found] == [(field, True)], found


def test_matching_game_fields_pass(fake_game: None, tmp_path: Path) -> None:
    path = write(tmp_path, '[game]\nvariant = "short"\n[game.options]\n'
                           "police = false\nlaps = 3\nspeed = 2\nmode = 'y'\n")
    assert dict(load_config(path).game.options) == {"police": False, "laps": 3, "speed": 2,
                                                    "mode": "y"}


def test_a_broken_game_package_does_not_break_loading(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    def broken(name: str) -> Any:
        raise SyntaxError("engine being edited")

    monkeypatch.setattr("rig.config.checks.game_facts", broken)
    path = write(tmp_path, '[game]\nvariant = "anything"\n')
    assert load_config(path).game.variant == "anything"


# -- writing back ---------------------------------------------------------------------

def test_defaults_dump_and_reload_identically() -> None:
    text = dump_config(default_config())
    assert tomllib.loads(text)  # valid TOML
    assert "address = 0x3C" in text
    assert "led = false" in text
    assert parse_config(text, "<defaults>") == default_config()


def test_a_custom_config_round_trips(tmp_path: Path) -> None:
    path = write(tmp_path, """
[game]
name = "bumpem"
players = 3
levels = ["strong"]
[game.options]
"odd key" = {nested = [1, 2], text = "a \\"quote\\""}
start = 1979-05-27T07:32:00Z
day = 1979-05-27
police = false
[pins]
led = 16
buzzer = false
[display]
address = 61
[state]
directory = "/srv/cbrig"
""")
    config = load_config(path, check_game=False)
    again = parse_config(dump_config(config), str(path), check_game=False)
    assert again == config


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises_anything_but_config_error(text: str) -> None:
    try:
        parse_config(text, "<fuzz>", base=Path("/nonexistent"), check_game=False)
    except ConfigError as exc:
        assert exc.problems


SCALARS = st.one_of(st.integers(-5, 300), st.booleans(), st.text(max_size=8),
                    st.floats(allow_nan=False), st.lists(st.integers(0, 30), max_size=3))
KNOWN_KEYS = sorted({name for cls in SECTIONS.values() for name in fields(cls)}
                    | set(PIN_NAMES) | {"zzz"})


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from([*SECTIONS, "extra"]),
                       st.one_of(SCALARS, st.dictionaries(st.sampled_from(KNOWN_KEYS),
                                                          st.one_of(SCALARS, st.dictionaries(
                                                              st.text(max_size=4), SCALARS,
                                                              max_size=2)),
                                                          max_size=6)),
                       max_size=5))
def test_arbitrary_values_never_raise_anything_but_config_error(data: dict[str, Any]) -> None:
    from rig.config import _value

    text = "\n".join(f"{k} = {_value(v)}" for k, v in data.items())
    try:
        config = parse_config(text, "<fuzz>", base=Path("/nonexistent"), check_game=False)
    except ConfigError as exc:
        assert all(p.field for p in exc.problems)
    else:
        assert parse_config(dump_config(config), "<fuzz>", check_game=False) == config


# -- the command ----------------------------------------------------------------------

def test_cbrig_config_check_lists_problems_and_exits_78(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "[game]\nplayers = 7\n[display]\ncontrast = -1\n")
    assert main(["config", "check", str(path)]) == 78
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"{path}:2: game.players: 7 is out of range (2 to 4 players)",
        f"{path}:4: display.contrast: -1 is out of range (0 to 255)",
    ]
    assert "2 problems found" in err
    assert "Traceback" not in out + err


def test_cbrig_config_check_syntax_error_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "[game]\nplayers = = 2\n")
    assert main(["config", "check", str(path)]) == 78
    out, _ = capsys.readouterr()
    assert out.startswith(f"{path}:2: syntax: ")


def test_cbrig_config_check_ok_prints_a_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, '[game]\nplayers = 2\nlevels = ["human", "strong"]\n'
                           '[reader]\ntype = "none"\n')
    assert main(["config", "check", str(path)]) == 0
    out, _ = capsys.readouterr()
    assert out.splitlines()[0] == f"{path}: OK"
    assert "2 players (human, strong)" in out
    assert "virtual shuffled deck" in out
    assert "ssd1306 at 0x3C on i2c-1" in out


def test_cbrig_config_check_missing_file(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "check", str(tmp_path / "nope.toml")]) == 78
    assert f"{tmp_path / 'nope.toml'}: file: no such file" in capsys.readouterr().out


def test_cbrig_config_show_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "show", "--defaults"]) == 0
    out, _ = capsys.readouterr()
    assert parse_config(out, "<defaults>") == default_config()


def test_cbrig_config_show_file_prints_effective_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, '[reader]\ntype = "pn532"\n')
    assert main(["config", "show", str(path)]) == 0
    shown = tomllib.loads(capsys.readouterr().out)
    assert shown["reader"]["baud"] == 115200
    assert shown["game"]["name"] == "tenfour"


def test_cbrig_config_show_broken_file(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "[pins]\nhi_a = 99\n")
    assert main(["config", "show", str(path)]) == 78
    out, err = capsys.readouterr()
    assert out == ""
    assert f"{path}:2: pins.hi_a" in err


def test_the_computer_levels_and_their_older_names(tmp_path: Path) -> None:
    path = write(tmp_path, '[game]\nplayers = 4\nlevels = ["easy", "medium", "hard", "strong"]\n')
    game = load_config(path, check_game=False).game
    assert game.levels == ("easy", "medium", "hard", "strong")
    assert (game.hint_level, game.think_ms) == ("hard", 100)


def test_a_path_with_a_nul_character_is_a_located_problem() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config('[state]\ndirectory = "a\\u0000b"\n', "<nul>", base=Path("/nonexistent"),
                     check_game=False)
    assert [(p.line, p.field) for p in caught.value.problems] == [(2, "state.directory")]
    assert "NUL" in str(caught.value)
