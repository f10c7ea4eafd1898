"""Back and Forward in Chromium: the browser's history follows what the user did.

A page switch and a settled step are history entries; the steps passed while keys are
held, a bar is dragged or Play runs are not. Back returns to the previous view (its
page, its step, its settings) and Forward comes back to it. The history itself is
Streamlit's (it pushes an entry when the query string changes); bpeviz reads the
settings from the address on Back and Forward (bpeviz.ui.state) and turns pushes that
name the same view, or only move a step within a moment of the last, into replacements
(bpeviz/ui/stepper/theme_link.js).
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from tests.support.browser import no_error, ready

pytestmark = pytest.mark.browser


def view(tab) -> dict:
    """The page, the settings in the address, and the step the bar shows."""
    url = urlparse(tab.url)
    params = {k: v[-1] for k, v in parse_qs(url.query).items() if k != "embed_options"}
    bar = tab.locator("[data-bpeviz-step]")
    return {"page": url.path.strip("/") or "Home", **params,
            "bar": bar.first.get_attribute("data-bpeviz-step") if bar.count() else None}


def algorithm_shown(tab) -> str:
    """What the sidebar's Algorithm box shows (Streamlit draws it as a combo box)."""
    return tab.locator('[data-testid="stSidebar"] input[aria-label="Algorithm"]').input_value()


def settle(tab) -> None:
    tab.wait_for_timeout(600)
    ready(tab, timeout=60_000)


def history_length(tab) -> int:
    return tab.evaluate("history.length")


def test_back_and_forward_walk_the_views_the_user_made(page, server):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/Explore")
    settle(page)
    start = view(page)
    assert start["bar"] == "10"
    page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(
        has_text="Algorithm").click()
    page.get_by_role("option", name=re.compile("Byte-level BPE")).click()
    settle(page)
    page.locator("h1").first.click()
    for _ in range(3):  # one burst of keys: one entry, at the step it settles on
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(120)
    page.wait_for_function("() => new URL(location.href).searchParams.get('step') === '13'",
                           timeout=30_000)
    settle(page)
    explored = view(page)
    assert explored["algo"] == "bbpe" and explored["bar"] == "13", explored
    page.locator('[data-testid="stSidebar"] a').filter(has_text="Vocabulary").click()
    settle(page)
    vocabulary = view(page)
    assert vocabulary["page"] == "Vocabulary" and vocabulary["step"] == "13", vocabulary
    page.locator('[data-testid="stSidebar"] a').filter(has_text="Tokenize").click()
    settle(page)

    chosen = {k: explored[k] for k in ("page", "algo", "step", "bar")}
    back_views = []
    for _ in range(4):
        page.go_back()
        settle(page)
        no_error(page)
        back_views.append(view(page))
    assert back_views[0]["page"] == "Vocabulary" and back_views[0]["step"] == "13"
    assert {k: back_views[1].get(k) for k in chosen} == chosen
    assert back_views[2]["page"] == "Explore" and back_views[2]["algo"] == "bbpe"
    assert back_views[2]["bar"] == "10"
    assert back_views[3]["page"] == "Explore" and "algo" not in back_views[3]
    assert back_views[3]["bar"] == "10"
    assert algorithm_shown(page).startswith("BPE"), "Back did not restore the algorithm"

    page.go_forward()
    settle(page)
    assert view(page)["algo"] == "bbpe" and "Byte-level" in algorithm_shown(page)
    page.go_forward()
    settle(page)
    assert {k: view(page).get(k) for k in chosen} == chosen
    page.go_forward()
    settle(page)
    assert view(page)["page"] == "Vocabulary"
    no_error(page)
    assert not errors, errors


def test_play_is_one_history_entry(page, server):
    page.goto(f"{server}/Explore?speed=4")
    settle(page)
    before = history_length(page)
    page.locator("h1").first.click()
    page.keyboard.press("Space")  # Play
    page.wait_for_timeout(3500)
    page.keyboard.press("Space")  # Pause
    settle(page)
    after = view(page)
    assert int(after["bar"]) >= 16, after  # it played (4 steps a second)
    assert after["step"] == after["bar"]
    assert history_length(page) <= before + 1
    page.go_back()
    settle(page)
    assert view(page)["bar"] == "10"
