"""The merge card keeps one height at a given window size, at step 0 as at every merge,
and a long token wraps inside its chip instead of being cut: the merged token shows its
whole text, nothing overflows the card's boxes (a merge too long for its box is drawn a
little smaller, then its parts are cut with an ellipsis: only in a box marked data-clip),
and the bar's ``data-bpeviz-step`` still says the step. Checked in the offline slides
(the same script and styles, no server) and on Explore in presentation mode."""

from __future__ import annotations

import urllib.parse

import pytest

from bpeviz import Corpus, train
from bpeviz.present.slides import slides_html
from bpeviz.ui import train_options
from tests.support.browser import HOOK, hook, shots_dir
from tests.support.projector import SIZES, open_explore, open_page

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

#: long CJK words: WordPiece's last merges make whole-word tokens of them (38 characters)
LONG_WORDS = ("東京特許許可局長今日急遽休暇許可拒否東京特許許可局長今日急遽休暇許可拒否申請",
              "隣の客はよく柿食う客だ隣の竹垣に竹立てかけたのは竹立てかけたかったから",
              "生麦生米生卵赤巻紙青巻紙黄巻紙坊主が屏風に上手に坊主の絵を描いた")
LONG_TEXT = " ".join([LONG_WORDS[0]] * 5 + [LONG_WORDS[1]] * 4 + [LONG_WORDS[2]] * 3)

#: the drawn card: its height, boxes whose content overflows them, chips cut (text wider
#: than the chip) or drawn with an ellipsis outside a box that cuts its parts (data-clip),
#: whether the merged token is cut, elements outside the card, the merge's chips' texts and
#: their smallest font size
CARD = """() => {
  const card = [...document.querySelectorAll('.bv-card')]
    .find(c => c.getBoundingClientRect().height);
  const c = card.getBoundingClientRect();
  const chips = [...card.querySelectorAll('.bv-chip')];
  const big = [...card.querySelectorAll('.bv-big .bv-chip')];
  return {
    height: c.height,
    overflowing: [...card.querySelectorAll('.bv-big, .bv-next')]
      .filter(b => b.scrollHeight > b.clientHeight + 1).map(b => b.className),
    cut: chips.filter(e => !e.closest('[data-clip]') && (e.scrollWidth > e.clientWidth + 1
                           || getComputedStyle(e).textOverflow === 'ellipsis'))
      .map(e => e.textContent),
    tokenCut: big.filter(e => e.classList.contains('bv-new') && (
      e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)).length > 0,
    outside: [...card.querySelectorAll('*')].filter(e => {
      const r = e.getBoundingClientRect();
      return r.width && (r.left < c.left - 1 || r.right > c.right + 1
                         || r.top < c.top - 1 || r.bottom > c.bottom + 1);
    }).map(e => e.className || e.tagName),
    merge: big.map(e => e.textContent),
    smallest: Math.min(...big.map(e => parseFloat(getComputedStyle(e).fontSize))),
  };
}"""


@pytest.fixture(scope="module")
def long_training():
    return train(Corpus.from_text(LONG_TEXT), **train_options("wordpiece", merges=400))


def check_cards(cards: dict[int, dict], long_step: int, long_token: str) -> None:
    heights = {step: round(card["height"]) for step, card in cards.items()}
    assert max(heights.values()) - min(heights.values()) <= 1, heights
    for step, card in cards.items():
        assert not card["overflowing"], (step, card["overflowing"])
        assert not card["cut"], (step, card["cut"])
        assert not card["outside"], (step, card["outside"])
    assert long_token in cards[long_step]["merge"], "the long token whole, not cut"
    assert not cards[long_step]["tokenCut"], "the long token drawn whole"


@pytest.mark.parametrize("width,height", SIZES)
def test_the_slides_card_keeps_its_height_and_wraps_long_tokens(browser, tmp_path,
                                                                 long_training, width, height):
    last = long_training.merges[-1]
    assert len(last.token) >= 30
    n = len(long_training.merges)
    context, page = open_page(browser, width, height, "dark")
    try:
        cards = {}
        for step in (0, 1, n // 2, n - 1, n):
            out = tmp_path / f"slides-{step}.html"
            out.write_text(slides_html(long_training, step=step, theme="dark"), "utf-8")
            page.goto(out.as_uri())
            page.wait_for_selector(".bv-card")
            assert hook(page) == step
            cards[step] = page.evaluate(CARD)
            if step == n:
                page.screenshot(path=str(shots_dir() / f"slides-long-token-{width}.png"))
        check_cards(cards, n, last.token)
        # the keys redraw the card in place: the same height on the way back to step 0
        page.keyboard.press("Home")
        assert hook(page) == 0
        assert round(page.evaluate(CARD)["height"]) == round(cards[n]["height"])
    finally:
        context.close()


def longest_tour_token() -> tuple[int, str, int]:
    """The step and token of the longest WordPiece token of the tour sample, and how many
    merges that training makes."""
    from bpeviz.samples import load_sample

    training = train(load_sample("tour", "whitespace"),
                     **train_options("wordpiece", merges=TOUR_MERGES))
    step, token = max(((m.step, m.token) for m in training.merges),
                      key=lambda st: len(st[1]))
    return step, token, len(training.merges)


TOUR_MERGES = 600


@pytest.mark.parametrize("width,height", SIZES)
def test_the_explore_card_keeps_its_height_from_step_0_to_the_longest_token(
        browser, server, width, height):
    step, token, n = longest_tour_token()
    assert len(token) >= 20, token
    query = {"algo": "wordpiece", "merges": TOUR_MERGES}
    cards = {}
    for k in (0, step, n):
        context, page = open_page(browser, width, height, "dark")
        try:
            open_explore(page, server, urllib.parse.urlencode({**query, "step": k}))
            assert hook(page) == k
            cards[k] = page.evaluate(CARD)
            if k == step:
                page.screenshot(path=str(shots_dir() / f"explore-long-token-{width}.png"))
            if k == n:  # the keys redraw the card in place: the same height at step 0
                page.keyboard.press("Home")
                assert hook(page) == 0
                assert page.locator(HOOK).first.get_attribute("data-bpeviz-step") == "0"
                again = page.evaluate(CARD)
        finally:
            context.close()
    check_cards(cards, step, token)
    assert round(again["height"]) == round(cards[0]["height"])
    assert cards[step]["smallest"] >= 24, "a long merge on a projector is read from afar"
