"""The TLS and login options of the twistd plugin: what starts, and the start-up errors."""

import pytest
from twisted.internet.ssl import CertificateOptions
from twisted.python import usage

from tests.tls_certs import make_pki
from web.tap import Options, is_loopback, makeService


def parse(*args):
    options = Options()
    options.parseOptions(list(args))
    return options


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return make_pki(tmp_path_factory.mktemp("pki"))


def tls_args(pki, cert=True, key=True, ca=False):
    args = []
    if cert:
        args += ["--http_handler_tls_server_cert", str(pki.server_cert)]
    if key:
        args += ["--http_handler_tls_server_key", str(pki.server_key)]
    if ca:
        args += ["--http_handler_tls_server_root_ca_cert", str(pki.ca_cert)]
    return args


def test_without_tls_options_the_listener_is_plain():
    options = parse()
    assert options["tls"] is None and options.service_config().tls is False


def test_cert_and_key_make_tls_options(pki):
    options = parse(*tls_args(pki))
    assert isinstance(options["tls"], CertificateOptions)
    assert options["tls"].verify is False  # no client certificate asked for
    assert options.service_config().tls is True


def test_a_root_ca_requires_client_certificates(pki):
    options = parse(*tls_args(pki, ca=True))
    assert options["tls"].verify is True and options["tls"].requireCertificate is True


@pytest.mark.parametrize("which, message", [
    (dict(key=False), "--http_handler_tls_server_cert needs --http_handler_tls_server_key"),
    (dict(cert=False), "--http_handler_tls_server_key needs --http_handler_tls_server_cert"),
    (dict(cert=False, key=False, ca=True), "--http_handler_tls_server_root_ca_cert needs"),
])
def test_half_a_tls_configuration_is_a_usage_error(pki, which, message):
    with pytest.raises(usage.UsageError, match=message):
        parse(*tls_args(pki, **which))


def test_unreadable_files_are_usage_errors(pki, tmp_path):
    missing = str(tmp_path / "nope.pem")
    with pytest.raises(usage.UsageError,
                       match=r"^--http_handler_tls_server_cert: cannot read .*nope.pem: "
                             r"No such file or directory$"):
        parse("--http_handler_tls_server_cert", missing,
              "--http_handler_tls_server_key", str(pki.server_key))
    with pytest.raises(usage.UsageError, match="^--http_handler_tls_server_root_ca_cert: cannot"):
        parse(*tls_args(pki), "--http_handler_tls_server_root_ca_cert", missing)


def test_bad_pem_is_a_usage_error(pki, tmp_path):
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n")
    with pytest.raises(usage.UsageError, match="^--http_handler_tls_server_cert: .* is not a PEM "
                                               "certificate"):
        parse("--http_handler_tls_server_cert", str(garbage),
              "--http_handler_tls_server_key", str(pki.server_key))
    with pytest.raises(usage.UsageError, match="^--http_handler_tls_server_key: .* is not a PEM "
                                               "private key"):
        parse("--http_handler_tls_server_cert", str(pki.server_cert),
              "--http_handler_tls_server_key", str(pki.server_cert))


def test_a_key_of_another_certificate_is_a_usage_error(pki):
    with pytest.raises(usage.UsageError, match="does not match the certificate"):
        parse("--http_handler_tls_server_cert", str(pki.server_cert),
              "--http_handler_tls_server_key", str(pki.client_key))


def test_make_service_listens_with_tls(pki):
    service = makeService(parse(*tls_args(pki), "--http_handler_port", "0"))
    endpoint = service.getServiceNamed("http").endpoint._endpoint
    assert type(endpoint).__name__ == "SSL4ServerEndpoint"
    assert endpoint._sslContextFactory is not None


@pytest.mark.parametrize("host, loopback", [("127.0.0.1", True), ("127.1.2.3", True),
                                            ("::1", True), ("localhost", True),
                                            ("0.0.0.0", False), ("::", False),
                                            ("10.1.2.3", False), ("db.example.com", False)])
def test_loopback_hosts(host, loopback):
    assert is_loopback(host) is loopback


def test_empty_root_password_beyond_loopback_needs_users_or_the_explicit_flag(tmp_path):
    with pytest.raises(usage.UsageError, match="root logs in with an empty password"):
        parse("--http_handler_host", "0.0.0.0")
    assert parse("--http_handler_host", "0.0.0.0",
                 "--allow_empty_root_password")["http_handler_host"] == "0.0.0.0"
    users = tmp_path / "users"
    users.write_text("alice:scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$" + "A" * 43 + "=\n")
    assert parse("--http_handler_host", "0.0.0.0", "--users_file", str(users))["users"]


def test_login_backoff_option_reaches_the_authenticator():
    options = parse("--login_backoff_max_secs", "2.5")
    assert options.service_config().login_backoff_max_secs == 2.5
    service = makeService(options)
    assert service.app.auth.backoff_max_secs == 2.5
    assert parse().service_config().login_backoff_max_secs == 8.0
    for bad in ("x", "-1", "3601"):
        with pytest.raises(usage.UsageError, match="--login_backoff_max_secs"):
            parse("--login_backoff_max_secs", bad)
