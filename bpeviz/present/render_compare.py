"""HTML, tables and Plotly figures for Compare: pure functions over :mod:`bpeviz.analysis.compare`
results, no streamlit. Every user string is escaped (:func:`bpeviz.present.render.esc`,
:func:`bpeviz.present.render.chart_text`).

Each configuration keeps one colour everywhere (its text, table row and curve):
``CONFIG_COLOURS[i]`` for configuration ``i``, from the Okabe-Ito palette, which stays
distinct for the common colour-vision deficiencies.

Compare's cuts (the chips, the dashed frames around runs of tokens cut differently, their
``data-bpeviz-diff`` hooks and the sentence counting them) step with the position control,
so the browser draws them from one payload (:mod:`bpeviz.present.compare_history`,
``bpeviz/ui/stepper/src/compare_view.mjs``); this module draws what does not step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from bpeviz.analysis.compare import METRIC_HELP, METRIC_LABELS, Metrics
from bpeviz.present.figures import _font, add_landmarks
from bpeviz.present.render import chart_text, esc

#: One colour per configuration (A, B, C): Okabe-Ito blue, vermilion, bluish green.
CONFIG_COLOURS = ("#0072B2", "#D55E00", "#009E73")
#: Letters naming the configurations.
CONFIG_LETTERS = "ABC"


def colour(index: int) -> str:
    """The colour of configuration ``index`` (0-based)."""
    return CONFIG_COLOURS[index % len(CONFIG_COLOURS)]


def legend_html(labels: Sequence[str]) -> str:
    """A swatch of each configuration's colour with its label (escaped)."""
    items = "".join(
        f'<span style="margin-right:1.2em;white-space:nowrap">'
        f'<span style="display:inline-block;width:.9em;height:.9em;border-radius:.2em;'
        f'background:{colour(i)};vertical-align:middle;margin-right:.35em"></span>'
        f"{esc(name)}</span>" for i, name in enumerate(labels))
    return f'<div class="bv-legend">{items}</div>'


# -- tables -------------------------------------------------------------------------------
def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def metrics_table(rows: Sequence[tuple[str, int, int, Metrics]]) -> pd.DataFrame:
    """One row per configuration: ``(label, step, vocabulary size, metrics)``, columns
    named in words (see :data:`bpeviz.analysis.compare.METRIC_LABELS`)."""
    table = []
    for name, step, vocab_size, m in rows:
        table.append({
            "configuration": name,
            "step": step,
            "vocabulary size": vocab_size,
            METRIC_LABELS["tokens"]: m.tokens,
            METRIC_LABELS["chars_per_token"]: _rounded(m.chars_per_token, 3),
            METRIC_LABELS["bytes_per_token"]: _rounded(m.bytes_per_token, 3),
            METRIC_LABELS["fertility"]: _rounded(m.fertility, 3),
            METRIC_LABELS["split_share"]: _rounded(m.split_share, 3),
            METRIC_LABELS["unk_rate"]: _rounded(m.unk_rate, 4),
        })
    return pd.DataFrame(table)


#: the metrics of the per-script table, with the short header each column shows
SCRIPT_METRICS = {"fertility": "tokens/word", "split_share": "split", "chars_per_token":
                  "chars/token", "unk_rate": "unknown"}
#: the metrics written as percentages
SHARES = ("split_share", "unk_rate")


def script_table(rows: Sequence[tuple[str, Mapping[str, Metrics]]]) -> pd.DataFrame:
    """A wide table, one row per script: its words, then each metric (tokens per word,
    share split, characters per token, unknown share) for each configuration side by side
    (``rows``: ``(letter, metrics_by_script)``; columns ``"tokens/word A"``), values
    written out as in :func:`by_configuration` (shares as percentages).
    :func:`script_columns_help` says what each column means.

    >>> from bpeviz.analysis.compare import Metrics
    >>> m = Metrics(tokens=4, characters=8, bytes=8, words=2, word_tokens=4, split_words=1,
    ...             unk=0)
    >>> script_table([("A", {"Latin": m}), ("B", {"Latin": m})]).iloc[0].to_dict()
    {'script': 'Latin', 'words': '2', 'tokens/word A': '2', 'tokens/word B': '2', \
'split A': '50%', 'split B': '50%', 'chars/token A': '2', 'chars/token B': '2', \
'unknown A': '0%', 'unknown B': '0%'}
    """
    scripts = list(dict.fromkeys(script for _, by_script in rows for script in by_script))
    table = []
    for script in scripts:
        words = next((by[script].words for _, by in rows if script in by), None)
        row: dict[str, str] = {"script": script, "words": _shown(words)}
        for key, short in SCRIPT_METRICS.items():
            for name, by_script in rows:
                m = by_script.get(script)
                value = m.row()[key] if m is not None else None
                row[f"{short} {name}"] = (_percent(value) if key in SHARES
                                          else _shown(value))
        table.append(row)
    return pd.DataFrame(table)


def script_columns_help(letters: Sequence[str]) -> dict[str, str]:
    """What each column of :func:`script_table` means, for its header's hover text."""
    out = {"script": "The script most of a word's letters are in (Common: no letters).",
           "words": METRIC_HELP["words"]}
    for key, short in SCRIPT_METRICS.items():
        for letter in letters:
            out[f"{short} {letter}"] = f"Configuration {letter}: {METRIC_HELP[key]}"
    return out


def script_table_html(table: pd.DataFrame, letters: Sequence[str]) -> str:
    """:func:`script_table` as HTML that fits its column: one row per script, each
    metric a group of the configurations' letters under it, each header naming what it
    counts on hover (:func:`script_columns_help`).

    >>> from bpeviz.analysis.compare import Metrics
    >>> m = Metrics(tokens=4, characters=8, bytes=8, words=2, word_tokens=4, split_words=1,
    ...             unk=0)
    >>> html = script_table_html(script_table([("A", {"Latin": m})]), ["A"])
    >>> html.count("<tr>"), "<td>50%</td>" in html
    (3, True)
    """
    helps = script_columns_help(letters)
    top = ['<th rowspan="2" title="{}">script</th>'.format(esc(helps["script"])),
           '<th rowspan="2" title="{}">words</th>'.format(esc(helps["words"]))]
    top += [f'<th colspan="{len(letters)}">{esc(short)}</th>'
            for short in SCRIPT_METRICS.values()]
    under = [f'<th title="{esc(helps[f"{short} {letter}"])}">{esc(letter)}</th>'
             for short in SCRIPT_METRICS.values() for letter in letters]
    rows = []
    for record in table.to_dict("records"):
        cells = [f"<td>{esc(record[name])}</td>" for name in table.columns]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ('<div class="bv-scroll"><table class="bv-scripts"><thead><tr>' + "".join(top)
            + "</tr><tr>" + "".join(under) + "</tr></thead><tbody>" + "".join(rows)
            + "</tbody></table></div>")


def _percent(value: object) -> str:
    """A share written as a percentage to 3 significant places, "–" for none.

    >>> _percent(0.0714), _percent(0.5), _percent(0.0), _percent(None)
    ('7.14%', '50%', '0%', '–')
    """
    if value is None or (isinstance(value, float) and value != value):
        return "–"
    return f"{float(value) * 100:.3g}%"


def _shown(value: object) -> str:
    """A table value written out: whole numbers with thousands separators, others to 3
    significant places, "–" for none."""
    if value is None or (isinstance(value, float) and value != value):
        return "–"
    if isinstance(value, (int, np.integer)) or (isinstance(value, float)
                                                and value.is_integer()):
        return f"{int(value):,}"
    return f"{float(value):.3g}"


def by_configuration(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (one row per configuration, :func:`metrics_table`) turned on its side:
    one row per metric, one column per configuration letter (A, B, C), values written
    out (whole numbers with thousands separators, shares as percentages, others to 3
    significant places), so that it stays narrow beside the legend that names each
    letter.

    >>> t = pd.DataFrame({"configuration": ["A: x", "B: y"], "tokens": [1200, 7],
    ...                   "characters per token": [3.14159, None],
    ...                   METRIC_LABELS["unk_rate"]: [0.0714, 0.0]})
    >>> by_configuration(t).to_dict("records")[0]
    {'metric': 'tokens', 'A': '1,200', 'B': '7'}
    >>> by_configuration(t).to_dict("records")[2]["A"]
    '7.14%'
    """
    letters = [CONFIG_LETTERS[i] for i in range(len(table))]
    shares = {METRIC_LABELS[key] for key in SHARES}
    rows = []
    for column in table.columns.drop("configuration"):
        show = _percent if column in shares else _shown
        rows.append({"metric": column,
                     **{letter: show(v) for letter, v in zip(letters, table[column])}})
    return pd.DataFrame(rows)


def colour_rows(table: pd.DataFrame, labels: Sequence[str]) -> Any:
    """A pandas Styler colouring each row's ``configuration`` cell in its colour."""
    colours = {name: colour(i) for i, name in enumerate(labels)}

    def paint(value: object) -> str:
        found = colours.get(str(value))
        return f"color:{found};font-weight:700" if found else ""

    return table.style.map(paint, subset=["configuration"]).format(precision=3, na_rep="–",
                                                                   thousands=",")


# -- figures ------------------------------------------------------------------------------
def curve_figure(curves: Mapping[str, Sequence[Mapping[str, Any]]], metric: str,
                 x: str = "step", marks: Mapping[str, int] | None = None,
                 presentation: bool = False,
                 step_axes: Mapping[str, str] | None = None,
                 landmarks: Mapping[str, Sequence[tuple[float, str]]] | None = None,
                 ) -> go.Figure:
    """``metric`` against ``x`` (``"step"`` or ``"vocab_size"``), one line per configuration
    in its colour; ``marks`` puts a dot at each configuration's current ``x``;
    ``landmarks``: label -> where its training's phase changes, on ``x``
    (:func:`bpeviz.analysis.curves.curve_landmarks`), a dashed line in its colour.

    ``curves``: label -> rows of :func:`bpeviz.analysis.curves.metric_curve`. ``step_axes``: label
    -> what its steps are ("merge step", "pruning round"; default "merge step"). Against
    steps, a second kind of step gets its own x axis, at the top: a pruning round is not
    a merge step, so the two never share a scale.
    """
    fig = go.Figure()
    names = {name: (step_axes or {}).get(name, "merge step") for name in curves}
    kinds = list(dict.fromkeys(names.values())) if x == "step" else []
    x_title = kinds[0] if kinds else "vocabulary size (tokens)"
    y_title = chart_text(METRIC_LABELS.get(metric, metric))
    for i, (name, rows) in enumerate(curves.items()):
        xs = [r[x] for r in rows]
        ys = [r[metric] for r in rows]
        axis = "x2" if kinds and names[name] != kinds[0] else "x"
        title = names[name] if x == "step" else x_title
        fig.add_trace(go.Scatter(
            x=xs, y=ys, mode="lines", name=chart_text(name), xaxis=axis,
            line={"color": colour(i), "width": 3 if presentation else 2},
            hovertemplate=f"{chart_text(title)} %{{x:,}}: %{{y:,.3f}}<extra></extra>"))
        if landmarks and landmarks.get(name):
            add_landmarks(fig, landmarks[name], colour(i), axis,
                          prefix=f"{CONFIG_LETTERS[i % len(CONFIG_LETTERS)]}: "
                          if len(curves) > 1 else "")
        if marks and name in marks:
            at = min(range(len(xs)), key=lambda k: abs(xs[k] - marks[name])) if xs else None
            if at is not None:
                fig.add_trace(go.Scatter(x=[xs[at]], y=[ys[at]], mode="markers", xaxis=axis,
                                         showlegend=False, hoverinfo="skip",
                                         marker={"color": colour(i), "size": 11}))
    fig.update_layout(xaxis_title=x_title, yaxis_title=y_title, height=320,
                      margin={"t": 30, "b": 10}, font=_font(presentation),
                      legend={"orientation": "h", "y": 1.15})
    if len(kinds) > 1:
        def span(bottom: bool) -> list[float]:  # both axes padded alike: ends line up
            last = max((r["step"] for name, rows in curves.items()
                        if (names[name] == kinds[0]) == bottom for r in rows), default=0)
            pad = max(last, 1) * 0.03
            return [-pad, last + pad]

        top = span(False)
        fig.update_layout(xaxis={"range": span(True)},
                          xaxis2={"title": {"text": " / ".join(kinds[1:])}, "overlaying": "x",
                                  "side": "top", "showgrid": False, "tickformat": ",d",
                                  "range": top, **({"dtick": 1} if top[1] <= 21 else {})},
                          margin={"t": 80, "b": 10}, legend={"orientation": "h", "y": -0.3})
    return fig


def step_token_figure(series: Mapping[str, Sequence[int]], step_name: str,
                      presentation: bool = False) -> go.Figure:
    """Corpus token count against the steps of one kind (``step_name``: "pruning round"),
    one line with markers per training (:func:`bpeviz.present.figures.token_count_figure` draws
    merges)."""
    fig = go.Figure()
    for name, counts in series.items():
        fig.add_trace(go.Scatter(
            x=np.arange(len(counts)), y=np.asarray(counts, dtype=np.int64),
            mode="lines+markers", name=chart_text(name),
            hovertemplate=f"{chart_text(step_name)} %{{x}}: %{{y:,}} tokens<extra></extra>"))
    fig.update_layout(xaxis_title=step_name, yaxis_title="tokens in the corpus", height=300,
                      xaxis={"dtick": 1} if max(map(len, series.values()), default=0) <= 20
                      else {},
                      margin={"t": 30, "b": 10}, font=_font(presentation),
                      legend={"orientation": "h", "y": 1.12})
    return fig


__all__ = ["CONFIG_COLOURS", "colour", "colour_rows", "curve_figure", "legend_html",
           "metrics_table", "script_table", "step_token_figure"]
