"""Explore's word table, below the first screen, is laid out whole with every key: it is
skipped while out of view (content-visibility: auto) once it has been laid out, at the
height it had, so nothing below it moves when it comes back into view, and its rows
follow every key meanwhile."""

from __future__ import annotations

from tests.support.browser import hook, no_error, open_explore, settled

TABLE = ".bv-stage-words"

#: each row's class and split, as the DOM holds them (textContent: no layout needed, so
#: it reads a skipped table as it stands)
ROWS = """() => [...document.querySelectorAll('.bv-stage-words tr')].slice(1).map((tr) =>
  [tr.className, tr.children[3].textContent])"""
#: the tokens outlined as just made, in the rows marked changed
MADE = """() => [...document.querySelectorAll('.bv-stage-words tr.bv-changed .bv-new')]
  .map((c) => c.textContent)"""
#: the card's merged token
CARD_TOKEN = "() => document.querySelector('.bv-card .bv-big .bv-new').textContent"

#: the heading below the word table, from the top of the scrolled page
BELOW = """() => {
  const h = [...document.querySelectorAll('h3')].find((e) => e.textContent.trim()
    === 'Pairs at this step');
  const main = document.querySelector('[data-testid="stMain"]') || document.scrollingElement;
  return h.getBoundingClientRect().top + main.scrollTop;
}"""


def skipped_state(page) -> dict:
    return page.evaluate("""(sel) => {
      const r = document.querySelector(sel), t = r.querySelector('table');
      return {cv: getComputedStyle(r).contentVisibility,
              away: r.getBoundingClientRect().top > innerHeight,
              height: r.getBoundingClientRect().height,
              table: t.getBoundingClientRect().height};
    }""", TABLE)


def test_the_word_table_skips_layout_away_and_follows_the_keys(page, server):
    page.set_viewport_size({"width": 1280, "height": 720})
    open_explore(page, server, "step=0")
    page.wait_for_selector(f"{TABLE}.bv-skips-away", state="attached", timeout=30_000)
    state = skipped_state(page)
    assert state["cv"] == "auto" and state["away"], state
    assert abs(state["height"] - state["table"]) <= 1, state  # its own height, kept
    below = page.evaluate(BELOW)

    for _ in range(3):  # out of view: the table is not laid out, its rows still follow
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(120)
    assert hook(page) == 3
    made = page.evaluate(MADE)
    assert made and set(made) == {page.evaluate(CARD_TOKEN)}  # merge 3's token, each row
    settled(page, 3)  # Python's rerun at step 3 (changed words first) draws the same
    assert set(page.evaluate(MADE)) == set(made)
    rows = page.evaluate(ROWS)

    page.locator(TABLE).scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    assert page.evaluate(ROWS) == rows
    assert abs(page.evaluate(BELOW) - below) <= 2  # nothing below it moved
    no_error(page)
