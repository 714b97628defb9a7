"""twistd plugin options and service construction for `twistd queryhttp`."""

from __future__ import annotations

import ipaddress
import sys

from twisted.application import service
from twisted.python import usage

from engine import DataDirectoryError, Limits, check_data_directory
from web.config import WIRE_FORMATS, ServiceConfig
from web.startup import check_can_listen, startup_failure


class StartRefused(usage.UsageError):
    """Options well written, but what they name cannot be used (a --data_dir that is a file,
    not writable or held by another server): said without pointing at --help."""


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise usage.UsageError(f"--http_handler_port must be an integer, not {value!r}") from None
    if not 0 <= port <= 65535:
        raise usage.UsageError(f"--http_handler_port must be between 0 and 65535, not {port}")
    return port


def _integer(name: str, minimum: int = 1):
    def coerce(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise usage.UsageError(f"--{name} must be an integer, not {value!r}") from None
        if number < minimum:
            raise usage.UsageError(f"--{name} must be at least {minimum}, not {number}")
        return number

    coerce.coerceDoc = "A positive integer." if minimum == 1 else f"An integer >= {minimum}."
    return coerce


def _seconds(name: str):
    def coerce(value: str) -> float:
        try:
            number = float(value)
        except ValueError:
            raise usage.UsageError(f"--{name} must be a number of seconds, not {value!r}") from None
        if not 0 <= number <= 3600:
            raise usage.UsageError(f"--{name} must be between 0 and 3600, not {value}")
        return number

    coerce.coerceDoc = "Seconds, 0 to 3600."
    return coerce


def is_loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name that resolves elsewhere, or every address


_D = ServiceConfig()

# (option, config field, help)
_LIMITS = [
    ("max_body_bytes", "largest accepted request body in bytes (413 above)"),
    ("max_upload_bytes", "largest PUT /v1/upload_to_stage body in bytes (413 above)"),
    ("max_upload_inflight_bytes", "bytes all uploads in flight may hold together "
                                  "(an upload past it: 503 before its body is read)"),
    ("max_running_queries", "queries producing rows at once; a query paused on unread pages "
                            "does not count (more: queued, fair between users)"),
    ("max_running_queries_per_user", "queries of one user producing rows at once "
                                     "(more: queued)"),
    ("statement_queued_timeout_in_seconds", "longest wait of a queued query for a running "
                                            "slot (then: Failed, code 1122)"),
    ("max_retained_queries", "finished queries kept for paging before the oldest read ones are "
                             "evicted; twice this many held at most (more: code 1067)"),
    ("pressure_idle_secs", "when twice max_retained_queries hold unread results, queries "
                           "unread this long are expired early, longest idle first"),
    ("max_sessions", "server-side sessions at once (more: Failed, code 1067); as many open transactions"),
    ("max_keep_session_secs", "upper bound of session.keep_server_session_secs and of an open transaction's keep"),
    ("http_session_timeout_secs", "a client session (cookie or X-DATABEND-SESSION) idle this "
                                  "long loses its temporary tables; refresh tokens live as long"),
    ("max_rows_per_page", "upper bound of pagination.max_rows_per_page"),
    ("default_rows_per_page", "rows per page when the request does not say"),
    ("buffer_pages", "full pages a query buffers before its producer pauses"),
    ("spec_wait_secs", "default pagination.wait_time_secs in the spec format"),
    ("databend_wait_secs", "default pagination.wait_time_secs in the databend format"),
    ("result_timeout_secs", "default http_handler_result_timeout_secs"),
    ("max_wait_secs", "upper bound of pagination.wait_time_secs: larger values are clamped "
                      "(a value that is not a non-negative integer is a 400)"),
    ("max_result_timeout_secs", "upper bound of the http_handler_result_timeout_secs setting: "
                                "larger values are clamped"),
    ("idle_connection_secs", "close a connection idle (or stalled mid-request) this long; "
                             "a long poll in progress is not idle"),
    ("thread_parse_sql_bytes", "SQL longer than this many bytes is parsed in a thread, off "
                               "the event loop"),
]

_L = Limits()
_MIB = 1 << 20

# The engine's limits an operator tunes: (option, engine.core.limits.Limits field, option unit in
# bytes or 1, smallest value, help). step_rows is internal and not an option.
_ENGINE_LIMITS = [
    ("max_sql_bytes", "sql_bytes", 1, 1,
     "largest SQL text of one statement in UTF-8 bytes (more: Failed, code 1005)"),
    ("max_expr_depth", "expr_depth", 1, 1, "deepest nesting of expressions and subqueries"),
    ("max_in_list_items", "in_list_items", 1, 1, "most items of one IN (...) list"),
    ("max_like_pattern_chars", "like_pattern_chars", 1, 1,
     "longest LIKE pattern in characters"),
    ("max_regex_pattern_chars", "regex_pattern_chars", 1, 1,
     "longest regular expression (REGEXP, regexp_*) in characters"),
    ("max_string_result_chars", "string_result_chars", 1, 1,
     "longest string a function or operator builds, in characters"),
    ("max_round_digits", "round_digits", 1, 1, "largest |digits| of ROUND and TRUNCATE"),
    ("max_stage_mb", "stage_bytes", _MIB, 1,
     "bytes all stages (uploaded files) may hold together, in MiB (more: Failed, code 1006)"),
    ("max_memory_mb", "server_memory_bytes", _MIB, 0,
     "memory budget shared by all running queries, in MiB (0: half the machine's memory)"),
]


class Options(usage.Options):
    synopsis = "[options]"
    longdesc = "Serve SQL over HTTP with the Databend query protocol (POST /v1/query)."
    optFlags = [
        ["access_log", None, "Write an access log line per request (off by default: ~25% cost)."],
        ["log_queries", None, "Log every query's end (id, user, state, rows, ms, SQL prefix); "
                              "off by default (~1/3 of a SELECT 1 round trip): only failed "
                              "queries' ends are logged, /metrics counts the others."],
        ["log_query_start", None, "Also log each query's start (id, user, SQL prefix) at debug "
                                  "level."],
        ["allow_empty_root_password", None,
         "Start on a non-loopback --http_handler_host without --users_file, where root with an "
         "empty password logs in from the network (refused otherwise)."],
        ["recover_to_last_good", None,
         "With --data_dir: when a log record is damaged or does not fit the database, start "
         "from the last good record instead of refusing to start; that record and every later "
         "one are set aside in wal-*.log.dropped files and the log says what was dropped."],
    ]
    optParameters = [
        ["http_handler_host", None, "127.0.0.1", "Address to listen on."],
        ["http_handler_port", None, 8000, "Port to listen on (0: any free port).", _port],
        ["wire_format", None, "auto",
         "Answer format: auto (databend for requests with an X-DATABEND-* header, else spec), "
         "spec or databend."],
        ["metrics_auth", None, "required",
         "Who may read GET /metrics (Prometheus text format): 'required' asks for credentials "
         "like every other endpoint; 'none' opens it to anyone who can connect, for a scraper "
         "without credentials (it shows counts and timings, no SQL)."],
        ["console", None, "on",
         "The browser query console at / and /console: 'on' serves it (the page itself needs "
         "no credentials, its queries do); 'off' answers 404 there."],
        ["data_dir", None, None,
         "Directory where databases, tables, views, stages, users and GLOBAL settings persist "
         "(a write-ahead log plus checkpoints; one server per directory). Without it "
         "everything lives in memory and is gone at exit."],
        ["fsync", None, "always",
         "With --data_dir: 'always' acknowledges a write only once it is fsynced (concurrent "
         "writes share one fsync); 'off' skips fsync: UNSAFE, a crash of the machine may lose "
         "acknowledged writes (for benchmarks)."],
        ["users_file", None, None,
         "File of name:scrypt-hash lines (make one with `python -m web.auth NAME`); "
         "without it only root with an empty password exists."],
        ["http_handler_tls_server_cert", None, None,
         "PEM certificate (chain) of the server: with --http_handler_tls_server_key the port "
         "speaks HTTPS only."],
        ["http_handler_tls_server_key", None, None, "PEM private key of that certificate."],
        ["http_handler_tls_server_root_ca_cert", None, None,
         "PEM CA certificate: clients must present a certificate it signed (mutual TLS)."],
        ["login_backoff_max_secs", None, _D.login_backoff_max_secs,
         "After a failed login from an address, its next check waits 0.25 s, doubling per "
         "further failure up to this many seconds (a success resets it).",
         _seconds("login_backoff_max_secs")],
    ] + [[name, None, getattr(_D, name), help_text, _integer(name)]
         for name, help_text in _LIMITS] + [
        [name, None, getattr(_L, field) // unit, help_text, _integer(name, minimum)]
        for name, field, unit, minimum, help_text in _ENGINE_LIMITS]

    def parseOptions(self, options=None):
        """As usage.Options; under twistd, a bad option ends the start with its reason in one
        line (twistd would print the whole --help above it)."""
        try:
            super().parseOptions(options)
        except usage.UsageError as e:
            if getattr(self, "parent", None) is None:
                raise  # parsed on its own (tests, embedding): the caller reports it
            hint = "" if isinstance(e, StartRefused) else " (twistd queryhttp --help lists the options)"
            raise startup_failure(f"{e}{hint}") from None

    def opt_version(self):
        """Print queryhttp's version and the Databend version it answers as, and exit."""
        from web.build import version_line

        print(version_line())
        sys.exit(0)

    def postOptions(self):
        self._no_default_pidfile()
        host = self["http_handler_host"]
        if not host or any(c.isspace() for c in host):
            raise usage.UsageError(f"--http_handler_host is not a valid address: {host!r}")
        if self["wire_format"] not in WIRE_FORMATS:
            raise usage.UsageError(
                f"--wire_format must be one of {', '.join(WIRE_FORMATS)}, "
                f"not {self['wire_format']!r}")
        if self["metrics_auth"] not in ("required", "none"):
            raise usage.UsageError(
                f"--metrics_auth must be required or none, not {self['metrics_auth']!r}")
        if self["fsync"] not in ("always", "off"):
            raise usage.UsageError(f"--fsync must be always or off, not {self['fsync']!r}")
        if self["console"] not in ("on", "off"):
            raise usage.UsageError(f"--console must be on or off, not {self['console']!r}")
        self["users"] = None
        if self["users_file"]:
            from web.auth import load_users

            try:
                self["users"] = load_users(self["users_file"])
            except (OSError, ValueError) as e:
                raise usage.UsageError(f"--users_file: {e}") from None
        elif not is_loopback(host) and not self["allow_empty_root_password"]:
            raise usage.UsageError(
                f"--http_handler_host {host} is reachable from other machines, where root "
                "logs in with an empty password: give --users_file (or, knowingly, "
                "--allow_empty_root_password)")
        if self["data_dir"] is not None:
            try:  # creates and opens nothing: the data directory is opened after the port
                check_data_directory(self["data_dir"])
            except DataDirectoryError as e:
                raise StartRefused(f"--data_dir {self['data_dir']}: {e}") from None
        self["tls"] = self._tls_options()

    def _no_default_pidfile(self):
        """`twistd -n queryhttp` writes no twistd.pid: a second server in the same directory
        is then told what it clashes on (its port, or --data_dir's lock), not twistd's generic
        pidfile advice. A --pidfile given, and a daemon's pidfile, are kept."""
        parent = getattr(self, "parent", None)
        if parent is not None and parent.get("nodaemon") and parent.get("pidfile") == "twistd.pid":
            parent["pidfile"] = ""

    def _tls_options(self):
        """Twisted's TLS options of the --http_handler_tls_* files, None without TLS."""
        from web.tls import TLSConfigError, certificate_options, tls_files

        try:
            files = tls_files(self["http_handler_tls_server_cert"],
                              self["http_handler_tls_server_key"],
                              self["http_handler_tls_server_root_ca_cert"])
            return None if files is None else certificate_options(files)
        except TLSConfigError as e:
            raise usage.UsageError(str(e)) from None
        except ImportError as e:  # pyOpenSSL missing: installed without the tls extra
            raise usage.UsageError(f"TLS needs pyOpenSSL, which the queryhttp[tls] extra "
                                   f"installs ({e})") from None

    def service_config(self) -> ServiceConfig:
        web_limits = {name: self[name] for name, _ in _LIMITS}
        engine_limits = Limits(**{field: self[name] * unit
                                  for name, field, unit, _, _ in _ENGINE_LIMITS})
        return ServiceConfig(wire_format=self["wire_format"], access_log=bool(self["access_log"]),
                             log_query_start=bool(self["log_query_start"]),
                             log_queries=bool(self["log_queries"]),
                             metrics_auth=self["metrics_auth"] == "required",
                             console=self["console"] == "on",
                             data_dir=self["data_dir"], fsync=self["fsync"] == "always",
                             recover_to_last_good=bool(self["recover_to_last_good"]),
                             tls=self.get("tls") is not None,
                             login_backoff_max_secs=self["login_backoff_max_secs"],
                             limits=engine_limits, **web_limits)


def endpoint_description(host: str, port: int) -> str:
    """A strports description for a TCP listener, IPv6-safe (colons escaped)."""
    kind = "tcp6" if ":" in host else "tcp"
    return f"{kind}:{port}:interface={host.replace(':', chr(92) + ':')}"


def makeService(options: Options) -> service.IService:
    host, port = options["http_handler_host"], options["http_handler_port"]
    check_can_listen(host, port)  # before the data directory is opened and recovered
    from web.service import QueryHTTPService

    endpoint = None
    if options.get("tls") is not None:
        from twisted.internet import reactor
        from twisted.internet.endpoints import SSL4ServerEndpoint

        endpoint = SSL4ServerEndpoint(reactor, port, options["tls"], interface=host)
    return QueryHTTPService(endpoint_description(host, port), options.service_config(),
                            options.get("users"), endpoint=endpoint)
