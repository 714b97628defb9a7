"""Self-signed test certificates made with `cryptography` (a CA, and a server certificate for
127.0.0.1 and localhost that it signs), written as PEM files."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@dataclass
class TestPKI:
    ca_cert: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _certificate(subject: str, key, issuer: str, issuer_key, *, ca: bool, sans=()):
    now = datetime.datetime.now(datetime.UTC)
    builder = (x509.CertificateBuilder().subject_name(_name(subject)).issuer_name(_name(issuer))
               .public_key(key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5))
               .not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(list(sans)), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def _write_key(path: Path, key) -> None:
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                       serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))


def make_pki(directory: Path) -> TestPKI:
    """A CA, a server certificate for 127.0.0.1 / localhost and a client certificate, both
    signed by the CA, as PEM files in `directory`."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _certificate("queryhttp test CA", ca_key, "queryhttp test CA", ca_key, ca=True)
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = _certificate("127.0.0.1", server_key, "queryhttp test CA", ca_key, ca=False,
                          sans=[x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                x509.DNSName("localhost")])
    client_key = ec.generate_private_key(ec.SECP256R1())
    client = _certificate("client", client_key, "queryhttp test CA", ca_key, ca=False)
    pki = TestPKI(directory / "ca.pem", directory / "server.pem", directory / "server.key",
                  directory / "client.pem", directory / "client.key")
    pki.ca_cert.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    pki.server_cert.write_bytes(server.public_bytes(serialization.Encoding.PEM))
    _write_key(pki.server_key, server_key)
    pki.client_cert.write_bytes(client.public_bytes(serialization.Encoding.PEM))
    _write_key(pki.client_key, client_key)
    return pki
