"""The image's project layer as files (rig/maker/image/layer.py), without building an
image: what system_files() puts into a root and what the owner's config.toml says."""

from __future__ import annotations

from pathlib import Path

from rig.config import load_config
from rig.maker.image import layer

CHECKOUT = Path(__file__).resolve().parents[2]


def laid_out(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "left-by-raspi-firmware").write_text("x")
    said: list[str] = []
    layer.system_files(root, CHECKOUT, said.append)
    assert said
    return root


def test_the_rigs_unit_has_the_image_and_the_live_board_drop_ins(tmp_path: Path) -> None:
    root = laid_out(tmp_path)
    unit = root / "etc/systemd/system"
    drop_ins = unit / "cbrig.service.d"
    assert sorted(p.name for p in drop_ins.iterdir()) == ["image.conf", "web.conf"]
    assert (drop_ins / "web.conf").read_bytes() == (CHECKOUT / "systemd/web.conf").read_bytes()
    assert (drop_ins / "image.conf").read_bytes() == (
        CHECKOUT / "systemd/image.conf").read_bytes()
    web = (drop_ins / "web.conf").read_text()
    assert "PrivateNetwork=no" in web and "AF_INET" in web
    assert (unit / "cbrig.service").read_text() == (
        CHECKOUT / "systemd/cbrig.service").read_text()
    assert (unit / "multi-user.target.wants/cbrig.service").readlink() == Path(
        "/etc/systemd/system/cbrig.service")
    assert list((root / "boot/firmware").iterdir()) == []


def test_the_owners_config_turns_the_live_board_on_for_the_tables_network(
        tmp_path: Path) -> None:
    text = layer.image_config((CHECKOUT / "wiring/config.toml").read_text())
    assert "install.sh" not in text.split("[web]")[1].split("\n[")[0]
    shipped = tmp_path / "config.toml"
    shipped.write_text(text)
    config = load_config(shipped)
    assert config.web.enabled is False
    assert config.web.address == "0.0.0.0"
    assert "http://cbrig.local:8411/" in text
    on = tmp_path / "on.toml"
    on.write_text(text.replace("enabled = false             # true: the read-only live",
                               "enabled = true              # true: the read-only live"))
    assert load_config(on).web.enabled is True
    assert load_config(on).web.address == "0.0.0.0"
