"""The pair heatmap as numbers and its layout, for the browser to hold step by step.

Plotly's heatmap was redrawn by a Python rerun once the step settled: 0.5-1 s after a
key on a 2-core machine, most of it Plotly's and React's work in the browser. Sent for
the steps around the bar's (``bpeviz.present.step_panels.panel_window``) as a view node
``{"heatmap": heatmap_data(...)}``, the stage script draws the bar's step itself
(``stepper/src/heatmap_view.mjs``) in the frame after the key: a few KB a step.

Rows are left symbols, columns right symbols; a cell holds the pair's count (BPE,
byte-level BPE) or score (WordPiece). The layout is decided here, where the labels'
widths can be estimated once (:func:`label_width`): square cells of :func:`heatmap_cell`
pixels, every label drawn; column labels upright where they fit a column, turned
otherwise; values written in the cells only where they fit; in presentation mode at most
:data:`HEATMAP_SYMBOLS_PRESENTATION` symbols a side, the columns widened to the page's
width and the cells shrunk (not below legible) so the whole chart fits a projector.

>>> import numpy as np
>>> from bpeviz.analysis.views import PairGrid
>>> grid = PairGrid([0, 1], [1, 2], np.array([[5.0, np.nan], [2.0, 1.0]]),
...                 np.full((2, 2), np.nan), (0, 0), 3, {0: "a", 1: "b", 2: "<c>"})
>>> d = heatmap_data(grid, "count", selected=(1, 2))
>>> d["rows"], d["cols"], d["cells"]
([[0, 'a'], [1, 'b']], [[1, 'b'], [2, '<c>']], [0, 0, 5, 5, 1, 0, 2, 2, 1, 1, 1, 1])
>>> d["next"], d["picked"], d["lo"], d["hi"], d["cell"], d["upright"], d["values"]
([0, 0], [1, 1], 1, 5, 24, False, True)
"""

from __future__ import annotations

import unicodedata
from typing import Any

import numpy as np

from bpeviz.analysis.views import PairGrid
from bpeviz.text.display import label

#: pixels per heatmap cell: at most (few symbols), at least (many symbols; a label fits)
CELL_MAX, CELL_MIN = 24, 14
CELL_MAX_PRESENTATION, CELL_MIN_PRESENTATION = 34, 20
#: the widest cell area the heatmap aims for (fits the page's width on a 1400 px screen)
HEATMAP_AREA = 840
#: the tallest heatmap in presentation mode (fits a 1280x720 projector's screen below
#: Streamlit's header, with its caption's first line) while its cells stay
#: CELL_MIN_PRESENTATION or larger: up to 24 symbols per axis with upright labels
HEATMAP_FIT_PRESENTATION = 640
#: presentation mode draws at most this many symbols per axis: at the smallest legible
#: cell (CELL_MIN_PRESENTATION) with its labels the chart then fits a 720 px screen
HEATMAP_SYMBOLS_PRESENTATION = 24
#: in presentation mode the columns share the page's width, each at most CELL_WIDE_MAX
#: pixels; labels are laid out for the narrowest page they may get (a 1280 px screen's
#: main block), HEATMAP_NARROWEST_PRESENTATION
HEATMAP_NARROWEST_PRESENTATION = 1000
CELL_WIDE_MAX = 90
#: what the chart takes besides its cells: the axis titles above and left, the legend
#: below, and the row labels' gap (the stage stylesheet draws them so)
TITLE_ROOM, TITLE_ROOM_LEFT, LEGEND_ROOM = 40, 36, 56
#: the largest label font (px) in and out of presentation mode; a label is at most this
#: many characters wide before the stylesheet cuts it with an ellipsis
FONT, FONT_PRESENTATION, LABEL_CHARS = 12, 17, 24


def label_width(text: str, font: float) -> float:
    """About how many pixels ``text`` takes at ``font`` pixels: a wide (East Asian)
    character one font size, any other 0.7 of it (on the generous side: an upright
    label that might not fit its column is turned instead).

    >>> round(label_width("at", 10)), round(label_width("言", 10))
    (14, 10)
    """
    return sum(font if unicodedata.east_asian_width(ch) in "WF" else 0.7 * font
               for ch in text)


def heatmap_cell(n: int, presentation: bool = False) -> int:
    """Pixels per cell for ``n`` symbols per axis: fill about 840 px, within the bounds.

    >>> heatmap_cell(10), heatmap_cell(60), heatmap_cell(60, presentation=True)
    (24, 14, 20)
    """
    lo, hi = ((CELL_MIN_PRESENTATION, CELL_MAX_PRESENTATION) if presentation
              else (CELL_MIN, CELL_MAX))
    return max(lo, min(hi, HEATMAP_AREA // max(n, 1)))


def _cell_text(value: float, kind: str) -> str:
    """A cell's value as the browser writes it (heatmap_view.mjs's ``cellText``): whole
    counts, and a score as JavaScript's ``toPrecision(2)`` writes it, its trailing zero
    kept ("0.50", where Python's ``.2g`` says "0.5" and a score looked one character
    narrower than it is drawn).

    >>> [_cell_text(v, "score") for v in (0.5, 1.0, 0.333, 150.0, 1.2e-7)]
    ['0.50', '1.0', '0.33', '1.5e+2', '1.2e-7']
    """
    if kind == "count":
        return f"{int(value):,}"
    if value == 0:
        return "0.0"
    mantissa, exponent = f"{value:.1e}".split("e")
    e = int(exponent)
    if e < -6 or e >= 2:  # where toPrecision turns to an exponent
        return f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return f"{value:.{1 - e}f}"


def heatmap_layout(rows: list[str], cols: list[str], values: list[float], value: str,
                   presentation: bool = False) -> dict[str, Any]:
    """How the chart of these labels and values is drawn: ``cell`` (px, each cell's
    height, and its width unless ``wide``), ``wide`` (presentation mode: columns share
    the page's width, up to :data:`CELL_WIDE_MAX` px), ``upright`` (column labels
    horizontal; turned otherwise), ``font`` (labels, px) and ``values`` (write each
    cell's value: only where the widest fits a cell).

    >>> heatmap_layout(["a"] * 60, ["ab"] * 60, [3.0], "count")["cell"]
    14
    >>> lay = heatmap_layout(["a"] * 24, ["Ġthe"] * 24, [12.0], "count", presentation=True)
    >>> lay["wide"], lay["upright"], lay["cell"] * 24 <= HEATMAP_FIT_PRESENTATION
    (True, False, True)
    """
    n_rows, n_cols = len(rows), len(cols)
    cell = heatmap_cell(max(n_rows, n_cols), presentation)
    wide = presentation and 0 < n_cols <= HEATMAP_SYMBOLS_PRESENTATION
    top_font = FONT_PRESENTATION if presentation else FONT
    widest_x = max((label_width(t, top_font) for t in cols), default=0.0)
    widest_y = max((label_width(t, top_font) for t in rows), default=0.0)
    longest = top_font * 0.7 * LABEL_CHARS  # the stylesheet cuts longer labels
    if wide:
        left = TITLE_ROOM_LEFT + min(widest_y, longest)
        column = min(CELL_WIDE_MAX, (HEATMAP_NARROWEST_PRESENTATION - left) / n_cols)
        upright = widest_x + 8 <= column
    else:  # a column is a cell wide: a label that might not fit it ("##以") is turned
        font = min(top_font, cell - 3)
        upright = max((label_width(t, font) for t in cols), default=0.0) <= cell
    if presentation:  # a projector's screen: shrink the cells (not below legible) to fit it
        labels = top_font * 1.5 if upright else min(widest_x, longest)
        room = HEATMAP_FIT_PRESENTATION - TITLE_ROOM - LEGEND_ROOM - labels
        cell = max(CELL_MIN_PRESENTATION, min(cell, int(room) // max(n_rows, 1)))
    font = min(top_font, cell - 3)
    text_size = font - 2
    widest = max((len(_cell_text(v, value)) for v in values), default=0)
    return {"cell": int(cell), "wide": bool(wide), "upright": bool(upright),
            "font": int(font), "values": bool(widest and widest * 0.62 * text_size <= cell - 3)}


def heatmap_data(grid: PairGrid, value: str, byte_style: str = "gpt2",
                 selected: tuple[int, int] | None = None,
                 presentation: bool = False) -> dict[str, Any]:
    """``grid`` as the stage script's heatmap draws it: ``rows`` and ``cols`` as
    [id, label] (labels as :func:`bpeviz.text.display.label` names symbols: the browser
    sets them as text, isolated); ``cells`` flat, [row, column, value, count] for each
    pair that occurs; ``lo`` / ``hi`` the value's range; ``next`` the (row, column)
    merged next; ``picked`` the cell of ``selected`` (left id, right id), if drawn; and
    the layout (:func:`heatmap_layout`)."""
    z = grid.score if value == "score" else grid.count
    rows = [[int(i), label(grid.symbols[i], byte_style)] for i in grid.rows]
    cols = [[int(i), label(grid.symbols[i], byte_style)] for i in grid.cols]
    cells: list[Any] = []
    r_idx, c_idx = np.nonzero(~np.isnan(z)) if z.size else (np.array([], int),) * 2
    whole = value == "count"
    for r, c in zip(r_idx.tolist(), c_idx.tolist()):
        v = float(z[r, c])
        cells += [r, c, int(v) if whole else v, int(grid.count[r, c])]
    seen = cells[2::4]
    picked = None
    if selected is not None and selected[0] in grid.rows and selected[1] in grid.cols:
        picked = [grid.rows.index(selected[0]), grid.cols.index(selected[1])]
    return {"rows": rows, "cols": cols, "cells": cells, "value": value,
            "lo": min(seen, default=0), "hi": max(seen, default=0),
            "next": list(grid.next_pair) if grid.next_pair is not None else None,
            "picked": picked,
            **heatmap_layout([t for _, t in rows], [t for _, t in cols], seen, value,
                             presentation)}


def heatmap_caption(grid: PairGrid, value: str, last_step: bool,
                    step: int | None = None) -> str:
    """What the heatmap shows, in words, from what it does show (plain text); with
    ``step``, which step its pairs are counted at (Why this merge counts the step before).

    >>> heatmap_caption(PairGrid([1], [2], np.ones((1, 1)), np.ones((1, 1)), None, 1), "count",
    ...                 True)[:60]
    'Count of each pair (1 pairs in all). This is the last step: '
    >>> heatmap_caption(PairGrid([1], [2], np.ones((1, 1)), np.ones((1, 1)), None, 219),
    ...                 "count", True, step=10)[:70]
    'Count of each pair at step 10, after merge 10 (219 pairs in all at ste'
    """
    at = ("" if step is None else f" at step {step}, "
          + ("before any merge" if step == 0 else f"after merge {step:,}"))
    where = "" if step is None else f" at step {step:,}"
    out = f"{value.capitalize()} of each pair{at} ({grid.total_pairs:,} pairs in all{where}). "
    if grid.next_pair is not None:
        out += "The red square is the pair merged next. "
    elif last_step:
        out += "This is the last step: no pair is merged next, so no square is red. "
    else:
        out += "The pair merged next is not among these symbols. "
    out += "The blue square is the pair shown in Pair details; click a cell to see which " \
           "words hold it."
    return out
