"""The twistd plugin's options: defaults, coercion and usage errors, with no reactor."""

import pytest
from twisted.python import usage

from web.tap import Options, endpoint_description


def parse(*args):
    options = Options()
    options.parseOptions(list(args))
    return options


def test_defaults():
    options = parse()
    assert options["http_handler_host"] == "127.0.0.1"
    assert options["http_handler_port"] == 8000


def test_port_is_coerced_to_int():
    options = parse("--http_handler_port", "9123", "--http_handler_host", "0.0.0.0",
                    "--allow_empty_root_password")
    assert options["http_handler_port"] == 9123
    assert options["http_handler_host"] == "0.0.0.0"


@pytest.mark.parametrize("bad", ["abc", "-1", "65536", "80.5"])
def test_bad_port_is_a_usage_error(bad):
    with pytest.raises(usage.UsageError, match="http_handler_port"):
        parse("--http_handler_port", bad)


def test_empty_host_is_a_usage_error():
    with pytest.raises(usage.UsageError, match="http_handler_host"):
        parse("--http_handler_host", "")


def test_endpoint_description_ipv4_and_ipv6():
    assert endpoint_description("127.0.0.1", 8000) == "tcp:8000:interface=127.0.0.1"
    assert endpoint_description("::1", 0) == r"tcp6:0:interface=\:\:1"


def test_plugin_is_discoverable():
    from twisted.application.service import IServiceMaker
    from twisted.plugin import getPlugins

    names = [p.tapname for p in getPlugins(IServiceMaker)]
    assert "queryhttp" in names


def test_service_options_reach_the_config():
    config = parse("--wire_format", "databend", "--access_log", "--max_running_queries", "3",
                   "--max_body_bytes", "1000", "--spec_wait_secs", "2").service_config()
    assert config.wire_format == "databend" and config.access_log is True
    assert config.max_running_queries == 3 and config.max_body_bytes == 1000
    assert config.spec_wait_secs == 2


def test_default_config_has_access_log_off_and_auto_format():
    config = parse().service_config()
    assert config.access_log is False and config.wire_format == "auto"
    assert config.databend_wait_secs == 10 and config.spec_wait_secs == 1


@pytest.mark.parametrize("args, name", [
    (("--wire_format", "json"), "wire_format"),
    (("--max_sessions", "0"), "max_sessions"),
    (("--max_body_bytes", "lots"), "max_body_bytes"),
    (("--users_file", "/nonexistent/users"), "users_file"),
])
def test_bad_service_options_are_usage_errors(args, name):
    with pytest.raises(usage.UsageError, match=name):
        parse(*args)


def test_users_file_option_loads_hashes(tmp_path):
    from web.auth import hash_password

    path = tmp_path / "users"
    path.write_text(f"alice:{hash_password('a')}\n")
    options = parse("--users_file", str(path))
    assert set(options["users"]) == {"alice"}


def test_make_service_builds_the_http_service():
    from web.service import QueryHTTPService
    from web.tap import makeService

    top = makeService(parse("--http_handler_port", "0", "--max_sessions", "7"))
    assert isinstance(top, QueryHTTPService)
    assert top.config.max_sessions == 7
    assert {child.name for child in top} == {"http", "sweeper"}


def test_engine_limit_options_reach_the_config_limits():
    from engine.core.limits import Limits

    config = parse("--max_sql_bytes", "5000", "--max_expr_depth", "9", "--max_in_list_items",
                   "10", "--max_memory_mb", "3", "--max_like_pattern_chars", "11",
                   "--max_string_result_chars", "12", "--max_round_digits", "13",
                   "--max_regex_pattern_chars", "14").service_config()
    assert config.limits == Limits(sql_bytes=5000, expr_depth=9, in_list_items=10,
                                   server_memory_bytes=3 << 20, like_pattern_chars=11,
                                   string_result_chars=12, round_digits=13, regex_pattern_chars=14)
    assert parse().service_config().limits == Limits()  # defaults: the engine's own
    assert parse().service_config().limits.server_memory_bytes == 0  # half the machine


def test_web_limit_options_reach_the_config():
    config = parse("--max_wait_secs", "5", "--max_result_timeout_secs", "6",
                   "--max_running_queries_per_user", "2",
                   "--thread_parse_sql_bytes", "100").service_config()
    assert (config.max_wait_secs, config.max_result_timeout_secs) == (5, 6)
    assert config.max_running_queries_per_user == 2 and config.thread_parse_sql_bytes == 100


@pytest.mark.parametrize("args, name", [
    (("--max_memory_mb", "-1"), "max_memory_mb"),
    (("--max_sql_bytes", "0"), "max_sql_bytes"),
    (("--max_wait_secs", "x"), "max_wait_secs"),
])
def test_bad_limit_options_are_usage_errors(args, name):
    with pytest.raises(usage.UsageError, match=name):
        parse(*args)


def test_data_dir_and_fsync_reach_the_config():
    assert parse().service_config().data_dir is None  # in memory unless asked
    config = parse("--data_dir", "some/dir", "--fsync", "off").service_config()
    assert (config.data_dir, config.fsync) == ("some/dir", False)
    assert parse("--data_dir", "d").service_config().fsync is True  # fsync always by default
    with pytest.raises(usage.UsageError, match="--fsync must be always or off"):
        parse("--fsync", "sometimes")


def twistd(*args):
    """twistd's own option parser with the queryhttp subcommand, as `twistd ARGS` parses."""
    from twisted.scripts._twistd_unix import ServerOptions

    config = ServerOptions()
    config.parseOptions(list(args))
    return config


def test_under_twistd_a_bad_option_is_one_line_with_the_reason_first():
    with pytest.raises(SystemExit) as exit_:
        twistd("-n", "queryhttp", "--port", "8000")
    assert exit_.value.code == ("queryhttp: option --port not recognized "
                                "(twistd queryhttp --help lists the options)")
    with pytest.raises(SystemExit) as exit_:
        twistd("-n", "queryhttp", "--max_sessions", "0")
    assert exit_.value.code.startswith("queryhttp: --max_sessions must be at least 1, not 0 (")


def test_under_twistd_an_unusable_data_dir_is_one_line_without_the_help_pointer(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(SystemExit) as exit_:
        twistd("-n", "queryhttp", "--data_dir", str(tmp_path / "f"))
    assert exit_.value.code == (f"queryhttp: --data_dir {tmp_path / 'f'}: data directory "
                                f"{tmp_path / 'f'} is not a directory")


def test_parsed_alone_a_bad_data_dir_is_a_usage_error(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(usage.UsageError, match="is not a directory"):
        parse("--data_dir", str(tmp_path / "f"))
    assert not (tmp_path / "d").exists()
    parse("--data_dir", str(tmp_path / "d"))
    assert not (tmp_path / "d").exists()  # checked, not created


def test_twistd_n_writes_no_default_pidfile_but_keeps_a_given_one():
    assert twistd("-n", "queryhttp")["pidfile"] == ""
    assert twistd("-n", "--pidfile", "/tmp/q.pid", "queryhttp")["pidfile"] == "/tmp/q.pid"
    assert twistd("queryhttp")["pidfile"].endswith("twistd.pid")  # a daemon keeps its pidfile


def test_version_names_queryhttp_and_databend(capsys):
    import engine
    from web.build import queryhttp_version

    with pytest.raises(SystemExit) as exit_:
        twistd("-n", "queryhttp", "--version")
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith(
        f"queryhttp {queryhttp_version()}, answering as Databend {engine.VERSION} (Twisted ")


def test_a_busy_port_is_refused_before_the_service_is_made(tmp_path):
    import socket

    from web.tap import makeService

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        options = parse("--http_handler_port", str(port), "--data_dir", str(tmp_path / "d"))
        with pytest.raises(SystemExit, match=rf"^queryhttp: cannot listen on 127.0.0.1:{port}: "):
            makeService(options)
    assert not (tmp_path / "d").exists()
