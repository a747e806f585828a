"""The first week's small defects left after part 1 (issue 57, defects 3 and 4) in a real browser.

A long legend stays inside its frame on a phone; starring a list in the catalog and "I've read it"
come back to where they were pressed, their confirmation there, on screen and in focus; a price
reads in dollars and People's "Change who sees it" lands on the sharing form.
"""

from __future__ import annotations

import re

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


def test_a_price_reads_in_dollars_and_change_who_sees_it_lands_on_the_sharing_form_at_360_and_1280(browser: Browser) -> None:
    """Defect 3's price and People's link, as a person sees them: the sample's priced book (third on
    the long list) shows its price with the dollar sign, whole inside the details, and "Change who
    sees it" opens Settings → Sharing with its form on the screen."""
    sign_up(browser, unique_username("pricer"))
    book = book_path(browser, 3)
    for width in WIDTHS:
        browser.resize(width, 800)
        browser.visit(book, f"book-price-{width}px")
        prices = [term.find_element(By.XPATH, "following-sibling::dd[1]") for term in browser.driver.find_elements(By.XPATH, "//dt[normalize-space()='Price']")]
        assert len(prices) == 1, "the sample's third book shows no price"
        assert re.fullmatch(r"\$\d+\.\d\d", text_of(prices[0])), f"at {width} px the price reads {text_of(prices[0])!r}"
        inside = browser.js("const r = arguments[0].getBoundingClientRect(); return r.width > 0 && r.left >= 0 && r.right <= innerWidth;", prices[0])
        assert inside, f"at {width} px the price is cut off"

        browser.visit("/people", f"people-{width}px")
        follow(browser, browser.driver.find_element(By.LINK_TEXT, "Change who sees it"), f"change-who-sees-it-{width}px")
        assert browser.path == "/settings/sharing", browser.driver.current_url
        form = browser.driver.find_element(By.ID, "sharing-form")
        assert form.is_displayed(), f"at {width} px Settings → Sharing shows no form"
    browser.resize(*DEFAULT_WINDOW)
