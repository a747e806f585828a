"""Adding a book from a photo of its barcode, and the ISBN field a handheld scanner types into (issue 52).

The server looks books up in a fake Open Library (fake_services.py) on loopback. The barcodes are
drawn here with Pillow, bar by bar as EAN-13 prints them, and saved as the PNG a phone would send.

- With script off (as on an iPhone whose Safari ran no script), the photo form's file field takes
  a picture of The Lantern Keeper's barcode; "Read the barcode" leads to the look-up of its ISBN,
  and "Add this book" to the book's page.
- A photo without a barcode is the page again, the sentence beside the photo field (a 422).
- With script on, the live scan says why it is not offered here (Chromium on Linux has no
  BarcodeDetector), and a handheld scanner's digits and Enter in the ISBN field look the ISBN up.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
from PIL import Image, ImageDraw
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from fake_services import LANTERN_KEEPER, OpenLibraryFake
from support import DEFAULT_WINDOW, Browser, _navigates, follow, new_chromium, sign_up, unique_username

LOOKUP_DEADLINE_S = 30.0

L_CODES = ["0001101", "0011001", "0010011", "0111101", "0100011", "0110001", "0101111", "0111011", "0110111", "0001011"]
PARITY = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG", "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]


def ean13_modules(digits: str) -> str:
    """The 95 modules of an EAN-13, "1" for a bar: guards, the left half in L and G codes as the
    first digit says, the right half in R codes."""
    values = [int(d) for d in digits]
    assert len(values) == 13
    invert = lambda code: "".join("0" if bit == "1" else "1" for bit in code)  # noqa: E731
    bits = "101"
    for index, choice in zip(range(1, 7), PARITY[values[0]]):
        code = L_CODES[values[index]]
        bits += code if choice == "L" else invert(code)[::-1]
    bits += "01010"
    for index in range(7, 13):
        bits += invert(L_CODES[values[index]])
    return bits + "101"


def barcode_photo(digits: str, path: Path, module: int = 4) -> Path:
    """A 900 x 700 grey photo of paper with the barcode in the middle, as a PNG."""
    image = Image.new("L", (900, 700), 235)
    draw = ImageDraw.Draw(image)
    modules = ean13_modules(digits)
    left = (900 - module * len(modules)) // 2
    top, bottom = 170, 530
    for index, bit in enumerate(modules):
        if bit == "1":
            draw.rectangle([left + index * module, top, left + (index + 1) * module - 1, bottom], fill=25)
    image.save(path, "PNG")
    return path


@pytest.fixture(scope="module")
def scan_server(configured_server) -> Iterator[str]:
    with OpenLibraryFake() as open_library:
        settings = {"openLibrary": {"baseURL": open_library.base_url, "coversURL": open_library.base_url}}
        with configured_server("scan", settings) as base_url:
            yield base_url


@pytest.fixture
def reader(scan_server: str, request: pytest.FixtureRequest) -> Iterator[Browser]:
    """A Chromium signed up on the scanning server."""
    driver = new_chromium(*DEFAULT_WINDOW)
    try:
        browser = Browser(driver, scan_server, request.node.name)
        browser.resize(*DEFAULT_WINDOW)
        sign_up(browser, unique_username("scan"))
        yield browser
    finally:
        driver.quit()


def wait_for_result(browser: Browser, title: str) -> None:
    WebDriverWait(browser.driver, LOOKUP_DEADLINE_S).until(
        lambda d: title in d.find_element(By.TAG_NAME, "main").text, f"the look-up never showed {title}"
    )


def test_a_book_is_added_from_a_photo_of_its_barcode_without_script(reader: Browser, tmp_path: Path) -> None:
    reader.disable_javascript()
    reader.visit("/books/new", "add-a-book-without-script")
    field = reader.driver.find_element(By.ID, "photo")
    assert field.get_attribute("accept") == "image/*"
    assert field.get_attribute("capture") == "environment"
    assert not reader.driver.find_element(By.ID, "live-scan").is_displayed(), "without script there is no live scan"

    field.send_keys(str(barcode_photo(LANTERN_KEEPER.isbn13, tmp_path / "lantern-keeper.png")))
    follow(reader, reader.driver.find_element(By.ID, "scan-submit"))
    wait_for_result(reader, LANTERN_KEEPER.title)
    assert reader.path == "/books/new"
    assert parse_qs(urlsplit(reader.driver.current_url).query) == {"isbn": [LANTERN_KEEPER.isbn13]}
    assert reader.driver.find_element(By.ID, "lookup_isbn").get_attribute("value") == LANTERN_KEEPER.isbn13
    reader.screenshot("looked-up-from-the-photo")

    result = reader.driver.find_element(By.CSS_SELECTOR, "#lookup-results .lookup-result")
    follow(reader, result.find_element(By.CSS_SELECTOR, "button[type=submit]"), "added-from-the-photo")
    assert reader.path == f"/books/{LANTERN_KEEPER.isbn13}"
    assert reader.driver.find_element(By.ID, "page-title").text == LANTERN_KEEPER.title
    reader.assert_no_console_errors()


def test_a_photo_without_a_barcode_says_so_beside_its_field(reader: Browser, tmp_path: Path) -> None:
    reader.disable_javascript()
    reader.visit("/books/new")
    blank = tmp_path / "blank.png"
    Image.new("L", (640, 480), 235).save(blank, "PNG")
    reader.allow_failed_load(reader.url("/books/new/scan"), 422)
    reader.driver.find_element(By.ID, "photo").send_keys(str(blank))
    follow(reader, reader.driver.find_element(By.ID, "scan-submit"), "no-barcode")
    error = reader.driver.find_element(By.ID, "photo-error")
    assert "No barcode could be read in that photo." in error.text
    assert reader.driver.find_element(By.ID, "photo").get_attribute("aria-invalid") == "true"
    reader.assert_no_console_errors()


def test_a_handheld_scanner_types_into_the_isbn_field_and_the_live_scan_says_why_it_is_not_here(reader: Browser) -> None:
    reader.visit("/books/new", "add-a-book-with-script")
    note = reader.driver.find_element(By.ID, "live-scan-note")
    WebDriverWait(reader.driver, 5).until(lambda d: note.text != "", "the live scan never said why it is not offered")
    assert note.text in (
        "This browser cannot read barcodes live. Take a photo of the barcode above instead.",
        "Scanning live with the camera works only when this site is opened over HTTPS. Take a photo of the barcode above instead.",
    )
    assert not reader.driver.find_element(By.ID, "live-scan-start").is_displayed()

    # A scanner is a keyboard: the digits as fast as it types them, then Enter.
    field = reader.driver.find_element(By.ID, "lookup_isbn")
    field.click()
    _navigates(reader, lambda: field.send_keys(LANTERN_KEEPER.isbn13 + Keys.ENTER))
    wait_for_result(reader, LANTERN_KEEPER.title)
    assert parse_qs(urlsplit(reader.driver.current_url).query) == {"isbn": [LANTERN_KEEPER.isbn13]}
    reader.assert_no_console_errors()
