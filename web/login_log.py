"""Failed logins in the server log, rate-limited: a guesser cannot flood the log.

Each (user, client address, reason) is logged once per window, and at most LINES of them per
window; the failures past that are counted, and one line at the window's end says how many
there were and from how many addresses."""

from __future__ import annotations

WINDOW_SECS = 60.0
LINES = 20  # distinct failure lines per window
_ADDRESSES_COUNTED = 1000  # distinct addresses remembered for the summary (memory stays bounded)


class FailedLoginLog:
    """`warn(format, **fields)` writes a warning (a twisted.logger call); `clock` is an
    IReactorTime (its seconds() and callLater)."""

    def __init__(self, warn, clock, window_secs: float = WINDOW_SECS, lines: int = LINES):
        self._warn = warn
        self._clock = clock
        self.window_secs = window_secs
        self.lines = lines
        self._window_end = float("-inf")
        self._logged: set[tuple[str, str, str]] = set()
        self._suppressed = 0
        self._suppressed_addresses: set[str] = set()
        self._summary_call = None

    def refused(self, user: str, client: str, reason: str) -> None:
        now = self._clock().seconds()
        if now >= self._window_end:
            self._summarize()
            self._window_end = now + self.window_secs
            self._logged = set()
        key = (user, client, reason)
        if key not in self._logged and len(self._logged) < self.lines:
            self._logged.add(key)
            self._warn("login refused: user {user} from {client}: {reason}",
                       user=repr(user), client=client, reason=reason)
            return
        self._suppressed += 1
        if len(self._suppressed_addresses) < _ADDRESSES_COUNTED:
            self._suppressed_addresses.add(client)
        if self._summary_call is None:
            self._summary_call = self._clock().callLater(self._window_end - now, self._summarize)

    def _summarize(self) -> None:
        """The window's line for the failures not logged one by one (none: nothing)."""
        if self._summary_call is not None and self._summary_call.active():
            self._summary_call.cancel()
        self._summary_call = None
        if not self._suppressed:
            return
        addresses = len(self._suppressed_addresses)
        self._warn("login refused {count} more times in {secs:.0f} s from {addresses} "
                   "address(es), not logged one by one (each user, address and reason is "
                   "logged once per {secs:.0f} s, at most {lines} of them)",
                   count=self._suppressed, secs=self.window_secs,
                   addresses=f"{addresses}+" if addresses >= _ADDRESSES_COUNTED else addresses,
                   lines=self.lines)
        self._suppressed = 0
        self._suppressed_addresses = set()
