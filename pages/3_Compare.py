"""Compare: two or three configurations cut the same text, moved together step by step."""

import contextlib

import streamlit as st

from bpeviz import algorithms, ui
from bpeviz.analysis import compare as cmp
from bpeviz.analysis.curves import CURVE_POINTS, curve_landmarks
from bpeviz.core.limits import LIMITS
from bpeviz.present import compare_history, figures, render_compare
from bpeviz.ui import compare as ui_compare
from bpeviz.ui import languages_view, stage

ctx = ui.page("Compare", uses_training=False)
byte_style, strong = ctx.byte_style, ctx.presentation
about = ui.md_escape(
    f"Each configuration trains on the sidebar's corpus ({ctx.corpus_name}), or is the "
    "tokenizer file you opened on the Vocabulary page, and cuts the same text. One control "
    "moves them all; where they cut the text differently is marked.")
if strong:  # on a projector the page's description waits behind the title's "?"
    st.title("Compare configurations", help=about)
else:
    st.title("Compare configurations")
    st.caption(about)

if strong:
    # On a projector the cuts are what the audience must see: the text, then the position
    # control and the cuts, on the first screen; the settings fold away below them.
    text_area = st.container()
    stage_area = st.container()
    settings_area = st.expander("Settings: how many configurations, each one's algorithm "
                                "and options, a tokenizer file to compare")
    count_area = file_row = settings_area
else:
    # On a screen the settings come first but folded, one line each (what A, B and C
    # are), so that the text and the cuts are on the first screen at 1280x720 too.
    settings_area = st.container()
    with settings_area:
        count_area, file_row = st.columns([1, 2], vertical_alignment="bottom")
    text_area = st.container()
    stage_area = st.container()

with count_area:
    n = ui.bound(st.segmented_control, "Configurations", "cmp_n", [2, 3], required=True,
                 format_func=lambda k: f"{k} side by side")
with text_area:
    if not ui.get("text") and not st.session_state.get("text_edited"):
        ui.put("text", ctx.try_text or "The tokenizer learns tokens")
    text = ui.bound(st.text_area, "Text to cut", "text", height=68,
                    max_chars=LIMITS.input_chars,
                    then=lambda: st.session_state.__setitem__("text_edited", True),
                    help="The same text as on Tokenize: it stays when you switch pages.")

with file_row:
    file_area = (st.container() if strong else  # an expander cannot hold another
                 st.expander("Compare a tokenizer file too",
                             expanded=ui.imported() is not None))
    with file_area:
        ui.import_widget()
        st.caption("tokenizer.json, vocab.json + merges.txt, *.tiktoken, vocab.txt or "
                   "training.json. An opened file can be any configuration: choose it "
                   "under \"Tokenizer\" in its settings.")

with settings_area:
    if not strong:  # each fold's top edge in its configuration's colour, as in the cuts
        st.html("<style>" + "".join(
            f".st-key-cmp_config_{i} details{{border-top:4px solid "
            f"{render_compare.colour(i - 1)}}}" for i in range(1, n + 1)) + "</style>")
    configurations = []
    for i, column in enumerate(st.columns(n, gap="large" if strong else "medium"), 1):
        with column:
            if strong:
                colour = render_compare.colour(i - 1)
                st.html(f'<h3 style="border-bottom:4px solid {colour}">Configuration '
                        f'{render_compare.CONFIG_LETTERS[i - 1]}</h3>')
                fold = contextlib.nullcontext()
            else:  # the key keeps the fold open while its label follows the settings
                fold = st.expander(ui_compare.summary(i), key=f"cmp_config_{i}")
            problem = None
            with fold:
                try:
                    configurations.append(ui_compare.configuration(ctx, i))
                except ValueError as err:
                    problem = err
            if problem is not None:  # said outside the fold, where it is seen
                ui.error(problem)
if len(configurations) < 2:
    with stage_area:
        st.info("Compare needs at least two usable configurations: fix the one "
                + ("in the settings below." if strong else "above."))
    st.stop()
labels = [c.label for c in configurations]
with stage_area:  # runs of a script written without spaces: said where the merges are shown
    for c in configurations:
        corpus = getattr(c.training, "corpus", None)  # (a Unigram training keeps none)
        if not c.opened and corpus is not None:
            ui.unspaced_warning(corpus, f"{c.label.split(':')[0]}: ")


@st.fragment
def lockstep() -> None:
    """The position control and everything it moves. The browser steps the cuts by itself
    (keys, drag, Play); Python hears the settled position and reruns only this."""
    # The bar and the cuts come first, right under the text (the bar says what moves), and
    # the two choices (what moves them, only the differences) share a row under the cuts:
    # at 1280x720 the cuts of the sample's text are then on the first screen, on a
    # projector every configuration's. (Containers are laid out in the order they are
    # made, whatever order they are filled.)
    stage_top = st.container()
    mode_area, toggle_area = st.columns([3, 2], vertical_alignment="bottom")
    with stage_top:
        position = ui_compare.positions(configurations, mode_area)
    steps, notes = position.steps, position.notes
    if not text:
        st.info("Type some text above to see how each configuration cuts it.")
        return
    with toggle_area:
        only = ui.bound(st.toggle, "Show only the differences", "cmp_only",
                        help="Draw only the runs of tokens that some configuration cuts "
                             "differently.")
    with stage_top:  # the cuts first, what A, B and C are after them
        sent = ui_compare.cuts(configurations, position, text, byte_style, strong, only)
        st.html(render_compare.legend_html(labels))
    # the cuts at this position from the histories sent (what the browser draws; equal to
    # the engine's compare() at these steps, tests/analysis/test_compare_history.py), with no
    # encoder built for a step never seen
    result = compare_history.compare_at(sent, position.value)
    st.caption("Hover a token for its id. A dashed frame marks tokens cut differently from "
               "another configuration; whitespace at a token's ends does not count. "
               + stage.keys_caption("position"))

    # below the first screen, what Python draws for the settled position: the browser
    # reports a position only once the keys stop while none of it is in view
    with st.container(key=stage.settles_key("compare")):
        st.subheader("Metrics at this position")
        for config, step, note in zip(configurations, steps, notes):
            size = cmp.vocabulary_size(config.training, step)
            st.caption(ui.md_escape(f"{config.label}: {cmp.step_unit(config.training)} "
                                    f"{step:,} of {cmp.last_step(config.training):,}, "
                                    f"{size:,} tokens in the vocabulary"
                                    + (f" ({note})" if note else "") + "."))
        table = render_compare.metrics_table(
            [(c.label, c.step, c.vocab_size, cmp.metrics(text, c.tokens)) for c in result.cuts])
        corpus_tokens = [cmp.corpus_tokens(c.training) for c in configurations]
        table["tokens (corpus)"] = [None if counts is None else int(counts[s])
                                    for counts, s in zip(corpus_tokens, steps)]
        # each one's share of the differences the browser's sentence over the cuts counts
        # (the sentence steps with the cuts, so the browser draws it; this row follows Python's
        # settled position, as the rest of the table does)
        table["token boundaries cut differently"] = [c.own_differing for c in result.cuts]
        axes = {c.label: ui_compare.step_name(c.training) for c in configurations}
        kinds = list(dict.fromkeys(axes.values()))
        if kinds != ["merge step"]:  # say which kind of step each column's number counts
            table = table.rename(columns={"step": " / ".join(kinds)})
        st.html(render_compare.legend_html(labels))  # the letters of the columns, in colour
        st.dataframe(render_compare.by_configuration(table), hide_index=True, width="stretch",
                     column_config={"metric": st.column_config.TextColumn(
                         "metric", help=f"Words, for every algorithm: {cmp.WORD_DEFINITION}")})
        st.caption("One column per configuration (A, B, C as named above); hover the "
                   "“metric” header for what a word is (the same for every algorithm). "
                   "Tokens (corpus): the tokens the whole corpus takes at this step "
                   "(empty for an opened file). Token boundaries cut differently: the places "
                   "where this configuration cuts the text and another does not (the tokens on "
                   "them are framed above).")
        by_script = [cmp.metrics_by_script(text, c.tokens) for c in result.cuts]
        letters = [render_compare.CONFIG_LETTERS[i] for i in range(len(labels))]
        scripts = render_compare.script_table(list(zip(letters, by_script)))
        if len(scripts):
            st.markdown("**By script** (the script most of a word's letters are in; hover a "
                        "header for what it counts)")
            st.html(render_compare.script_table_html(scripts, letters))

        st.subheader("Metrics as the merges go on" if kinds == ["merge step"] else
                     "Metrics as training goes on")
        cols = st.columns(3)
        with cols[0]:
            metric = ui.bound(st.selectbox, "Metric", "cmp_metric",
                              [k for k in cmp.METRIC_LABELS if k != "words"],
                              format_func=cmp.METRIC_LABELS.get,
                              help=f"Words, for every algorithm: {cmp.WORD_DEFINITION}")
        with cols[1]:
            x = ui.bound(st.radio, "Against", "cmp_x", ["step", "vocab_size"], horizontal=True,
                         format_func={"step": " / ".join(kinds),
                                      "vocab_size": "vocabulary size"}.get)
        present = list(dict.fromkeys(s for found in by_script for s in found))
        with cols[2]:
            if ui.get("cmp_script") not in ["all", *present]:
                ui.put("cmp_script", "all")
            script = ui.bound(st.selectbox, "Words", "cmp_script", ["all", *present],
                              format_func=lambda s: "all words" if s == "all" else f"{s} words")
        curves = {}
        for config in configurations:
            rows = ui_compare.curve(config.training, text, by_script=script != "all")
            curves[config.label] = [r for r in rows if script == "all" or r["script"] == script]
        marks = {c.label: (c.step if x == "step" else c.vocab_size) for c in result.cuts}
        phases = {c.label: curve_landmarks(c.training, x) for c in configurations}
        st.plotly_chart(render_compare.curve_figure(curves, metric, x, marks, strong, axes,
                                                    phases),
                        config={"displaylogo": False, "typesetMath": False}, key="compare_curve")
        st.caption(f"Up to {CURVE_POINTS} evenly spread steps per configuration (and the steps "
                   "either side of a dashed line, where a training's next stage starts); the "
                   "dots are the positions shown above.")
        if x == "step" and len(kinds) > 1:
            others = [(i, c) for i, c in enumerate(configurations) if axes[c.label] != kinds[0]]
            letters = ", ".join(render_compare.CONFIG_LETTERS[i] for i, _ in others)
            why = "; ".join(dict.fromkeys(
                algorithms.get(c.training.algorithm).steps_scale for _, c in others
                if algorithms.get(c.training.algorithm).steps_scale))
            st.caption(ui.md_escape(
                f"{letters}: against {' / '.join(kinds[1:])}s, on the top axis"
                + (f"; {why}" if why else "") + ". Against vocabulary size every configuration "
                "shares one axis."))


with stage_area:
    lockstep()
trained = [c for c in configurations if not c.opened]
for kind in dict.fromkeys(ui_compare.step_name(c.training) for c in trained):
    shown = [c for c in trained if ui_compare.step_name(c.training) == kind]
    series = {c.label: cmp.corpus_tokens(c.training) for c in shown}
    st.markdown(f"**Corpus tokens against {kind}**")
    if kind == "merge step":
        fig = figures.token_count_figure(
            series, presentation=strong,
            landmarks={c.label: curve_landmarks(c.training) for c in shown})
    else:
        fig = render_compare.step_token_figure(series, kind, presentation=strong)
    for trace, config in zip(fig.data, shown):
        trace.line.color = render_compare.colour(labels.index(config.label))
    st.plotly_chart(fig, config={"displaylogo": False, "typesetMath": False},
                    key="compare_tokens" if kind == "merge step" else f"compare_tokens_{kind}")
    if kind == "merge step":
        st.caption("Each line is the number of tokens the whole corpus takes after each "
                   "merge. Byte-level BPE starts higher: every character is one to four "
                   "bytes.")
    else:
        cut = "; ".join(dict.fromkeys(algorithms.get(c.training.algorithm).steps_cut
                                      for c in shown))
        st.caption(ui.md_escape(
            f"Each line is the number of tokens the whole corpus takes after each {kind}"
            + (f" ({cut})" if cut else "") + ". Its own chart: its steps are not merge "
            "steps."))
languages_view.compare_curves(ctx, configurations, strong)  # one corpus per language
