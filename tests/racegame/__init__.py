"""Race to 20: a third, tiny game that exists only inside the test suite.

It proves the registry's promise: a game is one package plus one registration line
(`tests/racegame/entry.py`, `register(RACE)`), and then `cbrig simulate`, the
conformance battery, the emulated rig and the journal replay take it without any other
file knowing it. One knob spin a turn (a chance node), then one decision: ride the spin
or go steady by 3; the first to reach the goal wins.
"""
