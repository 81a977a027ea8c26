"""The image's wifi.txt reader (systemd/image/wifi-config): the owner's file becomes
wpa_supplicant's config; each mistake is reported with file and line, never fatal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "systemd" / "image" / "wifi-config"


def convert(tmp_path: Path, text: str | None) -> tuple[subprocess.CompletedProcess[str], Path]:
    source = tmp_path / "wifi.txt"
    target = tmp_path / "run" / "wpa_supplicant-wlan0.conf"
    if text is not None:
        source.write_text(text)
    result = subprocess.run([sys.executable, str(SCRIPT), str(source), str(target)],
                            capture_output=True, text=True, check=False)
    return result, target


def test_the_shipped_template_configures_nothing(tmp_path: Path) -> None:
    template = (SCRIPT.parent / "wifi.txt").read_text()
    result, target = convert(tmp_path, template)
    assert result.returncode == 0
    assert "no ssid: no Wi-Fi" in result.stdout
    assert not target.exists()


def test_a_filled_in_file_becomes_wpa_supplicants_config(tmp_path: Path) -> None:
    result, target = convert(tmp_path, "ssid = \"Bob's net\"\npassphrase = secret \"pass\"\n"
                                       "country = gb\n")
    assert result.returncode == 0, result.stderr
    assert "Wi-Fi network \"Bob's net\", country GB" in result.stdout
    conf = target.read_text()
    assert "country=GB\n" in conf
    assert 'psk="secret "pass""' in conf
    assert "ssid=" + b"Bob's net".hex() + "\n" in conf
    assert oct(target.stat().st_mode & 0o777) == "0o600"


def test_mistakes_are_reported_with_file_and_line_and_the_rest_is_used(tmp_path: Path) -> None:
    result, target = convert(tmp_path, "# mine\nssid = Home\npassword = x\npassphrase = short\n"
                                       "country = Britain\njust words\n")
    assert result.returncode == 0
    source = tmp_path / "wifi.txt"
    assert f"{source}:3: unknown name 'password'" in result.stderr
    assert f"{source}:4: the passphrase has 5 characters" in result.stderr
    assert f"{source}:5: country 'Britain' is not a two-letter code" in result.stderr
    assert f"{source}:6: not a 'name = value' line" in result.stderr
    assert "key_mgmt=NONE" in target.read_text()
    assert "4 line(s) ignored" in result.stdout


def test_no_file_no_wifi_and_no_failure(tmp_path: Path) -> None:
    result, target = convert(tmp_path, None)
    assert result.returncode == 0
    assert "not there: no Wi-Fi" in result.stdout
    assert not target.exists()
