"""`cbrig print`: print-ready PDFs of the board, cards, pieces and quick reference.

Everything here draws with `rig.maker.boardart` (the same drawing as `cbrig board show` and
the browser's live board) and writes PDF through `rig.maker.boardart.pdf` (reportlab, the
`[print]` extra), imported only when something is printed.
"""
