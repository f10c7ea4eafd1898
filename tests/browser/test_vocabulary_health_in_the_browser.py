"""Vocabulary's Health view in Chromium at 1280x720 (a laptop or a projector): picked on
the default sample, it shows the summary of every kind, the chosen kind's table with a
reason per token and the unused curve, with no error box; and Tokenize's pre-token
frames draw beside the tokens. Screenshots go where the ``screenshots`` fixture says."""

from __future__ import annotations

import pytest

from tests.support.browser import go, no_error, rerun_done, shot

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


def test_the_health_view_shows_its_summary_table_and_curve(small, server, screenshots):
    go(small, server, "Vocabulary?step=200")
    no_error(small)
    # the view choice is a segmented control above the page: pick Health
    small.locator('[data-testid="stButtonGroup"]').get_by_text("Health", exact=True).click()
    rerun_done(small)
    no_error(small)
    small.get_by_role("heading", name="Vocabulary health").wait_for()
    # the summary: one metric per kind and the engine's sentences
    metrics = small.locator('[data-testid="stMetric"]')
    assert metrics.count() == 4
    assert "Unused" in metrics.nth(1).inner_text()
    small.get_by_text("of the tokens past the initial symbols are never produced").wait_for()
    # the default kind (unused) lists tokens: its table is drawn
    table = small.locator('[data-testid="stDataFrame"]').first
    table.wait_for()
    assert table.is_visible()
    shot(small, "vocabulary-health")
    # another kind filters the table: near-duplicates on the default sample
    small.locator('[data-testid="stButtonGroup"]').get_by_text("Near-duplicates",
                                                               exact=False).click()
    rerun_done(small)
    no_error(small)
    small.locator('[data-testid="stDataFrame"]').first.wait_for()
    chart = small.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    chart.wait_for()
    shot(small, "vocabulary-health-near-duplicates")
    assert (screenshots / "vocabulary-health.png").exists()


def test_tokenize_draws_the_pre_token_frames(small, server):
    go(small, server, "Tokenize?step=50&pretokens=1")
    no_error(small)
    frames = small.locator(".bv-pretoken")
    frames.first.wait_for()
    assert frames.count() > 3
    assert small.locator(".bv-pretoken-legend li").count() >= 1
    small.locator(".bv-pretokens").scroll_into_view_if_needed()
    shot(small, "tokenize-pre-tokens")
