"""Race for Five: Race to 20's rules for two to five runners, a test game of its own.

It proves that the player range is the game's: the config check, the setup menu,
`cbrig simulate` and the rig take five players because its facts say so.
"""
