"""10-Four's shipped data files: the board, the spinner bands and the Mike card deck
(all assumptions: each file says so at its top). Journals name them ``default:NAME``."""
