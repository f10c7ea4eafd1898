"""Issue 12 (outside audit), app items that only a browser shows: geometry of the merge
card, text cut off at 1400 px, the Train button of the paste box, console errors.

Uses the ``server`` fixture (conftest.py) and the ``browser``/``page`` fixtures and
helpers of test_browser.py.
"""

from __future__ import annotations

import pytest
from test_browser import browser, go, no_error, page, rerun_done  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

#: long CJK words (WordPiece makes whole-word tokens of them)
LONG_WORDS = ("東京特許許可局長今日急遽休暇許可拒否東京特許許可局長今日急遽休暇許可拒否申請",
              "隣の客はよく柿食う客だ隣の竹垣に竹立てかけたのは竹立てかけたかったから",
              "生麦生米生卵赤巻紙青巻紙黄巻紙坊主が屏風に上手に坊主の絵を描いた")
LONG_TEXT = " ".join([LONG_WORDS[0]] * 5 + [LONG_WORDS[1]] * 4 + [LONG_WORDS[2]] * 3)


def paste_and_train(tab, text: str) -> None:
    """Paste ``text`` into the sidebar box and press the Train button (no Ctrl+Enter)."""
    sidebar = tab.locator('[data-testid="stSidebar"]')
    area = sidebar.locator("textarea")
    area.fill(text)
    sidebar.get_by_role("button", name="Train", exact=True).click()
    tab.wait_for_selector(".bv-card", timeout=30_000)
    rerun_done(tab)


# -- 7. long tokens stay inside the merge card ----------------------------------------

CARD_GEOMETRY = """() => {
  const card = document.querySelector('.bv-card');
  const c = card.getBoundingClientRect();
  const bad = [];
  for (const el of card.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > c.right + 1 || r.left < c.left - 1))
      bad.push(`${el.className}: ${Math.round(r.left)}..${Math.round(r.right)} outside `
               + `${Math.round(c.left)}..${Math.round(c.right)}`);
  }
  const chips = [...card.querySelectorAll('.bv-chip')].map(e => e.getBoundingClientRect());
  for (const n of card.querySelectorAll('.bv-nums')) {
    const r = n.getBoundingClientRect();
    for (const k of chips)
      if (k.left < r.right && r.left < k.right && k.top < r.bottom && r.top < k.bottom)
        bad.push('a chip covers the numbers ' + n.textContent);
  }
  const column = card.closest('[data-testid="stColumn"]').getBoundingClientRect();
  if (c.right > column.right + 1) bad.push('the card is wider than its column');
  const cut = [...card.querySelectorAll('.bv-chip')].filter(e => e.scrollWidth > e.clientWidth)
    .map(e => e.title);
  return {bad, cut};
}"""


@pytest.mark.parametrize("present", [0, 1])
def test_long_tokens_stay_inside_the_merge_card(page, server, present):  # noqa: F811
    go(page, server, f"Explore?source=paste&algo=wordpiece&merges=400&step=400"
                     f"&present={present}")
    paste_and_train(page, LONG_TEXT)
    no_error(page)
    assert "This is the last merge" in page.locator(".bv-card").inner_text()
    found = page.evaluate(CARD_GEOMETRY)
    assert not found["bad"], found["bad"]
    # the whole-word token is too long for the card: cut with an ellipsis, whole on hover
    assert found["cut"], "expected a long token to be cut"
    assert any(LONG_WORDS[0] in title for title in found["cut"]), found["cut"]
