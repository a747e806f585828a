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

from selenium.webdriver.common.by import By

from support import (
    DEFAULT_WINDOW, PASSWORD, Browser, accessibility_problems, at_public_url, fill, follow, new_chromium, sign_up,
    text_of, unique_username,
)

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

