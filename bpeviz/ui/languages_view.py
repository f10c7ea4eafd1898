"""Explore's view of a training on one corpus per language (parity-aware BPE), at the
page's step: each language's tokens per character and merges so far, the per-script
table at step 0 and now, and each language's curve against the step. Draws nothing for
a training of one corpus (it asks the training: :func:`bpeviz.core.protocol.languages`).
"""

from __future__ import annotations

import streamlit as st

from bpeviz.analysis.metrics import metrics_by_script
from bpeviz.core import protocol
from bpeviz.present import render_compare, render_languages
from bpeviz.present.render import md_escape
from bpeviz.ui.compare import curve
from bpeviz.ui.context import Context

#: the characters of each language's text the per-script table encodes at a step
SCRIPT_CHARS = 20_000


def language_texts(ctx: Context) -> dict[str, str]:
    """Each language's training text as the sidebar gave it (empty for one corpus)."""
    if ctx.languages is None:
        return {}
    return {lang: data.decode("utf-8", "replace") for lang, data in ctx.languages.texts.items()}


def at_step(ctx: Context, step: int) -> None:
    """The languages at ``step``: a table, the per-script table, the curves."""
    training = ctx.training
    if not protocol.languages(training):
        return
    texts = language_texts(ctx)
    st.subheader("Languages at this step")
    table = render_languages.language_table(training, step, texts or None)
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={render_languages.RATE: st.column_config.NumberColumn(
                     format="%.3f")})
    st.caption(md_escape(
        f"Counted on each language's {training.measured}, after merge {step:,} (step 0: "
        "bytes). The numbers beside the card, and “Why this merge?”, say at every step "
        "which language got the merge and on which numbers."))
    if texts:
        joined = "\n".join(text[:SCRIPT_CHARS] for text in texts.values())
        start = metrics_by_script(joined, ctx.at(0).encode(joined))
        now = metrics_by_script(joined, ctx.at(step).encode(joined))
        letters = ["start", f"step {step:,}"]
        scripts = render_compare.script_table(list(zip(letters, [start, now])))
        if len(scripts):
            st.markdown("**By script** (the script most of a word's letters are in; hover a "
                        "header for what it counts), at step 0 and at this step")
            st.html(render_compare.script_table_html(scripts, letters))
    measure = st.radio("Each language's curve of", [render_languages.RATE, "tokens"],
                       horizontal=True, key="language_measure",
                       help="Tokens: what the rule compares (the paper's measure, on "
                            "parallel text); tokens per character: the same over the "
                            "length of each text.")
    series = (render_languages.rates if measure == render_languages.RATE
              else render_languages.tokens)(training)
    fig = render_languages.rate_figure(series, step=step, presentation=ctx.presentation,
                                       measure=measure)
    st.plotly_chart(fig, config={"displaylogo": False, "typesetMath": False},
                    key="language_rates")
    st.caption(md_escape(
        f"Each line is one language's {measure} on its {training.measured} after each "
        "merge; the dotted line is this step."))


#: the characters of each language's text Compare's curves encode
CURVE_CHARS = 20_000
#: a line style per configuration (A, B, C), the languages told apart by colour
DASHES = ("solid", "dash", "dot")


def compare_curves(ctx: Context, configurations: list, strong: bool) -> None:
    """Compare, when the sidebar's corpus is one per language: each language's tokens
    per character against the step for every configuration (a parity-aware training
    beside standard BPE's on all the languages together). Nothing for one corpus."""
    texts = language_texts(ctx)
    trained = [c for c in configurations if not c.opened
               and protocol.step_name(c.training) == "merge"]
    if not texts or not trained:
        return
    palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
               "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]
    series, steps, dashes, colours = {}, {}, {}, {}
    for i, config in enumerate(trained):
        letter = config.label.split(":")[0]
        for j, (lang, text) in enumerate(texts.items()):
            text = text[:CURVE_CHARS]
            rows = curve(config.training, text)
            name = f"{letter} {lang}"
            series[name] = [r["tokens"] / max(len(text), 1) for r in rows]
            steps[name] = [r["step"] for r in rows]
            dashes[name] = DASHES[i % len(DASHES)]
            colours[name] = palette[j % len(palette)]
    st.markdown("**Each language's tokens per character against the merge step**")
    fig = render_languages.rate_figure(series, steps, presentation=strong, dashes=dashes,
                                       colours=colours)
    st.plotly_chart(fig, config={"displaylogo": False, "typesetMath": False},
                    key="compare_language_rates")
    st.caption(md_escape(
        "One colour per language, one line style per configuration ("
        + ", ".join(f"{c.label.split(':')[0]} {DASHES[i % len(DASHES)]}"
                    for i, c in enumerate(trained))
        + "). Every configuration trains on the sidebar's languages; one trained on one "
          "corpus sees them together, parity-aware BPE one corpus each."))
