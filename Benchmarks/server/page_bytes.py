"""Bytes a browser receives for the list page, a book page, the wishlist and the stylesheet, with and
without gzip (issue 34's budget: compressed <= 40% of uncompressed). Python 3 standard library only.

    WISHLIST_BIN=.build/debug/wishlist python3 Benchmarks/server/page_bytes.py

Starts `wishlist serve` on a free loopback port with a new database (the sample catalog), signs up
a member, puts three books on their wishlist, then asks for each page twice as Chromium does when
navigating within the site (`Sec-Fetch-Site: same-origin`): without and with `Accept-Encoding`.
Prints a Markdown table of body bytes (the bytes on the wire less the headers). The body is the
same whichever build serves it, so a debug build will do.

Beside gzip, what brotli would make of the same uncompressed bodies (the app does not serve brotli;
docs/decisions/gzip-through-libdeflate-and-zlib.md): Debian's libbrotlienc through ctypes, at quality 5 for pages
(per response, like gzip's level 5) and 11 for the stylesheet (once at start, like gzip's 9). The
column is left out when libbrotlienc.so.1 is not installed.
"""
import ctypes
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("WISHLIST_BIN", os.path.join(ROOT, ".build", "debug", "wishlist"))


def brotli_encoder():
    """A function from bytes and quality to brotli's compressed size, or None without the library."""
    try:
        library = ctypes.CDLL("libbrotlienc.so.1")
    except OSError:
        return None
    library.BrotliEncoderMaxCompressedSize.restype = ctypes.c_size_t
    library.BrotliEncoderMaxCompressedSize.argtypes = [ctypes.c_size_t]
    library.BrotliEncoderCompress.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_size_t, ctypes.c_char_p,
                                              ctypes.POINTER(ctypes.c_size_t), ctypes.c_char_p]

    def compressed_size(data, quality):
        size = ctypes.c_size_t(library.BrotliEncoderMaxCompressedSize(len(data)))
        out = ctypes.create_string_buffer(size.value)
        # Window 22 (4 MiB) and mode 0 (generic) are brotli's defaults.
        if library.BrotliEncoderCompress(quality, 22, 0, len(data), data, ctypes.byref(size), out) != 1:
            raise RuntimeError("BrotliEncoderCompress failed")
        return size.value
    return compressed_size


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Browser:
    def __init__(self, port):
        self.port, self.cookie, self.csrf = port, None, None

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = dict(headers or {})
        if self.cookie:
            headers["Cookie"] = f"wishlist_session={self.cookie}"
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = urllib.parse.urlencode({**body, "csrf_token": self.csrf})
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        for value in response.headers.get_all("Set-Cookie") or []:
            match = re.match(r"wishlist_session=([^;]*)", value)
            if match:
                self.cookie = match.group(1)
        if response.headers.get("Content-Encoding") is None:
            token = re.search(rb'name="csrf_token" value="([^"]+)"', data)
            if token:
                self.csrf = token.group(1).decode()
        connection.close()
        return response.status, response.headers, data


def main():
    port = free_port()
    with tempfile.TemporaryDirectory() as work:
        config = os.path.join(work, "config.json")
        with open(config, "w") as out:
            json.dump({"openLibrary": {"baseURL": ""}}, out)
        environment = {k: v for k, v in os.environ.items() if not k.startswith(("WISHLIST_", "NYT_"))}
        server = subprocess.Popen([BIN, "serve", "--config", config, "--host", "127.0.0.1", "--port", str(port),
                                   "--database", os.path.join(work, "bytes.sqlite")],
                                  cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            browser = Browser(port)
            for _ in range(200):
                try:
                    if browser.request("GET", "/healthz")[0] == 200:
                        break
                except OSError:
                    pass
                time.sleep(0.05)
            browser.request("GET", "/signup")
            password = "correct horse battery"
            status = browser.request("POST", "/signup", {"username": "bytes", "email": "", "password": password,
                                                         "password_confirm": password})[0]
            assert status == 303, f"sign-up answered {status}"
            _, _, page = browser.request("GET", "/lists/hardcover-fiction")
            books = list(dict.fromkeys(re.findall(r'href="/books/([A-Z0-9]+)"', page.decode())))
            for book in books[:3]:
                browser.request("POST", "/wishlist", {"book": book, "return_to": "/wishlist"})
            browser.request("GET", "/wishlist")  # the confirmation, shown once
            _, _, page = browser.request("GET", "/login")
            # Since issue 34 the stylesheet is inline in every page; a build that links it is
            # measured with it, as a first visit gets both.
            linked = re.search(r'href="(/static/style\.css[^"]*)"', browser.request("GET", "/lists")[2].decode())
            rows = []
            for name, path in [("list page", "/lists/hardcover-fiction"), ("book page", f"/books/{books[0]}"),
                               ("wishlist", "/wishlist")] + ([("style.css", linked.group(1))] if linked else []):
                navigation = {"Sec-Fetch-Site": "same-origin"}
                _, _, plain = browser.request("GET", path, headers=navigation)
                _, headers, gzipped = browser.request("GET", path, headers={**navigation, "Accept-Encoding": "gzip, deflate, br"})
                assert headers.get("Content-Encoding") == "gzip", f"{path} was not compressed"
                rows.append((name, plain, len(gzipped)))
        finally:
            server.terminate()
            server.wait(timeout=10)
    brotli = brotli_encoder()
    rows = [(name, len(plain), gzipped, brotli(plain, 11 if name == "style.css" else 5) if brotli else None)
            for name, plain, gzipped in rows]
    print("| response | uncompressed, bytes | gzip, bytes | gzip / uncompressed |" + (" brotli, bytes | brotli / gzip |" if brotli else ""))
    print("|---|---:|---:|---:|" + ("---:|---:|" if brotli else ""))
    for name, plain, gzipped, brotlied in rows:
        print(f"| {name} | {plain} | {gzipped} | {gzipped * 100 / plain:.0f}% |"
              + (f" {brotlied} | {brotlied * 100 / gzipped:.0f}% |" if brotli else ""))
    css = next((r for r in rows if r[0] == "style.css"), None)
    for page in ("list page", "book page", "wishlist"):
        html = next(r for r in rows if r[0] == page)
        if css is None:
            print(f"{page}, its stylesheet inline: {html[1]} -> {html[2]} bytes ({html[2] * 100 / html[1]:.0f}%)"
                  + (f"; brotli {html[3]} bytes ({html[3] * 100 / html[1]:.0f}%)" if brotli else ""))
            continue
        print(f"{page} + style.css: {html[1] + css[1]} -> {html[2] + css[2]} bytes "
              f"({(html[2] + css[2]) * 100 / (html[1] + css[1]):.0f}%)"
              + (f"; brotli {html[3] + css[3]} bytes ({(html[3] + css[3]) * 100 / (html[1] + css[1]):.0f}%)" if brotli else ""))


if __name__ == "__main__":
    sys.exit(main())
