"""Who may watch the live board: pages that presented the rig's join code.

The board used to be open to every host on the table's network, so its few places had
to be rationed among strangers, and enough strangers (or one slow reader) locked the
family's phones out (issue 44). Now the rig shows how to join (its address and a short
code, on the OLED's "Phones: join" screen from the setup menu, and so on the browser
rig), a page that presents the code is given a token it keeps (a cookie), and only a
request carrying that token gets a place; everything else is refused before any place
or thread is spent on it (rig.web.httpserver's gate).

* The code: 6 digits, easy to read off the OLED and type on a phone. A host that gives
  a wrong code ``MAX_WRONG`` times in ``WRONG_WINDOW_SECONDS`` is refused the join form
  until the window passes (a million codes at 5 a minute a host).
* The token: ``HMAC(secret, "board")``, the same for every invited page; the secret and
  the code live in ``<state>/join.conf`` so a restart keeps the phones in.
* A new game renews the code (who joined stays in; the code the last game showed no
  longer lets anyone else in); the owner's "New code" on the join screen renews the
  secret too, so every page must join again.

Lean: imported by the daemon only when ``[web] enabled`` (and not ``open_to_lan``).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path

from rig.statedir import atomic_write

log = logging.getLogger(__name__)

COOKIE = "cbrig_join"
CODE_DIGITS = 6
MAX_WRONG = 5
"""Wrong codes a host may give in WRONG_WINDOW_SECONDS before its tries are refused."""
WRONG_WINDOW_SECONDS = 60.0
MAX_HOSTS_TRACKED = 1024
"""Hosts whose wrong codes are remembered (the oldest forgotten first): bounded memory."""


def new_code() -> str:
    return f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}"


class Invitation:
    """The join code and the token invited pages carry; thread-safe (the loop renews,
    the server's accept loop checks)."""

    def __init__(self, path: Path | None = None, *, clock: Callable[[], float] = time.monotonic,
                 reader: Callable[[Path], str] | None = None) -> None:
        self.path = path
        self.clock = clock
        self._lock = threading.Lock()
        self._wrong: dict[str, list[float]] = {}
        self.secret = secrets.token_hex(16)
        self.code = new_code()
        self.changes = 0
        """Renewals so far (the join screen shows the new code at once)."""
        if path is not None and reader is not None:
            self._load(path, reader)

    # --------------------------------------------------------------- state on disk
    def _load(self, path: Path, reader: Callable[[Path], str]) -> None:
        try:
            text = reader(path)
        except FileNotFoundError:
            self._save()
            return
        except (OSError, UnicodeDecodeError) as exc:
            log.warning("join code %s not read (%s): a new one is made", path, exc)
            self._save()
            return
        values = dict(line.partition("=")[::2] for line in text.splitlines() if "=" in line)
        values = {k.strip(): v.strip() for k, v in values.items()}
        secret, code = values.get("secret", ""), values.get("code", "")
        if len(secret) == 32 and all(c in "0123456789abcdef" for c in secret) \
                and len(code) == CODE_DIGITS and code.isdigit() and code.isascii():
            self.secret, self.code = secret, code
        else:
            log.warning("join code %s: not what the rig writes; a new one is made", path)
            self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        try:
            atomic_write(self.path, f"secret = {self.secret}\ncode = {self.code}\n".encode())
        except OSError as exc:
            log.warning("join code not kept in %s (%s): it lasts until the rig stops",
                        self.path, exc.strerror or exc)

    # --------------------------------------------------------------- renewals
    def renew_code(self) -> None:
        """A new game: a new code for newcomers; pages already in stay in."""
        with self._lock:
            self.code = new_code()
            self.changes += 1
        self._save()

    def renew_all(self) -> None:
        """The owner's "New code": a new code and a new token; every page joins again."""
        with self._lock:
            self.code = new_code()
            self.secret = secrets.token_hex(16)
            self.changes += 1
        self._save()

    # --------------------------------------------------------------- checks
    @property
    def token(self) -> str:
        with self._lock:
            secret = self.secret
        return hmac.new(secret.encode(), b"board", hashlib.sha256).hexdigest()[:32]

    def admits(self, cookie_header: str | None) -> bool:
        """Whether a request's Cookie header carries the current token."""
        if not cookie_header or len(cookie_header) > 4096:
            return False
        token = self.token
        for part in cookie_header.split(";"):
            name, _, value = part.strip().partition("=")
            if name == COOKIE and hmac.compare_digest(value.strip().encode(), token.encode()):
                return True
        return False

    def may_try(self, host: str) -> bool:
        """Whether `host` may try a code now (not too many wrong ones lately)."""
        now = self.clock()
        with self._lock:
            tries = [t for t in self._wrong.get(host, []) if now - t < WRONG_WINDOW_SECONDS]
            if tries:
                self._wrong[host] = tries
            else:
                self._wrong.pop(host, None)
            return len(tries) < MAX_WRONG

    def check_code(self, host: str, given: str) -> bool:
        """Whether `given` is the code (spaces ignored); a wrong one counts against
        `host`. Call `may_try` first."""
        given = "".join(given.split())
        with self._lock:
            right = hmac.compare_digest(given.encode(), self.code.encode())
            if not right:
                if host not in self._wrong and len(self._wrong) >= MAX_HOSTS_TRACKED:
                    del self._wrong[next(iter(self._wrong))]
                self._wrong.setdefault(host, []).append(self.clock())
            return right
