"""A real SMTP server for the mail tests: aiosmtpd on loopback, with STARTTLS (a certificate the
tests make) and AUTH required, and switches for the faults the app must survive.

    with MailServer(tmp_path) as smtp:
        settings = {"mail": smtp.settings()}
        ...
        message = smtp.wait_for(lambda m: m["To"] == "ann@example.com")

`smtp.answer` decides what the server says to DATA: None accepts, a string such as
"451 4.3.0 Try later" or "550 5.1.1 No such mailbox" is the reply, and `smtp.stall = True` makes it
read the message and then say nothing. `smtp.stop()` and `smtp.start()` take it down and up on the
same port.
"""

from __future__ import annotations

import email
import email.policy
import ssl
import subprocess
import threading
import time
from email.message import EmailMessage
from pathlib import Path
from typing import Callable

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from support import free_port

USERNAME = "wishlist-app"
PASSWORD = "smtp-secret-Pa55word"
DEADLINE_S = 20.0


def _certificate(folder: Path) -> ssl.SSLContext:
    """A self-made certificate for localhost: the app does not check one on loopback."""
    cert, key = folder / "smtp-cert.pem", folder / "smtp-key.pem"
    if not cert.exists():
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
             "-keyout", str(key), "-out", str(cert)],
            check=True, capture_output=True,
        )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(str(cert), str(key))
    return context


class MailServer:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.messages: list[EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.answer: str | None = None
        self.stall = False
        self.logins: list[str] = []
        self._lock = threading.Condition()
        self._controller: Controller | None = None
        self._release_stall = threading.Event()

    # The aiosmtpd handler: DATA's answer, and the AUTH check.
    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        if self.stall:
            # Says nothing until the test ends: the app's timeout must end the try.
            while not self._release_stall.is_set():
                await _sleep(0.1)
            return "451 4.4.2 Stalled"
        if self.answer:
            return self.answer
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._lock:
            self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
            self.messages.append(message)
            self._lock.notify_all()
        return "250 2.0.0 Queued as test-%d" % len(self.messages)

    def _authenticate(self, server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login.decode() == USERNAME and auth_data.password.decode() == PASSWORD
        if isinstance(auth_data, LoginPassword):
            self.logins.append(auth_data.login.decode())
        return AuthResult(success=ok, handled=False)

    def start(self) -> "MailServer":
        self._release_stall.clear()
        self._controller = Controller(
            self, hostname="127.0.0.1", port=self.port, tls_context=_certificate(self.folder),
            require_starttls=True, auth_required=True, auth_require_tls=True, authenticator=self._authenticate,
            ready_timeout=10,
        )
        self._controller.start()
        return self

    def stop(self) -> None:
        self._release_stall.set()
        if self._controller:
            self._controller.stop()
            self._controller = None

    def __enter__(self) -> "MailServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def settings(self, password: str = PASSWORD) -> dict:
        """The app's `mail` settings for this server."""
        return {
            "smtpURL": f"smtp://127.0.0.1:{self.port}", "username": USERNAME, "password": password,
            "from": "wishlist@example.com", "timeoutSeconds": 3,
        }

    def wait_for(self, matches: Callable[[EmailMessage], bool], deadline_s: float = DEADLINE_S) -> EmailMessage:
        """The first message received that `matches`, waiting up to the deadline for it."""
        end = time.monotonic() + deadline_s
        with self._lock:
            while True:
                for message in self.messages:
                    if matches(message):
                        return message
                left = end - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching message within {deadline_s:.0f} s; received: {[m['Subject'] for m in self.messages]}")
                self._lock.wait(left)

    def received_by(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.messages if address in str(m["To"])]


async def _sleep(seconds: float) -> None:
    import asyncio
    await asyncio.sleep(seconds)


def body_text(message: EmailMessage) -> str:
    """The text part's words."""
    part = message.get_body(preferencelist=("plain",))
    assert part is not None, "the message has no text part"
    return part.get_content()


def html_text(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert part is not None, "the message has no HTML part"
    return part.get_content()


def link_in(message: EmailMessage, path_start: str) -> str:
    """The first link in the text part whose path starts with `path_start`."""
    for word in body_text(message).split():
        if path_start in word:
            return word.strip()
    raise AssertionError(f"no link to {path_start} in: {body_text(message)!r}")
