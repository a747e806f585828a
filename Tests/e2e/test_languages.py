"""Languages (issue 53) in a real browser: a browser set to German gets the sign-in page in German
with `<html lang="de">`; a member who picks French in Settings → Language reads the layout in
French whatever her browser asks for. Every page in en-XA, German, French and Spanish is walked by
test_languages_walk.py.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from support import CHROMEDRIVER, Browser, chromium_options, follow, open_me_menu, sign_up, unique_username


@contextmanager
def browser_asking_for(language: str, base_url: str, name: str) -> Iterator[Browser]:
    """A Chromium whose `Accept-Language` starts with `language`, as its user set it."""
    options = chromium_options(1280, 900)
    options.arguments[:] = [a for a in options.arguments if not a.startswith("--lang=")] + [f"--lang={language}"]
    options.add_experimental_option("prefs", {"intl.accept_languages": f"{language},en;q=0.5"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    try:
        yield Browser(driver, base_url, name)
    finally:
        driver.quit()


def page_language(browser: Browser) -> str:
    return browser.js("return document.documentElement.lang;")


def test_a_german_browser_gets_the_sign_in_page_in_german(server: str) -> None:
    with browser_asking_for("de-DE", server, "german-sign-in") as browser:
        browser.visit("/login", "german-sign-in")
        assert page_language(browser) == "de"
        assert browser.driver.find_element(By.ID, "page-title").text == "Anmelden"
        assert browser.driver.find_element(By.CSS_SELECTOR, 'label[for="username"]').text == "Benutzername"
        assert browser.driver.find_element(By.ID, "login-submit").text == "Anmelden"
        assert browser.driver.title == "Anmelden · Bestseller Wishlist"


def test_a_member_who_picks_french_reads_the_layout_in_french(browser: Browser) -> None:
    sign_up(browser, unique_username("francoise"))
    assert page_language(browser) == "en"
    browser.visit("/settings/language", "language-settings")
    browser.driver.find_element(By.CSS_SELECTOR, 'label[for="language-fr"]').click()
    follow(browser, browser.driver.find_element(By.ID, "language-submit"), "language-saved")
    WebDriverWait(browser.driver, 10).until(lambda _: page_language(browser) == "fr", "the page did not turn French")
    assert browser.driver.find_element(By.ID, "flash").text.strip() == "Ta langue a été enregistrée."
    nav = browser.driver.find_element(By.ID, "site-nav")
    assert [a.text for a in nav.find_elements(By.CSS_SELECTOR, ".nav-list > li > a.nav-link")] == ["Listes", "Recherche", nav.find_element(By.ID, "nav-wishlist").text, "Famille"]
    assert nav.find_element(By.ID, "nav-wishlist").text.startswith("Envies")
    open_me_menu(browser)
    assert nav.find_element(By.ID, "nav-settings").text == "Paramètres"
    # French puts a no-break space before a colon (WebDriver's .text would show a plain one).
    assert browser.js("return document.querySelector('.footer-about').textContent;").startswith("Bestseller Wishlist\u00a0: parcours")
    # Another page keeps her choice, though the browser still asks for English.
    browser.visit("/lists", "lists-in-french")
    assert page_language(browser) == "fr"
