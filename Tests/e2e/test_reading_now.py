"""Reading now and the year's goal (issue 57, item 7) in a real browser at 360 px.

"Reading now" sits beside "I've read it" on a book's page, and the year's line ("0 of 24 books
this year") with its goal form heads Books I've read; at a phone's width neither covers anything
else on the page (bounding boxes), nor runs past the screen's edge.
"""

from __future__ import annotations

from selenium.webdriver.common.by import By

from support import Browser, accessibility_problems, fill, follow, sign_up, text_of, unique_username
from test_first_week import _overlap
from test_rating_tap import book_path

# Every visible box in `scope` that is not `element`, inside it or around it, with what it says.
_NEIGHBOURS = """
const [element, scope] = arguments;
const box = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
const others = Array.from(scope.querySelectorAll('h1, h2, p, label, legend, input, textarea, button, a, .stars'))
  .filter((e) => e !== element && !e.contains(element) && !element.contains(e) && e.getClientRects().length > 0)
  .map((e) => ({what: e.tagName + ' ' + (e.id || (e.textContent || '').trim().slice(0, 30)), ...box(e)}));
return {element: box(element), others, width: innerWidth, scrollWidth: document.documentElement.scrollWidth};
"""


def covered(browser: Browser, element, scope, what: str) -> list[str]:
    """What `element` and the other boxes of `scope` cover of each other, and whether it leaves the screen."""
    found = browser.js(_NEIGHBOURS, element, scope)
    problems = [f"{what} covers {other['what']!r} by {shared:.0f} px" for other in found["others"]
                if (shared := _overlap(found["element"], other)) > 0.5]
    if found["element"]["right"] > found["width"] or found["element"]["left"] < 0:
        problems.append(f"{what} runs past the screen's edge: {found['element']}")
    if found["scrollWidth"] > found["width"]:
        problems.append(f"the page is {found['scrollWidth']} px wide on a {found['width']} px screen")
    return problems


def test_reading_now_and_the_goal_line_cover_nothing_at_360(browser: Browser) -> None:
    sign_up(browser, unique_username("nowreader"))
    book = book_path(browser, 1)
    browser.resize(360, 800)
    browser.visit(book, "reading-now-book-360px")
    section = browser.driver.find_element(By.ID, "your-reading")
    start = section.find_element(By.ID, "reading-now-start")
    assert "Reading now" in text_of(start)
    assert covered(browser, start, section, "the Reading now button") == []
    follow(browser, start, "reading-now-started-360px")
    assert browser.path == book, browser.driver.current_url
    assert "You’re reading it now" in text_of(browser.driver.find_element(By.ID, "your-reading-heading"))
    stop = browser.driver.find_element(By.ID, "reading-now-stop")
    assert covered(browser, stop, browser.driver.find_element(By.ID, "your-reading"), "the Not reading it now button") == []

    browser.visit("/reading", "reading-now-list-360px")
    fill(browser, "goal", "24")
    follow(browser, browser.driver.find_element(By.ID, "goal-save"), "reading-goal-saved-360px")
    line = browser.driver.find_element(By.ID, "reading-year-count")
    assert text_of(line) == "0 of 24 books this year"
    main = browser.driver.find_element(By.TAG_NAME, "main")
    assert covered(browser, line, main, "the goal line") == []
    for control in ("goal", "goal-save"):
        assert covered(browser, browser.driver.find_element(By.ID, control), main, f"#{control}") == []
    assert book.rsplit("/", 1)[-1] in browser.driver.find_element(By.ID, "reading-now").get_attribute("innerHTML")
    assert accessibility_problems(browser, "Books I've read with a goal and a book read now") == []
