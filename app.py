"""bpeviz home: what was trained, the first merges, and where to look next."""

import streamlit as st

from bpeviz import ui
from bpeviz.analysis import views
from bpeviz.analysis.curves import curve_landmarks
from bpeviz.present import figures, glossary, render
from bpeviz.ui.page_setup import own_view

ctx = ui.page("Home")
own_view(ctx, "Home")  # an algorithm with its own view of the page (PickyBPE's steps)
training, byte_style, strong = ctx.training, ctx.byte_style, ctx.presentation
final = ctx.at(len(training.merges))

st.title("bpeviz: watch a tokenizer learn its vocabulary")
st.markdown(
    "BPE, byte-level BPE and WordPiece build a vocabulary by joining, again and again, "
    "the pair of symbols that occurs most often (or scores best). Pick a corpus and "
    "the settings in the sidebar; every page shares them, and the link in your address "
    "bar reopens this exact view."
)
with st.container(border=True):  # the lesson, for newcomers
    st.page_link("pages/0_Learn.py", label="New here? Learn BPE, WordPiece and byte-level "
                 "BPE in seven steps on a tiny corpus", icon="🎓")

summary = views.summary(training)
# on a projector two rows of three, so that every label is read whole ("Chars per token")
per_row = 3 if strong else 6
items = list(summary.items())
for start in range(0, len(items), per_row):
    for col, (name, value) in zip(st.columns(per_row), items[start:start + per_row]):
        col.metric(name.capitalize(),
                   f"{value:,.2f}" if isinstance(value, float) else f"{value:,}")
st.caption(ui.md_escape(
    f"{ui.algorithm_labels()[ctx.algorithm]} on {ctx.corpus_name}. {training.stop_message}"))

left, right = st.columns([3, 2], gap="large")
with left:
    st.subheader("The first merges")
    if training.merges:
        st.html(render.merge_list_html(training.merges[:12], ctx.algorithm, byte_style, strong,
                                       notes=glossary.ChipNotes(training, byte_style)))
    else:
        st.info("No merges were made with these settings.")
    st.page_link("pages/1_Explore.py", label="Step through every merge", icon="🔍")
with right:
    st.subheader("Corpus tokens as the vocabulary grows")
    st.plotly_chart(figures.token_count_figure({"corpus tokens": training.token_counts()},
                                              presentation=strong, landmarks={
                                                  "corpus tokens": curve_landmarks(training)}),
                    config={"displaylogo": False, "typesetMath": False}, key="home_tokens")

st.subheader("Where next")
a, b, c, d = st.columns(4)
with a:
    st.page_link("pages/1_Explore.py", label="Explore", icon="🔍")
    st.caption("A step slider with play: the merge just made, every word's split, and a "
               "heatmap of the pairs competing for the next merge.")
with b:
    st.page_link("pages/2_Tokenize.py", label="Tokenize", icon="✂️")
    st.caption("Type any text and see it cut into coloured tokens at the chosen step.")
with c:
    st.page_link("pages/3_Compare.py", label="Compare", icon="⚖️")
    st.caption("Two or three algorithms or settings side by side on the same corpus.")
with d:
    st.page_link("pages/4_Vocabulary.py", label="Vocabulary", icon="📚")
    st.caption("Every token with its merge tree, charts, and downloads in five formats.")

st.subheader("The corpus after the last merge")
frame = views.words_frame(final).sort_values("count", ascending=False, kind="stable").head(12)
table = [(i, r["word"], r["count"], list(final.splits[r["word"]]), final.split_ids(i), False)
         for i, r in frame.iterrows()]
st.html(render.splits_html(table, byte_style, None, strong,
                           notes=glossary.ChipNotes(training, byte_style)))
st.caption("The most frequent words, split with the final vocabulary.")
