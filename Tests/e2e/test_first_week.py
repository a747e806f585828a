"""A family's first week (issue 57) in real browsers.

The setup walk starts a server of its own with a fresh database, reads the setup link from the
server's output as the person who started it would, and makes a household of three without the
command line: the admin through the link, two more through sign-up, each through the welcome.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from support import (
    DEFAULT_WINDOW, PASSWORD, Browser, accessibility_problems, at_public_url, fill, follow, new_chromium, sign_up,
    text_of, unique_username,
)
from test_household import add_books, another_browser, open_member, reserve, rows, set_priority, share_with_household, wishlist_items

WIDTHS = (360, 1280)

_SETUP_LINK = re.compile(r"http://localhost:\d+/setup/[A-Za-z0-9_-]{43}")


@contextmanager
def person(base_url: str, name: str) -> Iterator[Browser]:
    """One member's own Chromium (cookies of their own), at the server's public URL."""
    driver = new_chromium(*DEFAULT_WINDOW)
    try:
        session = Browser(driver, base_url, name)
        session.resize(*DEFAULT_WINDOW)
        yield session
    finally:
        driver.quit()


def setup_link(log: Path) -> str:
    found = _SETUP_LINK.findall(log.read_text(encoding="utf-8", errors="replace"))
    assert found, f"no setup link in the server's output:\n{log.read_text(encoding='utf-8', errors='replace')[-4000:]}"
    return found[-1]


def welcome(browser: Browser, display_name: str) -> None:
    """Answers the welcome as a new member does: a name, keeping the preselected sharing."""
    assert browser.path == "/welcome", f"sign-up led to {browser.driver.current_url}"
    assert browser.driver.find_element(By.ID, "sharing-household").is_selected(), "the admin's default is preselected"
    fill(browser, "display_name", display_name)
    follow(browser, browser.driver.find_element(By.ID, "welcome-submit"))
    assert browser.path == "/people", f"the welcome led to {browser.driver.current_url}"


def test_a_new_server_from_its_setup_link_to_a_household_of_three(configured_server, tmp_path: Path) -> None:
    settings = {"accounts": {"defaultSharing": "household"}}
    with configured_server("first-week", settings, workdir=tmp_path) as base_url:
        public = at_public_url(base_url)
        link = setup_link(tmp_path / "server.log")
        names = {"Mum": unique_username("mum"), "Dad": unique_username("dad"), "Ada": unique_username("ada")}
        with person(public, "first-week-mum") as mum, person(public, "first-week-dad") as dad, person(public, "first-week-ada") as ada:
            mum.visit(link, "setup")
            assert text_of(mum.driver.find_element(By.ID, "page-title")) == "Set up this server"
            assert accessibility_problems(mum, "the setup page") == []
            fill(mum, "username", names["Mum"])
            fill(mum, "password", PASSWORD)
            fill(mum, "password_confirm", PASSWORD)
            follow(mum, mum.driver.find_element(By.ID, "signup-submit"))
            assert accessibility_problems(mum, "the welcome") == []
            welcome(mum, "Mum")
            mum.visit("/admin", "admin")
            assert mum.path == "/admin", "the setup link's account is the admin"

            # The link worked once: a second visit says the server is set up.
            dad.visit(link, "setup-used", expect_status=410)
            assert "This server is set up" in text_of(dad.driver.find_element(By.TAG_NAME, "main"))

            for name, browser in (("Dad", dad), ("Ada", ada)):
                sign_up(browser, names[name])
                welcome(browser, name)

            for viewer, others in ((mum, ("Dad", "Ada")), (dad, ("Mum", "Ada")), (ada, ("Mum", "Dad"))):
                viewer.visit("/people", "people")
                shown = [text_of(a) for a in viewer.driver.find_elements(By.CSS_SELECTOR, "#people-list .person-link")]
                for other in others:
                    assert other in shown, f"{other} missing from People: {shown}"
                    viewer.visit(f"/people/{names[other]}", f"sees-{other}")
                    assert viewer.path == f"/people/{names[other]}", f"{other}'s list is not open to the household"


# ---------------------------------------------------------------------------------------------
# Defect 1: gift rows on a phone


_ROW_BOXES = """
const box = (element) => { const r = element.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
return Array.from(document.querySelectorAll(arguments[0])).map((row) => {
  const author = row.querySelector('.book-author');
  const note = row.querySelector('.item-note');
  const controls = Array.from(row.querySelectorAll('button, a.button, summary, .reserved-mark'))
    .filter((c) => c.getClientRects().length > 0).map((c) => ({what: (c.textContent || '').trim().slice(0, 30), ...box(c)}));
  const actions = row.querySelector('.book-actions');
  return {title: (row.querySelector('.book-title') || row).textContent.trim().slice(0, 40),
          author: author && box(author), note: note && box(note), actions: actions && box(actions), controls};
});
"""


def _overlap(a: dict, b: dict) -> float:
    """The height two boxes share where they also share columns, in px (0 when apart)."""
    if a["right"] <= b["left"] or b["right"] <= a["left"]:
        return 0.0
    return max(0.0, min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]))


def gift_row_problems(browser: Browser, path: str, name: str) -> list[str]:
    """At each width, the rows of `path` whose controls cover the author line, or whose reservation
    block comes between the author and the note; a screenshot of each width is kept."""
    problems = []
    for width in WIDTHS:
        browser.resize(width, 800)
        browser.visit(path, f"{name}-{width}px")
        found = browser.js(_ROW_BOXES, "li.wishlist-item, li.received-item")
        assert found, f"no gift rows on {path}"
        for row in found:
            where = f"{path} at {width} px, {row['title']!r}"
            if row["author"]:
                for control in row["controls"]:
                    if (shared := _overlap(row["author"], control)) > 0.5:
                        problems.append(f"{where}: {control['what']!r} covers the author line by {shared:.0f} px")
            stacked = row["note"] and row["actions"] and _overlap({**row["note"], "top": 0, "bottom": 1}, {**row["actions"], "top": 0, "bottom": 1})
            if row["author"] and stacked and row["actions"]["top"] < row["note"]["top"]:
                problems.append(f"{where}: the buttons come before the note")
    browser.resize(*DEFAULT_WINDOW)
    return problems


def test_gift_rows_keep_the_author_and_the_note_clear_at_360_and_1280(browser: Browser, server: str) -> None:
    owner = unique_username("owner")
    sign_up(browser, owner)
    share_with_household(browser)
    add_books(browser, (1, 2, 3))
    items = list(wishlist_items(browser))
    set_priority(browser, items[0], "high", note="The paperback, please")
    set_priority(browser, items[1], "normal", note="Any edition")
    with another_browser(server, "first-week-giver") as giver:
        sign_up(giver, unique_username("giver"))
        open_member(giver, owner, "member")
        reserve(giver, rows(giver, "member-items")[0], "reserved")
        problems = gift_row_problems(giver, f"/people/{owner}", "member-page")
        problems += gift_row_problems(giver, "/reservations", "gifts")
    problems += gift_row_problems(browser, "/wishlist", "wishlist")
    browser.visit(f"/wishlist/{items[2]}", "item")
    follow(browser, browser.driver.find_element(By.ID, "received-link"), "received-confirm")
    follow(browser, browser.driver.find_element(By.ID, "received-submit"), "received")
    problems += gift_row_problems(browser, "/wishlist/received", "received")
    assert problems == [], "\n".join(problems)


# ---------------------------------------------------------------------------------------------
# Defect 4: focus after a refused form, and the Me menu


def test_a_refused_form_puts_focus_on_its_error_summary_at_360_and_1280(browser: Browser) -> None:
    for width in WIDTHS:
        browser.resize(width, 800)
        browser.visit("/signup", f"signup-{width}px")
        fill(browser, "username", unique_username("focus"))
        fill(browser, "password", PASSWORD)
        fill(browser, "password_confirm", PASSWORD + " not the same")
        follow(browser, browser.driver.find_element(By.ID, "signup-submit"), f"refused-{width}px")
        focused = browser.js("return document.activeElement && document.activeElement.id")
        assert focused == "error-summary", f"at {width} px focus is on {focused!r}, not the error summary"
        browser.assert_in_viewport(browser.driver.find_element(By.ID, "error-summary"), "the error summary")
    browser.resize(*DEFAULT_WINDOW)


def _menu_open(browser: Browser) -> bool:
    return browser.driver.find_element(By.ID, "me-menu").get_attribute("open") is not None


def test_the_me_menu_closes_on_escape_and_a_tap_outside_and_lists_books_you_received(browser: Browser, new_account: str) -> None:
    for width in WIDTHS:
        browser.resize(width, 800)
        browser.visit("/lists", f"lists-{width}px")
        toggle = browser.driver.find_element(By.ID, "me-toggle")
        toggle.click()
        assert _menu_open(browser)
        received = browser.driver.find_element(By.ID, "nav-received")
        assert received.is_displayed() and received.get_attribute("pathname") == "/wishlist/received"
        browser.screenshot(f"me-menu-{width}px")
        browser.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
        assert not _menu_open(browser), f"Escape left the menu open at {width} px"
        assert browser.js("return document.activeElement.id") == "me-toggle", "focus goes back to Me"
        toggle.click()
        assert _menu_open(browser)
        # A tap at the foot of the screen, on whatever is there: the open menu covers the top.
        outside = browser.js("return document.elementFromPoint(10, window.innerHeight - 10)")
        assert not browser.js("return document.getElementById('me-menu').contains(arguments[0])", outside)
        ActionChains(browser.driver).move_to_element_with_offset(outside, 0, 0).click().perform()
        assert not _menu_open(browser), f"a tap outside left the menu open at {width} px"
    browser.resize(*DEFAULT_WINDOW)
    browser.visit("/wishlist", "wishlist")
    assert browser.driver.find_element(By.ID, "wishlist-received-link").get_attribute("pathname") == "/wishlist/received"
    # Without script the menu still opens and closes with "Me" itself.
    browser.disable_javascript()
    browser.visit("/lists", "lists-no-script")
    toggle = browser.driver.find_element(By.ID, "me-toggle")
    toggle.click()
    assert _menu_open(browser)
    toggle.click()
    assert not _menu_open(browser)
