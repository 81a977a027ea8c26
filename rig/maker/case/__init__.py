"""The printable enclosure (`cbrig case build`, docs/CASE.md).

`parts` (the part table, wiring/parts.toml) and `layout` (where each part goes) are pure
Python and import no CAD library, so wiring/ and the config checks can read the table on
a Pi. `geometry`, `export`, `render` and `build` need the `case` extra (manifold3d,
numpy) and are imported only by `cbrig case`.
"""
