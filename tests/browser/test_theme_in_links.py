"""The theme in links, in a real browser: a link opens the view as it was shown.

The address bar carries ``embed_options=dark_theme`` or ``light_theme``, matching the
theme on screen (the system's, or the one picked in Streamlit's menu), through step
reports, page switches and theme changes; a link copied that way opens in that theme in a
browser whose own preference is the other one, with the sidebar and the menu still there.
"""

from __future__ import annotations

import urllib.parse

import pytest

from tests.support.browser import hook, ready
from tests.support.projector import background_is_dark, blur, open_page

pytestmark = pytest.mark.browser
pytest.importorskip("playwright.sync_api")


def themes_in(url: str) -> list[str]:
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)
    return [v for v in query.get("embed_options", []) if v.endswith("_theme")]


def href(page) -> str:
    return page.evaluate("() => location.href")


def wait_for_url(page, test: str, timeout: float = 60_000) -> None:
    page.wait_for_function(f"() => {{ const u = new URL(location.href); return {test}; }}",
                           timeout=timeout)


def settle(page) -> str:
    """The URL once the theme option is back after the last URL change."""
    page.wait_for_timeout(300)
    return href(page)


@pytest.mark.parametrize("scheme,other", [("dark", "light"), ("light", "dark")])
def test_the_link_holds_the_theme_through_steps_and_page_switches(browser, server, scheme,
                                                                   other):
    context, page = open_page(browser, 1280, 720, scheme)
    try:
        page.goto(f"{server}/Explore?step=3")
        ready(page)
        page.wait_for_selector("[data-bpeviz-step]")
        wait_for_url(page, f"u.searchParams.getAll('embed_options').includes('{scheme}_theme')")
        blur(page)
        page.keyboard.press("ArrowRight")
        # Python hears the step and rewrites the query string; the option comes back
        wait_for_url(page, "u.searchParams.get('step') === '4'")
        assert themes_in(settle(page)) == [f"{scheme}_theme"]
        page.locator('[data-testid="stPageLink-NavLink"]').filter(has_text="Tokenize").click()
        wait_for_url(page, "u.pathname.endsWith('/Tokenize')")
        ready(page)
        link = settle(page)
        assert themes_in(link) == [f"{scheme}_theme"] and "step=4" in link
    finally:
        context.close()
    # the copied link, in a browser that prefers the other theme
    context, page = open_page(browser, 1280, 720, other)
    try:
        page.goto(link)
        ready(page)
        page.wait_for_selector("[data-bpeviz-step]")
        assert background_is_dark(page) == (scheme == "dark")
        assert hook(page) == 4
        assert page.locator('[data-testid="stSidebar"]').count() == 1  # not embed mode
        assert page.locator('[data-testid="stMainMenu"]').count() == 1
        assert themes_in(settle(page)) == [f"{scheme}_theme"]
    finally:
        context.close()


def test_a_theme_picked_in_the_menu_goes_into_the_link_at_once(browser, server):
    context, page = open_page(browser, 1280, 720, "dark")
    try:
        page.goto(f"{server}/Explore?step=2")
        ready(page)
        wait_for_url(page, "u.searchParams.getAll('embed_options').includes('dark_theme')")
        page.locator('[data-testid="stMainMenu"]').click()
        page.locator('[data-testid="stMainMenuItem-theme-Light"]').click()
        page.wait_for_function("() => { const c = getComputedStyle(document.querySelector("
                               "'[data-testid=stApp]')).backgroundColor; return c === "
                               "'rgb(255, 255, 255)'; }")
        # no rerun needed: the option follows the screen within a moment
        wait_for_url(page, "u.searchParams.getAll('embed_options').join() === 'light_theme'",
                     timeout=5_000)
        assert not background_is_dark(page)
    finally:
        context.close()
