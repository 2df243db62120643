"""A push service of our own on 127.0.0.1 (RFC 8030's receiving end, in a thread), and a
device: a P-256 key pair and an auth secret, as a browser makes for a subscription, whose
private half decrypts what the site pushes (RFC 8291)."""

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils

from games.notify.channels.push import vapid
from tests.mail.conftest import smtp, start_worker  # noqa: F401 (a real worker, in test_worker)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """A browser's side of one subscription."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64(
            self.key.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )

    def subscription(self, endpoint: str) -> dict:
        """What ``PushSubscription.toJSON()`` gives."""
        return {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": self.p256dh, "auth": b64(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes
    claims: dict


class PushService:
    """Takes pushes at ``/push/<name>``; answers each with the next of ``answers``
    (status, headers), then 201. Every push must carry a valid VAPID signature by the key
    the pages serve (else 401, as a real service answers)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.refused: list[str] = []
        self.answers: list[tuple[int, dict]] = []
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                origin = f"http://{self.headers['Host']}"
                try:
                    claims = verified_vapid(self.headers.get("Authorization", ""), origin)
                except (ValueError, InvalidSignature) as error:
                    service.refused.append(str(error) or type(error).__name__)
                    self.send_response(401)
                    self.end_headers()
                    return
                service.received.append(Received(self.path, self.headers, body, claims))
                status, headers = service.answers.pop(0) if service.answers else (201, {})
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def endpoint(self, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/push/{name}"


def verified_vapid(header: str, origin: str) -> dict:
    """The claims of an RFC 8292 ``Authorization: vapid t=<JWT>, k=<key>`` header, after
    checking that ``k`` is the key the pages serve and that it signed the JWT (ES256) for
    this push service (``aud``), unexpired, with a contact (``sub``)."""
    scheme, _, rest = header.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"not a vapid header: {header!r}")
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    if params["k"] != vapid.public_key():
        raise ValueError("signed with another key than the one the pages serve")
    signed, _, signature = params["t"].rpartition(".")
    raw = unb64(signature)
    der = utils.encode_dss_signature(
        int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    )
    key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(params["k"]))
    key.verify(der, signed.encode(), ec.ECDSA(hashes.SHA256()))
    header_part, claims_part = signed.split(".")
    assert json.loads(unb64(header_part)) == {"typ": "JWT", "alg": "ES256"}
    claims = json.loads(unb64(claims_part))
    if claims["aud"] != origin or claims["exp"] <= time.time() or not claims.get("sub"):
        raise ValueError(f"wrong claims: {claims}")
    return claims


@pytest.fixture
def push_service(settings):
    """The push service, allowed by the site (plain http to its loopback port)."""
    service = PushService()
    service.thread.start()
    settings.WEB_PUSH_ALLOWED_HOSTS = [f"127.0.0.1:{service.port}"]
    yield service
    service.server.shutdown()
    service.server.server_close()


@pytest.fixture
def device():
    return Device()
