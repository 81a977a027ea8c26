"""Shipped data files: boards, spinner bands, decks and ticket sets (all assumptions)."""
