"""The pair heatmap is laid out by Python and drawn by the browser as laid out.

Python decides the layout once per step, from the labels and values it sends
(bpeviz.present.render_heatmap.heatmap_layout: the cell size, upright or turned column
labels, the font, whether values are written in the cells), estimating the labels' widths
rather than measuring them; the browser then draws the grid with those numbers and never
fits it a second time. That holds only while the estimates are right: the cells are the
squares of the size chosen (as tall as chosen, and wider only in presentation mode, where
the columns share the page's width), the rows a cell apart (no label taller than its
row), every label whole (a column label upright only where it fits its column), every
value written inside its cell, and the chart in the main block. Checked at the page's
step and at the next, drawn by the browser alone after a key, for short, "##" and
byte-level labels, a projector's type, and the most symbols the page draws."""

from __future__ import annotations

import pytest

from bpeviz.present.render_heatmap import CELL_WIDE_MAX, LABEL_CHARS
from tests.support.browser import blur, go, heatmap_in_view, no_error

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

#: what the browser drew, against the layout Python gave it (the box's --bv-hm-cell and
#: --bv-hm-font, the grid's classes): a list of what does not hold
DRAWN_AS_LAID_OUT = """(box, [most, wideMax]) => {
  const bad = [];
  const grid = box.querySelector('.bv-hm');
  const cell = parseFloat(box.style.getPropertyValue('--bv-hm-cell'));
  const font = parseFloat(box.style.getPropertyValue('--bv-hm-font'));
  const wide = grid.classList.contains('bv-hm-wide');
  const turned = grid.classList.contains('bv-hm-turned');
  const near = (a, b) => Math.abs(a - b) <= 0.5;
  const cells = [...grid.querySelectorAll('.bv-hm-cell')];
  if (cells.length !== Number(grid.dataset.rows) * Number(grid.dataset.cols))
    bad.push(`${cells.length} cells for ${grid.dataset.rows}x${grid.dataset.cols} symbols`);
  const width = cells.length ? cells[0].getBoundingClientRect().width : 0;
  if (wide ? !(width >= cell - 0.5 && width <= wideMax + 0.5) : !near(width, cell))
    bad.push(`cells ${width} px wide, laid out at ${cell} px` + (wide ? ' or wider' : ''));
  for (const e of cells) {
    const r = e.getBoundingClientRect();
    if (!near(r.width, width) || !near(r.height, cell)) {
      bad.push(`a cell of ${r.width}x${r.height} px among ${width}x${cell}`);
      break;
    }
  }
  // each row of cells is a cell tall, its label no taller: rows as close as columns
  const gap = parseFloat(getComputedStyle(grid).rowGap) || 0, across = Number(grid.dataset.cols);
  const tops = cells.filter((e, i) => i % across === 0).map(e => e.getBoundingClientRect().top);
  for (let i = 1; i < tops.length; i++) {
    if (!near(tops[i] - tops[i - 1], cell + gap)) {
      bad.push(`rows ${tops[i] - tops[i - 1]} px apart: laid out ${cell} px, gap ${gap} px`);
      break;
    }
  }
  const spilt = cells.filter(e => e.textContent
    && (e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight));
  if (spilt.length)
    bad.push(`${spilt.length} values out of their cells, as ` + spilt[0].textContent);
  const cut = (e, across) => across ? e.scrollWidth > e.clientWidth + 0.5
    : e.scrollHeight > e.clientHeight + 0.5;
  for (const e of grid.querySelectorAll('.bv-hm-col, .bv-hm-row')) {
    const text = e.textContent, row = e.classList.contains('bv-hm-row');
    if ([...text].length > most) continue;  // longer ones are cut by design
    if (cut(e, row || !turned))
      bad.push(`${row ? 'row' : turned ? 'turned column' : 'upright column'} label `
               + `${JSON.stringify(text)} cut (${e.scrollWidth}x${e.scrollHeight} in `
               + `${e.clientWidth}x${e.clientHeight})`);
    const size = parseFloat(getComputedStyle(e).fontSize);
    if (!near(size, font)) bad.push(`label ${JSON.stringify(text)} at ${size} px, not ${font}`);
  }
  const main = document.querySelector('[data-testid="stMainBlockContainer"]')
    .getBoundingClientRect(), b = box.getBoundingClientRect();
  if (b.left < main.left - 1 || b.right > main.right + 1)
    bad.push(`the chart (${b.left}..${b.right}) out of the main block `
             + `(${main.left}..${main.right})`);
  return bad;
}"""


@pytest.mark.parametrize("query,step", [
    ("step=30", 30),                                     # short labels, upright
    ("algo=wordpiece&step=60", 60),                      # "##" labels, turned
    ("algo=bbpe&step=60&present=1", 60),                 # a projector's type, wide columns
    ("algo=wordpiece&step=100&top_n=40", 100),           # long labels on many symbols
    ("step=0&top_n=60", 0),                              # the most symbols the page draws
])
def test_the_browser_draws_the_heatmap_as_python_laid_it_out(page, server, query, step):
    go(page, server, f"Explore?{query}")
    for k in (step, step + 1):  # the page's step, then the next: drawn after a key
        box = heatmap_in_view(page, step=k)
        bad = box.evaluate(DRAWN_AS_LAID_OUT, [LABEL_CHARS, CELL_WIDE_MAX])
        assert not bad, f"step {k}: " + "\n".join(bad[:10])
        assert box.locator(".bv-hm-cell[data-pick]").count() > 0
        if k == step:
            blur(page)
            page.keyboard.press("ArrowRight")
    no_error(page)
