"""The passkey endpoints under hostile bodies, for `make scan` (scan.py calls `probe`).

wapiti never reaches the four JSON endpoints (only `Public/passkeys.js` calls them) and sqlmap
only looks for SQL injection, so this module sends them, one request at a time, what a browser
never would: the wrong content type, no CSRF header or a wrong one, a foreign Origin, bodies that
are not JSON or JSON of the wrong shape, bodies over the 64 KiB limit (declared, and chunked),
fields over the 16 KiB a byte string may have, strings that are not base64url, deeply nested
arrays and objects, NUL bytes, and SQL and script payloads in every field. Registration options
are asked for with the probe user's password (adding a passkey asks for it): a wrong one, one of
another type or one missing must be refused. Each case names the answers it may get (the status,
and JSON where the handler answers rather than a middleware), so that a missing CSRF header
answered by the handler, say, shows as a bypass. No answer may be a 5xx, take longer than
TIMEOUT_S, or hold the script payload; /healthz must answer afterwards.

A software authenticator (ECDSA P-256 in pure Python, a tiny CBOR encoder, attestation "none")
makes the real ceremonies possible, so that the cases that need one can be checked:
- `next` comes back from a successful sign-in as the redirect; for `//evil.example`,
  `javascript:alert(1)` and other foreign or garbled values it must be a path on this site, and a
  good one (`/wishlist?sort=title`) must come back unchanged (else the check proves nothing);
- a passkey named with a script or SQL payload is shown escaped in Settings;
- a replayed registration or assertion, a forged signature, another user's handle, an
  authenticator that did not verify its user, a ceremony finished by another browser than the one
  that asked for its options, and a challenge a browser's newer ones pushed out are refused.

Every request comes from 127.0.0.1, and the server refuses an address more than 30 live passkey
challenges (unspent, under five minutes old) with 429. The probe stays far below: a browser keeps
at most 3 live (the anonymous visitor and the user, whatever they ask), and every other visitor
spends the challenges it asks for, but for the two the per-browser case leaves. The flood itself
(fresh browsers asking until 429) is deliberately not probed: it would leave 127.0.0.1 without a
challenge for five minutes, for the rest of the probe and of `make scan` alike. The Swift tests
(PasskeyChallengeTests) cover it, and that another address still gets its challenges.

Standard library only; every request goes to 127.0.0.1 and has a deadline.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
import socket
import time
import urllib.parse
from dataclasses import dataclass, field

import harness as h

TOOL = "passkey-probe"
TIMEOUT_S = 15.0
BODY_LIMIT = 64 * 1024  # FormBody.maximumBytes
BYTES_LIMIT = 16_384  # PasskeyController.bytes: the longest base64url text a field may have
SCRIPT = "<script>alert(1)</script>"
PAYLOADS = ("' OR '1'='1' -- ", "1); DROP TABLE passkey; --", SCRIPT, '"><svg onload=alert(1)>', "\u0000")
# `next` values that must not come back as a redirect off this site (LocalPath.validated).
FOREIGN_NEXT = (
    "//evil.example", "javascript:alert(1)", "https://evil.example/", "/\\evil.example", "\\\\evil.example",
    " //evil.example", "\t//evil.example", "/\t/evil.example", "/\r\n/evil.example", "http:evil.example",
    "data:text/html,<script>alert(1)</script>", "evil.example", "//evil.example/%2F..", "\u0000//evil.example",
    "／／evil.example", "", "/" + "a" * 2100,
)
GOOD_NEXT = "/wishlist?sort=title"
SIGN_IN = "/passkeys/sign-in"
SIGN_IN_OPTIONS = "/passkeys/sign-in/options"
REGISTRATION = "/passkeys/registration"
REGISTRATION_OPTIONS = "/passkeys/registration/options"
# PasskeyController.wrongPassword, and the most UTF-8 bytes a password may have before it is refused
# unhashed: 4 times AccountRules.passwordLengths' longest (1,024 characters).
WRONG_PASSWORD = "That is not your password. Enter the password you sign in with, then add the passkey."
PASSWORD_BYTES_LIMIT = 4 * 1024
# A path on this site: one "/", then no second "/" or "\" (browsers read both as another host), and
# no backslash, space or control character anywhere.
LOCAL_PATH = re.compile(r"/(?![/\\])[^\\\x00-\x20\x7f]*")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def from_b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def label_bytes(label: str, size: int = 32) -> bytes:
    """Fixed bytes for a label: the same bodies on every run."""
    out = b""
    while len(out) < size:
        out += hashlib.sha256(f"{label}/{len(out)}".encode()).digest()
    return out[:size]


# -------------------------------------------------------------------------------------------------
# CBOR (RFC 8949), the subset WebAuthn needs: integers, byte and text strings, maps


def cbor(value: object) -> bytes:
    def head(major: int, number: int) -> bytes:
        if number < 24:
            return bytes([major << 5 | number])
        for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
            if number < 1 << (8 * size):
                return bytes([major << 5 | info]) + number.to_bytes(size, "big")
        raise ValueError("integer too large for CBOR")

    if isinstance(value, bool):
        return b"\xf5" if value else b"\xf4"
    if isinstance(value, int):
        return head(0, value) if value >= 0 else head(1, -1 - value)
    if isinstance(value, bytes):
        return head(2, len(value)) + value
    if isinstance(value, str):
        encoded = value.encode()
        return head(3, len(encoded)) + encoded
    if isinstance(value, list):
        return head(4, len(value)) + b"".join(cbor(item) for item in value)
    if isinstance(value, dict):
        return head(5, len(value)) + b"".join(cbor(key) + cbor(item) for key, item in value.items())
    raise TypeError(f"no CBOR for {type(value).__name__}")


# -------------------------------------------------------------------------------------------------
# ECDSA over P-256 (FIPS 186-4), enough to sign: affine coordinates, double-and-add


_P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
_A = _P - 3
_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
      0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)


def _add(p: tuple[int, int] | None, q: tuple[int, int] | None) -> tuple[int, int] | None:
    if p is None:
        return q
    if q is None:
        return p
    if p[0] == q[0] and (p[1] + q[1]) % _P == 0:
        return None
    if p == q:
        slope = (3 * p[0] * p[0] + _A) * pow(2 * p[1], -1, _P) % _P
    else:
        slope = (q[1] - p[1]) * pow(q[0] - p[0], -1, _P) % _P
    x = (slope * slope - p[0] - q[0]) % _P
    return x, (slope * (p[0] - x) - p[1]) % _P


def _multiply(k: int, point: tuple[int, int]) -> tuple[int, int] | None:
    result = None
    while k:
        if k & 1:
            result = _add(result, point)
        point = _add(point, point)
        k >>= 1
    return result


def _der_integer(value: int) -> bytes:
    encoded = value.to_bytes((value.bit_length() + 8) // 8, "big")  # a leading 0 keeps it positive
    return b"\x02" + bytes([len(encoded)]) + encoded


class P256Key:
    def __init__(self, seed: bytes) -> None:
        self.secret = int.from_bytes(hashlib.sha256(seed).digest(), "big") % (_N - 1) + 1
        self.x, self.y = _multiply(self.secret, _G)

    def cose(self) -> bytes:
        """The public key as COSE (kty EC2, alg ES256, crv P-256)."""
        return cbor({1: 2, 3: -7, -1: 1, -2: self.x.to_bytes(32, "big"), -3: self.y.to_bytes(32, "big")})

    def sign(self, message: bytes) -> bytes:
        """An ES256 signature, DER-encoded as WebAuthn sends it. The nonce is derived from the key
        and the message (as RFC 6979 intends, more simply): fine for a test key."""
        digest = int.from_bytes(hashlib.sha256(message).digest(), "big")
        counter = 0
        while True:
            k = int.from_bytes(hashlib.sha256(self.secret.to_bytes(32, "big") + message + bytes([counter])).digest(), "big") % _N
            counter += 1
            if not k:
                continue
            r = _multiply(k, _G)[0] % _N
            s = pow(k, -1, _N) * (digest + r * self.secret) % _N
            if r and s:
                body = _der_integer(r) + _der_integer(s)
                return b"\x30" + bytes([len(body)]) + body


# -------------------------------------------------------------------------------------------------
# A software authenticator: a platform authenticator that keeps its passkey and verifies its user


UP, UV, AT = 0x01, 0x04, 0x40


class Authenticator:
    def __init__(self, label: str, rp_id: str, origin: str) -> None:
        self.key = P256Key(label.encode())
        self.credential_id = label_bytes("credential " + label, 16)
        self.rp_id = rp_id
        self.origin = origin
        self.user_handle = b""

    def client_data(self, kind: str, challenge: str, origin: str | None = None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin or self.origin,
                           "crossOrigin": False}, separators=(",", ":")).encode()

    def authenticator_data(self, flags: int, attested: bytes = b"") -> bytes:
        return hashlib.sha256(self.rp_id.encode()).digest() + bytes([flags]) + (0).to_bytes(4, "big") + attested

    def registration(self, options: dict, name: str, flags: int = UP | UV | AT) -> dict[str, str]:
        """What passkeys.js posts to /passkeys/registration after navigator.credentials.create."""
        self.user_handle = from_b64url(options["user"]["id"])
        attested = bytes(16) + len(self.credential_id).to_bytes(2, "big") + self.credential_id + self.key.cose()
        attestation = cbor({"fmt": "none", "attStmt": {}, "authData": self.authenticator_data(flags, attested)})
        return {"name": name, "clientDataJSON": b64url(self.client_data("webauthn.create", options["challenge"])),
                "attestationObject": b64url(attestation)}

    def assertion(self, challenge: str, next_path: str, flags: int = UP | UV) -> dict[str, str]:
        """What passkeys.js posts to /passkeys/sign-in after navigator.credentials.get."""
        client_data = self.client_data("webauthn.get", challenge)
        data = self.authenticator_data(flags)
        signature = self.key.sign(data + hashlib.sha256(client_data).digest())
        return {"id": b64url(self.credential_id), "clientDataJSON": b64url(client_data),
                "authenticatorData": b64url(data), "signature": b64url(signature),
                "userHandle": b64url(self.user_handle), "next": next_path}


def fake_assertion(rp_id: str, origin: str) -> dict[str, str]:
    """Well-formed, never valid (its challenge was never issued): sqlmap's body, and the base the
    hostile sign-in bodies change one field of."""
    client_data = json.dumps({"type": "webauthn.get", "challenge": b64url(label_bytes("fake challenge")),
                              "origin": origin, "crossOrigin": False}, separators=(",", ":")).encode()
    data = hashlib.sha256(rp_id.encode()).digest() + bytes([UP | UV]) + bytes(4)
    signature = b"\x30\x44\x02\x20" + label_bytes("r") + b"\x02\x20" + label_bytes("s")
    return {"id": b64url(label_bytes("fake credential", 16)), "clientDataJSON": b64url(client_data),
            "authenticatorData": b64url(data), "signature": b64url(signature),
            "userHandle": b64url(label_bytes("fake handle")), "next": "/wishlist"}


def fake_registration(rp_id: str, origin: str, name: str = "Laptop") -> dict[str, str]:
    """Well-formed, never valid (its challenge was never issued)."""
    authenticator = Authenticator("fake registration", rp_id, origin)
    options = {"challenge": b64url(label_bytes("fake registration challenge")), "user": {"id": b64url(label_bytes("fake handle"))}}
    return authenticator.registration(options, name)


# -------------------------------------------------------------------------------------------------
# HTTP, by hand: bodies over the limit (declared or chunked) must be answerable even when the
# server answers before it has read them, which http.client does not allow.


@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # names in lower case; the last of a repeated header
    body: bytes
    cookies: list[str] = field(default_factory=list)  # every Set-Cookie

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    @property
    def is_json(self) -> bool:
        return self.headers.get("content-type", "").lower().startswith("application/json")

    def json(self) -> object:
        try:
            return json.loads(self.body)
        except ValueError:
            return None


def send(port: int, path: str, body: bytes = b"", headers: dict[str, str] | None = None, *,
         chunked: bool = False, declared_length: int | None = None) -> Answer:
    """POSTs `body` on a connection of its own; raises TimeoutError or OSError."""
    lines = [f"POST {path} HTTP/1.1", f"Host: {h.HOST}:{port}", "User-Agent: wishlist-passkey-probe", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if chunked:
        lines.append("Transfer-Encoding: chunked")
        payload = b"".join(b"%x\r\n%s\r\n" % (len(part), part) for part in
                           (body[i:i + 8192] for i in range(0, len(body), 8192))) + b"0\r\n\r\n"
    else:
        lines.append(f"Content-Length: {len(body) if declared_length is None else declared_length}")
        payload = body
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload
    deadline = time.monotonic() + TIMEOUT_S
    with socket.create_connection((h.HOST, port), timeout=TIMEOUT_S) as connection:
        try:
            connection.sendall(request)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered (413) before it read everything: read that answer
        received = b""
        while True:
            connection.settimeout(max(0.1, deadline - time.monotonic()))
            try:
                chunk = connection.recv(65536)
            except ConnectionResetError:
                break
            except socket.timeout:
                if _complete(received):
                    break
                raise TimeoutError(f"no complete answer within {TIMEOUT_S:.0f} s")
            if not chunk:
                break
            received += chunk
            if _complete(received):
                break
    return _parse(received)


def _split(raw: bytes) -> tuple[int, dict[str, str], bytes, list[str]] | None:
    head, separator, rest = raw.partition(b"\r\n\r\n")
    if not separator:
        return None
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[1].isdigit():
        raise OSError(f"not an HTTP answer: {lines[0][:80]!r}")
    headers: dict[str, str] = {}
    cookies = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
        if name.strip().lower() == "set-cookie":
            cookies.append(value.strip())
    return int(parts[1]), headers, rest, cookies


def _complete(raw: bytes) -> bool:
    split = _split(raw)
    if split is None:
        return False
    _, headers, rest, _ = split
    if "content-length" in headers:
        return len(rest) >= int(headers["content-length"])
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return rest.endswith(b"0\r\n\r\n")
    return False


def _parse(raw: bytes) -> Answer:
    split = _split(raw)
    if split is None:
        raise OSError(f"the connection closed after {len(raw)} bytes, before a whole answer")
    status, headers, rest, cookies = split
    if "chunked" in headers.get("transfer-encoding", "").lower():
        body = b""
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0] or b"0", 16)
            if not size:
                break
            body, rest = body + rest[:size], rest[size + 2:]
    else:
        body = rest[:int(headers["content-length"])] if "content-length" in headers else rest
    return Answer(status, headers, body, cookies)


# -------------------------------------------------------------------------------------------------
# The probe


@dataclass
class Result:
    findings: list[tuple[str, str, str]] = field(default_factory=list)  # category, info, where
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)  # every case and its answer, for passkey-probe.log
    requests: int = 0


OWN = "(this visitor's token)"


class Visitor:
    """A browser: its session cookie and the CSRF token of its pages."""

    def __init__(self, port: int, username: str | None = None, password: str | None = None) -> None:
        self.client = h.Client(port)
        if username:
            self.client.sign_in(username, password or "")
        else:
            self.client.get("/login")
        if not self.client.session or not self.client.csrf:
            raise h.Failure(f"{TOOL}: {'signing in' if username else '/login'} gave no session cookie or CSRF token")

    @property
    def cookie(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.client.cookies.items())

    def headers(self, token: str | None = OWN, content_type: str | None = "application/json") -> dict[str, str]:
        """The headers passkeys.js sends: this visitor's token (None leaves X-CSRF-Token out)."""
        headers = {"Cookie": self.cookie}
        if content_type is not None:
            headers["Content-Type"] = content_type
        if token is not None:
            headers["X-CSRF-Token"] = self.client.csrf if token is OWN else token
        return headers


class Probe:
    def __init__(self, server: h.Server, username: str, password: str) -> None:
        self.port = server.port
        self.result = Result()
        self.username, self.password = username, password
        self.origin = f"http://localhost:{server.port}"  # server.publicURL's default
        self.rp_id = "localhost"
        self.cases = 0

    # Reporting -----------------------------------------------------------------------------------

    def finding(self, category: str, info: str, where: str) -> None:
        self.result.findings.append((category, info, where))

    def post(self, case: str, path: str, body: bytes, headers: dict[str, str], **options) -> Answer | None:
        self.result.requests += 1
        started = time.monotonic()
        try:
            return send(self.port, path, body, headers, **options)
        except TimeoutError as error:
            self.finding("Timeout", f"{case}: {error}", f"POST {path}")
        except OSError as error:
            elapsed = time.monotonic() - started
            self.finding("No answer", f"{case}: {type(error).__name__}: {error} after {elapsed:.1f} s", f"POST {path}")
        return None

    def expect(self, case: str, path: str, body: bytes, headers: dict[str, str], statuses: set[int],
               json_answer: bool, **options) -> Answer | None:
        """One request and what its answer may be: one of `statuses`, and when `json_answer` JSON
        (an object with an `error` sentence for a refusal). Any 5xx, or an answer holding SCRIPT, is
        a finding whatever was expected."""
        self.cases += 1
        started = time.monotonic()
        answer = self.post(case, path, body, headers, **options)
        if answer is None:
            self.result.log.append(f"POST {path} {case!r}: no answer")
            return None
        where = f"POST {path}"
        kind = "JSON" if answer.is_json else answer.headers.get("content-type", "no Content-Type")
        said = f"answered {answer.status} ({kind})"
        self.result.log.append(f"POST {path} {case!r}: {answer.status} {kind} in {1000 * (time.monotonic() - started):.0f} ms: "
                               f"{answer.text[:100]!r}")
        if answer.status >= 500:
            self.finding("Server error", f"{case}: {said}: {answer.text[:160]}", where)
        elif answer.status not in statuses:
            self.finding("Unexpected answer", f"{case}: {said}, expected {'/'.join(map(str, sorted(statuses)))}", where)
        elif json_answer:
            document = answer.json()
            if not answer.is_json or not isinstance(document, dict):
                self.finding("Not JSON", f"{case}: {said}, not a JSON object: {answer.text[:120]!r}", where)
            elif answer.status >= 400 and not isinstance(document.get("error"), str):
                self.finding("Not JSON", f"{case}: {said} without an error sentence: {answer.text[:120]!r}", where)
        if SCRIPT in answer.text:
            self.finding("Reflected XSS", f"{case}: the answer holds {SCRIPT} as it was sent", where)
        return answer

    # Ceremonies ----------------------------------------------------------------------------------

    def options(self, visitor: Visitor, path: str) -> dict:
        """A ceremony's options, asked for as passkeys.js does: registration options with the
        password (`visitor` is always the probe's user then), sign-in options with an empty object."""
        body = {"password": self.password} if path == REGISTRATION_OPTIONS else {}
        answer = self.post(f"{path} for a ceremony", path, dump(body), visitor.headers())
        if answer is None or answer.status != 200 or not isinstance(answer.json(), dict):
            raise h.Failure(f"{TOOL}: {path} answered {answer.status if answer else 'nothing'}: {answer.text[:200] if answer else ''}")
        return answer.json()

    def register(self, visitor: Visitor, authenticator: Authenticator, name: str) -> None:
        options = self.options(visitor, REGISTRATION_OPTIONS)
        if options.get("rp", {}).get("id") != self.rp_id:
            raise h.Failure(f"{TOOL}: the relying party is {options.get('rp')}, expected {self.rp_id} (the default public URL)")
        body = authenticator.registration(options, name)
        answer = self.expect(f"registering a passkey named {name!r}", REGISTRATION, dump(body), visitor.headers(), {200}, True)
        if answer is None or answer.status != 200:
            raise h.Failure(f"{TOOL}: registering a passkey failed: {answer.status if answer else 'no answer'} {answer.text[:200] if answer else ''}")

    # The cases -----------------------------------------------------------------------------------

    def run(self) -> Result:
        started = time.monotonic()
        anonymous = Visitor(self.port)
        other = Visitor(self.port)
        user = Visitor(self.port, self.username, self.password)
        fake_in = fake_assertion(self.rp_id, self.origin)
        fake_reg = fake_registration(self.rp_id, self.origin)

        # Who sends what; what a readable body gets past CSRF (the handler's own answer); and what
        # a body the handler cannot read gets: sign-in options read no body at all (any answer is
        # its options), the others refuse it with 400. A readable options request spends nothing
        # and leaves a live challenge, but one browser keeps 3 at most (see the module's text).
        password = {"password": self.password}
        endpoints = [
            (SIGN_IN_OPTIONS, anonymous, {}, 200, 200),
            (SIGN_IN, anonymous, fake_in, 403, 400),
            (REGISTRATION_OPTIONS, user, password, 200, 400),
            (REGISTRATION, user, fake_reg, 403, 400),
        ]
        for path, visitor, good, readable, unreadable in endpoints:
            self.middleware_cases(path, visitor, other, good, unreadable)
            self.body_cases(path, visitor, good, readable, unreadable)
        self.password_cases(user)
        self.field_cases(SIGN_IN, anonymous, fake_in)
        self.field_cases(REGISTRATION, user, fake_reg)
        for path, body in ((REGISTRATION_OPTIONS, password), (REGISTRATION, fake_reg)):
            self.expect(f"signed out: {path}", path, dump(body), anonymous.headers(), {401}, True)
        self.ceremonies(user)

        health = None
        try:
            health = h.Client(self.port).get("/healthz", timeout=TIMEOUT_S)
        except OSError as error:
            self.finding("Server down", f"/healthz did not answer after the probe: {error}", "GET /healthz")
        if health and health[0] != 200:
            self.finding("Server down", f"/healthz answered {health[0]} after the probe", "GET /healthz")
        self.result.notes.append(
            f"{TOOL}: {self.cases} cases, {self.result.requests} requests, {time.monotonic() - started:.0f} s"
        )
        return self.result

    def middleware_cases(self, path: str, visitor: Visitor, other: Visitor, good: dict, unreadable: int) -> None:
        """Refused before the handler: content type, CSRF token, Origin, body size. These answers
        are the site's error pages (passkeys.js reads any answer but JSON as "reload the page")."""
        body = dump(good)
        for content_type in (None, "text/plain", "multipart/form-data; boundary=x", "application/xml", "json"):
            self.expect(f"Content-Type {content_type}", path, body, visitor.headers(content_type=content_type), {415}, False)
        form = urllib.parse.urlencode({"payload": body.decode()}).encode()
        self.expect("a form body without csrf_token", path, form,
                    visitor.headers(None, "application/x-www-form-urlencoded"), {403}, False)
        # A form with the right token gets past CSRF, but the handler reads only JSON.
        form = urllib.parse.urlencode({"csrf_token": visitor.client.csrf, **good}).encode()
        self.expect("a form body with the right csrf_token", path, form,
                    visitor.headers(None, "application/x-www-form-urlencoded"), {unreadable}, True)
        bad_tokens = {
            "no X-CSRF-Token": None, "an empty X-CSRF-Token": "", "a made-up X-CSRF-Token": b64url(label_bytes("made up")),
            "another visitor's X-CSRF-Token": other.client.csrf, "the token and more": visitor.client.csrf + "A",
            "the token in upper case": visitor.client.csrf.upper(), "an SQL payload as X-CSRF-Token": "' OR '1'='1",
        }
        for case, token in bad_tokens.items():
            self.expect(case, path, body, visitor.headers(token), {403}, False)
        # Not a valid header at all: refused by the HTTP parser (400) or by the CSRF check.
        self.expect("a NUL byte in X-CSRF-Token", path, body, visitor.headers(visitor.client.csrf + "\x00"), {400, 403}, False)
        headers = visitor.headers()
        del headers["Cookie"]
        self.expect("the token without its session cookie", path, body, headers, {403}, False)
        self.expect("Origin http://evil.example", path, body, visitor.headers() | {"Origin": "http://evil.example"}, {403}, False)
        huge = dump(good | {"pad": "A" * BODY_LIMIT})
        self.expect("a body over 64 KiB", path, huge, visitor.headers(), {413}, False)
        self.expect("a body over 64 KiB, chunked", path, huge, visitor.headers(), {413}, False, chunked=True)
        self.expect("a declared 1 GB body", path, b"{}", visitor.headers(), {413}, False, declared_length=1 << 30)

    def body_cases(self, path: str, visitor: Visitor, good: dict, readable: int, unreadable: int) -> None:
        """Bodies that are not the JSON object the handler reads. Sign-in options read no body at
        all (a readable request gets its options); the others must refuse with 400 JSON."""
        refused = {unreadable}
        depth = 20_000
        bodies = {
            "an empty body": b"", "a lone {": b"{", "text": b"not json", "NUL bytes": b"\x00" * 64,
            "invalid UTF-8": b'{"id":"\xff\xfe\xfd"}', "a JSON array": b"[]", "a JSON string": b'"text"',
            "a JSON number": b"1", "JSON null": b"null", "an empty object": b"{}",
            f"arrays nested {depth} deep": b"[" * depth + b"]" * depth,
            f"objects nested {depth // 2} deep": b'{"a":' * (depth // 2) + b"1" + b"}" * (depth // 2),
            "a number with 60,000 digits": b'{"id":' + b"9" * 60_000 + b"}",
            "a raw NUL inside a string": dump(good)[:-2] + b'\x00"}',
            "an object with 5,000 keys": dump({f"k{i}": i for i in range(5000)}),
        }
        for case, body in bodies.items():
            self.expect(case, path, body, visitor.headers(), refused, True)
        # A byte order mark: JSON (RFC 8259) lets a parser ignore it or refuse the text.
        self.expect("a BOM before the readable body", path, b"\xef\xbb\xbf" + dump(good), visitor.headers(), refused | {readable}, True)
        self.expect("the readable body", path, dump(good), visitor.headers(), {readable}, True)
        self.expect("the readable body with charset=utf-8", path, dump(good),
                    visitor.headers(content_type="application/json; charset=utf-8"), {readable}, True)

    def password_cases(self, user: Visitor) -> None:
        """Registration options ask for the user's password: of another type or missing, the body
        cannot be read (400); a wrong one, however it is wrong, is refused (403, counted against the
        account as a wrong password at sign-in: scan-config.json raises that throttle); one over
        PASSWORD_BYTES_LIMIT bytes is refused before it is hashed. Extra fields are ignored, and
        the right password gets its options (a challenge for this browser, which keeps 3 at most)."""
        depth = 5_000
        right = self.password
        wrong = {
            "a wrong password": "not the prober's password", "an empty password": "",
            "the password in upper case": right.upper(), "the password and more": right + "A",
            "the password but its last character": right[:-1], "the password with a space before": " " + right,
            f"{PASSWORD_BYTES_LIMIT} characters": "A" * PASSWORD_BYTES_LIMIT,
            f"{PASSWORD_BYTES_LIMIT + 1} characters": "A" * (PASSWORD_BYTES_LIMIT + 1),
            "60,000 characters": "A" * 60_000,
        }
        for payload in PAYLOADS:
            wrong[f"the payload {payload!r}"] = payload
            wrong[f"the payload {payload!r} after the password"] = right + payload
        for case, value in wrong.items():
            answer = self.expect(f"password {case}", REGISTRATION_OPTIONS, dump({"password": value}), user.headers(), {403}, True)
            if answer is not None and answer.status == 403 and answer.is_json and answer.json() != {"error": WRONG_PASSWORD}:
                self.result.problems.append(f"{TOOL}: password {case}: answered 403 with {answer.text[:160]!r}, not the wrong-password sentence")
        unreadable: dict[str, object] = {
            "missing": {}, "missing, another field given": {"name": "Phone"}, "under another name": {"Password": right},
            "null": {"password": None}, "a number": {"password": 12345}, "true": {"password": True},
            "an array": {"password": [right]}, "an object": {"password": {"value": right}},
            f"arrays nested {depth} deep": {"password": Raw(b"[" * depth + b"]" * depth)},
        }
        for case, body in unreadable.items():
            self.expect(f"password {case}", REGISTRATION_OPTIONS, dump(body), user.headers(), {400}, True)
        self.expect("the password with another field", REGISTRATION_OPTIONS, dump({"password": right, "name": SCRIPT}),
                    user.headers(), {200}, True)

    def field_cases(self, path: str, visitor: Visitor, good: dict) -> None:
        """Each field of a readable body, replaced: missing, of another type, too long, not base64url,
        nested, NUL, SQL and script. A base64url field that cannot be read is refused with 400; the
        text fields (name, next) are read, and the request fails at the challenge (403: the fake one
        was never issued), unless the name is not 1 to 60 characters without control characters."""
        text_fields = {"name", "next"}
        optional = {"userHandle", "next"}
        depth = 5_000
        for name in good:
            read = 403 if name in text_fields else 400  # a value of the right type and the wrong content
            too_long = 400 if name == "name" else read
            variants: dict[str, tuple[object, set[int]]] = {
                "missing": (MISSING, {403} if name in optional else {400}),
                "null": (None, {403} if name in optional else {400}),
                "a number": (12345, {400}), "true": (True, {400}), "an array": ([good[name]], {400}),
                "an object": ({"value": good[name]}, {400}),
                f"arrays nested {depth} deep": (Raw(b"[" * depth + b"]" * depth), {400}),
                "60,000 characters": ("A" * 60_000, {too_long}),
                f"{BYTES_LIMIT + 4} base64url characters": ("A" * (BYTES_LIMIT + 4), {too_long}),
                # An empty byte string is read (and fails later); empty client data cannot be read.
                "empty": ("", {403} if name in optional else {400} if name == "name" else {400, 403}),
            }
            if name not in text_fields:
                for text in ("+/+/", "abcde", "AB", "A===", "AAAA=", "%41%41", "\u00e9", "a b", "AAAA\n", "AA==AA"):
                    variants[f"not base64url {text!r}"] = (text, {400})
            for payload in PAYLOADS:
                expected = {400} if name == "name" and payload == "\u0000" else {read}
                variants[f"the payload {payload!r}"] = (payload, expected)
                variants[f"the payload {payload!r} after the value"] = (f"{good[name]}{payload}", expected)
            for case, (value, statuses) in variants.items():
                body = {key: item for key, item in good.items() if key != name}
                if value is not MISSING:
                    body[name] = value
                self.expect(f"{name} {case}", path, dump(body), visitor.headers(), statuses, True)
        # A key twice: whichever value is read, the request is refused.
        duplicate = dump(good)[:-1] + b',"' + next(iter(good)).encode() + b'":"%%%"}'
        self.expect("a field twice", path, duplicate, visitor.headers(), {400, 403}, True)

    def ceremonies(self, user: Visitor) -> None:
        """Real registrations and sign-ins by the software authenticator, and how each is refused
        when replayed, forged or sent by an authenticator that did not verify its user."""
        key = Authenticator("prober key", self.rp_id, self.origin)
        self.register(user, key, SCRIPT)
        self.register(user, Authenticator("prober key 2", self.rp_id, self.origin), "x' OR '1'='1")
        status, _, page = user.client.get("/settings/sign-in")
        listing = page.split('id="passkey-list"', 1)[-1].split("</table>", 1)[0] if 'id="passkey-list"' in page else ""
        if status != 200 or not listing:
            self.result.problems.append(f"{TOOL}: Settings ({status}) shows no passkey list after two registrations")
        else:
            if SCRIPT in page or "<script>alert" in page:
                self.finding("Stored XSS", f"Settings shows the passkey name {SCRIPT} unescaped", "GET /settings/sign-in")
            if "&lt;script&gt;alert(1)&lt;/script&gt;" not in listing:
                self.result.problems.append(f"{TOOL}: Settings does not list the passkey named {SCRIPT} (escaped)")
            if not re.search(r"x(&#39;|&#x27;|')\s*OR\s*(&#39;|&#x27;|')1(&#39;|&#x27;|')=(&#39;|&#x27;|')1", listing):
                self.result.problems.append(f"{TOOL}: Settings does not list the passkey named x' OR '1'='1")

        # Registration: replayed, the same credential again, a user not verified, not present.
        options = self.options(user, REGISTRATION_OPTIONS)
        again = Authenticator("prober key 3", self.rp_id, self.origin)
        body = again.registration(options, "Phone", flags=UP | AT)
        self.expect("a registration whose user was not verified", REGISTRATION, dump(body), user.headers(), {403}, True)
        body = again.registration(self.options(user, REGISTRATION_OPTIONS), "Phone", flags=UV | AT)
        self.expect("a registration whose user was not present", REGISTRATION, dump(body), user.headers(), {403}, True)
        body = key.registration(self.options(user, REGISTRATION_OPTIONS), "Phone")
        self.expect("a credential registered twice", REGISTRATION, dump(body), user.headers(), {403}, True)
        body = again.registration(self.options(user, REGISTRATION_OPTIONS), "Phone")
        self.expect("a registration", REGISTRATION, dump(body), user.headers(), {200}, True)
        self.expect("the same registration replayed", REGISTRATION, dump(body), user.headers(), {403}, True)
        cross = again.registration(self.options(user, REGISTRATION_OPTIONS), "Phone")
        cross["clientDataJSON"] = b64url(again.client_data("webauthn.create", json.loads(from_b64url(cross["clientDataJSON"]))["challenge"], "http://evil.example"))
        self.expect("a registration from another origin", REGISTRATION, dump(cross), user.headers(), {403}, True)
        # The user signed in in a second browser: options asked for there are worth nothing here.
        elsewhere = Visitor(self.port, self.username, self.password)
        body = Authenticator("prober key 4", self.rp_id, self.origin).registration(self.options(elsewhere, REGISTRATION_OPTIONS), "Phone")
        self.expect("a registration whose options another browser asked for", REGISTRATION, dump(body), user.headers(), {403}, True)

        # Sign-in: `next` must come back as a path on this site, whatever was sent.
        for next_path in (GOOD_NEXT, *FOREIGN_NEXT):
            visitor = Visitor(self.port)
            assertion = key.assertion(self.options(visitor, SIGN_IN_OPTIONS)["challenge"], next_path)
            answer = self.expect(f"a sign-in with next={next_path[:60]!r}", SIGN_IN, dump(assertion), visitor.headers(), {200}, True)
            if answer is None or answer.status != 200 or not isinstance(answer.json(), dict):
                continue
            redirect = answer.json().get("redirect")
            if not isinstance(redirect, str) or not LOCAL_PATH.fullmatch(redirect):
                self.finding("Open redirect", f"a passkey sign-in with next={next_path!r} answered redirect={redirect!r}", f"POST {SIGN_IN}")
            elif next_path == GOOD_NEXT and redirect != GOOD_NEXT:
                self.result.problems.append(f"{TOOL}: a sign-in with next={GOOD_NEXT!r} answered redirect={redirect!r}: `next` is not honoured, so the open-redirect check proves nothing")
            if not any(cookie.startswith(h.COOKIE + "=") and "httponly" in cookie.lower() for cookie in answer.cookies):
                self.finding("Session cookie", f"a passkey sign-in set no HttpOnly {h.COOKIE} cookie", f"POST {SIGN_IN}")
            if next_path == GOOD_NEXT:
                self.expect("the same assertion replayed", SIGN_IN, dump(assertion), visitor.headers(), {403}, True)

        visitor = Visitor(self.port)
        forged = key.assertion(self.options(visitor, SIGN_IN_OPTIONS)["challenge"], "/")
        signature = bytearray(from_b64url(forged["signature"]))
        signature[-1] ^= 1
        forged["signature"] = b64url(bytes(signature))
        self.expect("a sign-in with a forged signature", SIGN_IN, dump(forged), visitor.headers(), {403}, True)
        assertion = key.assertion(self.options(visitor, SIGN_IN_OPTIONS)["challenge"], "/")
        assertion["userHandle"] = b64url(label_bytes("someone else"))
        self.expect("a sign-in with another user's handle", SIGN_IN, dump(assertion), visitor.headers(), {403}, True)
        assertion = key.assertion(self.options(visitor, SIGN_IN_OPTIONS)["challenge"], "/", flags=UP)
        self.expect("a sign-in whose user was not verified", SIGN_IN, dump(assertion), visitor.headers(), {403}, True)
        stranger = Authenticator("never registered", self.rp_id, self.origin)
        stranger.user_handle = key.user_handle
        assertion = stranger.assertion(self.options(visitor, SIGN_IN_OPTIONS)["challenge"], "/")
        self.expect("a sign-in with an unknown passkey", SIGN_IN, dump(assertion), visitor.headers(), {403}, True)

        # A challenge is spent only by the browser that asked for it: one lured out of another
        # browser is refused (and spent), the asker's own next one signs in.
        asking, finishing = Visitor(self.port), Visitor(self.port)
        assertion = key.assertion(self.options(asking, SIGN_IN_OPTIONS)["challenge"], "/")
        self.expect("a sign-in whose options another browser asked for", SIGN_IN, dump(assertion), finishing.headers(), {403}, True)
        self.expect("the same sign-in then sent by the browser that asked", SIGN_IN, dump(assertion), asking.headers(), {403}, True)
        assertion = key.assertion(self.options(asking, SIGN_IN_OPTIONS)["challenge"], "/")
        self.expect("a sign-in by the browser that asked for its options", SIGN_IN, dump(assertion), asking.headers(), {200}, True)
        # A browser keeps its 3 newest challenges: a fourth pushes out the first, which no longer
        # signs in; the fourth does. (The second and third stay live, unspent, for five minutes.)
        # A pause between them, since "newest" is by expiry, stored to the millisecond.
        crowded = Visitor(self.port)
        challenges = []
        for _ in range(4):
            challenges.append(self.options(crowded, SIGN_IN_OPTIONS)["challenge"])
            time.sleep(0.01)
        assertion = key.assertion(challenges[0], "/")
        self.expect("a sign-in with a challenge three newer ones pushed out", SIGN_IN, dump(assertion), crowded.headers(), {403}, True)
        assertion = key.assertion(challenges[-1], "/")
        self.expect("a sign-in with the newest of four challenges", SIGN_IN, dump(assertion), crowded.headers(), {200}, True)


MISSING = object()  # a field left out


class Raw(bytes):
    """Bytes put into a JSON body as they are, where json.dumps cannot write them (deep nesting)."""


def dump(value: object) -> bytes:
    """Compact JSON, as passkeys.js sends it (JSON.stringify), with any Raw value spliced in."""
    raws: dict[str, Raw] = {}

    def placeholders(item: object) -> object:
        if isinstance(item, Raw):
            key = f"raw-{len(raws)}-{secrets.token_hex(8)}"
            raws[key] = item
            return key
        if isinstance(item, dict):
            return {name: placeholders(member) for name, member in item.items()}
        if isinstance(item, list):
            return [placeholders(member) for member in item]
        return item

    encoded = json.dumps(placeholders(value), separators=(",", ":"), ensure_ascii=False).encode()
    for key, raw in raws.items():
        encoded = encoded.replace(f'"{key}"'.encode(), bytes(raw))
    return encoded


def register_passkey(server: h.Server, username: str, password: str, name: str) -> None:
    """Gives `username` a passkey (scan.py: so that Settings shows a removal form to scan)."""
    probe = Probe(server, username, password)
    probe.register(Visitor(server.port, username, password), Authenticator(f"{username} key", probe.rp_id, probe.origin), name)
    if probe.result.findings:
        raise h.Failure(f"{TOOL}: registering a passkey for {username}: {probe.result.findings}")


def probe(server: h.Server, username: str, password: str) -> Result:
    return Probe(server, username, password).run()
