"""Profile pictures (issue 28) in a real browser: uploaded through the file field, served square
and without a byte of the camera's metadata, refused beside the field when they are not pictures.

The pictures are written byte by byte with the standard library (no Pillow), each carrying an
EXIF block with a GPS position and a marker string that must not survive:

- a baseline JPEG with an APP1 Exif segment, the way a phone camera writes one: JPEG in, JPEG out,
  the picture whose segments could most easily be carried through to what is served;
- a PNG with an eXIf chunk (PNG 1.5's place for EXIF).

Both are 480 x 320, three upright stripes (red, green, blue) of 160 px: cut to the centre square
and shrunk to 256 px, the green stripe is 128 px wide in the middle with 64 px of red and blue
either side; squeezed whole into the square instead, each stripe would be a third. The served
picture is drawn on a canvas in the page (same origin, so its pixels may be read) to tell which.
"""

from __future__ import annotations

import re
import struct
import zlib
from pathlib import Path
from urllib.parse import urlsplit

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from support import Browser, follow, sign_up, unique_username, visible_text
from test_household import another_browser, assert_well_made, share_with_household, text_of
from test_reading import flash_message

WIDTH, HEIGHT = 480, 320
STRIPES = ((230, 30, 30), (30, 200, 60), (30, 60, 230))  # red, green, blue, left to right
GPS_MARKER = "E2E-GPS-MARKER-51.5007N-0.1246W"  # in the EXIF description and the GPS area information
LATITUDE = ((51, 1), (30, 1), (267, 100))  # 51° 30′ 2.67″ N, as a camera writes it (rationals)
LONGITUDE = ((0, 1), (7, 1), (2856, 100))  # 0° 7′ 28.56″ W
PICTURE_PATH = re.compile(r"/pictures/([A-Za-z0-9_-]{16})-256\.jpg")
NOT_A_PICTURE = "That file is not a JPEG, PNG or WebP picture."
REFUSED = 422


# ---------------------------------------------------------------------------------------------
# Pictures written byte by byte


def stripe_colour(x: int) -> tuple[int, int, int]:
    return STRIPES[x * len(STRIPES) // WIDTH]


def exif_tiff() -> bytes:
    """A big-endian TIFF structure as EXIF holds it: IFD0 (description, camera make, a pointer to
    the GPS IFD), then the GPS IFD (version, latitude, longitude, area information)."""
    def rationals(values: tuple[tuple[int, int], ...]) -> bytes:
        return b"".join(struct.pack(">II", n, d) for n, d in values)

    def ascii(text: str) -> bytes:
        return text.encode("ascii") + b"\0"

    # (tag, type, count, value): types 1 BYTE, 2 ASCII, 4 LONG, 5 RATIONAL, 7 UNDEFINED.
    description = ascii(GPS_MARKER)
    make = ascii("E2E Camera Co")
    ifd0 = [(0x010E, 2, len(description), description), (0x010F, 2, len(make), make), (0x8825, 4, 1, None)]
    area = b"ASCII\0\0\0" + GPS_MARKER.encode("ascii")
    gps = [
        (0x0000, 1, 4, bytes([2, 3, 0, 0])),
        (0x0001, 2, 2, ascii("N")), (0x0002, 5, 3, rationals(LATITUDE)),
        (0x0003, 2, 2, ascii("W")), (0x0004, 5, 3, rationals(LONGITUDE)),
        (0x001C, 7, len(area), area),
    ]

    def ifd(entries: list, start: int, pointer: int = 0) -> bytes:
        """One IFD at offset `start`: its entries, no next IFD, then the values over 4 bytes."""
        data_at = start + 2 + 12 * len(entries) + 4
        table, data = struct.pack(">H", len(entries)), b""
        for tag, kind, count, value in entries:
            value = struct.pack(">I", pointer) if value is None else value
            if len(value) <= 4:
                table += struct.pack(">HHI", tag, kind, count) + value.ljust(4, b"\0")
            else:
                table += struct.pack(">HHII", tag, kind, count, data_at + len(data))
                data += value + (b"\0" if len(value) % 2 else b"")  # values start on a word boundary
        return table + struct.pack(">I", 0) + data

    header = b"MM\x00\x2a" + struct.pack(">I", 8)
    gps_at = 8 + len(ifd(ifd0, 8))  # the pointer is inline, so IFD0's length does not depend on it
    return header + ifd(ifd0, 8, pointer=gps_at) + ifd(gps, gps_at)


def _huffman_codes(bits: list[int], values: list[int]) -> dict[int, tuple[int, int]]:
    """JPEG's canonical Huffman codes (ITU T.81, Annex C): {symbol: (code, length)}."""
    codes, code, k = {}, 0, 0
    for length, count in enumerate(bits, start=1):
        for _ in range(count):
            codes[values[k]] = (code, length)
            code, k = code + 1, k + 1
        code <<= 1
    return codes


# T.81 Table K.3, the usual luminance DC table: categories 0 to 11.
DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
DC_VALUES = list(range(12))
# Every block is one flat colour, so its only AC symbol is end-of-block: a table of that one code.
AC_BITS = [1] + [0] * 15
AC_VALUES = [0x00]


def jpeg_with_exif() -> bytes:
    """A baseline JPEG (YCbCr, no subsampling, every 8 x 8 block one flat colour, so each block is
    its DC value and an end-of-block) with an APP1 Exif segment holding the GPS position."""
    def segment(marker: int, payload: bytes) -> bytes:
        return struct.pack(">BBH", 0xFF, marker, len(payload) + 2) + payload

    def ycbcr(r: int, g: int, b: int) -> tuple[int, ...]:
        return (round(0.299 * r + 0.587 * g + 0.114 * b),
                round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b),
                round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b))

    dc, ac = _huffman_codes(DC_BITS, DC_VALUES), _huffman_codes(AC_BITS, AC_VALUES)
    bits: list[tuple[int, int]] = []
    previous = [0, 0, 0]
    for _ in range(HEIGHT // 8):
        for bx in range(WIDTH // 8):
            for component, value in enumerate(ycbcr(*stripe_colour(bx * 8))):
                # With every quantiser 8, a flat block's quantised DC is its level-shifted value.
                level = value - 128
                diff, previous[component] = level - previous[component], level
                category = abs(diff).bit_length()
                bits.append(dc[category])
                if category:
                    bits.append((diff if diff > 0 else diff + (1 << category) - 1, category))
                bits.append(ac[0x00])
    scan, acc, filled = bytearray(), 0, 0
    for code, length in bits:
        acc, filled = (acc << length) | code, filled + length
        while filled >= 8:
            byte = (acc >> (filled - 8)) & 0xFF
            scan += bytes([byte, 0x00]) if byte == 0xFF else bytes([byte])  # a 0xFF in the data is stuffed
            filled -= 8
    if filled:
        byte = ((acc << (8 - filled)) | ((1 << (8 - filled)) - 1)) & 0xFF  # padded with ones
        scan += bytes([byte, 0x00]) if byte == 0xFF else bytes([byte])

    components = b"".join(bytes([i, 0x11, 0]) for i in (1, 2, 3))
    return b"".join([
        b"\xff\xd8",
        segment(0xE0, b"JFIF\0\x01\x01\x00\x00\x01\x00\x01\x00\x00"),
        segment(0xE1, b"Exif\0\0" + exif_tiff()),
        segment(0xDB, b"\x00" + bytes([8] * 64)),
        segment(0xC0, struct.pack(">BHHB", 8, HEIGHT, WIDTH, 3) + components),
        segment(0xC4, b"\x00" + bytes(DC_BITS) + bytes(DC_VALUES) + b"\x10" + bytes(AC_BITS) + bytes(AC_VALUES)),
        segment(0xDA, b"\x03" + b"".join(bytes([i, 0x00]) for i in (1, 2, 3)) + b"\x00\x3f\x00"),
        bytes(scan),
        b"\xff\xd9",
    ])


def png_with_exif() -> bytes:
    """An 8-bit RGB PNG with an eXIf chunk (PNG 1.5's place for EXIF, before the image data)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + b"".join(bytes(stripe_colour(x)) for x in range(WIDTH))  # filter type 0, then the pixels
    return b"".join([
        b"\x89PNG\r\n\x1a\n",
        chunk(b"IHDR", struct.pack(">IIBBBBB", WIDTH, HEIGHT, 8, 2, 0, 0, 0)),
        chunk(b"eXIf", exif_tiff()),
        chunk(b"IDAT", zlib.compress(row * HEIGHT)),
        chunk(b"IEND", b""),
    ])


# ---------------------------------------------------------------------------------------------
# Reading what is served


def jpeg_segments(data: bytes) -> list[tuple[int, bytes]]:
    """The JPEG's marker segments up to the start of its scan, as (marker, payload)."""
    assert data[:2] == b"\xff\xd8", f"not a JPEG: it starts {data[:8]!r}"
    segments, at = [], 2
    while at < len(data):
        assert data[at] == 0xFF, f"no marker at byte {at}: {data[at:at + 8]!r}"
        marker = data[at + 1]
        if marker == 0xFF:  # fill bytes before a marker
            at += 1
            continue
        (length,) = struct.unpack(">H", data[at + 2:at + 4])
        segments.append((marker, data[at + 4:at + 2 + length]))
        if marker == 0xDA:
            break
        at += 2 + length
    return segments


def jpeg_size(segments: list[tuple[int, bytes]]) -> tuple[int, int]:
    """(width, height) from the start-of-frame segment (any of SOF0-15 but DHT, JPG and DAC)."""
    frames = [payload for marker, payload in segments if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC)]
    assert len(frames) == 1, f"{len(frames)} start-of-frame segments"
    height, width = struct.unpack(">HH", frames[0][1:5])
    return width, height


def assert_clean_square_jpeg(data: bytes, side: int, what: str) -> None:
    """A JPEG `side` px square, with no APP1 (EXIF or XMP) segment and no trace of the GPS marker."""
    segments = jpeg_segments(data)
    markers = [f"{marker:02X}" for marker, _ in segments]
    assert data.endswith(b"\xff\xd9"), f"{what} does not end with EOI"
    assert jpeg_size(segments) == (side, side), f"{what} is {jpeg_size(segments)}, not {side} px square"
    assert "E1" not in markers, f"{what} still has an APP1 (EXIF/XMP) segment: {markers}"
    assert b"Exif" not in data and b"http://ns.adobe.com/xap" not in data, f"{what} carries EXIF or XMP"
    assert GPS_MARKER.encode() not in data and b"E2E Camera Co" not in data, f"{what} carries the camera's metadata"


def colours_across(browser: Browser, image) -> list[str]:
    """The colour of the served picture at four points across its middle row, read from a canvas:
    which stripe each of them falls in ("red", "green", "blue" or the RGB seen)."""
    samples = browser.js(
        "const img = arguments[0], c = document.createElement('canvas');"
        "c.width = img.naturalWidth; c.height = img.naturalHeight;"
        "const g = c.getContext('2d'); g.drawImage(img, 0, 0);"
        "return arguments[1].map(x => Array.from(g.getImageData(x, c.height / 2, 1, 1).data.slice(0, 3)));",
        image, [24, 96, 176, 232],
    )
    names = {0: "red", 1: "green", 2: "blue"}
    return [
        names[max(range(3), key=rgb.__getitem__)] if max(rgb) > 150 and sorted(rgb)[1] < 110 else str(rgb)
        for rgb in samples
    ]


def wait_until_loaded(browser: Browser, image, what: str) -> None:
    WebDriverWait(browser.driver, 10).until(
        lambda d: d.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0;", image),
        f"{what} did not load",
    )


def upload(browser: Browser, picture: Path, shot: str) -> None:
    """Chooses `picture` in the file field of Settings → Profile and presses Upload picture."""
    browser.visit("/settings/profile", f"{shot}-form")
    browser.driver.find_element(By.ID, "picture-file").send_keys(str(picture))
    follow(browser, browser.driver.find_element(By.ID, "picture-submit"), shot)


def shown_picture(browser: Browser) -> str:
    """The path of the 256 px picture the open page shows in its profile header, checked loaded."""
    images = browser.driver.find_elements(By.CSS_SELECTOR, "img.avatar")
    assert len(images) == 1, f"{len(images)} pictures on {browser.path}"
    src = images[0].get_attribute("src")
    path = src[len(browser.base_url):] if src.startswith(browser.base_url) else src
    assert PICTURE_PATH.fullmatch(path), f"the picture is at {src}"
    # The markup's own attributes (get_attribute would read the width the stylesheet draws it at).
    assert [images[0].get_dom_attribute(a) for a in ("width", "height", "alt")] == ["256", "256", ""]
    wait_until_loaded(browser, images[0], f"the picture on {browser.path}")
    assert browser.js("return [arguments[0].naturalWidth, arguments[0].naturalHeight];", images[0]) == [256, 256]
    return path


# ---------------------------------------------------------------------------------------------
# The story


def test_picture_is_served_square_without_its_location(browser: Browser, server: str, tmp_path: Path) -> None:
    driver = browser.driver
    owner = unique_username("pictured")
    photo, screenshot, notes = tmp_path / "holiday.jpg", tmp_path / "screenshot.png", tmp_path / "notes.txt"
    photo.write_bytes(jpeg_with_exif())
    screenshot.write_bytes(png_with_exif())
    notes.write_text("Not a picture at all, only words.\n", encoding="utf-8")
    # What is uploaded does carry the position, so its absence later means something.
    for written in (photo, screenshot):
        assert GPS_MARKER.encode() in written.read_bytes() and b"MM\x00\x2a" in written.read_bytes()
    assert [f"{m:02X}" for m, _ in jpeg_segments(photo.read_bytes())][:2] == ["E0", "E1"]

    sign_up(browser, owner)
    share_with_household(browser)

    # Settings → Profile: initials until there is a picture; a labelled file field in a multipart form.
    browser.visit("/settings/profile", "profile-initials")
    assert driver.find_elements(By.CSS_SELECTOR, "#picture span.avatar-initials") and not driver.find_elements(By.CSS_SELECTOR, "img.avatar")
    form = driver.find_element(By.ID, "picture-form")
    assert form.get_attribute("enctype") == "multipart/form-data" and form.get_attribute("method").lower() == "post"
    assert form.find_element(By.CSS_SELECTOR, "input").get_attribute("name") == "csrf_token", \
        "the CSRF token must come first in the multipart body"
    field = driver.find_element(By.ID, "picture-file")
    assert (field.get_attribute("type"), field.get_attribute("name")) == ("file", "picture")
    assert field.accessible_name == "Your picture", field.accessible_name
    assert not driver.find_elements(By.ID, "picture-remove"), "a remove button before there is a picture"

    # The camera's JPEG: back on the form, told so, the picture shown square at 256 px.
    upload(browser, photo, "uploaded-jpeg")
    assert browser.path == "/settings/profile" and driver.current_url.endswith("?done=picture"), driver.current_url
    assert flash_message(browser) == "Your new picture is up."
    first = shown_picture(browser)
    assert driver.find_element(By.ID, "picture-file").accessible_name == "A new picture"
    assert driver.find_elements(By.ID, "picture-remove"), "no way to remove the picture"
    assert_well_made(browser, "/settings/profile with a picture")

    # What is served: a JPEG 256 px square with none of the metadata, cached for a year; the
    # 64 px one the same; and cut to the centre square rather than squeezed.
    for size in (256, 64):
        status, headers, body = browser.fetch(first.replace("-256.jpg", f"-{size}.jpg"))
        assert status == 200 and headers.get("content-type") == "image/jpeg", (status, headers)
        assert "immutable" in headers.get("cache-control", ""), headers.get("cache-control")
        assert_clean_square_jpeg(body, size, f"the {size} px picture made from the JPEG")
    assert colours_across(browser, driver.find_element(By.CSS_SELECTOR, "img.avatar")) == ["red", "green", "green", "blue"], \
        "the picture was not cut to its centre square"

    # Another member sees it at the top of the owner's page under People.
    with another_browser(server, f"{browser.test_name}-visitor") as visitor:
        sign_up(visitor, unique_username("visitor"))
        visitor.visit(f"/people/{owner}", "member-with-picture")
        assert visitor.driver.find_elements(By.CSS_SELECTOR, "#profile img.avatar"), "the member page shows no picture"
        assert shown_picture(visitor) == first
        assert not visitor.driver.find_elements(By.CSS_SELECTOR, "#profile .avatar-initials")
        assert_well_made(visitor, f"/people/{owner} with a picture")
        visitor.assert_no_console_errors()

    # The PNG replaces it under a new address; the old one is gone.
    upload(browser, screenshot, "uploaded-png")
    assert flash_message(browser) == "Your new picture is up."
    second = shown_picture(browser)
    assert second != first, "a new picture kept the old address, which is cached for a year"
    status, _, body = browser.fetch(second)
    assert status == 200
    assert_clean_square_jpeg(body, 256, "the 256 px picture made from the PNG")
    assert colours_across(browser, driver.find_element(By.CSS_SELECTOR, "img.avatar")) == ["red", "green", "green", "blue"]
    assert browser.fetch(first)[0] == 404, "the replaced picture is still served"

    # A text file chosen as a picture: refused with a sentence beside the field; the picture stays.
    browser.visit("/settings/profile", "before-refused")
    driver.find_element(By.ID, "picture-file").send_keys(str(notes))
    browser.allow_failed_load(browser.url("/settings/profile/picture"), REFUSED)
    follow(browser, driver.find_element(By.ID, "picture-submit"), "refused-text")
    error = driver.find_element(By.ID, "picture-error")
    assert error.is_displayed() and visible_text(browser, error) == NOT_A_PICTURE, text_of(error)
    field = driver.find_element(By.ID, "picture-file")
    assert field.get_attribute("aria-invalid") == "true"
    assert "picture-error" in field.get_attribute("aria-describedby").split()
    assert driver.title.startswith("Error: "), driver.title
    summary = driver.find_element(By.ID, "error-summary")
    link = summary.find_element(By.CSS_SELECTOR, "a")
    assert text_of(link) == NOT_A_PICTURE, text_of(link)
    assert shown_picture(browser) == second, "the refused file changed the picture"
    browser.assert_no_console_errors()
    # As on every refused form (the import's leads to #import-file): the summary's link moves the
    # focus to the field to fix, not to the section around it.
    assert urlsplit(link.get_attribute("href")).fragment == "picture-file", \
        f"the error summary leads to {link.get_attribute('href')}, not to the file field"
