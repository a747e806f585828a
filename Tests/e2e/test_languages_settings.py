"""Languages (issue 53) on the pages of settings, accounts and admin: the welcome after sign-up,
every Settings page, the API's page, Admin and a password-reset link's page.

In en-XA, the tests' pseudo-language (every translated text accented, bracketed and 40% longer),
no text of these pages is left outside the brackets but the member's own words and the data the
pages show, and nothing runs past the screen at 360 px or 1280 px. In German and in French,
`<html lang>` says so, axe-core finds nothing, and none of the English sentences of these pages is
left on them.

What these pages show that is not theirs to translate, and which the walk therefore skips:
- the confirmation after a form (`#flash`): the `Flash` enum words it in Swift (Middleware/Flash.swift);
- dates: the templates' `date` filter writes English month names in every language so far;
- the admin's log of actions (`#audit-log`): its entries are stored as they were written;
- the browser's name in "Where you are signed in" ("Chrome on Linux"), from its User-Agent;
- the server's facts on Admin (a version, a size in MB, "UTC");
- the best-seller lists' names in the start-page menu: the NYT's data;
- a member's initials in place of her picture, and each language's name on Settings → Language,
  written in that language.
The forgot-password, address-confirmed, unsubscribe and hand-over pages need mail or a child's
profile, and are left to the tests of those stories.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from selenium.webdriver.common.by import By

from support import PASSWORD, REPO_ROOT, Browser, fill, follow, sign_in, sign_up, unique_username
from test_accessibility import emulate, overflow_problems, run_axe
from test_cli import BINARY
from test_languages import browser_asking_for, page_language
from test_rating_tap import accessibility_problems_here

WIDTHS = (360, 1280)
# Names of settings, commands and files the pages quote, which no language translates.
CODE = ("accounts.signup", "wishlist user create", "Authorization: Bearer", "/api/v1/", "data.json")

# The pages of the slice a signed-in admin reaches once she has a token, a share link, a feed link
# and an invite: each shows its tables and states, not only its empty forms.
PAGES = (
    "/settings", "/settings/profile", "/settings/lists", "/settings/sharing", "/settings/password",
    "/settings/sign-in", "/settings/api-tokens", "/settings/language", "/settings/data", "/api/v1", "/admin",
)

# Where a page shows what is not its own text (see the module's docstring for why each is skipped).
NOT_OURS = ", ".join((
    "#flash", "time", "#audit-log", "#sessions td:first-child", "#version", "#database-size",
    "#api-requests", "#default-list option:not([value=''])", ".avatar-initials", "#language-form span[lang]",
))

# Every text node of <main> and the page's title, less what NOT_OURS names; the text of a select's
# options and the accessible names given in attributes count too.
_TEXTS = r"""
const skip = arguments[0];
const texts = [document.title];
const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
for (let node; (node = walker.nextNode()); ) {
  const el = node.parentElement;
  if (el.closest(skip) || el.closest('script, style, template, [hidden]')) continue;
  if (el.closest('option') === null && el.closest('.visually-hidden') === null && el.getClientRects().length === 0) continue;
  if (node.data.trim()) texts.push(node.data.trim());
}
for (const el of document.querySelectorAll('main [aria-label], main [title], main img[alt]'))
  if (!el.closest(skip)) texts.push(el.getAttribute('aria-label') || el.getAttribute('title') || el.getAttribute('alt'));
return texts;
"""

_PAST_THE_EDGE = r"""
const problems = [], width = document.documentElement.clientWidth;
for (const el of document.body.querySelectorAll('*')) {
  if (el.closest('.visually-hidden, .skip-link, .table-wrap, option, script, style')) continue;
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || !el.checkVisibility({visibilityProperty: true})) continue;  // a closed menu's items
  if (r.left < -1 || r.right > width + 1)
    problems.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + el.textContent.trim().slice(0, 40) +
                  '" spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' px of ' + width);
}
return problems;
"""


def text_outside_pseudo(browser: Browser, ours: tuple[str, ...]) -> list[str]:
    """The page's own texts with something left outside en-XA's brackets: what remains of each text
    once the bracketed messages, the members' words and book data in `ours`, numbers and
    punctuation are taken out must have no letter."""
    left = []
    for text in browser.js(_TEXTS, NOT_OURS):
        rest = re.sub(r"\[[^\[\]]*\]", " ", text)
        for word in sorted(ours, key=len, reverse=True):
            rest = rest.replace(word, " ")
        if re.search(r"[^\W\d_]", rest):
            left.append(f"{text!r} (left: {rest.strip()!r})")
    return left


def layout_problems(browser: Browser) -> list[str]:
    """What runs past the viewport, or is cut or spills, at 360 px and 1280 px."""
    found = []
    try:
        for width in WIDTHS:
            emulate(browser, width)
            found += [f"at {width} px: {p}" for p in overflow_problems(browser) + browser.js(_PAST_THE_EDGE)]
    finally:
        browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return found


def check_pseudo(browser: Browser, name: str, ours: tuple[str, ...]) -> None:
    assert page_language(browser) == "en-XA", f"{name} is not in en-XA"
    outside = text_outside_pseudo(browser, ours)
    assert not outside, f"{name} has text no catalog gave:\n" + "\n".join(outside)
    layout = layout_problems(browser)
    assert not layout, f"{name} in en-XA does not fit:\n" + "\n".join(layout)


def slice_messages() -> list[str]:
    """The English of every message Languages/messages.pot places in this slice's files."""
    places = re.compile(r"#: (Views/(settings|accounts|admin|api)/|Views/partials/(settings-nav|field-error)\.html"
                        r"|Sources/WishlistWeb/(Controllers/(Settings|Admin|Profile|Welcome|Mail)|API/APIController\+Description))")
    found = []
    for entry in (REPO_ROOT / "Languages" / "messages.pot").read_text(encoding="utf-8").split("\n\n"):
        english = re.search(r'^msgid "(.*)"$', entry, re.MULTILINE)
        if english and any(places.match(line) for line in entry.splitlines()):
            found.append(english.group(1).replace('\\"', '"'))
    return found


def translations(language: str) -> str:
    """Every translation (each plural form) in Languages/<language>.po, a line each."""
    catalog = (REPO_ROOT / "Languages" / f"{language}.po").read_text(encoding="utf-8")
    return "\n".join(text.replace('\\"', '"') for text in re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', catalog, re.MULTILINE))


def english_left(browser: Browser, language: str, ours: tuple[str, ...]) -> list[str]:
    """The slice's English messages (each piece between placeholders) found on the page, whole
    words only; a piece the language also writes in one of its own translations ("Version",
    "Browser", German's "Admin" tag) is no finding."""
    page = "\n".join(browser.js(_TEXTS, NOT_OURS))
    for word in ours + CODE:
        page = page.replace(word, " ")
    own = translations(language)
    whole = lambda piece, text: re.search(r"(?<![\w-])" + re.escape(piece) + r"(?![\w-])", text)
    found = []
    for english in slice_messages():
        for piece in re.split(r"\{\w+\}", english):
            piece = piece.strip(" .,:;“”()")
            if len(piece) >= 3 and whole(piece, page) and not whole(piece, own):
                found.append(piece)
    return sorted(set(found))


def promote(name: str, database: Path) -> None:
    done = subprocess.run([str(BINARY), "user", "promote", name, "--database", str(database)],
                          capture_output=True, text=True, cwd=REPO_ROOT, timeout=60)
    assert done.returncode == 0, done.stderr


def test_settings_accounts_and_admin_in_the_pseudo_language_then_german_and_french(configured_server, tmp_path: Path) -> None:
    name, token = unique_username("zora"), "Haus"
    ours = (name, token, "Bestseller Wishlist")
    with configured_server("languages-settings", {"server": {"pseudoLanguage": True}}, workdir=tmp_path) as base_url:
        with browser_asking_for("en-XA", base_url, "settings-pseudo") as browser:
            sign_up(browser, name)
            assert browser.path == "/welcome", browser.path
            check_pseudo(browser, "the welcome", ours)
            promote(name, tmp_path / "e2e.sqlite")

            # The links and tokens shown once, as they are made; then every page, with them.
            browser.visit("/settings/api-tokens", "pseudo-api-tokens")
            fill(browser, "api-token-name", token)
            follow(browser, browser.driver.find_element(By.ID, "api-token-create"), "pseudo-new-token")
            assert browser.driver.find_elements(By.ID, "new-api-token"), "no new token shown"
            check_pseudo(browser, "a new API token", ours)
            browser.visit("/settings/sharing", "pseudo-sharing")
            follow(browser, browser.driver.find_element(By.ID, "share-link-create"), "pseudo-new-share-link")
            check_pseudo(browser, "a new share link", ours)
            browser.visit("/settings/lists", "pseudo-lists")
            follow(browser, browser.driver.find_element(By.ID, "feed-link-create"), "pseudo-new-feed-link")
            check_pseudo(browser, "a new feed link", ours)
            browser.visit("/admin", "pseudo-admin")
            follow(browser, browser.driver.find_element(By.ID, "invite-create"), "pseudo-new-invite")
            check_pseudo(browser, "a new invite link", ours)
            follow(browser, browser.driver.find_element(
                By.CSS_SELECTOR, f'#users tr[data-user="{name}"] form[action$="/reset-link"] button'), "pseudo-new-reset-link")
            reset_link = browser.driver.find_element(By.ID, "new-link-url").get_attribute("value")
            check_pseudo(browser, "a new reset link", ours)
            for path in PAGES:
                browser.visit(path, "pseudo" + path.replace("/", "-"))
                check_pseudo(browser, path, ours)
            # The link leads to the public URL (localhost), where this browser has no session.
            browser.visit(reset_link, "pseudo-reset")
            assert browser.driver.find_elements(By.ID, "reset-form"), "the reset link's page has no form"
            check_pseudo(browser, "the reset link's page", ours)

        for language, full_axe in (("de", True), ("fr", False)):
            with browser_asking_for(language, base_url, f"settings-{language}") as browser:
                sign_in(browser, name, PASSWORD)
                for path in PAGES:
                    browser.visit(path, f"{language}{path.replace('/', '-')}")
                    assert page_language(browser) == language, f"{path} is not in {language}"
                    left = english_left(browser, language, ours)
                    assert not left, f"{path} in {language} still reads in English: {left}"
                    if full_axe:
                        assert accessibility_problems_here(browser, f"{path} in {language}") == []
                    else:
                        violations = run_axe(browser)["violations"]
                        assert not violations, f"{path} in {language}: {[v['id'] for v in violations]}"
