"""Security headers: the ones every response carries, and the policy of the console's pages."""

from __future__ import annotations

# Every answer (JSON, text, errors): no MIME sniffing, no Referer leaking query ids to other
# sites, and a policy that lets an answer opened as a document load nothing and be framed
# by no one (clickjacking).
API_CONTENT_SECURITY_POLICY = b"default-src 'none'; frame-ancestors 'none'"
EVERY_RESPONSE = (
    (b"X-Content-Type-Options", [b"nosniff"]),
    (b"Referrer-Policy", [b"no-referrer"]),
    (b"Content-Security-Policy", [API_CONTENT_SECURITY_POLICY]),
)

# The console's page: its own scripts, styles and icon only (no inline script or style, no
# eval), requests to this server only, no forms posted anywhere, never in a frame.
CONSOLE_CONTENT_SECURITY_POLICY = (
    b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
