"""`cbrig print`: print-ready PDFs of the board, cards, pieces and quick reference.

Everything here draws with `rig.boardart` (the same drawing as `cbrig board show` and
the browser's live board) and writes PDF through `rig.boardart.pdf` (reportlab, the
`[print]` extra), imported only when something is printed.
"""
