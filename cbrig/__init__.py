"""cbrig: the names a game uses, kept where the rig's own modules may move beneath them.

``cbrig.game`` is the game API (one module a game imports everything from, with its
``API_VERSION``); ``cbrig.conformance`` the battery a game runs on itself
(``check_game``). docs/ENGINE_CONTRACT.md describes both.
"""
