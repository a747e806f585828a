"""Settings in sections (issue 36) in a real browser: /settings is a list of short pages, each
section page starts with the same list (its own entry current), and at 360 px each fits in about
two screens. The list is plain links, so it works without script; a form returns to its page with
the confirmation focused. A missing book's error page names the way back to the lists.

The bound: the phone the accessibility run emulates is 360 x 800 px, so two screens are 1,600 px.
The pages are measured with a favourite list, a share and a feed link and two browsers signed in,
as a member's pages usually are; a page over the bound means a section needs splitting again
(the first cut's "Password and sign-in" and "Sharing" pages were 2,055 and 2,090 px).
"""

from __future__ import annotations

from selenium.webdriver.common.by import By

from support import PASSWORD, SCREENSHOT_DIR, Browser, follow, new_chromium, sign_in
from test_accessibility import emulate

PHONE = 360
SECTION_MOST_PX = 1600
SECTIONS = {
    "/settings/lists": "Lists and feed",
    "/settings/sharing": "Sharing",
    "/settings/password": "Password",
    "/settings/sign-in": "Passkeys and sign-in",
    "/settings/api-tokens": "API tokens",
    "/settings/language": "Language",
    "/settings/data": "Your data",
}


def document_height(browser: Browser) -> float:
    return browser.js("return document.documentElement.getBoundingClientRect().height;")


def current_entries(browser: Browser) -> list[str]:
    return [a.get_attribute("href") for a in browser.driver.find_elements(By.CSS_SELECTOR, '#settings-nav a[aria-current="page"]')]


def test_each_settings_page_fits_about_two_phone_screens(browser: Browser, new_account: str) -> None:
    # A member's usual state: a favourite list, a share link and a feed link, a second browser.
    browser.visit("/lists/hardcover-fiction", "list")
    follow(browser, browser.driver.find_element(By.CSS_SELECTOR, ".list-header button.favorite-toggle"), "starred")
    browser.visit("/settings/sharing", "sharing")
    follow(browser, browser.driver.find_element(By.ID, "share-link-create"), "share-link")
    browser.visit("/settings/lists", "lists")
    follow(browser, browser.driver.find_element(By.ID, "feed-link-create"), "feed-link")
    other_driver = new_chromium()
    try:
        other = Browser(other_driver, browser.base_url, browser.test_name + "-other")
        sign_in(other, new_account, PASSWORD)
    finally:
        other_driver.quit()

    emulate(browser, PHONE)
    heights = {}
    for path in ["/settings", *SECTIONS]:
        browser.visit(path, "phone-" + (path.rsplit("/", 1)[-1]))
        heights[path] = document_height(browser)
        browser.driver.save_screenshot(str(SCREENSHOT_DIR / f"{browser.test_name}-{path.rsplit('/', 1)[-1]}-screen.png"))
    print("document heights at 360 px:", heights)
    too_tall = {path: height for path, height in heights.items() if height > SECTION_MOST_PX}
    assert not too_tall, f"over {SECTION_MOST_PX} px at {PHONE} px: {too_tall}"


def test_the_section_list_works_without_script_and_a_form_returns_to_its_page(browser: Browser, new_account: str) -> None:
    browser.disable_javascript()
    browser.visit("/settings", "settings-no-script")
    entries = browser.driver.find_elements(By.CSS_SELECTOR, "#settings-nav a")
    assert [e.get_attribute("pathname") for e in entries] == ["/settings/profile", *SECTIONS], [e.get_attribute("href") for e in entries]
    assert current_entries(browser) == [], "/settings marks a section as current"
    for path, heading in SECTIONS.items():
        follow(browser, browser.driver.find_element(By.CSS_SELECTOR, f'#settings-nav a[href="{path}"]'), "no-script-" + path.rsplit("/", 1)[-1])
        assert browser.path == path, browser.driver.current_url
        assert browser.driver.find_element(By.TAG_NAME, "h1").text == heading
        assert current_entries(browser) == [browser.url(path)], current_entries(browser)

    browser.visit("/settings/sharing", "sharing-no-script")
    browser.driver.find_element(By.ID, "sharing-household").click()
    follow(browser, browser.driver.find_element(By.ID, "sharing-submit"), "shared-no-script")
    assert browser.path == "/settings/sharing", browser.driver.current_url
    assert browser.driver.find_element(By.ID, "sharing-household").is_selected()
    assert browser.js("return document.activeElement.id;") == "flash", "focus is not on the confirmation"
    assert "shared with everyone" in browser.driver.find_element(By.ID, "flash").text


def test_a_missing_books_page_leads_back_to_the_lists(browser: Browser, new_account: str) -> None:
    browser.visit("/books/no-such-book", "missing-book", expect_status=404)
    back = browser.driver.find_element(By.ID, "error-back")
    assert back.text == "Back to the lists"
    follow(browser, back, "back-to-the-lists")
    assert browser.path == "/lists", browser.driver.current_url
