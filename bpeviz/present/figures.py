"""Plotly figures for the explorer: the charts (the pair heatmap is drawn by the stage
script: :mod:`bpeviz.present.render_heatmap`). Pure functions, no streamlit.

Every label that may come from a user (corpus words, tokens) goes through
:func:`bpeviz.present.render.chart_text` first (Plotly reads ``<b>``, ``<br>``, entities and
``$...$`` in labels).

>>> fig = token_count_figure({"A": [10, 8, 7]}, step=1)
>>> [trace.name for trace in fig.data], fig.layout.shapes[0].x0
(['A'], 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.views import merges_frame
from bpeviz.core.training import Training
from bpeviz.present.render import chart_text
from bpeviz.text.display import isolate
from bpeviz.text.owned import OwnedCache

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
