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
    options = parse("--http_handler_port", "9123", "--http_handler_host", "0.0.0.0")
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
