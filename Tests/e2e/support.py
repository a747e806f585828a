"""What the browser tests share: a plain HTTP getter and a Chromium window with page helpers.

Nothing is downloaded at test time: the browser and its driver are the Debian packages at fixed
paths, and Selenium Manager is never consulted (an explicit driver path skips it; SE_OFFLINE keeps
it from reaching out should anything call it anyway).
"""

from __future__ import annotations

import base64
import os
import re
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

os.environ.setdefault("SE_OFFLINE", "true")

REPO_ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT_DIR = REPO_ROOT / ".build" / "e2e-screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
DEFAULT_WINDOW = (1280, 900)

# Loopback traffic must never go through a proxy that the environment may name.
_http = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def http_get(url: str, timeout: float = 5.0) -> tuple[int, dict[str, str], bytes]:
    """GET (following redirects) that returns (status, headers, body) for error statuses too."""
    try:
        with _http.open(url, timeout=timeout) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        try:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()
        finally:
            error.close()


def chromium_options(width: int, height: int) -> webdriver.ChromeOptions:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",  # CI runs as root
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        "--lang=en-US",
        "--no-first-run",
        "--no-default-browser-check",
        "--no-proxy-server",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-features=Translate,OptimizationHints,MediaRouter",
        "--force-color-profile=srgb",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


def new_chromium(width: int = DEFAULT_WINDOW[0], height: int = DEFAULT_WINDOW[1]) -> webdriver.Chrome:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            pytest.fail(f"{path} is missing: install Debian's chromium and chromium-driver", pytrace=False)
    return webdriver.Chrome(options=chromium_options(width, height), service=Service(executable_path=CHROMEDRIVER))


_FAILED_OWN_LOAD = re.compile(r"^(?P<url>\S+) - Failed to load resource: the server responded with a status of (?P<status>\d{3})")


class Browser:
    """One Chromium window for one test, with the helpers every page test needs."""

    def __init__(self, driver: webdriver.Chrome, base_url: str, test_name: str) -> None:
        self.driver = driver
        self.base_url = base_url
        self.test_name = re.sub(r"[^A-Za-z0-9_.-]+", "-", test_name).strip("-")
        self.console: list[dict] = []
        self._expected_failures: set[tuple[str, int]] = set()

    # Navigation

    def url(self, path: str) -> str:
        return self.base_url + path

    def visit(self, path: str, name: str | None = None, expect_status: int | None = None) -> None:
        """Opens `path`, waits for the page to finish loading and keeps a screenshot of it.

        `expect_status` names an error status the page is meant to answer with (a 404 page), so
        Chromium's own "Failed to load resource" line for that document is not counted as an error.
        """
        self.driver.get(self.url(path))
        self.wait_for_load()
        if expect_status is not None:
            self._expected_failures.add((self.driver.current_url, expect_status))
        self.screenshot(name or (path.strip("/").replace("/", "_") or "root"))

    def wait_for_load(self, timeout: float = 10.0) -> None:
        WebDriverWait(self.driver, timeout).until(
            lambda d: d.execute_script("return document.readyState") == "complete"
        )

    @property
    def path(self) -> str:
        return urlsplit(self.driver.current_url).path

    def js(self, script: str, *args):
        return self.driver.execute_script(script, *args)

    # Window

    def resize(self, width: int, height: int = DEFAULT_WINDOW[1]) -> None:
        """Makes the viewport (not the outer window) exactly width x height CSS pixels."""
        self.driver.set_window_size(width, height)
        inner_w, inner_h = self.js("return [window.innerWidth, window.innerHeight]")
        if (inner_w, inner_h) != (width, height):
            self.driver.set_window_size(width + (width - inner_w), height + (height - inner_h))
        WebDriverWait(self.driver, 5).until(
            lambda d: d.execute_script("return window.innerWidth") == width,
            f"could not make the viewport {width} px wide",
        )

    def viewport(self) -> tuple[int, int]:
        width, height = self.js("return [window.innerWidth, window.innerHeight]")
        return width, height

    # Evidence

    def screenshot(self, name: str) -> Path:
        """Saves the whole page (not only the viewport) as <test>-<name>.png under .build/."""
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        target = SCREENSHOT_DIR / f"{self.test_name}-{re.sub(r'[^A-Za-z0-9_.-]+', '-', name)}.png"
        metrics = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        width, _ = self.viewport()
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": width, "height": max(1, size["height"]), "scale": 1},
        })
        target.write_bytes(base64.b64decode(shot["data"]))
        return target

    # Console

    def console_errors(self) -> list[str]:
        """Every SEVERE browser console entry so far (CSP violations, failed loads, script errors)."""
        self.console.extend(self.driver.get_log("browser"))
        errors = []
        for entry in self.console:
            if entry.get("level") != "SEVERE":
                continue
            message = entry.get("message", "")
            own = _FAILED_OWN_LOAD.match(message)
            if own and (own["url"], int(own["status"])) in self._expected_failures:
                continue
            errors.append(message)
        return errors

    def assert_no_console_errors(self) -> None:
        errors = self.console_errors()
        assert not errors, "the browser console reported errors:\n" + "\n".join(errors)

    # Layout

    def horizontal_overflow(self) -> int:
        """How many CSS pixels the page is wider than the viewport (0 or less when it fits).

        Measured against the layout width without the vertical scrollbar (clientWidth), which is
        stricter than window.innerWidth: a desktop scrollbar could otherwise hide a 15 px overflow.
        """
        return self.js(
            "const d = document.documentElement;"
            "return Math.max(d.scrollWidth, document.body.scrollWidth)"
            "     - Math.min(d.clientWidth, window.innerWidth);"
        )

    def assert_in_viewport(self, element: WebElement, what: str) -> None:
        """Scrolls `element` into view and checks it is shown whole, on top, inside the viewport."""
        assert element.is_displayed(), f"{what} is not displayed"
        box = self.js(
            "const el = arguments[0];"
            "el.scrollIntoView({block: 'center', inline: 'nearest'});"
            "const r = el.getBoundingClientRect();"
            "const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
            "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,"
            "        width: r.width, height: r.height,"
            "        onTop: hit !== null && (hit === el || el.contains(hit) || hit.contains(el)),"
            "        vw: window.innerWidth, vh: window.innerHeight};",
            element,
        )
        assert box["width"] > 0 and box["height"] > 0, f"{what} has no size: {box}"
        assert box["left"] >= 0 and box["right"] <= box["vw"], f"{what} sticks out sideways: {box}"
        assert box["top"] >= 0 and box["bottom"] <= box["vh"], f"{what} does not fit the viewport: {box}"
        assert box["onTop"], f"{what} is covered by another element: {box}"

    def stylesheet_hrefs(self) -> list[str]:
        return self.js("return Array.from(document.styleSheets, s => s.href || '(inline)');")
