"""Headless Chromium for the tests of HTML pages, and the check that a page needs no network."""

from __future__ import annotations

import os
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, NoReturn

import pytest

SVG_NS = 'xmlns="http://www.w3.org/2000/svg"'


class Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in = tag

    def handle_data(self, data: str) -> None:
        if self._in == "script":
            self.scripts.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in = None


def parse_html(html: str) -> Collector:
    collector = Collector()
    collector.feed(html)
    collector.close()
    return collector


def check_self_contained(html: str) -> Collector:
    doc = parse_html(html)
    for tag, attrs in doc.tags:
        for name in ("src", "href", "xlink:href", "action", "data"):
            value = (attrs.get(name) or "").strip().lower()
            assert not value.startswith(("http:", "https:", "//", "ftp:")), (tag, name, value)
        assert tag not in ("link", "iframe", "object", "embed", "img"), tag
        if tag == "script":
            assert "src" not in attrs
    # the only URL in the page is the SVG namespace name, which is never fetched
    assert html.count("http") == html.count(SVG_NS)
    for script in doc.scripts:
        assert "fetch(" not in script and "XMLHttpRequest" not in script
    assert "@import" not in html and "url(" not in html
    return doc


CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,1100",
)


def missing_browser(reason: str) -> NoReturn:
    """Skip, or fail where GCGTOOLS_REQUIRE_BROWSER is set (CI: the test must run there)."""
    if os.environ.get("GCGTOOLS_REQUIRE_BROWSER", "").strip() not in ("", "0"):
        pytest.fail(f"GCGTOOLS_REQUIRE_BROWSER is set but {reason}", pytrace=False)
    pytest.skip(reason)


def find_browser() -> tuple[str, str]:
    """Paths of chromium and chromedriver, or skip saying what is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing_browser("selenium is not installed (pip install selenium); see docs/ci-chromium.md")
    browser = next(
        (p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p),
        None,
    )
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        missing = " and ".join(
            name for name, path in (("chromium", browser), ("chromedriver", driver)) if not path
        )
        missing_browser(
            f"no {missing} on PATH (apt-get install chromium chromium-driver); "
            "see docs/ci-chromium.md"
        )
    return browser, driver


def chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A headless Chromium driven by selenium, its console logged (or skip, see
    :func:`find_browser`); the caller quits it."""
    browser, driver_path = find_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    monkeypatch.setenv("SE_OFFLINE", "true")  # selenium must not look for a browser online
    options = Options()
    options.binary_location = browser
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'profile'}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
