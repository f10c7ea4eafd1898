"""The pair heatmap as numbers, for the browser to hold step by step (a stage panel).

Plotly's heatmap is redrawn by a Python rerun once the step settles: 0.5-1 s after a
key on a 2-core machine, most of it Plotly's and React's work in the browser. Sent for
the steps around the bar's (``bpeviz.present.step_panels.panel_window``) as a view node
``{"heatmap": heatmap_data(...)}``, the stage script draws the bar's step itself
(``stepper/src/heatmap_view.mjs``): a few KB a step, where the same grid as an HTML
tree is 25-35 KB at 20 symbols a side.

>>> import numpy as np
>>> from bpeviz.analysis.views import PairGrid
>>> grid = PairGrid([0, 1], [1, 2], np.array([[5.0, np.nan], [2.0, 1.0]]),
...                 np.full((2, 2), np.nan), (0, 0), 3, {0: "a", 1: "b", 2: "<c>"})
>>> d = heatmap_data(grid, "count", selected=(1, 2))
>>> d["rows"], d["cols"], d["cells"]
([[0, 'a'], [1, 'b']], [[1, 'b'], [2, '<c>']], [0, 0, 5, 5, 1, 0, 2, 2, 1, 1, 1, 1])
>>> d["next"], d["picked"], d["lo"], d["hi"]
([0, 0], [1, 1], 1, 5)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from bpeviz.analysis.views import PairGrid
from bpeviz.text.display import label


def heatmap_data(grid: PairGrid, value: str, byte_style: str = "gpt2",
                 selected: tuple[int, int] | None = None, cell: int = 24) -> dict[str, Any]:
    """``grid`` as the stage script's heatmap draws it: ``rows`` and ``cols`` as
    [id, label]; ``cells`` flat, [row, column, value, count] for each pair that occurs;
    ``lo`` / ``hi`` the value's range; ``next`` the (row, column) merged next; ``picked``
    the cell of ``selected`` (left id, right id), if drawn; ``cell`` its side in px."""
    z = grid.score if value == "score" else grid.count
    rows = [[int(i), label(grid.symbols[i], byte_style)] for i in grid.rows]
    cols = [[int(i), label(grid.symbols[i], byte_style)] for i in grid.cols]
    cells: list[Any] = []
    r_idx, c_idx = np.nonzero(~np.isnan(z)) if z.size else ((), ())
    whole = value == "count"
    for r, c in zip(r_idx.tolist() if len(r_idx) else [], c_idx.tolist() if len(c_idx) else []):
        v = float(z[r, c])
        cells += [r, c, int(v) if whole else v, int(grid.count[r, c])]
    seen = cells[2::4]
    picked = None
    if selected is not None:
        at_r = {i: k for k, i in enumerate(grid.rows)}.get(selected[0])
        at_c = {i: k for k, i in enumerate(grid.cols)}.get(selected[1])
        picked = None if at_r is None or at_c is None else [at_r, at_c]
    return {"rows": rows, "cols": cols, "cells": cells, "value": value,
            "lo": min(seen, default=0), "hi": max(seen, default=0),
            "next": list(grid.next_pair) if grid.next_pair is not None else None,
            "picked": picked, "cell": int(cell)}
