"""twistd plugin options and service construction for `twistd queryhttp`."""

from __future__ import annotations

from twisted.application import service
from twisted.python import usage


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise usage.UsageError(f"--http_handler_port must be an integer, not {value!r}") from None
    if not 0 <= port <= 65535:
        raise usage.UsageError(f"--http_handler_port must be between 0 and 65535, not {port}")
    return port


class Options(usage.Options):
    synopsis = "[options]"
    longdesc = "Serve SQL over HTTP with the Databend query protocol (POST /v1/query)."
    optParameters = [
        ["http_handler_host", None, "127.0.0.1", "Address to listen on."],
        ["http_handler_port", None, 8000, "Port to listen on (0: any free port).", _port],
    ]

    def postOptions(self):
        host = self["http_handler_host"]
        if not host or any(c.isspace() for c in host):
            raise usage.UsageError(f"--http_handler_host is not a valid address: {host!r}")


def endpoint_description(host: str, port: int) -> str:
    """A strports description for a TCP listener, IPv6-safe (colons escaped)."""
    kind = "tcp6" if ":" in host else "tcp"
    return f"{kind}:{port}:interface={host.replace(':', chr(92) + ':')}"


def makeService(options: Options) -> service.IService:
    from web.service import QueryHTTPService

    top = service.MultiService()
    QueryHTTPService(
        endpoint_description(options["http_handler_host"], options["http_handler_port"]),
        options,
    ).setServiceParent(top)
    return top


