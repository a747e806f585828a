"""Names people know (issue 36): a display name chosen in Settings → Profile on a phone is what the
header's "Me" menu and People show, with the username kept in the URLs and under the name on the
member's own page; a refused name is said beside the field, and the page stays free of axe findings.
"""

from __future__ import annotations

from selenium.webdriver.common.by import By

from support import Browser, fill, follow, new_chromium, open_me_menu, sign_up, signed_in_as, unique_username
from test_accessibility import emulate, run_axe
from test_household import share_with_household

PHONE = 360


def save_display_name(browser: Browser, name: str, shot: str) -> None:
    browser.visit("/settings/profile", "profile")
    fill(browser, "display_name", name)
    follow(browser, browser.driver.find_element(By.ID, "profile-submit"), shot)


def test_a_display_name_is_what_me_and_people_show_on_a_phone(new_account: str, browser: Browser, request) -> None:
    owner = new_account
    emulate(browser, PHONE)
    save_display_name(browser, "Mum @home", "display-name-refused")
    error = browser.driver.find_element(By.ID, "display_name-error").text
    assert "can’t contain “@”, which marks usernames" in error, error
    assert browser.driver.find_element(By.ID, "display_name").get_attribute("aria-invalid") == "true"
    violations = [(v["id"], [n["target"] for n in v["nodes"]]) for v in run_axe(browser)["violations"]]
    assert violations == [], violations

    save_display_name(browser, "Mum", "display-name-saved")
    assert browser.path == "/settings/profile", browser.driver.current_url
    open_me_menu(browser)
    browser.screenshot("me-menu-with-display-name")
    assert browser.driver.find_element(By.ID, "nav-user").is_displayed()
    assert signed_in_as(browser) == "Mum"
    share_with_household(browser)

    giver = Browser(new_chromium(), browser.base_url, request.node.name + "-giver")
    try:
        sign_up(giver, unique_username("e2e"))
        emulate(giver, PHONE)
        giver.visit("/people", "people-phone")
        link = giver.driver.find_element(By.CSS_SELECTOR, f'a.person-link[href="/people/{owner}"]')
        assert link.text == "Mum", link.text
        follow(giver, link, "member-phone")
        assert giver.path == f"/people/{owner}", "the address keeps the username"
        assert giver.driver.find_element(By.ID, "page-title").text == "Mum"
        assert giver.driver.find_element(By.ID, "profile-username").text == f"@{owner}"
        assert giver.driver.title.startswith("Mum ·"), giver.driver.title
        width = giver.js("return document.documentElement.scrollWidth;")
        assert width <= PHONE, f"the member's page is {width} px wide at {PHONE} px"
        for scheme in ("light", "dark"):
            emulate(giver, PHONE, scheme)
            violations = [(v["id"], [n["target"] for n in v["nodes"]]) for v in run_axe(giver)["violations"]]
            assert violations == [], (scheme, violations)
    finally:
        giver.driver.quit()
