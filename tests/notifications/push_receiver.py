"""A local Web Push service for the tests: an HTTP server on 127.0.0.1 that plays the browser vendor's push
service and the browser at once. Each subscription it hands out has a P-256 key pair and an auth secret made
here (`cryptography`); a push to it is decrypted with them (`http_ece`, aes128gcm, RFC 8291) and its VAPID
`Authorization: vapid t=<jwt>, k=<key>` is checked: `k` must be the configured application server key and the
JWT's ES256 signature must verify against it, with `aud` this server's origin and `sub` the configured subject.
A push that fails any check is answered 400 and recorded as refused; the test reads `received` and `refused`."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """One subscription's secrets, as a browser keeps them."""

    name: str
    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return b64url(point)


def vapid_claims(authorization: str, application_server_key: str) -> dict:
    """The JWT's claims when `authorization` is `vapid t=<jwt>, k=<key>` with `k` the given key and the JWT
    signed by its private half (ES256); ValueError saying what is wrong otherwise."""
    scheme, _, rest = authorization.partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError(f"not a vapid authorization: {authorization!r}")
    params = dict(part.strip().split("=", 1) for part in rest.split(","))
    if params.get("k") != application_server_key:
        raise ValueError("k is not the application server key")
    header, payload, signature = params["t"].split(".")
    if json.loads(unb64url(header)).get("alg") != "ES256":
        raise ValueError("not ES256")
    raw = unb64url(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(application_server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{header}.{payload}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the JWT signature does not verify") from None
    return json.loads(unb64url(payload))


class PushService:
    """The server: `subscribe(name)` gives a subscription's JSON (endpoint and keys); pushes to it are decrypted
    into `received` (name, payload, claims, TTL, arrival as wall-clock time). `answers[name]` sets the status a
    subscription's push gets (201 unless said)."""

    def __init__(self, application_server_key: str, subject: str):
        self.key, self.subject = application_server_key, subject
        self.browsers: dict[str, Browser] = {}
        self.answers: dict[str, int] = {}
        self.received: list[dict] = []
        self.refused: list[str] = []
        self.requests = 0
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                status = service._receive(self.path, self.headers, body)
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def subscribe(self, name: str) -> dict:
        browser = self.browsers[name] = Browser(name)
        return {"endpoint": f"{self.origin}/push/{name}", "p256dh": browser.p256dh, "auth": b64url(browser.auth)}

    def _receive(self, path: str, headers, body: bytes) -> int:
        """`headers`: the request's, looked up without regard to case."""
        self.requests += 1
        name = path.rsplit("/", 1)[-1]
        browser = self.browsers.get(name)
        if browser is None:
            self.refused.append(f"{name}: unknown subscription")
            return 404
        answer = self.answers.get(name, 201)
        if answer >= 300:
            return answer
        try:
            claims = vapid_claims(headers.get("Authorization", ""), self.key)
            if claims.get("aud") != self.origin or claims.get("sub") != self.subject:
                raise ValueError(f"claims {claims}")
            if claims.get("exp", 0) <= time.time():
                raise ValueError("expired JWT")
            if headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError(f"content encoding {headers.get('Content-Encoding')}")
            plain = http_ece.decrypt(
                body, private_key=browser.private_key, auth_secret=browser.auth, version="aes128gcm"
            )
            payload = json.loads(plain)
        except Exception as exc:  # any failed check: the push is refused, and the test sees why
            self.refused.append(f"{name}: {exc!r}")
            return 400
        self.received.append(
            {"name": name, "payload": payload, "claims": claims, "ttl": headers.get("TTL"), "at": time.time()}
        )
        return answer

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
