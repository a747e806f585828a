"""A rating is a tap (issue 57, item 7) in a real browser, at 360 px and 1280 px.

On a book's page and on a row of Books I've read, five star buttons save a rating at once, without
script; the page comes back where the reader tapped (the confirmation's anchor), the confirmation
beside the stars, in view and in focus.
"""

from __future__ import annotations

from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from support import DEFAULT_WINDOW, Browser, accessibility_problems, follow, sign_up, text_of, unique_username
from test_first_week import WIDTHS

LIST = "hardcover-fiction"


def book_path(browser: Browser, rank: int) -> str:
    """The page of the book ranked `rank` on the sample's long list."""
    browser.visit(f"/lists/{LIST}", "list")
    row = browser.driver.find_element(By.CSS_SELECTOR, f'#books > li.book[data-rank="{rank}"]')
    return row.find_element(By.CSS_SELECTOR, ".book-title a").get_attribute("pathname")


def accessibility_problems_here(browser: Browser, name: str) -> list[str]:
    """accessibility_problems, then the window's own size again, so that the test can resize it."""
    try:
        return accessibility_problems(browser, name)
    finally:
        browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def on_screen(browser: Browser, element) -> bool:
    """Whether `element` is whole inside the viewport as the page opened (at its fragment); nothing
    here scrolls it. On a failure, what the page showed instead is printed for the log."""
    where = "const r = arguments[0].getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height, scrollY: scrollY, innerHeight: innerHeight};"
    try:
        # The page is laid out by the time the test asks; the wait covers a late layout, not an
        # animation. A pixel's slack above: a scroll position is rounded, an element's box is not.
        WebDriverWait(browser.driver, 10).until(lambda _: (lambda r: r["height"] > 0 and r["top"] >= -1 and r["bottom"] <= r["innerHeight"])(browser.js(where, element)))
        return True
    except TimeoutException:
        print(f"off the screen: {browser.js(where, element)}")
        return False


def tap_star(browser: Browser, scope, stars: int, shot: str) -> None:
    button = scope.find_element(By.CSS_SELECTOR, f'form.star-tap button[name="rating"][value="{stars}"]')
    assert button.rect["height"] >= 44 and button.rect["width"] >= 44, f"a star is {button.rect}, too small to tap"
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", button)
    follow(browser, button, shot)


def assert_confirmed_in_place(browser: Browser, around: str, stars: int, what: str) -> None:
    """The confirmation is inside `around`, says the rating, is on the screen and has focus."""
    flash = browser.driver.find_element(By.CSS_SELECTOR, f"{around} #flash")
    assert f"Saved: {stars} of 5 stars" in text_of(flash), text_of(flash)
    assert browser.driver.execute_script("return location.hash") == "#flash", f"{what}: the tap did not come back to its place"
    assert on_screen(browser, flash), f"{what}: the confirmation is off the screen the page opened on"
    assert browser.js("return document.activeElement && document.activeElement.id") == "flash", f"{what}: the confirmation has no focus"
    current = browser.driver.find_element(By.CSS_SELECTOR, f'{around} form.star-tap button[aria-current="true"]')
    assert current.get_attribute("value") == str(stars)


def test_a_tap_on_the_stars_saves_the_rating_and_keeps_the_place_at_360_and_1280(browser: Browser) -> None:
    sign_up(browser, unique_username("rater"))
    books = [book_path(browser, rank) for rank in (1, 2)]
    for width, stars in zip(WIDTHS, (4, 2)):
        browser.resize(width, 800)
        browser.visit(books[0], f"book-stars-{width}px")
        tap_star(browser, browser.driver.find_element(By.ID, "your-reading"), stars, f"book-rated-{width}px")
        assert browser.path == books[0], browser.driver.current_url
        assert_confirmed_in_place(browser, "#your-reading", stars, f"the book page at {width} px")
        assert accessibility_problems_here(browser, "a book page after a tap on its stars") == []

    # On Books I've read, the tap comes back to the book's own row.
    browser.resize(360, 800)
    browser.visit(books[1], "second-book")
    tap_star(browser, browser.driver.find_element(By.ID, "your-reading"), 3, "second-rated")
    browser.visit("/reading?sort=title", "reading-360px")
    row_id = f'book-{books[0].rsplit("/", 1)[-1]}'
    tap_star(browser, browser.driver.find_element(By.CSS_SELECTOR, f'#reading-list > li.reading-row[id="{row_id}"]'), 5, "reading-row-rated")
    assert browser.path == "/reading", browser.driver.current_url
    assert_confirmed_in_place(browser, f'li[id="{row_id}"]', 5, "a row of Books I've read")
    assert accessibility_problems_here(browser, "Books I've read after a tap on a row's stars") == []
    browser.resize(*DEFAULT_WINDOW)
