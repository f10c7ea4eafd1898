"""Compare: two or three configurations trained on the same corpus, side by side."""

import pandas as pd
import streamlit as st

from bpeviz import render, ui, views
from bpeviz.limits import LIMITS

ctx = ui.page("Compare")
byte_style, strong = ctx.byte_style, ctx.presentation
st.title("Compare configurations")
st.caption(ui.md_escape(
    f"Every configuration trains on the same corpus ({ctx.corpus_name}) and tokenizes the "
    "same text. The sidebar's corpus applies here; the settings below are this page's own."))

n = ui.bound(st.segmented_control, "Configurations", "cmp_n", [2, 3], required=True,
             format_func=lambda k: f"{k} side by side")
if not ui.get("text"):
    ui.put("text", (ctx.sample.try_text if ctx.sample else "") or "The tokenizer learns tokens")
text = ui.bound(st.text_area, "Text to tokenize", "text", height=90,
                max_chars=LIMITS.input_chars,
                then=lambda: st.session_state.__setitem__("text_edited", True))


def config_widgets(i: int) -> tuple[str, dict, str]:
    """The widgets of configuration ``i``; returns (name, train options, pre-tokenizer)."""
    algo = ui.bound(st.selectbox, "Algorithm", f"c{i}_algo", list(ui.ALGORITHM_LABELS),
                    format_func=ui.ALGORITHM_LABELS.get)
    merges = ui.bound(st.number_input, "Merges", f"c{i}_merges", min_value=0,
                      max_value=1_000_000, step=10)
    pretok = ui.bound(st.selectbox, "Pre-tokenizer", f"c{i}_pretok",
                      list(ui.PRETOKENIZER_LABELS), format_func=ui.pretokenizer_label(algo))
    a, b = st.columns(2)
    with a:
        marker = ui.bound(st.selectbox, "Marker (BPE)", f"c{i}_marker", list(ui.MARKER_LABELS),
                          disabled=algo != "bpe")
    with b:
        scoring = ui.bound(st.selectbox, "Scoring (WordPiece)", f"c{i}_scoring",
                           list(ui.SCORING_LABELS), disabled=algo != "wordpiece",
                           format_func=lambda s: s)
    tie = ui.bound(st.radio, "Tie rule", f"c{i}_tie", list(ui.TIE_LABELS),
                   format_func=ui.TIE_LABELS.get, help=ui.TIE_HELP)
    options = ui.train_options(algo, merges=merges, marker=marker, scoring=scoring, tie=tie)
    details = [f"{merges} merges", ui.pretokenizer_for(pretok, algo)]
    if algo == "bpe" and marker != "none":
        details.append(f"marker {marker}")
    if algo == "wordpiece":
        details.append(scoring)
    name = f"{'ABC'[i - 1]}: {ui.ALGORITHM_LABELS[algo]} ({', '.join(details)})"
    return name, options, pretok


columns = st.columns(n, gap="large")
results = []
for i, column in enumerate(columns, 1):
    with column:
        st.subheader(f"Configuration {'ABC'[i - 1]}")
        name, options, pretok = config_widgets(i)
        try:
            training = ui.train_variant(ctx, options, pretok, f"Training {'ABC'[i - 1]}")
        except ValueError as err:
            ui.error(err)
            continue
        snap = ui.snapshot(training, len(training.merges))
        try:
            tokens = list(snap.encode(text)) if text else []
        except ValueError as err:
            ui.error(err)
            tokens = []
        except (ImportError, AttributeError, NotImplementedError):
            st.info("Encoding is not available in this version of bpeviz.")
            tokens = []
        if tokens:
            st.html(render.tokens_html(text, tokens, byte_style, False, strong))
        st.caption(ui.md_escape(f"{len(tokens):,} tokens. {training.stop_message}"))
        results.append((name, training, tokens))

if results:
    st.subheader("Metrics")
    rows = []
    for name, training, tokens in results:
        stats = views.summary(training)
        unk = sum(t.unk for t in tokens)
        rows.append({
            "configuration": f"{name[0]}: {ui.ALGORITHM_LABELS[training.algorithm]}",
            "vocabulary": stats["vocabulary"],
            "merges": stats["merges"],
            "tokens (text)": len(tokens),
            "chars/token (text)": round(len(text) / len(tokens), 3) if tokens else None,
            "[UNK] rate (text)": round(unk / len(tokens), 4) if tokens else None,
            "tokens (corpus)": stats["corpus tokens"],
            "chars/token (corpus)": round(float(stats["chars per token"]), 3),
            "stopped": training.stop_reason,
        })
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")
    st.subheader("Corpus tokens against merge step")
    st.plotly_chart(
        render.token_count_figure({name: t.token_counts() for name, t, _ in results},
                                  presentation=strong),
        config={"displaylogo": False, "typesetMath": False}, key="compare_tokens")
    st.caption("Each line is the number of tokens the whole corpus takes after each merge. "
               "Byte-level BPE starts higher: every character is one to four bytes.")
