"""TLS for the listener: Databend's --http_handler_tls_* files loaded into Twisted's TLS options."""

from __future__ import annotations

from dataclasses import dataclass


class TLSConfigError(ValueError):
    """A TLS option that cannot be used; its message names the option and the reason."""


@dataclass(frozen=True, slots=True)
class TLSFiles:
    """The PEM files of --http_handler_tls_server_cert / _key / _root_ca_cert."""

    cert: str
    key: str
    root_ca_cert: str | None = None  # client certificates signed by it are required


def tls_files(cert: str | None, key: str | None, root_ca_cert: str | None) -> TLSFiles | None:
    """The TLS files the options name, None without TLS; a cert without a key (or the reverse),
    or a CA without both, is a TLSConfigError."""
    if not cert and not key:
        if root_ca_cert:
            raise TLSConfigError("--http_handler_tls_server_root_ca_cert needs "
                                 "--http_handler_tls_server_cert and --http_handler_tls_server_key")
        return None
    if not cert:
        raise TLSConfigError("--http_handler_tls_server_key needs --http_handler_tls_server_cert")
    if not key:
        raise TLSConfigError("--http_handler_tls_server_cert needs --http_handler_tls_server_key")
    return TLSFiles(cert, key, root_ca_cert or None)


def _read(option: str, path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise TLSConfigError(f"--{option}: cannot read {path}: {exc.strerror or exc}") from None


def certificate_options(files: TLSFiles):
    """Twisted's CertificateOptions for `files`, checked now (PEM parses, key matches the
    certificate) so a bad file stops the start instead of failing every handshake."""
    # twisted.internet.ssl needs pyOpenSSL (the twisted[tls] extra): imported only with TLS on
    from OpenSSL import SSL, crypto
    from twisted.internet import ssl
    from twisted.internet.error import VerifyError

    bad_pem = (SSL.Error, crypto.Error, ValueError, TypeError)
    cert_pem = _read("http_handler_tls_server_cert", files.cert)
    key_pem = _read("http_handler_tls_server_key", files.key)
    try:
        certificate = ssl.Certificate.loadPEM(cert_pem)
    except bad_pem as exc:
        raise TLSConfigError(f"--http_handler_tls_server_cert: {files.cert} is not a PEM "
                             f"certificate ({_reason(exc)})") from None
    try:
        key = ssl.KeyPair.load(key_pem, crypto.FILETYPE_PEM)
    except bad_pem as exc:
        raise TLSConfigError(f"--http_handler_tls_server_key: {files.key} is not a PEM private "
                             f"key ({_reason(exc)})") from None
    authorities = []
    if files.root_ca_cert:
        ca_pem = _read("http_handler_tls_server_root_ca_cert", files.root_ca_cert)
        try:
            authorities.append(ssl.Certificate.loadPEM(ca_pem))
        except bad_pem as exc:
            raise TLSConfigError(f"--http_handler_tls_server_root_ca_cert: {files.root_ca_cert} "
                                 f"is not a PEM certificate ({_reason(exc)})") from None
    try:
        private = ssl.PrivateCertificate.fromCertificateAndKeyPair(certificate, key)
        # with a root CA: clients must present a certificate it signed (verify + require)
        options = private.options(*authorities)
        options.getContext()  # loads the pair into OpenSSL now, not at the first handshake
    except (VerifyError, SSL.Error) as exc:
        raise TLSConfigError(f"--http_handler_tls_server_key: {files.key} does not match "
                             f"the certificate {files.cert} ({_reason(exc)})") from None
    return options


def _reason(exc: Exception) -> str:
    """OpenSSL's errors are lists of (library, function, reason) tuples: the reasons."""
    args = exc.args[0] if exc.args else exc
    if isinstance(args, list) and args and all(isinstance(a, tuple) for a in args):
        return "; ".join(str(a[-1]) for a in args)
    return str(exc) or type(exc).__name__
