"""The first week's small defects left after part 1 (issue 57, defects 3 and 4) in a real browser.

A long legend stays inside its frame on a phone; starring a list in the catalog and "I've read it"
come back to where they were pressed, their confirmation there, on screen and in focus.
"""

from __future__ import annotations

from selenium.webdriver.common.by import By

from support import DEFAULT_WINDOW, Browser, follow, sign_up, text_of, unique_username
from test_first_week import WIDTHS
from test_rating_tap import accessibility_problems_here, book_path, on_screen


def test_the_sharing_legend_stays_inside_its_frame_at_360_and_1280(browser: Browser) -> None:
    sign_up(browser, unique_username("legend"))
    for width in WIDTHS:
        browser.resize(width, 800)
        browser.visit("/settings/sharing", f"sharing-{width}px")
        legend = browser.driver.find_element(By.CSS_SELECTOR, "form fieldset.field > legend")
        inside = browser.js(
            "const l = arguments[0].getBoundingClientRect(), f = arguments[0].parentElement, b = f.getBoundingClientRect();"
            "const border = parseFloat(getComputedStyle(f).borderTopWidth);"
            "return {lines: Math.round(l.height / parseFloat(getComputedStyle(arguments[0]).lineHeight)), gap: l.top - b.top - border};",
            legend,
        )
        # On the border, a legend of two lines or more has the frame's top line through it.
        assert inside["lines"] < 2 or inside["gap"] >= 0, f"at {width} px the {inside['lines']}-line legend crosses its frame: {inside}"
    browser.resize(*DEFAULT_WINDOW)


def test_starring_a_list_and_ive_read_it_come_back_to_their_place_at_360_and_1280(browser: Browser) -> None:
    sign_up(browser, unique_username("starrer"))
    book = book_path(browser, 3)
    for width in WIDTHS:
        browser.resize(width, 800)
        browser.visit("/lists", f"lists-{width}px")
        card = browser.driver.find_elements(By.CSS_SELECTOR, "li.list-card")[-1]
        name = card.get_attribute("data-list")
        button = card.find_element(By.CSS_SELECTOR, "button.favorite-toggle")
        browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", button)
        follow(browser, button, f"list-starred-{width}px")
        flash = browser.driver.find_element(By.CSS_SELECTOR, f'li.list-card[data-list="{name}"] #flash')
        assert text_of(flash) in ("Added to your favourites.", "Removed from your favourites."), text_of(flash)
        assert on_screen(browser, flash), f"at {width} px the confirmation is off the screen the page opened on"
        assert browser.js("return document.activeElement && document.activeElement.id") == "flash"
    assert accessibility_problems_here(browser, "the lists after starring one") == []

    browser.resize(360, 800)
    browser.visit(book, "book-360px")
    submit = browser.driver.find_element(By.ID, "reading-submit")
    browser.js("arguments[0].scrollIntoView({block: 'center', behavior: 'instant'});", submit)
    follow(browser, submit, "book-read-360px")
    flash = browser.driver.find_element(By.CSS_SELECTOR, "#your-reading #flash")
    assert "Saved: you’ve read" in text_of(flash), text_of(flash)
    assert on_screen(browser, flash), "the confirmation of “I’ve read it” is off the screen the page opened on"
    browser.resize(*DEFAULT_WINDOW)
