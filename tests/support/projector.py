"""Presentation mode on a projector's screen (1280x720, 1920x1080), in Chromium: a tab
of a given size and colour scheme, the sidebar folded, and what must fit on it.

``blur`` here only moves the focus to the page body; tests.support.browser's ``blur``
also checks that it got there."""

from __future__ import annotations

from tests.support.browser import ready

SIZES = [(1280, 720), (1920, 1080)]

#: elements under the main block whose text is wider than their box (scrollWidth past
#: clientWidth), or whose box leaves the page; a chip that shrinks with an ellipsis is
#: fine when its title holds the whole token. Plotly's charts (SVG laid out by plotly)
#: and the data grids (a canvas) are left out; the pair heatmap is not: it is HTML the
#: stage script builds (a grid of boxes), so it is held to the same rule, the values
#: written in its cells included
OVERFLOWS = """() => {
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  const bad = [];
  const pageWidth = document.documentElement.clientWidth;
  for (const e of main.querySelectorAll('*')) {
    if (!(e instanceof HTMLElement)) continue;
    if (e.closest('.js-plotly-plot, [data-testid="stDataFrame"]')) continue;
    const cs = getComputedStyle(e);
    if (cs.display === 'inline' || cs.display === 'none' || cs.visibility === 'hidden') continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const name = (e.className && e.className.baseVal === undefined ? e.className : e.tagName)
      + ' ' + (e.textContent || '').slice(0, 40);
    if (r.right > pageWidth + 1 || r.left < -1) bad.push('off the page: ' + name);
    const hasText = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!hasText || ['auto', 'scroll'].includes(cs.overflowX)) continue;
    if (e.scrollWidth > e.clientWidth + 1) {
      if (cs.textOverflow === 'ellipsis' && e.title && e.title.includes(e.textContent)) continue;
      bad.push(`spills (${e.scrollWidth} > ${e.clientWidth}): ` + name);
    }
  }
  for (const card of document.querySelectorAll('.bv-card')) {
    const c = card.getBoundingClientRect();
    for (const e of card.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (!r.width) continue;
      if (r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1
          || r.bottom > c.bottom + 1)
        bad.push('outside the card: ' + (e.className || e.tagName) + ' '
                 + (e.textContent || '').slice(0, 40));
    }
  }
  // a data grid (its inside is a canvas, skipped above) stays within the main block
  const block = main.getBoundingClientRect();
  for (const g of main.querySelectorAll('[data-testid="stDataFrame"]')) {
    const r = g.getBoundingClientRect();
    if (r.width && (r.right > block.right + 1 || r.left < block.left - 1))
      bad.push(`data grid out of the main block (${Math.round(r.left)}..${Math.round(r.right)}`
               + ` not in ${Math.round(block.left)}..${Math.round(block.right)}): `
               + (g.textContent || '').slice(0, 40));
  }
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1)
    bad.push('the page scrolls sideways');
  return bad;
}"""


def open_page(browser, width: int, height: int, scheme: str):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme=scheme)
    return context, context.new_page()


def collapse_sidebar(page) -> None:
    page.hover('[data-testid="stSidebar"]')
    page.locator('[data-testid="stSidebarCollapseButton"] button').click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stSidebar\"]')"
        ".getBoundingClientRect().right <= 1")
    page.wait_for_timeout(300)


def blur(page) -> None:
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")


def open_presented(page, url: str, drawn: str) -> None:
    """Open a page in presentation mode, wait for ``drawn``, fold the sidebar and put
    the focus on the body."""
    page.goto(url)
    ready(page, 90_000)  # the first page a server shows trains its sample first
    page.wait_for_selector(drawn)
    collapse_sidebar(page)
    blur(page)


def on_first_screen(locator, height: int) -> None:
    box = locator.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (locator, box)


def open_explore(page, server: str, query: str) -> None:
    open_presented(page, f"{server}/Explore?present=1&{query}", ".bv-card")


def background_is_dark(page) -> bool:
    rgb = page.evaluate("() => getComputedStyle(document.querySelector("
                        "'[data-testid=\"stApp\"]')).backgroundColor")
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1: rgb.index(")")].split(",")[:3])
    return r + g + b < 3 * 128


def no_overflow(page) -> None:
    bad = page.evaluate(OVERFLOWS)
    assert not bad, "\n".join(bad[:15])
