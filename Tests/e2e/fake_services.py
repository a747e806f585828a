"""Stand-ins for the services the server talks to (Open Library, the NYT Books API), on loopback.

Each fake is a threaded `http.server` on a port of its own (port 0: the system picks a free one),
started with `start()` (or `with`), reached at `base_url`, and stopped with `stop()`, which closes
the port and every open connection, a never-finishing answer included, before it returns: from
then on the service is simply gone, as when the machine is offline. Every request is logged with
its path, query and User-Agent (`requests`), so a test can say what the server asked for.

Nothing here is fetched from outside: the Open Library catalogue is invented, the NYT answers are
the real captures in ../shared/fixtures/nyt beside the repository, and every image is a JPEG drawn
with Pillow when the fake is made.
"""

from __future__ import annotations

import binascii
import colorsys
import copy
import enum
import functools
import io
import json
import re
import socket
import struct
import threading
import time
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Self
from urllib.parse import parse_qs, urlsplit

from PIL import Image, ImageDraw

from support import REPO_ROOT, fold

NYT_FIXTURES = REPO_ROOT.parent / "shared" / "fixtures" / "nyt"
NYT_API_KEY = "e2e-fake-nyt-key"

STOP_DEADLINE_S = 5.0
# A never-finishing answer sends a byte this often, for at most this long: longer than any
# client's timeout, yet it ends by itself should a fake never be stopped.
DRIBBLE_INTERVAL_S = 0.1
DRIBBLE_FOR_S = 60.0
FIFTY_MEGABYTES = 50 * 1024 * 1024
STREAM_CHUNK = 64 * 1024


# ---------------------------------------------------------------------------------------------
# Images


@functools.lru_cache(maxsize=None)
def jacket_jpeg(number: int, width: int = 300, height: int = 450) -> bytes:
    """A portrait book jacket as a JPEG: a colour of its own for each `number` (hues a golden
    angle apart, so neighbours differ), a lighter panel where a title would be, a darker spine."""
    hue = (number * 0.618033988749895) % 1.0
    background = tuple(round(c * 255) for c in colorsys.hsv_to_rgb(hue, 0.55, 0.75))
    panel = tuple(round(c * 255) for c in colorsys.hsv_to_rgb(hue, 0.25, 0.95))
    spine = tuple(round(c * 255) for c in colorsys.hsv_to_rgb(hue, 0.7, 0.45))
    image = Image.new("RGB", (width, height), background)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width // 12, height), fill=spine)
    draw.rectangle((width // 5, height // 6, width - width // 10, height // 3), fill=panel)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=85)
    return out.getvalue()


def decompression_bomb_png(width: int = 50_000, height: int = 50_000) -> bytes:
    """A PNG of a few kilobytes whose header declares `width` x `height` 8-bit RGB pixels (7.5 GB
    for the default 50000 x 50000). Only the first rows are in it: a decoder that believes the
    header has reserved the whole picture before it finds the rest missing, so a safe one must
    refuse on the declared size alone."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", binascii.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # depth 8, RGB, deflate, no filter, not interlaced
    first_rows = zlib.compress((b"\x00" + b"\x00" * 3 * width) * 16, 9)  # each row: filter byte, then pixels
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", first_rows) + chunk(b"IEND", b"")


# ---------------------------------------------------------------------------------------------
# The HTTP machinery both fakes share


@dataclass(frozen=True)
class LoggedRequest:
    path: str
    query: dict[str, list[str]]
    user_agent: str


@dataclass(frozen=True)
class Reply:
    """An answer. A `bytes` body is sent with its Content-Length on a connection that stays open;
    any other iterable is streamed without one, and the connection closed after it (HTTP/1.1's
    close-delimited body), so a client cannot tell its size before it has read it."""

    status: int
    content_type: str
    body: bytes | Iterable[bytes]
    headers: tuple[tuple[str, str], ...] = ()


def json_reply(value: object, status: int = 200) -> Reply:
    return Reply(status, "application/json", json.dumps(value).encode())


class FakeService:
    """A loopback HTTP server answering GETs with `route(path, query)`."""

    def __init__(self) -> None:
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._lock = threading.Condition()
        self._open: set[socket.socket] = set()
        self._log: list[LoggedRequest] = []

    def route(self, path: str, query: dict[str, list[str]]) -> Reply:
        raise NotImplementedError

    # Life

    def start(self) -> Self:
        """Listens on a free loopback port. A fake starts once: a stopped one stays gone."""
        if self._stopping.is_set():
            raise RuntimeError(f"{type(self).__name__} was stopped and does not start again")
        service = self

        class Handler(BaseHTTPRequestHandler):
            # HTTP/1.1 keeps connections open between requests, as libcurl expects of a real API.
            protocol_version = "HTTP/1.1"

            def handle(self) -> None:
                with service._connection(self.connection) as admitted:
                    if admitted:
                        try:
                            super().handle()
                        except OSError:  # the client hung up, or stop() closed the connection
                            pass

            def do_GET(self) -> None:
                target = urlsplit(self.path)
                query = parse_qs(target.query, keep_blank_values=True)
                with service._lock:
                    service._log.append(LoggedRequest(target.path, query, self.headers.get("User-Agent", "")))
                service._send(self, service.route(target.path, query))

            def log_message(self, format: str, *args: object) -> None:
                """Silent: a test reports what matters, and access lines would bury it."""

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05},
            name=f"{type(self).__name__}:{self.port}", daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Closes the port and every connection, and returns once no request is being answered.
        Stopping a fake that is not running does nothing."""
        if self._server is None or self._thread is None:
            return
        with self._lock:
            self._stopping.set()  # under the lock: a connection not yet admitted never will be
            still_open = list(self._open)
        self._server.shutdown()
        self._server.server_close()
        for connection in still_open:
            try:
                connection.shutdown(socket.SHUT_RDWR)
            except OSError:  # already closed by its client
                pass
        deadline = time.monotonic() + STOP_DEADLINE_S
        with self._lock:
            while self._open and time.monotonic() < deadline:
                self._lock.wait(deadline - time.monotonic())
            left = len(self._open)
        self._thread.join(STOP_DEADLINE_S)
        self._server = self._thread = None
        if left:
            raise RuntimeError(f"{type(self).__name__}: {left} connections still open {STOP_DEADLINE_S:.0f} s after stop()")

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, f"{type(self).__name__} is not running"
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def requests(self) -> list[LoggedRequest]:
        with self._lock:
            return list(self._log)

    # Connections and answers

    @contextmanager
    def _connection(self, connection: socket.socket) -> Iterator[bool]:
        with self._lock:
            admitted = not self._stopping.is_set()
            if admitted:
                self._open.add(connection)
        try:
            yield admitted
        finally:
            with self._lock:
                self._open.discard(connection)
                self._lock.notify_all()

    def _send(self, handler: BaseHTTPRequestHandler, reply: Reply) -> None:
        handler.send_response(reply.status)
        handler.send_header("Content-Type", reply.content_type)
        for name, value in reply.headers:
            handler.send_header(name, value)
        if isinstance(reply.body, bytes):
            handler.send_header("Content-Length", str(len(reply.body)))
            handler.end_headers()
            handler.wfile.write(reply.body)
            return
        handler.send_header("Connection", "close")
        handler.end_headers()
        handler.close_connection = True
        for chunk in reply.body:
            if self._stopping.is_set():
                return
            handler.wfile.write(chunk)
            handler.wfile.flush()

    def _dribble(self, first: bytes, filler: bytes) -> Iterator[bytes]:
        """`first`, then `filler` every DRIBBLE_INTERVAL_S: an answer that never finishes, until
        the client hangs up, the fake stops, or DRIBBLE_FOR_S have passed."""
        yield first
        deadline = time.monotonic() + DRIBBLE_FOR_S
        while time.monotonic() < deadline and not self._stopping.wait(DRIBBLE_INTERVAL_S):
            yield filler


# ---------------------------------------------------------------------------------------------
# Open Library


class Fault(enum.Enum):
    """How a fake misbehaves on demand (see OpenLibraryFake.fail_api and fail_covers)."""

    NOT_FOUND = "404"
    SERVER_ERROR = "500 with an HTML page"
    NEVER_FINISHES = "200, a few bytes, then nothing more"
    MALFORMED_JSON = "200 with JSON cut off half-way"
    HTML = "200 with an HTML page instead of an image"
    FIFTY_MEGABYTES = "200 with 50 MB of image/jpeg, no Content-Length"
    DECOMPRESSION_BOMB = "200 with a tiny PNG that declares 50000 x 50000 pixels, labelled image/jpeg"


API_FAULTS = frozenset({Fault.NOT_FOUND, Fault.SERVER_ERROR, Fault.NEVER_FINISHES, Fault.MALFORMED_JSON})
COVER_FAULTS = frozenset({
    Fault.NOT_FOUND, Fault.SERVER_ERROR, Fault.NEVER_FINISHES, Fault.HTML, Fault.FIFTY_MEGABYTES, Fault.DECOMPRESSION_BOMB,
})


@dataclass(frozen=True)
class OpenLibraryBook:
    """One invented book as Open Library knows it: an edition, its work, its author and cover."""

    title: str
    author: str
    year: int
    publish_date: str  # free text, as editions carry it
    publisher: str
    printed_isbn13: str  # with hyphens, as a person types it from a jacket
    printed_isbn10: str | None  # None for a 979 ISBN, which has no ISBN-10
    edition: str  # Open Library ids: ...M an edition, ...W a work, ...A an author
    work: str
    author_id: str
    cover: int | None  # None: Open Library has no cover for it, ever
    subtitle: str | None = None
    description: str | dict[str, str] | None = None
    authors_on_edition: bool = True  # False: only the work names the author, as for many editions

    @property
    def isbn13(self) -> str:
        return self.printed_isbn13.replace("-", "")

    @property
    def isbn10(self) -> str | None:
        return self.printed_isbn10.replace("-", "") if self.printed_isbn10 else None


LANTERN_KEEPER = OpenLibraryBook(
    title="The Lantern Keeper of Vell", author="Maren Okafor", year=2019, publish_date="2019",
    publisher="Harrow & Finch", printed_isbn13="978-1-7390-2114-6", printed_isbn10="1-7390-2114-2",
    edition="OL9000001M", work="OL9000001W", author_id="OL9000001A", cover=8_140_001,
    description="A lighthouse keeper's daughter inherits a lamp that shows ships which have not sailed yet.",
)
SALT_ROADS = OpenLibraryBook(
    title="Salt Roads North", author="Tobias Ferreira-Lund", year=2021, publish_date="2021",
    publisher="Quillon Press", printed_isbn13="979-8-88104-257-8", printed_isbn10=None,
    edition="OL9000002M", work="OL9000002W", author_id="OL9000002A", cover=8_140_002,
    subtitle="Walking the Old Trade Ways", authors_on_edition=False,
    description={"type": "/type/text", "value": "Six hundred miles on foot along roads the salt carts made."},
)
QUIET_ORCHARD = OpenLibraryBook(  # its ISBN-10 ends in X
    title="A Quiet Orchard", author="Inès Marchetti", year=2015, publish_date="March 3, 2015",
    publisher="Larkspur Books", printed_isbn13="978-1-77405-213-6", printed_isbn10="1-77405-213-X",
    edition="OL9000003M", work="OL9000003W", author_id="OL9000003A", cover=8_140_003,
)
HARBOUR_ALMANAC = OpenLibraryBook(  # the same author as LANTERN_KEEPER, and no cover
    title="Glass Harbour Almanac", author="Maren Okafor", year=2023, publish_date="2023",
    publisher="Harrow & Finch", printed_isbn13="978-0-9947153-6-4", printed_isbn10="0-9947153-6-6",
    edition="OL9000004M", work="OL9000004W", author_id="OL9000001A", cover=None,
)
CATALOGUE = (LANTERN_KEEPER, SALT_ROADS, QUIET_ORCHARD, HARBOUR_ALMANAC)

# The sizes covers.openlibrary.org offers, smaller than its own but in its portrait shape.
COVER_SIZES = {"S": (60, 90), "M": (180, 270), "L": (300, 450)}
SEARCH_FIELDS = ("key", "title", "author_name", "first_publish_year", "isbn", "cover_i")


class OpenLibraryFake(FakeService):
    """Open Library's search, ISBN, edition, work and author JSON and its covers, in the shapes the
    real service documents, for the books of CATALOGUE. One fake serves both the API and the
    covers: point `openLibrary.baseURL` and `openLibrary.coversURL` at its `base_url`.

    - `GET /search.json?title=&author=&fields=&limit=`: books whose title and author contain the
      words asked for (case and accents ignored); only the requested `fields`; 400 with neither.
    - `GET /isbn/<ISBN-10 or 13>.json`: 302 to `/books/<edition>.json`, or 404
      `{"error": "notfound", "key": "/isbn/..."}`.
    - `GET /books/<id>M.json`, `/works/<id>W.json`, `/authors/<id>A.json`: the records.
    - `GET /b/id/<cover>-{S,M,L}.jpg` (`?default=false` or not): a JPEG, or 404 for a cover that
      does not exist.
    """

    def __init__(self, catalogue: tuple[OpenLibraryBook, ...] = CATALOGUE) -> None:
        super().__init__()
        self.catalogue = catalogue
        self._api_fault: Fault | None = None
        self._cover_fault: Fault | None = None

    def fail_api(self, fault: Fault | None) -> None:
        """Every JSON route answers with `fault` from now on (None: answer normally again)."""
        if fault is not None and fault not in API_FAULTS:
            raise ValueError(f"{fault} is not a fault of the JSON routes: {sorted(f.name for f in API_FAULTS)}")
        with self._lock:
            self._api_fault = fault

    def fail_covers(self, fault: Fault | None) -> None:
        """Every cover answers with `fault` from now on (None: answer normally again)."""
        if fault is not None and fault not in COVER_FAULTS:
            raise ValueError(f"{fault} is not a fault of the covers: {sorted(f.name for f in COVER_FAULTS)}")
        with self._lock:
            self._cover_fault = fault

    def route(self, path: str, query: dict[str, list[str]]) -> Reply:
        with self._lock:
            api_fault, cover_fault = self._api_fault, self._cover_fault
        if cover := re.fullmatch(r"/b/id/(\d+)-([SML])\.jpg", path):
            return self._cover_fault_reply(cover_fault, path) if cover_fault else self._cover(int(cover[1]), cover[2])
        if api_fault:
            return self._api_fault_reply(api_fault, path)
        if path == "/search.json":
            return self._search(query)
        if isbn := re.fullmatch(r"/isbn/([0-9Xx-]+)\.json", path):
            return self._isbn(isbn[1])
        for pattern, record in (
            (r"/books/(OL\d+M)\.json", self._edition),
            (r"/works/(OL\d+W)\.json", self._work),
            (r"/authors/(OL\d+A)\.json", self._author),
        ):
            if found := re.fullmatch(pattern, path):
                value = record(found[1])
                return json_reply(value) if value else self._not_found(path)
        return self._not_found(path)

    # Routes

    def _search(self, query: dict[str, list[str]]) -> Reply:
        title = fold(query.get("title", [""])[0])
        author = fold(query.get("author", [""])[0])
        if not title and not author:
            return json_reply({"error": "search needs a title or an author"}, status=400)
        fields = [f for f in query.get("fields", [",".join(SEARCH_FIELDS)])[0].split(",") if f]
        limit = int(query.get("limit", ["100"])[0])
        found = [
            book for book in self.catalogue
            if all(word in fold(book.title) for word in title.split())
            and all(word in fold(book.author) for word in author.split())
        ]
        docs = [{k: v for k, v in self._search_doc(book).items() if k in fields} for book in found[:limit]]
        return json_reply({"numFound": len(found), "start": 0, "numFoundExact": True, "docs": docs})

    def _isbn(self, typed: str) -> Reply:
        isbn = typed.replace("-", "").upper()
        for book in self.catalogue:
            if isbn in (book.isbn13, book.isbn10):
                # Relative, as openlibrary.org sends it.
                return Reply(302, "text/html", b"", (("Location", f"/books/{book.edition}.json"),))
        return json_reply({"error": "notfound", "key": f"/isbn/{typed}"}, status=404)

    def _cover(self, cover: int, size: str) -> Reply:
        if cover not in {book.cover for book in self.catalogue}:
            return Reply(404, "text/plain", b"Not Found")
        return Reply(200, "image/jpeg", jacket_jpeg(cover, *COVER_SIZES[size]))

    def _not_found(self, path: str) -> Reply:
        return json_reply({"error": "notfound", "key": path.removesuffix(".json")}, status=404)

    # Records

    def _search_doc(self, book: OpenLibraryBook) -> dict[str, object]:
        doc: dict[str, object] = {
            "key": f"/works/{book.work}",
            "title": book.title,
            "author_name": [book.author],
            "first_publish_year": book.year,
            "isbn": [book.isbn13] + ([book.isbn10] if book.isbn10 else []),
        }
        if book.cover is not None:
            doc["cover_i"] = book.cover
        return doc

    def _edition(self, edition: str) -> dict[str, object] | None:
        book = next((b for b in self.catalogue if b.edition == edition), None)
        if book is None:
            return None
        record: dict[str, object] = {
            "key": f"/books/{book.edition}",
            "title": book.title,
            "works": [{"key": f"/works/{book.work}"}],
            "publish_date": book.publish_date,
            "publishers": [book.publisher],
            "isbn_13": [book.isbn13],
            "type": {"key": "/type/edition"},
        }
        if book.subtitle:
            record["subtitle"] = book.subtitle
        if book.authors_on_edition:
            record["authors"] = [{"key": f"/authors/{book.author_id}"}]
        if book.isbn10:
            record["isbn_10"] = [book.isbn10]
        if book.cover is not None:
            record["covers"] = [book.cover]
        if book.description:
            record["description"] = book.description
        return record

    def _work(self, work: str) -> dict[str, object] | None:
        book = next((b for b in self.catalogue if b.work == work), None)
        if book is None:
            return None
        record: dict[str, object] = {
            "key": f"/works/{book.work}",
            "title": book.title,
            "authors": [{"author": {"key": f"/authors/{book.author_id}"}, "type": {"key": "/type/author_role"}}],
            "type": {"key": "/type/work"},
        }
        if book.description:
            record["description"] = book.description
        return record

    def _author(self, author: str) -> dict[str, object] | None:
        book = next((b for b in self.catalogue if b.author_id == author), None)
        if book is None:
            return None
        return {"key": f"/authors/{book.author_id}", "name": book.author, "type": {"key": "/type/author"}}

    # Faults

    def _api_fault_reply(self, fault: Fault, path: str) -> Reply:
        if fault is Fault.NOT_FOUND:
            return self._not_found(path)
        if fault is Fault.SERVER_ERROR:
            return _server_error()
        if fault is Fault.NEVER_FINISHES:
            return Reply(200, "application/json", self._dribble(b'{"numFound": ', b" "))
        # Fault.MALFORMED_JSON
        return Reply(200, "application/json", b'{"numFound": 1, "start": 0, "docs": [{"key": "/works/OL9000001W", "title": "The Lan')

    def _cover_fault_reply(self, fault: Fault, path: str) -> Reply:
        if fault is Fault.NOT_FOUND:
            return Reply(404, "text/plain", b"Not Found")
        if fault is Fault.SERVER_ERROR:
            return _server_error()
        if fault is Fault.NEVER_FINISHES:
            return Reply(200, "image/jpeg", self._dribble(jacket_jpeg(0)[:64], b"\x00"))
        if fault is Fault.HTML:
            return Reply(200, "text/html; charset=utf-8", b"<!DOCTYPE html><html><head><title>Covers</title></head><body><p>Please try again later.</p></body></html>")
        if fault is Fault.FIFTY_MEGABYTES:
            return Reply(200, "image/jpeg", _fifty_megabytes())
        # Fault.DECOMPRESSION_BOMB
        return Reply(200, "image/jpeg", decompression_bomb_png())


def _server_error() -> Reply:
    return Reply(500, "text/html; charset=utf-8", b"<!DOCTYPE html><html><body><h1>Internal Server Error</h1></body></html>")


def _fifty_megabytes() -> Iterator[bytes]:
    """A real JPEG's start and then zeros, 50 MB in all, sent in chunks (never held whole)."""
    start = jacket_jpeg(0)[:-2]  # without its end-of-image marker, so the picture seems to go on
    yield start
    sent = len(start)
    while sent < FIFTY_MEGABYTES:
        chunk = b"\x00" * min(STREAM_CHUNK, FIFTY_MEGABYTES - sent)
        sent += len(chunk)
        yield chunk


# ---------------------------------------------------------------------------------------------
# NYT Books API


class NYTFake(FakeService):
    """The NYT Books API routes the server's sync uses, answered with the real captured fixtures.

    - `GET /svc/books/v3/lists/names.json`, `.../lists/full-overview.json` and
      `.../lists/current/<list>.json` (the one captured list, Hardcover Fiction, under the name
      and display name of whichever current list is asked for; 404 for a name `names` lacks).
    - Dated editions (`.../lists/<date>/<list>.json`) and anything else: the API's 404.
    - Each of those needs `?api-key=<api_key>`, else the API gateway's 401.
    - Every `book_image` is rewritten to this fake's own `/images/<n>.jpg` (300 x 450, a colour per
      image), so a synced catalog's covers come from loopback and nothing reaches the real CDN.
    """

    API_PATH = "/svc/books/v3"
    IMAGE_SIZE = (300, 450)

    def __init__(self, api_key: str = NYT_API_KEY, fixtures: Path = NYT_FIXTURES) -> None:
        super().__init__()
        if not (fixtures / "names-2023-03.json").is_file():
            raise FileNotFoundError(f"the NYT fixtures are missing: expected them in {fixtures} (../shared beside the repository)")
        self.api_key = api_key
        self._fixtures = fixtures
        self._names = self._fixture("names-2023-03.json")
        self._overview = self._fixture("full-overview-2023-03-26.json")
        self._current = self._fixture("current-hardcover-fiction-2023-03-19.json")
        urls = sorted({
            book["book_image"]
            for listed in [*self._overview["results"]["lists"], self._current["results"]]
            for book in listed["books"]
            if str(book.get("book_image") or "").startswith(("http://", "https://"))
        })
        self._image_numbers = {url: number for number, url in enumerate(urls, start=1)}
        self._images = {number: jacket_jpeg(number, *self.IMAGE_SIZE) for number in self._image_numbers.values()}

    @property
    def api_url(self) -> str:
        """What `nyt.baseURL` is set to."""
        return self.base_url + self.API_PATH

    def route(self, path: str, query: dict[str, list[str]]) -> Reply:
        if image := re.fullmatch(r"/images/(\d+)\.jpg", path):
            number = int(image[1])
            if number in self._images:
                return Reply(200, "image/jpeg", self._images[number])
            return Reply(404, "text/plain", b"Not Found")
        if not path.startswith(self.API_PATH + "/"):
            return self._not_found()
        if query.get("api-key") != [self.api_key]:
            return Reply(401, "application/json", (self._fixtures / "errors" / "401-invalid-key.json").read_bytes())
        rest = path.removeprefix(self.API_PATH)
        if rest == "/lists/names.json":
            return json_reply(self._names)
        if rest == "/lists/full-overview.json":
            overview = copy.deepcopy(self._overview)
            for listed in overview["results"]["lists"]:
                self._serve_images_here(listed["books"])
            return json_reply(overview)
        if current := re.fullmatch(r"/lists/current/([a-z0-9-]+)\.json", rest):
            return self._current_list(current[1])
        return self._not_found()

    def _current_list(self, name: str) -> Reply:
        names = {entry["list_name_encoded"]: entry for entry in self._names["results"]}
        if name not in names:
            return self._not_found()
        answer = copy.deepcopy(self._current)
        results = answer["results"]
        results["list_name"] = names[name]["list_name"]
        results["list_name_encoded"] = name
        results["display_name"] = names[name]["display_name"]
        results["updated"] = names[name]["updated"]
        self._serve_images_here(results["books"])
        return json_reply(answer)

    def _serve_images_here(self, books: list[dict]) -> None:
        for book in books:
            number = self._image_numbers.get(book.get("book_image") or "")
            if number is not None:
                book["book_image"] = f"{self.base_url}/images/{number}.jpg"
                book["book_image_width"], book["book_image_height"] = self.IMAGE_SIZE

    def _fixture(self, name: str) -> dict:
        return json.loads((self._fixtures / name).read_text(encoding="utf-8"))

    @staticmethod
    def _not_found() -> Reply:
        return json_reply({"status": "ERROR", "errors": ["not found"]}, status=404)
