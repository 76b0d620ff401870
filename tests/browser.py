"""A real headless Chromium for the tests of every page deckgen writes or serves.

Playwright drives Debian's ``chromium`` package (``.ci/install-chromium.sh``); Playwright's own
browser download is never used, so nothing is fetched. Without Chromium the browser tests are
skipped locally and fail in CI (``CI=true``), like the TinyMUX tests.
"""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM_CANDIDATES = ("chromium", "chromium-browser")


def chromium_path() -> str | None:
    explicit = os.environ.get("DECKGEN_CHROMIUM")
    if explicit:
        return explicit
    for name in CHROMIUM_CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _missing(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must run the browser tests (.ci/install-chromium.sh)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium():
    """A launched headless Chromium (Playwright Browser), shared by the session."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[test]')")
    path = chromium_path()
    if path is None:
        _missing("Chromium is not installed (bash .ci/install-chromium.sh)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def page(chromium):
    """A fresh page at desktop width that records every request it makes.

    ``page.deckgen_requests`` lists the URLs asked for, so a test can check that a page
    fetches nothing from outside (or nothing but the one image that changed).
    """
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    browser_page = context.new_page()
    browser_page.deckgen_requests = []
    browser_page.on("request", lambda request: browser_page.deckgen_requests.append(request.url))
    try:
        yield browser_page
    finally:
        context.close()


def external_requests(urls: list[str]) -> list[str]:
    """The requests that left the machine: anything not local, data: or about:."""
    local = ("http://127.0.0.1", "http://localhost", "file://", "data:", "about:", "blob:")
    return [url for url in urls if not url.startswith(local)]
