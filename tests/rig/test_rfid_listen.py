"""`cbrig rfid listen`: the wiring check reads the configured reader, and a port that
will not open is said at once with a non-zero exit (not one line, then silence)."""

from __future__ import annotations

import queue
from pathlib import Path

import pytest

from rig.cli import main
from tests.rig.conftest import Pty
from tests.rig.test_enroll import write_config


def test_a_missing_port_says_so_and_exits_1(tmp_path: Path, capsys) -> None:
    config = write_config(tmp_path, port=str(tmp_path / "ttyGONE"))
    assert main(["rfid", "listen", "--config", str(config)]) == 1
    captured = capsys.readouterr()
    # "listening ... Ctrl-C to stop" came first, then the failure: now only the failure
    assert "listening" not in captured.out
    assert f"cbrig rfid: cannot open {tmp_path / 'ttyGONE'}" in captured.err
    assert "sudo systemctl stop cbrig" in captured.err
    assert "the UART may be off" in captured.err and "enable_uart=1" in captured.err


def test_the_configured_type_port_and_baud_are_used_and_can_be_overridden(
        tmp_path: Path, pty: Pty, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    import rig.owner.readercheck

    real_wait = rig.owner.readercheck.wait_for_connection

    def connected_then_tap(events: queue.Queue[object], *args: object) -> object:
        status = real_wait(events)
        pty.tap(3887558)
        return status

    monkeypatch.setattr(rig.owner.readercheck, "wait_for_connection", connected_then_tap)
    config = write_config(tmp_path, port=pty.path)
    assert main(["rfid", "listen", "--config", str(config), "--count", "1",
                 "--seconds", "10"]) == 0
    out = capsys.readouterr().out
    assert f"listening on {pty.path} (rdm6300, 9600 baud)" in out
    assert f"reader    connected on {pty.path}" in out
    assert "presented 0003887558" in out

    pn532 = write_config(tmp_path, port=str(tmp_path / "ttyPN"), reader="pn532")
    assert main(["rfid", "listen", "--config", str(pn532)]) == 1
    # a port that does not open is said with the settings tried (no "listening" first)
    assert f"(type pn532, port {tmp_path / 'ttyPN'}, 115200 baud)" in capsys.readouterr().err
    assert main(["rfid", "listen", "--config", str(pn532), "--reader", "rdm6300",
                 "--port", str(tmp_path / "ttyX")]) == 1
    assert f"(type rdm6300, port {tmp_path / 'ttyX'}, 9600 baud)" in capsys.readouterr().err


def test_no_reader_in_the_config_is_a_config_error(tmp_path: Path, capsys) -> None:
    config = write_config(tmp_path, reader="none")
    assert main(["rfid", "listen", "--config", str(config)]) == 78
    assert "has no reader" in capsys.readouterr().err
