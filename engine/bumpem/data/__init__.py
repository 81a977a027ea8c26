"""Bump 'Em's shipped data files: the board and the ticket set (all assumptions: each
file says so at its top). Journals name them ``default:NAME``."""
