"""wiring/parts.toml: the one part table of the wiring and the case loads cleanly,
names each mistake's line and field, and wiring/ names the same parts."""

from __future__ import annotations

import re

import pytest

from engine.errors import DataError
from rig.maker.case.parts import ROLES, TABLE_PATH, load_parts, parse_parts
from tests.config.test_wiring_docs import WIRING, pin_table

_HEAD = TABLE_PATH.read_text(encoding="utf-8").split("\n[[part]]", 1)[0]


def test_the_table_loads_with_every_role_and_every_part_has_a_source() -> None:
    table = load_parts()
    assert {p.role for p in table.parts} == set(ROLES)
    assert set(table.choices("pi")) == {"zero2w", "pi3", "pi4", "pi5"}
    assert set(table.choices("display")) == {"ssd1306", "sh1106"}
    assert set(table.choices("reader")) == {"rdm6300", "pn532"}
    for part in table.parts:
        assert part.source.strip() and part.tolerance > 0, part.id


def test_the_reference_footprints_are_the_table_s() -> None:
    """REFERENCE.md's facts: the Zero's holes 58 x 23 apart, the big Pis' 58 x 49."""
    table = load_parts()
    for choice, span in (("zero2w", (58.0, 23.0)), ("pi4", (58.0, 49.0))):
        holes = table.choose("pi", choice).holes
        xs, ys = [h[0] for h in holes], [h[1] for h in holes]
        assert (max(xs) - min(xs), max(ys) - min(ys)) == span
    knob = table.choose("encoder", "ky040")
    assert (knob.bushing_diameter, knob.shaft_diameter) == (7.0, 6.0)


def _one_part(**fields: str | None) -> str:
    base: dict[str, str | None] = {
            "id": '"x"', "name": '"X"', "wiring": '""', "role": '"led"', "choice": '"led"',
            "source": '"s"', "tolerance": "0.2", "diameter": "5.0", "thickness": "8.0",
            "above": "0.0", "below": "1.0", "holes": "[]", "hole_diameter": "0.0",
            "screw": '""', "mount": '"press"'}
    base.update(fields)
    return "[[part]]\n" + "".join(f"{k} = {v}\n" for k, v in base.items() if v is not None)


def test_a_good_one_part_table_loads() -> None:
    assert parse_parts(_one_part(), "t.toml").parts[0].diameter == 5.0


def test_every_mistake_is_named_with_its_file_line_and_field() -> None:
    text = _one_part(role='"lamp"', mount='"glue"', holes="[[9.0, 1.0]]", tolerance='"a"')
    with pytest.raises(DataError) as caught:
        parse_parts(text, "t.toml")
    found = {(p.line, p.field) for p in caught.value.problems}
    lines = text.splitlines()
    for field in ("role", "mount", "tolerance"):
        line = next(n for n, raw in enumerate(lines, 1) if raw.startswith(f"{field} ="))
        assert (line, f"part[0].{field}") in found
    assert all(str(p).startswith("t.toml:") for p in caught.value.problems)


def test_a_screwed_part_needs_holes_inside_its_outline() -> None:
    text = _one_part(mount='"screws"', screw='"M2"', holes="[[9.0, 1.0]]",
                     hole_diameter="2.0")
    with pytest.raises(DataError, match=r"outside the 5\.0 x 5\.0 outline"):
        parse_parts(text, "t.toml")


def _named(cell: str) -> list[str]:
    """The names a pin-map "Part" cell gives: the words before its parenthesis and each
    name inside it ("Hi knob (KY-040)" -> "Hi knob", "KY-040")."""
    outer = cell.split("(", 1)[0].strip()
    inner = re.findall(r"\(([^)]*)\)", cell)
    return [outer, *(n.strip() for part in inner for n in re.split(r"[/,]", part))]


def test_every_part_of_the_pin_map_is_a_part_of_the_table() -> None:
    names = load_parts().wiring_names()
    resolved: set[str] = set()  # "Hi knob" once "Hi knob (KY-040)" named its part
    for row in pin_table():
        cell = row["Part"]
        candidates = _named(cell)
        if candidates[0] in resolved:
            continue
        assert any(n in names for n in candidates), f"{cell!r} names no part of the table"
        resolved.add(candidates[0])


def test_every_wired_part_of_the_table_is_in_the_wiring_docs() -> None:
    docs = (WIRING / "README.md").read_text(encoding="utf-8") + (
        WIRING / "PARTS.md").read_text(encoding="utf-8")
    for name in load_parts().wiring_names():
        assert name in docs, f"{name!r} (wiring/parts.toml) is not in wiring/README.md or PARTS.md"


def test_the_table_s_header_says_what_its_fields_mean() -> None:
    for word in ("tolerance", "above", "mount", "plug"):
        assert word in _HEAD


def test_a_header_names_an_edge_and_a_reach() -> None:
    table = parse_parts(_one_part(size="[10.0, 5.0]", diameter=None, header='["right", 14.0]'),
                        "t.toml")
    assert table.parts[0].header == ("right", 14.0)
    with pytest.raises(DataError, match="expected \\[edge, reach\\]"):
        parse_parts(_one_part(header='["up", 3]'), "t.toml")
