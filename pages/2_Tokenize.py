"""Tokenize: any text, cut into the tokens of the chosen step, one coloured span each."""

import pandas as pd
import streamlit as st

from bpeviz import ui
from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis import views
from bpeviz.core.limits import LIMITS
from bpeviz.core.sampling import dropout_sampler, segmentation_cloud
from bpeviz.core.tracing import text_words
from bpeviz.present import glossary, render
from bpeviz.present.render_dropout import CLOUD_ROWS, dropout_cloud_html
from bpeviz.present.render_explain import trace_html
from bpeviz.text import display
from bpeviz.ui import pretokens_view, stage
from bpeviz.ui.page_setup import own_view
from bpeviz.ui.unigram import cloud_subject

ctx = ui.page("Tokenize")
own_view(ctx, "Tokenize")  # an algorithm with its own view of the page (Unigram's Viterbi)
byte_style, strong = ctx.byte_style, ctx.presentation
st.title("Tokenize any text")

#: the longest text whose tokens at every step go to the browser (about 0.2 s and 200 KB
#: for the 2,700-character tour sample with 1,000 merges)
STAGE_CHARS = 5_000
DEFAULT_TEXT = "The tokenizer learns tokens: lowest newer 自然语言处理 ありがとう 👍🏽"


def _edited() -> None:
    st.session_state["text_edited"] = True


if not ui.get("text") and not st.session_state.get("text_edited"):
    ui.put("text", ctx.try_text or DEFAULT_TEXT)

opened = ui.imported()
if opened is None and ui.get("tok_source") == "imported":
    ui.put("tok_source", "training")
if opened is not None:
    ui.bound(st.radio, "Tokenizer", "tok_source", ["training", "imported"], horizontal=True,
             format_func={"training": "the training in the sidebar",
                          "imported": ui.md_escape(f"the opened file ({opened[0]})")}.get)
use_imported = opened is not None and ui.get("tok_source") == "imported"
training = opened[1] if use_imported else ctx.training
step_name = "imp_step" if use_imported else "step"

text = ui.bound(st.text_area, "Text", "text", height=140, max_chars=LIMITS.input_chars,
                then=_edited, help=f"Up to {LIMITS.input_chars:,} characters. "
                                   "Press Ctrl+Enter to tokenize.")


@st.fragment
def tokenize() -> None:
    # the browser steps the bar and the tokens (the stage component); an opened file has
    # its own step setting, and its tokens follow when the step settles
    step = stage.controls(training, setting=step_name, empty_note=True)
    snap = ui.snapshot(training, step)
    ws_col, pre_col = st.columns(2)
    show_ws = ws_col.toggle("Show whitespace (· space, → tab, ↵ newline)", key="show_ws")
    with pre_col:
        show_pre = pretokens_view.toggle()
    if not text:
        st.info("Type some text above.")
        return
    try:
        tokens = list(snap.encode(text))
    except ValueError as err:
        ui.error(err)
        return
    n_bytes = len(text.encode("utf-8", "surrogatepass"))
    unk = sum(t.unk for t in tokens)
    partial = sum(t.partial for t in tokens)
    cols = st.columns(6)
    cols[0].metric("Tokens", f"{len(tokens):,}")
    cols[1].metric("Characters", f"{len(text):,}")
    cols[2].metric("Bytes", f"{n_bytes:,}")
    cols[3].metric("Characters per token", f"{len(text) / len(tokens):.2f}" if tokens else "–")
    cols[4].metric("[UNK]", f"{unk:,}")
    cols[5].metric("Partial characters", f"{partial:,}",
                   help="Byte-level tokens holding only part of a character")
    if show_pre:  # the pre-tokenizer's cut first, this step's tokens inside each piece
        pretokens_view.draw(training, text, tokens, byte_style, strong, show_ws,
                            notes=glossary.ChipNotes(training, byte_style))
        st.markdown("**Tokens**")
    if use_imported or len(text) > STAGE_CHARS:
        st.html(render.tokens_html(text, tokens, byte_style, show_ws, strong,
                                   notes=glossary.ChipNotes(training, byte_style)))
        if not use_imported:
            st.caption(f"Texts over {STAGE_CHARS:,} characters are redrawn when the step "
                       "settles, not while it moves.")
    else:
        stage.tokens(training, text, byte_style, strong, show_ws)
    st.caption("Each token is coloured by its id, so a token keeps its colour at every step. "
               "Hover a token for its id, text and bytes. Dashed: part of a character; "
               "striped red: unknown.")
    legend = glossary.legend_html(glossary.token_notes(training, text, tokens, byte_style))
    if legend:
        st.html(legend)
    why_this_split(snap)
    if get_algorithm(training.algorithm).encoder == "merges":  # BPE, BBPE: merges to drop
        dropout_cloud(snap)
    st.markdown("**Token ids**")
    st.code(" ".join(str(t.id) for t in tokens), language=None, wrap_lines=True)
    with st.expander("Token table"):
        st.dataframe(pd.DataFrame({
            "id": [t.id for t in tokens],
            "token": [display.label(t.text, byte_style) for t in tokens],
            "text": [display.visible(text[t.start:t.end]) for t in tokens],
            "bytes": [bytes(t.bytes).hex(" ") for t in tokens],
            "start": [t.start for t in tokens],
            "end": [t.end for t in tokens],
            "partial": [t.partial for t in tokens],
            "unknown": [t.unk for t in tokens],
        }), hide_index=True, width="stretch")


def why_this_split(snap) -> None:
    """Pick a word of the text: the merges (or longest matches) that cut it, in order."""
    words = text_words(training, text)
    if not words:
        return
    with st.expander("Why this split?", expanded=False):
        chosen = st.selectbox("Word", words, key="split_word",
                              format_func=lambda w: display.visible(w)[:80],
                              help="A word of the text above, as the pre-tokenizer cuts it")
        try:
            found = snap.trace(chosen, cut=True)
        except ValueError as err:
            ui.error(err)
            return
        st.html(trace_html(found, training, byte_style, strong))
        made = views.created_at(training)
        built = [i for i in dict.fromkeys(found.ids) if 0 <= i < len(made) and made[i]]
        if built:
            st.caption("How its merged tokens were built (each token above the two it "
                       "was made from, with the step and the count of that merge):")
            notes = glossary.ChipNotes(training, byte_style)
            st.html("".join(render.merge_tree_html(views.merge_tree(training, i), byte_style,
                                                   strong, notes) for i in built[:6]))


#: at most this many characters of the text are sampled for the dropout cloud
CLOUD_CHARS = 200


def dropout_cloud(snap) -> None:
    """BPE-dropout (as ``python -m bpeviz encode --dropout``): many cuts of a word or of
    the text, each merge left out at random, and how often each cut came up."""
    st.subheader("BPE-dropout: the segmentation cloud")
    st.caption("BPE-dropout (Provilkov et al., 2020) encodes with each possible merge left "
               "out with probability p at every step, so the same text comes out cut in "
               "different ways (a regularizer in training). Sampling many times shows how "
               "often each cut comes up; the same seed draws the same cloud.")
    cols = st.columns(3)
    samples = cols[0].number_input("Samples", min_value=1, max_value=1000, value=200,
                                   key="dcloud_n")
    p = cols[1].slider("Dropout p (0: every merge applied; 1: no merge)", 0.0, 1.0, 0.1,
                       0.05, key="dcloud_p")
    seed = cols[2].number_input("Seed", min_value=0, max_value=2**31 - 1, value=0,
                                key="dcloud_seed", help="The same seed draws the same samples")
    sampled = cloud_subject(text, "dcloud_of", CLOUD_CHARS,
                            "A word of the text shows few cuts, each often; a long text "
                            "shows many.")
    try:
        cloud = segmentation_cloud(dropout_sampler(snap, float(p)), sampled, int(samples),
                                   int(seed), key=lambda t: t.id)
        plain = [t.id for t in snap.encode(sampled)]
    except ValueError as err:
        ui.error(err)
        return
    shown = min(CLOUD_ROWS, len(cloud))
    st.caption(ui.md_escape(
        f"{len(cloud):,} different cuts in {int(samples):,} samples at p = {float(p):g}, "
        f"seed {int(seed)}, the most frequent first"
        + (f" (the {shown} most frequent drawn)." if len(cloud) > shown else ".")))
    st.html(dropout_cloud_html(cloud, int(samples), plain, training, byte_style, strong))


tokenize()
