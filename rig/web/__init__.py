"""The rig in a browser: the desk page (`cbrig emulate --web`) and the live board.

Standard library only: `http.server`'s ThreadingHTTPServer and server-sent events. On a
Pi Zero 2 W that costs no install, no extra memory beyond a thread per open page, and no
framework to keep up to date; SSE is one-way push over plain HTTP, which is all the
board needs, and the desk's inputs are small POSTs (see docs/WEB.md). Nothing here is
imported unless the web is asked for.
"""
