"""Plotly figures for the explorer: the pair heatmap and the charts. Pure functions, no
streamlit.

Every label that may come from a user (corpus words, tokens) goes through
:func:`bpeviz.present.render.chart_text` first (Plotly reads ``<b>``, ``<br>``, entities and
``$...$`` in labels).

>>> fig = token_count_figure({"A": [10, 8, 7]}, step=1)
>>> [trace.name for trace in fig.data], fig.layout.shapes[0].x0
(['A'], 1)
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.views import PairGrid, merges_frame
from bpeviz.core.training import Training
from bpeviz.present.render import chart_text
from bpeviz.text.display import isolate, label
from bpeviz.text.owned import OwnedCache


def _ticks(labels: Sequence[str], unique: Sequence[str]) -> list[str]:
    """What each axis tick draws: its label isolated (:func:`bpeviz.text.display.isolate`),
    then the `` (2)`` that :func:`_unique` gave it.

    >>> _ticks(["ab", "ab"], ["ab", "ab (2)"]) == ["\u2068ab\u2069", "\u2068ab\u2069 (2)"]
    True
    """
    return [isolate(text) + shown[len(text):] for text, shown in zip(labels, unique)]


def _unique(labels: Sequence[str]) -> list[str]:
    """Make chart labels unique (a category axis merges equal labels)."""
    seen: dict[str, int] = {}
    out = []
    for text in labels:
        n = seen.get(text, 0)
        seen[text] = n + 1
        out.append(text if n == 0 else f"{text} ({n + 1})")
    return out


# plotly's "Viridis", as its validator spells the scale out
_VIRIDIS = [[i / 9, colour] for i, colour in enumerate(
    ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58",
     "#b5de2b", "#fde725"])]


#: pixels per heatmap cell: at most (few symbols), at least (many symbols; a label fits)
CELL_MAX, CELL_MIN = 24, 14
CELL_MAX_PRESENTATION, CELL_MIN_PRESENTATION = 34, 20
#: the widest plot area the heatmap aims for (fits the page's width on a 1400 px screen)
HEATMAP_AREA = 840
#: the tallest heatmap in presentation mode (fits a 1280x720 projector's screen below
#: Streamlit's header, with its caption's first line) while its cells stay
#: CELL_MIN_PRESENTATION or larger: up to 24 symbols per axis with upright labels, their
#: margins as Streamlit's theme draws them (TITLE_ROOM)
HEATMAP_FIT_PRESENTATION = 640
#: presentation mode draws at most this many symbols per axis: at the smallest legible
#: cell (CELL_MIN_PRESENTATION) with its labels the chart then fits a 720 px screen
HEATMAP_SYMBOLS_PRESENTATION = 24
#: in presentation mode the columns use the page's width (cells wider than tall, up to
#: CELL_WIDE_MAX): the figure asks for up to HEATMAP_WIDTH_PRESENTATION pixels (a 1920 px
#: screen's main block) and Streamlit narrows it to the page; its labels are laid out for
#: the narrowest page they may get, HEATMAP_NARROWEST_PRESENTATION (a 1280 px screen's)
HEATMAP_WIDTH_PRESENTATION = 1700
HEATMAP_NARROWEST_PRESENTATION = 1000
CELL_WIDE_MAX = 90
#: the heatmap's right margin (the colour bar and its ticks) and bottom margin (the legend)
MARGIN_RIGHT, MARGIN_RIGHT_PRESENTATION, MARGIN_BOTTOM = 96, 120, 64
#: beside the tick labels: the axis title and the gaps, above them and left of them
#: (Streamlit's theme draws them larger than plotly's own)
TITLE_ROOM, TITLE_ROOM_LEFT = 68, 62


def label_width(text: str, font: float) -> float:
    """About how many pixels ``text`` (a chart label, HTML-escaped) takes at ``font``
    pixels: a wide (East Asian) character one font size, any other 0.7 of it (on the
    generous side: an upright label that might not fit its column is turned instead).

    >>> round(label_width("at", 10)), round(label_width("言", 10))
    (14, 10)
    """
    import unicodedata

    return sum(font if unicodedata.east_asian_width(ch) in "WF" else 0.7 * font
               for ch in html.unescape(text))


def heatmap_cell(n: int, presentation: bool = False) -> int:
    """Pixels per cell for ``n`` symbols per axis: fill about 840 px, within the bounds.

    >>> heatmap_cell(10), heatmap_cell(60), heatmap_cell(60, presentation=True)
    (24, 14, 20)
    """
    lo, hi = ((CELL_MIN_PRESENTATION, CELL_MAX_PRESENTATION) if presentation
              else (CELL_MIN, CELL_MAX))
    return max(lo, min(hi, HEATMAP_AREA // max(n, 1)))


def _cell_text(value: float, kind: str) -> str:
    if value != value:  # NaN: no such pair
        return ""
    return f"{int(value)}" if kind == "count" else f"{value:.2g}"


def heatmap_figure(grid: PairGrid, algorithm: str, byte_style: str = "gpt2",
                   selected: tuple[int, int] | None = None, presentation: bool = False,
                   value: str | None = None) -> go.Figure:
    """The pair heatmap: rows are left symbols, columns right symbols.

    Cells hold the pair count (BPE, BBPE) or score (WordPiece). A transparent square
    scatter over the cells carries ``customdata = [left_id, right_id, left, right, count,
    score]`` so a click selects a pair; the next pair is ringed in red, the selected in blue.

    The figure is sized to its symbols (square cells of :func:`heatmap_cell` pixels, every
    label shown, margins grown to fit them); a cell shows its value only where the
    value fits; whole counts get whole ticks on the colour bar.
    """
    value = value or get_algorithm(algorithm).value_name()
    z = grid.score if value == "score" else grid.count
    ynames = [chart_text(label(grid.symbols[i], byte_style)) for i in grid.rows]
    xnames = [chart_text(label(grid.symbols[i], byte_style)) for i in grid.cols]
    ylab, xlab = _unique(ynames), _unique(xnames)
    n_rows, n_cols = len(ylab), len(xlab)
    cell = heatmap_cell(max(n_rows, n_cols), presentation)
    longest_x = max((len(html.unescape(t)) for t in xlab), default=0)
    # presentation mode, as many symbols as it draws: the columns take the page's width
    wide = presentation and 0 < n_cols <= HEATMAP_SYMBOLS_PRESENTATION
    # each axis's widest label at 17 px (a label's width grows with its font)
    widest_px = max((label_width(t, 17) for t in xlab), default=0.0)
    widest_y_px = max((label_width(t, 17) for t in ylab), default=0.0)
    if wide:
        left_px = TITLE_ROOM_LEFT + min(widest_y_px, 17 * 0.7 * 24)
        width = int(min(HEATMAP_WIDTH_PRESENTATION, left_px + MARGIN_RIGHT_PRESENTATION
                        + CELL_WIDE_MAX * n_cols))
        # the narrowest column it may get (on the narrowest page it is laid out for)
        column = (min(width, HEATMAP_NARROWEST_PRESENTATION) - left_px
                  - MARGIN_RIGHT_PRESENTATION) / n_cols
        upright = widest_px + 8 <= column
    else:
        upright = longest_x <= 3 or n_cols <= 8
    if presentation:  # a projector's screen: shrink the cells (not below legible) to fit it
        labels = 17 * 1.5 if upright else min(widest_px, 17 * 0.7 * 24)
        room = HEATMAP_FIT_PRESENTATION - TITLE_ROOM - MARGIN_BOTTOM - labels
        cell = max(CELL_MIN_PRESENTATION, min(cell, int(room) // max(n_rows, 1)))
    font = min(17 if presentation else 12, cell - 3)
    cells_r, cells_c = np.nonzero(~np.isnan(z)) if z.size else (np.array([], int),) * 2
    custom = [[grid.rows[r], grid.cols[c], ylab[r], xlab[c], int(grid.count[r, c]),
               float(grid.score[r, c])] for r, c in zip(cells_r.tolist(), cells_c.tolist())]
    # each symbol isolated: a right-to-left pair reads left symbol first, as the axes do
    hover = (f"<b>{isolate('%{customdata[2]}')}</b> + <b>{isolate('%{customdata[3]}')}</b>"
             "<br>count %{customdata[4]:,}"
             + ("<br>score %{customdata[5]:.4g}" if value == "score" else "")
             + "<extra></extra>")
    zt = np.where(np.isnan(z), None, z).tolist()
    text = [[_cell_text(v, value) for v in row] for row in z.tolist()]
    text_size = font - 2
    widest = max((len(t) for row in text for t in row), default=0)
    heat: dict[str, Any] = {
        "type": "heatmap", "z": zt, "x": xlab, "y": ylab, "colorscale": _VIRIDIS,
        "hoverinfo": "skip", "xgap": 1, "ygap": 1, "textfont": {"size": text_size},
        "colorbar": {"title": {"text": value}}, "name": "pairs",
        "meta": {"rows": list(grid.rows), "cols": list(grid.cols), "value": value},
    }
    if value == "count" and len(cells_r):
        spread = float(np.nanmax(z) - np.nanmin(z))
        # whole counts, whole ticks: no 1.5 or 2.5 on the colour bar
        heat["colorbar"].update({"tickformat": ",d"} if spread > 10
                                else {"tickformat": ",d", "tick0": 0, "dtick": 1})
    if widest and widest * 0.62 * text_size <= cell - 3:  # only values that fit a cell
        heat["text"] = text
        heat["texttemplate"] = "%{text}"
    data: list[dict[str, Any]] = [heat, {
        "type": "scatter", "x": [xlab[c] for c in cells_c.tolist()],
        "y": [ylab[r] for r in cells_r.tolist()], "mode": "markers", "customdata": custom,
        "hovertemplate": hover, "name": "select",
        "marker": {"symbol": "square", "size": cell - 4, "color": "rgba(0,0,0,0)",
                   "line": {"width": 0}},
        "selected": {"marker": {"opacity": 1}}, "unselected": {"marker": {"opacity": 1}},
        "showlegend": False,
    }]
    for pos, colour, name, size in ((_position(grid, selected), "#1f6bff", "selected", cell - 6),
                                    (grid.next_pair, "#ff2d2d", "next merge", cell + 2)):
        if pos is None:
            continue
        r, c = pos
        data.append({
            "type": "scatter", "x": [xlab[c]], "y": [ylab[r]], "mode": "markers", "name": name,
            "hoverinfo": "skip",
            "marker": {"symbol": "square-open", "size": size, "color": colour,
                       "line": {"width": 3, "color": colour}},
            "showlegend": True,
        })
    # room for the labels, the axis titles, the colour bar and the legend, given to plotly
    # up front: it lays the axes out again (about half its drawing time) only when what it
    # measures needs more (automargin then grows a margin, inside this size)
    longest = font * 0.7 * 24  # a label's widest (plotly cuts longer ones)
    top = int(TITLE_ROOM + (font * 1.5 if upright else min(widest_px * font / 17, longest)))
    left = int(left_px if wide else TITLE_ROOM_LEFT + min(widest_y_px * font / 17, longest))
    # the colour bar's widest tick label: the largest count, or a score's few digits
    bar_chars = (len(f"{int(np.nanmax(z)):,}") if value == "count" and len(cells_r) else 6)
    right = max(MARGIN_RIGHT_PRESENTATION if presentation else MARGIN_RIGHT,
                int(56 + 0.62 * font * bar_chars))
    bottom = MARGIN_BOTTOM
    ticks = {"tickfont": {"size": font}, "tickmode": "array", "automargin": True}
    layout = {
        "xaxis": {"type": "category", "side": "top", "tickangle": 0 if upright else -90,
                  "tickvals": xlab, "ticktext": _ticks(xnames, xlab), **ticks,
                  "title": {"text": "right symbol"}},
        "yaxis": {"type": "category", "autorange": "reversed", "tickvals": ylab,
                  "ticktext": _ticks(ynames, ylab), **ticks, "title": {"text": "left symbol"}},
        "width": width if wide else int(cell * n_cols + left + right),
        "height": int(max(320, cell * n_rows + top + bottom)),
        "margin": {"l": left, "r": right, "t": top, "b": bottom},
        "legend": {"orientation": "h", "y": -0.02, "yanchor": "top", "x": 0},
        "clickmode": "event+select", "dragmode": False, "hovermode": "closest",
        "font": {"size": font},
    }
    # built as plain data and wrapped unvalidated: plotly's validation of every property
    # cost most of the chart's time (tests compare the spec with snapshot.pairs)
    fig = go.Figure({"data": data, "layout": layout}, _validate=False)
    return fig


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


def _position(grid: PairGrid, pair: tuple[int, int] | None) -> tuple[int, int] | None:
    if pair is None or pair[0] not in grid.rows or pair[1] not in grid.cols:
        return None
    return grid.rows.index(pair[0]), grid.cols.index(pair[1])


#: the colour of a landmark's line where no configuration colour is given
LANDMARK_COLOUR = "#c2410c"


def add_landmarks(fig: go.Figure, marks: Sequence[tuple[float, str]],
                  colour: str | None = None, axis: str = "x", prefix: str = "") -> None:
    """A dashed vertical line at each landmark's x (:func:`bpeviz.analysis.curves.
    curve_landmarks`: where SuperBPE's stage 2 starts), named at its top, left of the line
    (a phase usually starts late in a run, so the name stays inside the chart). Each
    shape is named ``landmark`` for tests and hover-free readers."""
    for x, name in marks:
        line_colour = colour or LANDMARK_COLOUR
        fig.add_shape(type="line", name="landmark", xref=axis, x0=x, x1=x, yref="paper",
                      y0=0, y1=1, line={"dash": "dash", "width": 2, "color": line_colour})
        fig.add_annotation(x=x, xref=axis, y=1, yref="paper", yanchor="top",
                           xanchor="right", xshift=-4, showarrow=False,
                           text=chart_text(f"{prefix}{name}"), font={"color": line_colour})


def token_count_figure(series: Mapping[str, Sequence[int]], step: int | None = None,
                       presentation: bool = False,
                       landmarks: Mapping[str, Sequence[tuple[int, str]]] | None = None,
                       ) -> go.Figure:
    """Corpus token count against merge step, one line per training; ``landmarks``: by
    series name, the steps where a training's phase changes, drawn as dashed lines."""
    fig = go.Figure()
    for name, marks in (landmarks or {}).items():
        add_landmarks(fig, marks, prefix=f"{name}: " if len(series) > 1 else "")
    for name, counts in series.items():
        # numpy arrays: Plotly sends them as typed arrays (50,000 steps: 10 ms, not 0.8 s)
        fig.add_trace(go.Scatter(x=np.arange(len(counts)), y=np.asarray(counts, dtype=np.int64),
                                 mode="lines", name=chart_text(name),
                                 hovertemplate="step %{x}: %{y:,} tokens<extra></extra>"))
    if step is not None:
        fig.add_vline(x=step, line={"dash": "dot", "width": 2})
    fig.update_layout(xaxis_title="merge step", yaxis_title="tokens in the corpus",
                      height=340, margin={"t": 30, "b": 10}, font=_font(presentation),
                      legend={"orientation": "h", "y": 1.12})
    return fig


def vocab_size_figure(sizes: Sequence[int], step: int | None = None,
                      shrinks: Sequence[int] = (), presentation: bool = False,
                      shrink_name: str = "removal") -> go.Figure:
    """The vocabulary's size against the step, step 0 first: a line that may go down as
    well as up, the steps in ``shrinks`` (where it went down) marked, the step shown
    dotted.

    >>> fig = vocab_size_figure([5, 6, 5, 6], step=2, shrinks=[2])
    >>> [t.name for t in fig.data], fig.data[1].x.tolist(), fig.data[1].y.tolist()
    (['vocabulary size', 'removal'], [2], [5])
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    fig = go.Figure(go.Scatter(x=np.arange(len(sizes)), y=sizes, mode="lines",
                               name="vocabulary size", line={"shape": "hv"},
                               hovertemplate="step %{x}: %{y:,} tokens<extra></extra>"))
    marked = np.asarray(shrinks, dtype=np.int64)
    fig.add_trace(go.Scatter(x=marked, y=sizes[marked] if len(marked) else marked,
                             mode="markers", name=chart_text(shrink_name),
                             marker={"symbol": "triangle-down", "size": 9, "color": "#d62728"},
                             hovertemplate=f"step %{{x}}: {chart_text(shrink_name)}, "
                                           "%{y:,} tokens<extra></extra>"))
    if step is not None:
        fig.add_vline(x=step, line={"dash": "dot", "width": 2})
    fig.update_layout(xaxis_title="step", yaxis_title="tokens in the vocabulary",
                      height=300, margin={"t": 30, "b": 10}, font=_font(presentation),
                      legend={"orientation": "h", "y": 1.14})
    return fig


#: the merge-strength chart draws at most this many bars (a bar per merge up to it; past
#: it, the strongest merge of each run of consecutive merges): 50,000 bars cost Plotly and
#: the browser about 0.3 s a rerun, and a 1,000-pixel chart cannot show them apart
STRENGTH_BARS = 2_000


def strength_run(n_merges: int, max_bars: int = STRENGTH_BARS) -> int:
    """How many consecutive merges one bar of the strength chart stands for.

    >>> strength_run(200), strength_run(2_000), strength_run(2_001), strength_run(50_000)
    (1, 1, 2, 25)
    """
    return max(1, -(-n_merges // max_bars))


def strongest_merges(merges: pd.DataFrame, value: str,
                     max_bars: int = STRENGTH_BARS) -> pd.DataFrame:
    """The bars of the strength chart: every merge (``first`` = ``last`` = its step) when
    there are at most ``max_bars``; else, for each run of :func:`strength_run` consecutive
    merges, the one with the largest ``value`` (the earliest of equals), with the run's
    first and last step.

    >>> m = pd.DataFrame({"step": [1, 2, 3, 4, 5], "count": [5, 9, 9, 2, 7],
    ...                   "left": list("abcde"), "right": list("fghij"),
    ...                   "token": ["af", "bg", "ch", "di", "ej"]})
    >>> strongest_merges(m, "count", max_bars=2)[["step", "count", "first", "last"]]
       step  count  first  last
    0     2      9      1     3
    1     5      7      4     5
    """
    run = strength_run(len(merges), max_bars)
    if run == 1:
        return merges.assign(first=merges["step"], last=merges["step"])
    values = merges[value].to_numpy(dtype=float)
    padded = np.full(-(-len(values) // run) * run, -np.inf)
    padded[: len(values)] = values
    starts = np.arange(0, len(values), run)
    picked = starts + np.argmax(padded.reshape(-1, run), axis=1)
    steps = merges["step"].to_numpy()
    bars = merges.iloc[picked].reset_index(drop=True)
    return bars.assign(first=steps[starts],
                       last=steps[np.minimum(starts + run, len(steps)) - 1])


def merge_strength_hover(bars: pd.DataFrame, isolated: bool = False) -> np.ndarray | None:
    """The bars' hover labels, one string per bar ("left + right → token", and the run of
    merges it is the strongest of), escaped for Plotly; with ``isolated``, each token
    isolated (:func:`bpeviz.text.display.isolate`: right-to-left tokens keep the order
    left + right → token). One string per bar, not three: Plotly validates and writes a
    3-column ``customdata`` about 4x slower.

    >>> import pandas as pd
    >>> merge_strength_hover(pd.DataFrame({"left": ["<"], "right": ["b"], "token": ["<b"]}))
    array(['&lt; + b → &lt;b'], dtype=object)
    """
    if not len(bars):
        return None

    def shown(column: str) -> pd.Series:
        return bars[column].map((lambda t: isolate(chart_text(t))) if isolated else chart_text)

    labels = shown("left") + " + " + shown("right") + " → " + shown("token")
    if "first" in bars and (bars["first"] != bars["last"]).any():
        labels = labels + ("<br>the strongest of merges " + bars["first"].map("{:,}".format)
                           + "–" + bars["last"].map("{:,}".format))
    return labels.to_numpy(dtype=object)


#: the strength chart's bars, their hover labels plain and isolated (:func:`strength_bars`)
StrengthBars = tuple[pd.DataFrame, np.ndarray | None, np.ndarray | None]


def strength_bars(merges: pd.DataFrame, value: str) -> StrengthBars:
    """The strength chart's bars (:func:`strongest_merges`) and their hover labels
    (:func:`merge_strength_hover`), plain and isolated."""
    shown = strongest_merges(merges, value)
    return shown, merge_strength_hover(shown), merge_strength_hover(shown, isolated=True)


def merge_strength_figure(merges: pd.DataFrame, algorithm: str, step: int | None = None,
                          presentation: bool = False,
                          bars: StrengthBars | None = None) -> go.Figure:
    """Count (and WordPiece score) of each merge by step, at most :data:`STRENGTH_BARS`
    bars (:func:`strongest_merges`). ``bars``: the bars, their
    :func:`merge_strength_hover` (the merge in plain text, each bar's ``customdata``) and
    the same isolated (what the hover draws), when the caller keeps them."""
    value = get_algorithm(algorithm).value_name()
    if bars is None:
        bars = strength_bars(merges, value)
    shown, plain, hover = bars
    fig = go.Figure(go.Bar(
        x=shown["step"].to_numpy(), y=shown[value].to_numpy(), name=value, customdata=plain,
        hovertext=hover,
        hovertemplate=("step %{x}: %{hovertext}"
                       f"<br>{value} " + ("%{y:.4~g}" if value == "score" else "%{y:,}")
                       + "<extra></extra>"),
    ))
    if step:
        fig.add_vline(x=step, line={"dash": "dot", "width": 2})
    fig.update_layout(xaxis_title="merge step", yaxis_title=f"{value} of the merged pair",
                      height=320, margin={"t": 30, "b": 10}, font=_font(presentation))
    return fig


_STRENGTH: OwnedCache[StrengthBars] = OwnedCache("strength chart")


def training_strength_figure(training: Training, byte_style: str = "gpt2",
                             step: int | None = None, presentation: bool = False) -> go.Figure:
    """:func:`merge_strength_figure` of ``training``'s merges; its bars and hover labels
    made once per training and byte style."""
    value = get_algorithm(training.algorithm).value_name()
    bars = _STRENGTH.get(training, byte_style,
                         lambda: strength_bars(merges_frame(training, byte_style), value))
    return merge_strength_figure(bars[0], training.algorithm, step, presentation, bars=bars)


def length_figure(vocab: pd.DataFrame, presentation: bool = False) -> go.Figure:
    """How many tokens have each length in characters and in bytes."""
    fig = go.Figure()
    for column in ("chars", "bytes"):
        counts = vocab[column].value_counts().sort_index()
        fig.add_trace(go.Bar(x=counts.index.tolist(), y=counts.tolist(), name=column,
                             hovertemplate=f"%{{y}} tokens of %{{x}} {column}<extra></extra>"))
    fig.update_layout(barmode="group", xaxis_title="token length", yaxis_title="tokens",
                      height=320, margin={"t": 30, "b": 10}, font=_font(presentation))
    return fig


def _font(presentation: bool) -> dict[str, int]:
    return {"size": 17 if presentation else 12}
