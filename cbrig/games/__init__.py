"""One folder per game: everything the rig knows about that game, and its registration.

Each subpackage's ``__init__`` registers its game (``rig.registry`` finds the folders by
listing this directory) and must stay lean: reading an entry loads no rules, view or
PIL. Its other modules (view, board, live, printout, speech) are loaded on first use.
"""
