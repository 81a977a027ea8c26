"""Ladders: a race up 30 squares with ladders and chutes, a cb-rig game from outside."""
