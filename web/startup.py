"""What a start says and how it fails: one line on stderr and exit status 1, before anything
is opened (the port is tried before the data directory), and the start log's sign-in hint."""

from __future__ import annotations

import errno
import socket

PREFIX = "queryhttp: "


def startup_failure(reason: str) -> SystemExit:
    """The exception that ends a start: Python prints its text alone on stderr, exit status 1
    (twistd reports a SystemExit as it is, where any other error becomes a traceback)."""
    return SystemExit(PREFIX + reason)


def _what_to_do(code: int | None) -> str:
    if code == errno.EADDRINUSE:
        return " (another server listens there: stop it or choose another --http_handler_port)"
    if code == errno.EADDRNOTAVAIL:
        return " (no interface of this machine has that address: see --http_handler_host)"
    if code == errno.EACCES:
        return " (ports below 1024 need privileges: choose a port above 1023)"
    return ""


def check_can_listen(host: str, port: int) -> None:
    """Bind a throwaway socket where the server will listen, with the SO_REUSEADDR Twisted
    sets, and close it: a port another server listens on (or an address this machine does not
    have) stops the start here, before the data directory is opened and recovered. A port
    taken in the moment between this and the real listen still fails with one line
    (QueryHTTPService.privilegedStartService)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as exc:
        raise cannot_listen(host, port, exc.errno, exc.strerror or str(exc)) from None


def cannot_listen(host: str, port: int, code: int | None, reason: str) -> SystemExit:
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return startup_failure(f"cannot listen on {where}: {reason}{_what_to_do(code)}")


def local_url(scheme: str, host: str, port: int) -> str:
    """The URL a browser on this machine opens: a wildcard address (0.0.0.0, ::) is reached
    as the loopback one."""
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}:{port}/"


def sign_in_hint(users: dict[str, str] | None) -> str:
    """Who signs in, and where the password comes from (for the start log)."""
    if users is None:
        return "sign in as root with an empty password (no --users_file given)"
    names = sorted(users)
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return (f"sign in as a user of --users_file ({shown}) with the password its line was made "
            "from (python -m web.auth NAME)")
