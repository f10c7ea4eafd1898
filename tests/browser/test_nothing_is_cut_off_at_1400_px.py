"""Nothing is cut off in a 1400 x 900 window (a common laptop's) or by long tokens:
the sidebar's settings and Explore's sort box, the merges table and the pair details,
Compare's metrics and settings; long tokens stay inside the merge card (wrapped inside
it, whole); a 60-symbol heatmap shows every label on square cells."""

from __future__ import annotations

import itertools

import pytest

from tests.support.browser import go, no_error, rerun_done

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
  // a merge's parts may be cut with an ellipsis (data-clip: the merged token holds them)
  const cut = [...card.querySelectorAll('.bv-chip')].filter(e => e.scrollWidth > e.clientWidth
      && (e.classList.contains('bv-new') || !e.closest('[data-clip]')))
    .map(e => e.title);
  return {bad, cut};
}"""


@pytest.mark.parametrize("present", [0, 1])
def test_long_tokens_stay_inside_the_merge_card(page, server, present):
    go(page, server, f"Explore?source=paste&algo=wordpiece&merges=400&step=400"
                     f"&present={present}")
    paste_and_train(page, LONG_TEXT)
    no_error(page)
    assert "This is the last merge" in page.locator(".bv-card").inner_text()
    found = page.evaluate(CARD_GEOMETRY)
    assert not found["bad"], found["bad"]
    # the whole-word token is longer than the card is wide: wrapped inside it, never cut
    # (its parts may be, past the size below which the merge would not be legible)
    assert not found["cut"], found["cut"]
    assert page.evaluate(WHOLE_CHIP, LONG_WORDS[0]), "the long token is not a chip of its own"


WHOLE_CHIP = """(word) => [...document.querySelectorAll('.bv-card .bv-chip')]
  .some(e => e.textContent.replace(/##/g, '').includes(word))"""


FITS = """(sel) => [...document.querySelectorAll(sel)].filter(e => e.clientWidth > 0)
  .filter(e => e.scrollWidth > e.clientWidth + 1)
  .map(e => `${e.getAttribute('aria-label') || e.className.slice(0, 30)}: `
            + `${e.scrollWidth} > ${e.clientWidth} ${(e.value || e.innerText || '')}`)"""


def widget(tab, label: str, scope: str = "body"):
    return tab.locator(scope).locator(
        '[data-testid="stSelectbox"], [data-testid="stRadio"]').filter(
        has=tab.locator('[data-testid="stWidgetLabel"]', has_text=label)).first


def cut_inside(tab, locator) -> list[str]:
    """Elements inside ``locator`` whose text is wider than their box."""
    return locator.evaluate("""(root) => [root, ...root.querySelectorAll('*')]
      .filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1
                   && (e.value || e.innerText || '').trim())
      .map(e => `${e.scrollWidth} > ${e.clientWidth}: ${(e.value || e.innerText).slice(0, 50)}`)""")


def test_settings_and_sort_are_not_cut_off_at_1400_px(narrow, server):
    go(narrow, server, "Explore?step=24")
    sidebar = '[data-testid="stSidebar"]'
    for label in ("Pre-tokenizer", "Tie rule", "WordPiece scoring"):
        box = widget(narrow, label, sidebar)
        box.scroll_into_view_if_needed()
        assert not cut_inside(narrow, box), (label, cut_inside(narrow, box))
    tie = widget(narrow, "Tie rule", sidebar).inner_text()
    assert "first seen in the corpus" in tie and "smallest ids" in tie
    assert "seeds" not in tie
    sort = widget(narrow, "Sort", '[data-testid="stMain"]')
    assert not cut_inside(narrow, sort), cut_inside(narrow, sort)
    no_error(narrow)


@pytest.mark.parametrize("present", [0, 1])
def test_merges_table_and_pair_details_are_not_cut_off_at_1400_px(narrow, server, present):
    go(narrow, server, f"Explore?source=paste&algo=wordpiece&merges=400&step=60"
                       f"&present={present}")
    paste_and_train(narrow, LONG_TEXT)
    no_error(narrow)
    # the merges around this step: long tokens wrap inside the table, inside its column
    # (in presentation mode's large type the table may scroll sideways in its column)
    table = narrow.locator(".bv-scroll")
    if not present:
        assert narrow.evaluate(FITS, ".bv-scroll, .bv-merges") == []
    inside = table.evaluate("""t => { const c = t.closest('[data-testid="stColumn"]')
      .getBoundingClientRect(); const r = t.getBoundingClientRect();
      return [r.left, r.right, c.left, c.right]; }""")
    assert inside[1] <= inside[3] + 1 and inside[0] >= inside[2] - 1, inside
    tokens = narrow.locator(".bv-merges td.bv-tok").all_inner_texts()
    assert any(len(t.replace("\n", "")) >= 10 for t in tokens), tokens
    # Pair details: its table fits its column (no column pushed out of view)
    assert narrow.evaluate(FITS, '[data-testid="stMain"] .dvn-scroller') == []


def test_compare_metrics_and_settings_are_not_cut_off_at_1400_px(narrow, server):
    go(narrow, server, "Compare?cmp_n=3")
    main = '[data-testid="stMain"]'
    narrow.locator(f"{main} .dvn-scroller").first.wait_for()
    assert narrow.evaluate(FITS, f"{main} .dvn-scroller") == []
    for k in (1, 2, 3):  # each configuration's settings are folded: open them
        narrow.locator(f".st-key-cmp_config_{k} summary").click()
    for label in ("Pre-tokenizer", "Tie rule"):
        for k in range(3):
            box = narrow.locator(main).locator(
                '[data-testid="stSelectbox"], [data-testid="stRadio"]').filter(
                has=narrow.locator('[data-testid="stWidgetLabel"]', has_text=label)).nth(k)
            assert box.is_visible(), (label, k)
            assert not cut_inside(narrow, box), (label, k, cut_inside(narrow, box))
    no_error(narrow)


#: the heatmap's grid at 1400 px: each label's box, font, whether its text is cut (an
#: ellipsis) and whether it is drawn where it can be seen (inside the grid, which scrolls
#: sideways what does not fit it, and inside the window); every cell's box
LABELS = """() => {
  const grid = document.querySelector('.st-key-stage_heatmap .bv-hm');
  const g = grid.getBoundingClientRect();
  const page = document.documentElement.clientWidth;
  const read = (sel) => [...grid.querySelectorAll(sel)].map((e) => {
    const r = e.getBoundingClientRect();
    return {text: e.textContent, x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2,
            font: parseFloat(getComputedStyle(e).fontSize),
            cut: e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1,
            shown: e.checkVisibility({visibilityProperty: true, opacityProperty: true})
              && r.width > 0 && r.height > 0 && r.left >= Math.max(g.left, 0) - 1
              && r.right <= Math.min(g.right, page) + 1
              && r.top >= g.top - 1 && r.bottom <= g.bottom + 1};
  });
  return {rows: Number(grid.dataset.rows), cols: Number(grid.dataset.cols),
          x: read('.bv-hm-col'), y: read('.bv-hm-row'),
          cells: [...grid.querySelectorAll('.bv-hm-cell')].map((e) => {
            const r = e.getBoundingClientRect();
            return [r.left, r.right, r.top, r.bottom]; }),
          sideways: grid.scrollWidth > grid.clientWidth + 1};
}"""


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece"])
def test_a_60_symbol_heatmap_shows_every_label_on_square_cells(narrow, server, algorithm):
    go(narrow, server, f"Explore?step=0&top_n=60&algo={algorithm}")
    narrow.wait_for_selector(".st-key-stage_heatmap .bv-stage-panel[data-step='0'] .bv-hm")
    # the panel's element stays while its views are redrawn (scrolled, not its grid)
    narrow.locator(".st-key-stage_heatmap").scroll_into_view_if_needed()
    narrow.wait_for_timeout(500)
    found = narrow.evaluate(LABELS)
    n_rows, n_cols = found["rows"], found["cols"]
    assert n_rows == n_cols == 60
    assert len(found["x"]) == n_cols and len(found["y"]) == n_rows  # no label dropped
    assert len(found["cells"]) == n_rows * n_cols
    # the grid fits the page's width: no column is left behind a sideways scroll
    assert not found["sideways"], "the 60 columns do not fit a 1400 px page"
    for axis in ("x", "y"):
        labels = found[axis]
        assert all(t["text"].strip() for t in labels), axis
        assert not [t["text"] for t in labels if t["cut"]], (axis, "labels cut short")
        assert not [t["text"] for t in labels if not t["shown"]], (axis, "labels out of sight")
    # each label over its own column (beside its own row), one per cell, each at least a
    # font size from the next (one line of text)
    for i, t in enumerate(found["x"]):
        left, right, _, _ = found["cells"][i]
        assert left - 1 <= t["x"] <= right + 1, (t, found["cells"][i])
    for j, t in enumerate(found["y"]):
        _, _, top, bottom = found["cells"][j * n_cols]
        assert top - 1 <= t["y"] <= bottom + 1, (t, found["cells"][j * n_cols])
    for axis in ("x", "y"):
        centres = [t[axis] for t in found[axis]]
        font = max(t["font"] for t in found[axis])
        gaps = [b - a for a, b in itertools.pairwise(centres)]
        assert min(gaps) >= font - 0.5, (axis, font, min(gaps))
    # square cells, none too small to click or to read a label beside
    sides = [(right - left, bottom - top) for left, right, top, bottom in found["cells"]]
    assert all(abs(w - h) <= 1 for w, h in sides), max(sides, key=lambda s: abs(s[0] - s[1]))
    assert min(w for w, _ in sides) >= 12, min(sides)
    no_error(narrow)
