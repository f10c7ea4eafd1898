"""Vocabulary in presentation mode at 1280x720 with the sidebar open (the narrowest a
projector's page gets): the table takes the page's width and its three kinds (special,
base, merged) are whole on the screen, none cut at its column's edge."""

from __future__ import annotations

import pytest

from tests.support.browser import ready
from tests.support.projector import open_page

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_three_kinds_are_whole_and_the_table_takes_the_width(browser, server, scheme):
    context, page = open_page(browser, 1280, 720, scheme)
    try:
        page.goto(f"{server}/Vocabulary?present=1&step=200")
        ready(page, 90_000)
        page.wait_for_selector('[data-testid="stDataFrame"]')
        pills = page.locator('[data-testid="stButtonGroup"] button', has_text="merged")
        pills.first.scroll_into_view_if_needed()
        found = page.evaluate("""() => {
          const group = [...document.querySelectorAll('[data-testid="stButtonGroup"]')]
            .find(g => g.innerText.includes('merged'));
          let edge = innerWidth;  // the nearest edge that clips: an ancestor hiding overflow
          for (let e = group.parentElement; e; e = e.parentElement) {
            const o = getComputedStyle(e);
            if (o.overflowX !== "visible") edge = Math.min(edge, e.getBoundingClientRect().right);
          }
          return [...group.querySelectorAll('button')].filter(b => b.innerText.trim())
            .map(b => {
            const r = b.getBoundingClientRect();
            return [b.innerText.trim(), r.right <= edge + 1];
          });
        }""")
        assert [k for k, _ in found] == ["special", "base", "merged"], found
        assert all(whole for _, whole in found), found
        table = page.locator('[data-testid="stDataFrame"]').first.bounding_box()
        content = page.evaluate("""() => { const m = document.querySelector(
          '[data-testid="stMainBlockContainer"]'); const s = getComputedStyle(m);
          return m.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }""")
        assert table["width"] > 0.9 * content, (table, content)  # not a column beside the tree
    finally:
        context.close()
