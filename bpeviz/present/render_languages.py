"""A training on one corpus per language, drawn (parity-aware BPE): which language got a
merge and on which numbers, each language's tokens per character at a step, and the
curves of it against the step. Pure functions, no streamlit; user text (language names)
escaped here.

They ask the training (``languages``, ``language_tokens()``, ``characters``,
``choice(k)``, ``why(k)``, ``measured``: :class:`bpeviz.algorithms.parity_train.ParityTraining`),
never its algorithm's name.

>>> from bpeviz import train
>>> t = train({"en": "the cat, the hat", "de": "die Katze, der Hut"}, algorithm="parity",
...           merges=3)
>>> language_table(t, 3)[["language", "tokens", "merges so far"]].values.tolist()
[['en', 14, 1], ['de', 16, 2]]
>>> "went to" in choice_html(t, 2)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from bpeviz.analysis.metrics import script_of
from bpeviz.present.render import bdi, chart_text, esc, muted_html

#: how a language's tokens per character is named in tables, charts and hovers
RATE = "tokens per character"


def tokens(training: Any) -> dict[str, np.ndarray]:
    """Each language's tokens after every step, step 0 first, on the text the rule counts
    (the paper's measure: on parallel text, the language with more tokens is served
    worse)."""
    counts = np.asarray(training.language_tokens(), dtype=np.int64)
    return {lang: counts[:, i] for i, lang in enumerate(training.languages)}


def rates(training: Any) -> dict[str, np.ndarray]:
    """Each language's tokens per character after every step, step 0 first."""
    tokens = np.asarray(training.language_tokens(), dtype=np.float64)
    chars = np.maximum(np.asarray(training.characters, dtype=np.float64), 1.0)
    return {lang: tokens[:, i] / chars[i] for i, lang in enumerate(training.languages)}


def language_table(training: Any, step: int, texts: Mapping[str, str] | None = None
                   ) -> pd.DataFrame:
    """One row per language at ``step``: its script (from ``texts``, when given), its
    characters and tokens (on the text the rule counts), tokens per character, and the
    merges it got up to ``step``."""
    tokens = training.language_tokens()[step]
    got = [c.language for c in training.choices[:step]]
    rows = []
    for i, lang in enumerate(training.languages):
        chars = int(training.characters[i])
        row = {"language": lang}
        if texts is not None:
            row["script"] = _main_script(texts.get(lang, ""))
        row.update({"characters": chars, "tokens": int(tokens[i]),
                    RATE: round(tokens[i] / chars, 4) if chars else None,
                    "merges so far": got.count(lang)})
        rows.append(row)
    return pd.DataFrame(rows)


def _main_script(text: str) -> str:
    """The script most of a text's words are in (by characters)."""
    weights: dict[str, int] = {}
    for word in text.split()[:2000]:
        script = script_of(word)
        weights[script] = weights.get(script, 0) + len(word)
    return max(weights, key=weights.__getitem__) if weights else ""


def choice_html(training: Any, step: int) -> str:
    """Which language got merge ``step`` and why, in a sentence with its numbers, and a
    row per language: the number compared, its tokens per character before the merge,
    the chosen one marked."""
    c = training.choice(step)
    sentence = f'<p class="bv-why-language">{esc(training.why(step))}</p>'
    chars = training.characters
    rows = []
    for i, lang in enumerate(training.languages):
        rate = c.tokens[i] / chars[i] if chars and chars[i] else None
        compared = f"{c.scores[i]:.4g}" if c.basis == "ratio" else f"{int(c.scores[i]):,}"
        mark = "◀ got merge " + f"{step:,}" if lang == c.language else (
            "passed over" if lang in c.passed_over else
            "no pair left" if lang in c.exhausted else "")
        on = ' class="bv-on"' if lang == c.language else ""
        rows.append(f"<tr{on}><td>{bdi(lang)}</td><td>{esc(compared)}</td>"
                    f"<td>{'' if rate is None else f'{rate:.3f}'}</td>"
                    f"<td>{esc(mark)}</td></tr>")
    head = ("compared (its compression over its ratio)" if c.basis == "ratio" else
            f"tokens on its {training.measured}")
    table = ('<table class="bv-why-languages"><thead><tr><th>language</th>'
             f"<th>{esc(head)}</th><th>{RATE}</th><th></th></tr></thead>"
             f"<tbody>{''.join(rows)}</tbody></table>")
    return (f'<div class="bv-why-choice" data-language="{esc(c.language or "")}">'
            f"{sentence}{table}</div>")


def ranked_elsewhere_html() -> str:
    """Where the generic Why panel would name rivals over the whole corpus: why it does not."""
    return muted_html(
        "The counts below are over every language's words together. The pair merged was "
        "the most frequent one of the language that got the merge, so the pairs most "
        "frequent over the whole corpus were not its rivals.")


def rate_figure(series: Mapping[str, Sequence[float] | np.ndarray],
                steps: Mapping[str, Sequence[int]] | None = None, step: int | None = None,
                presentation: bool = False, dashes: Mapping[str, str] | None = None,
                colours: Mapping[str, str] | None = None, measure: str = RATE) -> go.Figure:
    """``measure`` (tokens per character, or tokens) against the step, a line per series
    (a language, or on Compare a language of one configuration); ``steps``: each series'
    x values (every step when not given); ``dashes``/``colours``: a line style per
    series."""
    fig = go.Figure()
    number = ".3f" if measure == RATE else ",.0f"
    for name, values in series.items():
        y = np.asarray(values, dtype=np.float64)
        x = np.asarray(steps[name]) if steps is not None else np.arange(len(y))
        line: dict[str, Any] = {}
        if dashes and name in dashes:
            line["dash"] = dashes[name]
        if colours and name in colours:
            line["color"] = colours[name]
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name=chart_text(name), line=line,
                                 hovertemplate=f"{chart_text(name)}, step %{{x}}: "
                                               f"%{{y:{number}}} {measure}<extra></extra>"))
    if step is not None:
        fig.add_vline(x=step, line={"dash": "dot", "width": 2})
    fig.update_layout(xaxis_title="merge step", yaxis_title=measure, height=360,
                      margin={"t": 30, "b": 10}, font={"size": 17 if presentation else 12},
                      legend={"orientation": "h", "y": 1.15})
    return fig


CSS = ("<style>.bv-why-languages{border-collapse:collapse;margin:.25rem 0 .5rem}"
       ".bv-why-languages td,.bv-why-languages th{padding:.1rem .6rem;text-align:left}"
       ".bv-why-languages tr.bv-on{font-weight:700}"
       ".bv-why-language{font-weight:600}</style>")
