"""The pair heatmap as HTML, for the browser to hold step by step (a stage panel).

Plotly's heatmap is redrawn by a Python rerun once the step settles: 0.5-1 s after a
key on a 2-core machine, most of it Plotly's and React's work in the browser. Drawn as
HTML for the steps around the bar's (``bpeviz.present.step_panels.panel_window``), the
browser swaps in the bar's step in the same frame as the card. This module draws one
step's grid: rows are left symbols, columns right symbols, each cell coloured on
Viridis by its count (BPE, byte-level BPE) or score (WordPiece), its value written
where it fits, the next merge's pair ringed in red and the picked pair in blue. A cell
carries ``data-pick="left_id,right_id"`` so that a click can pick its pair. Labels are
escaped and isolated (``<bdi>``), so a right-to-left symbol keeps its place.

>>> import numpy as np
>>> from bpeviz.analysis.views import PairGrid
>>> grid = PairGrid([0, 1], [1, 2], np.array([[5.0, np.nan], [2.0, 1.0]]),
...                 np.full((2, 2), np.nan), (0, 0), 3, {0: "a", 1: "b", 2: "<c>"})
>>> page = heatmap_html(grid, "count")
>>> page.count('data-pick='), 'data-pick="0,1"' in page, "&lt;c&gt;" in page
(3, True, True)
"""

from __future__ import annotations

import math

import numpy as np

from bpeviz.analysis.views import PairGrid
from bpeviz.present.render import esc
from bpeviz.text.display import label

#: plotly's "Viridis", as the Plotly heatmap draws it
VIRIDIS = ("#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779",
           "#6ece58", "#b5de2b", "#fde725")

CSS = """
.bv-hm { display: grid; gap: 1px; align-items: stretch; width: max-content; }
.bv-hm-col { writing-mode: vertical-rl; transform: rotate(180deg); text-align: left;
  white-space: nowrap; padding: 2px 0; font-size: 0.8em; }
.bv-hm-row { white-space: nowrap; text-align: right; padding: 0 4px; font-size: 0.8em;
  align-self: center; }
.bv-hm-cell { height: var(--bv-hm-cell); display: flex; align-items: center;
  justify-content: center; font-size: 0.7em; cursor: pointer; box-sizing: border-box; }
.bv-hm-empty { background: transparent; }
.bv-hm-next { outline: 3px solid #d62728; outline-offset: -3px; }
.bv-hm-picked { outline: 3px solid #1f77b4; outline-offset: -3px; }
"""


def colour(value: float, lo: float, hi: float) -> str:
    """``value``'s colour on Viridis between ``lo`` (darkest) and ``hi`` (brightest).

    >>> colour(1, 1, 9), colour(9, 1, 9), colour(5, 5, 5)
    ('#440154', '#fde725', '#fde725')
    """
    share = 1.0 if hi <= lo else (value - lo) / (hi - lo)
    share = min(1.0, max(0.0, share))
    return VIRIDIS[round(share * (len(VIRIDIS) - 1))]


def ink(background: str) -> str:
    """Black or white, whichever reads better on ``background`` (#rrggbb).

    >>> ink("#440154"), ink("#fde725")
    ('#fff', '#000')
    """
    r, g, b = (int(background[i:i + 2], 16) for i in (1, 3, 5))
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def _written(value: float, kind: str) -> str:
    return f"{int(value):,}" if kind == "count" else f"{value:.2g}"


def heatmap_html(grid: PairGrid, value: str, byte_style: str = "gpt2",
                 selected: tuple[int, int] | None = None, cell: int = 24) -> str:
    """The grid of ``grid``'s pairs as HTML (every user label escaped): ``value`` is
    "count" or "score"; ``selected`` a (left id, right id) pair ringed in blue; ``cell``
    the side of a cell in pixels."""
    z = grid.score if value == "score" else grid.count
    seen = z[~np.isnan(z)] if z.size else z
    lo, hi = (float(seen.min()), float(seen.max())) if seen.size else (0.0, 0.0)
    rows = [label(grid.symbols[i], byte_style) for i in grid.rows]
    cols = [label(grid.symbols[i], byte_style) for i in grid.cols]
    out = [f"<style>{CSS}</style>",
           f'<div class="bv-hm" data-rows="{len(rows)}" data-cols="{len(cols)}" '
           f'style="grid-template-columns: auto repeat({len(cols)}, {cell}px); '
           f'--bv-hm-cell: {cell}px">',
           "<div></div>"]
    out += [f'<div class="bv-hm-col"><bdi>{esc(name)}</bdi></div>' for name in cols]
    for r, (left_id, left) in enumerate(zip(grid.rows, rows)):
        out.append(f'<div class="bv-hm-row"><bdi>{esc(left)}</bdi></div>')
        for c, (right_id, right) in enumerate(zip(grid.cols, cols)):
            v = float(z[r, c])
            if math.isnan(v):
                out.append('<div class="bv-hm-cell bv-hm-empty"></div>')
                continue
            marks = " bv-hm-next" * (grid.next_pair == (r, c)) + (
                " bv-hm-picked" * (selected == (left_id, right_id)))
            fill = colour(v, lo, hi)
            count = int(grid.count[r, c])
            title = f"{left} + {right}: count {count:,}" + (
                f", score {float(grid.score[r, c]):.4g}" if value == "score" else "")
            text = _written(v, value)
            shown = esc(text) if len(text) * 7 <= cell else ""
            out.append(f'<div class="bv-hm-cell{marks}" data-pick="{left_id},{right_id}" '
                       f'title="{esc(title)}" style="background: {fill}; color: {ink(fill)}">'
                       f"{shown}</div>")
    out.append("</div>")
    return "".join(out)
