"""Pure rules engines for the CB rig.

Nothing in this package reads files, looks at a clock, draws random numbers or touches
hardware: a game is a state plus legal actions, and chance (spins, card and ticket
draws) is an action whose outcome is chosen outside and applied like any other.
"""
