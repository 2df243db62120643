"""Which push endpoints the site posts to. A subscription's endpoint is a URL the browser
gives, so anyone could give any: an open sender would post, signed by the site, to any
address (server-side request forgery). Only the known push services are allowed, over
https (``WEB_PUSH_ALLOWED_HOSTS``: ``host``, ``*.domain`` or ``host:port`` entries); an
entry with a port on a loopback address also allows plain http there, for tests and
self-hosted push services."""

import ipaddress
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

HTTPS_PORT = 443


def refusal(endpoint: str) -> str:
    """Why the site will not push to ``endpoint``, in the active language, or ``""``."""
    try:
        parts = urlsplit(endpoint)
        host, port = (parts.hostname or "").lower(), parts.port
    except ValueError:
        return _("the endpoint is not a URL")
    if parts.scheme not in ("https", "http") or not host:
        return _("the endpoint must be an https URL")
    if parts.username is not None or parts.password is not None:
        return _("the endpoint must not carry a user name or password")
    port = port or (HTTPS_PORT if parts.scheme == "https" else 80)
    for entry in settings.WEB_PUSH_ALLOWED_HOSTS:
        allowed_host, _colon, allowed_port = entry.lower().rpartition(":")
        if not _colon or not allowed_port.isdigit():
            allowed_host, allowed_port = entry.lower(), ""
        if not _host_matches(host, allowed_host.strip("[]")):
            continue
        if allowed_port and int(allowed_port) != port:
            continue
        if not allowed_port and port != HTTPS_PORT:
            continue
        if parts.scheme == "https" or (allowed_port and _loopback(host)):
            return ""
        return _("the endpoint must be an https URL")
    # Translators: %(host)s is a web address's host; %(allowed)s lists the allowed ones.
    return _("%(host)s is not a known push service (allowed: %(allowed)s)") % {
        "host": f"{host}:{parts.port}" if parts.port else host,
        "allowed": ", ".join(settings.WEB_PUSH_ALLOWED_HOSTS),
    }


def _host_matches(host: str, allowed: str) -> bool:
    if allowed.startswith("*."):
        return host.endswith(allowed[1:]) and len(host) > len(allowed) - 1
    return host == allowed


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
